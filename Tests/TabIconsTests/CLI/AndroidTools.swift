import Foundation
import Testing

/// aapt2 and Android's framework resources, for the tests that read what an android run wrote as
/// Android's build does: Debian's `aapt` and `android-framework-res` (`scripts/install-deps.sh
/// --test-tools` installs them when missing); those tests skip with a message without them.
enum AndroidTools {
    static let framework = "/usr/share/android-framework-res/framework-res.apk"

    static let aapt2Path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return folders.map { "\($0)/aapt2" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isInstalled: Bool { aapt2Path != nil && FileManager.default.fileExists(atPath: framework) }

    /// Runs aapt2; its status and what it printed (stdout and stderr together).
    static func aapt2(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(aapt2Path))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
