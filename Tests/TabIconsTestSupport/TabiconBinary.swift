import Foundation

/// The `tabicon` executable of this build: beside the test bundle, or in `.build/debug`.
package enum TabiconBinary {
    package static let url: URL? = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tabicon")
        let fallback = Fixtures.packageRoot.appendingPathComponent(".build/debug/tabicon")
        return [beside, fallback].first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}
