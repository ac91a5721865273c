import TabIconsBatch
import TabIconsCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

ProcessMemory.returnLargeBuffersToTheSystem()
exit(TabIconCommand.main(Array(CommandLine.arguments.dropFirst())))
