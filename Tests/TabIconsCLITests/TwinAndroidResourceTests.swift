import Foundation
import Testing
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// Twins on Android as Android's own tools read them (as `AndroidResourceTests` does: Debian's
/// `aapt2` and `android-framework-res`; skipped without them): the night folders and the state
/// list compile and link, and every drawable the state list names is a resource of the package.
@Suite(
    "android twins through aapt2",
    .enabled(
        if: AndroidTools.isInstalled,
        "needs aapt2 and framework-res.apk (Debian: apt-get install aapt android-framework-res)"))
struct TwinAndroidResourceTests {
    @Test("night drawables and a state list compile, link, and name resources that exist")
    func compilesAndLinks() throws {
        let dir = try TemporaryDirectory("android-in")
        for (source, path) in [
            ("home.png", "icons/home.png"), ("home-filled.png", "icons/home-filled.png"),
            ("bell.png", "icons/home-dark.png"), ("heart.png", "icons/tabs/search.png"),
            ("search-filled.png", "icons/tabs/search.fill.png"), ("profile.png", "icons/tabs/search.dark.png")
        ] {
            try BuildStep.put(source, at: path, in: dir)
        }
        let work = try TemporaryDirectory("android-res")
        #expect(
            BuildStep.cli([
                "--layout", "android", dir.path("icons"), "-o", work.path("res"),
                "--manifest", work.path("tabicons.json")
            ]) == .success)

        // aapt2 link fails on a state list that names a drawable the package does not have.
        let dump = try AndroidTools.linkedResources(work.path("res"), in: work)
        var configs: [String: [String]] = [:]
        var names: [String: String] = [:]  // resource id → name
        var current = ""
        for line in dump.output.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.first == "resource", words.count >= 3 {
                current = String(words[2])
                names[String(words[1])] = current
                continue
            }
            if let config = words.first, config.hasPrefix("("), !current.isEmpty {
                configs[current, default: []].append(String(config))
            }
        }
        // The dark twins are no resources of their own: night configurations of their icon's.
        #expect(
            configs.keys.sorted() == [
                "drawable/home", "drawable/home_filled", "drawable/home_selector",
                "drawable/search", "drawable/search_fill", "drawable/search_selector"
            ])
        for night in ["drawable/home", "drawable/search"] {
            let densities = ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"]
            #expect(
                Set(configs[night] ?? []) == Set(densities.map { "(\($0)-v4)" } + densities.map { "(night-\($0)-v8)" }),
                "\(night)")
        }
        for selected in ["drawable/home_filled", "drawable/search_fill"] {
            #expect(configs[selected]?.contains { $0.contains("night") } == false)
        }
        // The compiled state list says what the written one says: checked → the twin, by resource id.
        // (aapt2 keeps the attributes in the copy it versions, drawable-v1.)
        let xml = try AndroidTools.aapt2([
            "dump", "xmltree", "--file", "res/drawable-v1/search_selector.xml", work.path("icons.apk")
        ])
        #expect(xml.status == 0, "\(xml.output)")
        let references = xml.output.split(separator: "\n").filter { $0.contains(":drawable(") }
            .compactMap { $0.split(separator: "=@").last.map { names[String($0)] } }
        #expect(references == ["drawable/search_fill", "drawable/search"])
        #expect(xml.output.contains(":state_checked(0x010100a0)=true"))
        let parsed = try StateList(Data(contentsOf: URL(fileURLWithPath: work.path("res/drawable/search_selector.xml"))))
        #expect(parsed.items.map { $0["android:drawable"] } == ["@drawable/search_fill", "@drawable/search"])
    }
}
