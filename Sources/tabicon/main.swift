import TabIconsCLI
#if canImport(Glibc)
import Glibc
#endif

exit(TabIconCommand.main(Array(CommandLine.arguments.dropFirst())))
