import Foundation
import Testing
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// The res/ an android run writes, as Android's own tools read it: `aapt2 compile --dir res`
/// (which skips, without a word, any folder below res/ that is not a resource type: the mirrored
/// `res/icons/drawable-mdpi/` compiled to nothing) and `aapt2 link` against the framework.
/// Debian's `aapt` and `android-framework-res` (`scripts/install-deps.sh --test-tools`); skipped
/// when they are absent.
@Suite(
    "android resources through aapt2",
    .enabled(
        if: AndroidTools.isInstalled,
        "needs aapt2 and framework-res.apk (Debian: apt-get install aapt android-framework-res)"))
struct AndroidResourceTests {
    @Test("a nested folder's icons, written to res/, compile to one resource each and link")
    func compilesAndLinks() throws {
        let dir = try TemporaryDirectory("android-in")
        for (source, path) in [
            ("bell.png", "icons/bell.png"), ("home.png", "icons/tabs/home.png"),
            ("heart.png", "icons/more/home.png")
        ] {
            try BuildStep.put(source, at: path, in: dir)
        }
        let work = try TemporaryDirectory("android-res")
        #expect(
            BuildStep.cli([
                "--layout", "android", "--format", "webp", dir.path("icons"), "-o", work.path("res"),
                "--manifest", work.path("tabicons.json")
            ]) == .success)
        let written = try BuildStep.manifest(work.path("tabicons.json")).icons.flatMap(\.ownedFiles).map(\.path)
        #expect(written.count == 15)

        // Every icon a drawable at every density (a folder compile skipped would leave it out).
        let dump = try AndroidTools.linkedResources(work.path("res"), in: work)
        let resources = dump.output.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return words.first == "resource" && words.count >= 3 ? String(words[2]) : nil
        }
        #expect(resources.sorted() == ["drawable/bell", "drawable/home", "drawable/home_png"])
        #expect(dump.output.components(separatedBy: "(file) res/drawable-").count - 1 == 15)
    }
}
