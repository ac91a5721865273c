import Foundation
import Testing

/// Where the tests find their inputs: the package's own fixtures and `TestImages/`, and the public
/// corpus in `../shared/corpus` beside the checkout (override with `TABICONS_CORPUS`).
package enum Fixtures {
    /// The package root, found from this file's path (Tests/TabIconsTestSupport/Fixtures.swift).
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static func fixture(_ path: String) -> URL {
        packageRoot.appendingPathComponent("Tests/TabIconsTestSupport/Fixtures").appendingPathComponent(path)
    }

    package static func testImage(_ name: String) -> URL {
        packageRoot.appendingPathComponent("TestImages").appendingPathComponent(name)
    }

    package static let corpusRoot: URL = {
        if let override = ProcessInfo.processInfo.environment["TABICONS_CORPUS"] {
            return URL(fileURLWithPath: override)
        }
        return packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
    }()

    package static func corpus(_ path: String) -> URL { corpusRoot.appendingPathComponent(path) }

    /// Whether the public corpus is beside the checkout. A clone on its own has only the package's
    /// fixtures: suites that need the corpus are skipped with `needsCorpus`'s message, the rest run.
    package static let hasCorpus: Bool = FileManager.default.fileExists(
        atPath: corpusRoot.appendingPathComponent("PROVENANCE.md").path)

    /// Why a corpus suite was skipped, as Swift Testing prints it.
    package static let needsCorpus: Comment =
        "needs ../shared/corpus (the public test suites beside the checkout; set TABICONS_CORPUS to point elsewhere)"

    package static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    /// The files in a corpus folder (not recursive) whose names end with one of `extensions`, sorted.
    package static func corpusFiles(_ folder: String, extensions: [String]) throws -> [URL] {
        let dir = corpus(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        return names.sorted()
            .filter { name in extensions.contains { name.lowercased().hasSuffix("." + $0) } }
            .map { dir.appendingPathComponent($0) }
    }
}
