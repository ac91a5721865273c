import Foundation
import Testing
@testable import TabIconsBatch

/// `selectedTwin` / `darkTwin` in the manifest (SPEC §6): `IconTwins`' rule, the one the preview
/// pairs its tabs by.
@Suite("twin links")
struct TwinLinkTests {
    typealias B = BuildStep

    @Test("the rule: selected and dark suffixes, longest first, a bare suffix no twin")
    func rule() {
        #expect(IconTwins.base(of: "home-filled")! == ("home", .selected))
        #expect(IconTwins.base(of: "home.fill")! == ("home", .selected))
        #expect(IconTwins.base(of: "home-dark")! == ("home", .dark))
        #expect(IconTwins.base(of: "home.dark")! == ("home", .dark))
        #expect(IconTwins.base(of: "home-filled-dark")! == ("home-filled", .dark))
        #expect(IconTwins.base(of: "-dark") == nil && IconTwins.base(of: "home") == nil)
    }

    @Test("a run links each icon to its selected and dark twins in the same folder, and only there")
    func manifestLinks() throws {
        let dir = try TemporaryDirectory("build-in")
        for (source, path) in [
            ("home.png", "icons/home.png"), ("home-filled.png", "icons/home-filled.png"),
            ("bell.png", "icons/home-dark.png"), ("heart.png", "icons/more/heart.png"),
            ("bell-filled.webp", "icons/heart-filled.webp"), ("profile.png", "icons/profile.png")
        ] {
            try B.put(source, at: path, in: dir)
        }
        let out = try TemporaryDirectory("out")
        #expect(B.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        let root = dir.path("icons") + "/"
        let icons = Dictionary(
            uniqueKeysWithValues: try B.manifest(out.path("manifest.json")).icons.map {
                (String($0.input.dropFirst(root.count)), $0)
            })
        #expect(icons["home.png"]?.selectedTwin == root + "home-filled.png")
        #expect(icons["home.png"]?.darkTwin == root + "home-dark.png")
        #expect(icons["home-filled.png"]?.selectedTwin == nil && icons["home-dark.png"]?.darkTwin == nil)
        // heart-filled.webp is in icons/, heart.png in icons/more/: not twins.
        #expect(icons["more/heart.png"]?.selectedTwin == nil)
        #expect(icons["profile.png"]?.selectedTwin == nil && icons["profile.png"]?.darkTwin == nil)
        // The links survive a rerun that carries every icon over.
        #expect(B.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        let again = try B.manifest(out.path("manifest.json")).icons.first { $0.input == root + "home.png" }
        #expect(again?.darkTwin == root + "home-dark.png")
    }
}
