import Foundation

/// The program's entry point hands control to libFuzzer's driver.
///
/// SwiftPM links every executable target with its own `main` (it renames the module's entry
/// point and aliases `main` to it), so libFuzzer's `main` never gets linked; instead the Swift
/// `main` calls `LLVMFuzzerRunDriver`, libFuzzer's documented entry for programs that own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
enum FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
        exit(status)
    }
}
