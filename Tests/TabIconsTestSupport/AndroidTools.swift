import Foundation
import Testing

/// aapt2 and Android's framework resources, for the tests that read what an android run wrote as
/// Android's build does: Debian's `aapt` and `android-framework-res` (`scripts/install-deps.sh
/// --test-tools` installs them when missing); those tests skip with a message without them.
package enum AndroidTools {
    package static let framework = "/usr/share/android-framework-res/framework-res.apk"

    package static let aapt2Path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        return folders.map { "\($0)/aapt2" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    package static var isInstalled: Bool { aapt2Path != nil && FileManager.default.fileExists(atPath: framework) }

    /// Runs aapt2; its status and what it printed (stdout and stderr together).
    package static func aapt2(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(aapt2Path))
        process.arguments = arguments
        return try process.statusAndOutput()
    }

    /// What Android's build does with a `res/` folder: `aapt2 compile` it, `aapt2 link` it against
    /// the framework with a minimal manifest (files written into `work`), and the linked package's
    /// resources as `aapt2 dump resources` lists them. A compile or link that fails is an issue
    /// with aapt2's own output (a link fails, for one, on a reference to a missing drawable).
    package static func linkedResources(_ res: String, in work: TemporaryDirectory) throws -> (status: Int32, output: String) {
        let compile = try aapt2(["compile", "--dir", res, "-o", work.path("r.zip")])
        #expect(compile.status == 0, "\(compile.output)")
        try Data(
            "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"com.example.tabicons\"/>\n".utf8
        )
        .write(to: work.url.appendingPathComponent("AndroidManifest.xml"))
        let link = try aapt2([
            "link", "-I", framework, "--manifest", work.path("AndroidManifest.xml"), "-o", work.path("icons.apk"),
            work.path("r.zip")
        ])
        #expect(link.status == 0, "\(link.output)")
        return try aapt2(["dump", "resources", work.path("icons.apk")])
    }
}
