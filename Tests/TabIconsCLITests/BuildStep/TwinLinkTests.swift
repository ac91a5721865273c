import Foundation
import Testing
import TabIconsBatch
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// `selectedTwin` / `darkTwin` in the manifest (SPEC §6): `IconTwins`' rule, the one the preview
/// pairs its tabs by.
@Suite("twin links")
struct TwinLinkTests {
    @Test("the rule: selected and dark suffixes, longest first, a bare suffix no twin")
    func rule() {
        #expect(IconTwins.base(of: "home-filled")! == ("home", .selected))
        #expect(IconTwins.base(of: "home.fill")! == ("home", .selected))
        #expect(IconTwins.base(of: "home-dark")! == ("home", .dark))
        #expect(IconTwins.base(of: "home.dark")! == ("home", .dark))
        #expect(IconTwins.base(of: "home-filled-dark")! == ("home-filled", .dark))
        #expect(IconTwins.base(of: "-dark") == nil && IconTwins.base(of: "home") == nil)
    }

    @Test("links pair by folder as deletingLastPathComponent spells it, whatever order the folders come in")
    func linksByFolder() {
        let inputs = [
            "a/home.svg", "b/home.svg", "a/home-dark.svg", "b/x/home-filled.svg", "b/home-filled.svg",
            "home.svg", "home-dark.svg", "a//c/home.svg", "a/c/home-dark.svg", "a//c/home-filled.svg",
            "/abs/home.svg", "/home-dark.svg", "/abs/home-dark.svg", "d/home.svg/", "d/home-dark.svg/",
            "a/home.svg", "a/home-filled.svg", "./e/home.svg", "e/home-dark.svg", "./e/home-filled.svg"
        ]
        let entries = inputs.map { (input: $0, name: ((($0 as NSString).lastPathComponent) as NSString).deletingPathExtension) }
        // The rule spelled out: the first entry of the same folder (deletingLastPathComponent) and name.
        func reference() -> [(selected: Int?, dark: Int?)] {
            func key(_ index: Int) -> String { (entries[index].input as NSString).deletingLastPathComponent }
            var links = [(selected: Int?, dark: Int?)](repeating: (nil, nil), count: entries.count)
            for index in entries.indices {
                guard let base = IconTwins.base(of: entries[index].name),
                    let plain = entries.indices.first(where: { key($0) == key(index) && entries[$0].name == base.name }),
                    plain != index
                else { continue }
                if base.kind == .selected, links[plain].selected == nil { links[plain].selected = index }
                if base.kind == .dark, links[plain].dark == nil { links[plain].dark = index }
            }
            for dark in links.compactMap(\.dark) { links[dark] = (nil, nil) }
            return links
        }
        let found = IconTwins.links(entries)
        let expected = reference()
        #expect(found.map(\.selected) == expected.map(\.selected) && found.map(\.dark) == expected.map(\.dark))
        // The cases spelled out: twins in the same folder only, the first of a name the icon.
        #expect(found[0].dark == 2 && found[0].selected == 16 && found[1].selected == 4 && found[1].dark == nil)
        #expect(found[5].dark == 6 && found[10].dark == 12 && found[15] == (nil, nil))
        #expect(found[13].dark == 14)
        // The folder as Foundation spells it, on these and on paths at the edges.
        for input in inputs + ["/", "//", "/a", "a/b//", "é/ü.svg", "./x", "../y/z.png"] {
            #expect(IconTwins.folder(of: input) == (input as NSString).deletingLastPathComponent, "\(input)")
        }
    }

    @Test("a run links each icon to its selected and dark twins in the same folder, and only there")
    func manifestLinks() throws {
        let dir = try TemporaryDirectory("build-in")
        for (source, path) in [
            ("home.png", "icons/home.png"), ("home-filled.png", "icons/home-filled.png"),
            ("bell.png", "icons/home-dark.png"), ("heart.png", "icons/more/heart.png"),
            ("bell-filled.webp", "icons/heart-filled.webp"), ("profile.png", "icons/profile.png")
        ] {
            try BuildStep.put(source, at: path, in: dir)
        }
        let out = try TemporaryDirectory("out")
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        let root = dir.path("icons") + "/"
        let icons = Dictionary(
            uniqueKeysWithValues: try BuildStep.manifest(out.path("manifest.json")).icons.map {
                (String($0.input.dropFirst(root.count)), $0)
            })
        #expect(icons["home.png"]?.selectedTwin == root + "home-filled.png")
        #expect(icons["home.png"]?.darkTwin == root + "home-dark.png")
        #expect(icons["home-filled.png"]?.selectedTwin == nil && icons["home-dark.png"]?.darkTwin == nil)
        // heart-filled.webp is in icons/, heart.png in icons/more/: not twins.
        #expect(icons["more/heart.png"]?.selectedTwin == nil)
        #expect(icons["profile.png"]?.selectedTwin == nil && icons["profile.png"]?.darkTwin == nil)
        // The links survive a rerun that carries every icon over.
        #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
        let again = try BuildStep.manifest(out.path("manifest.json")).icons.first { $0.input == root + "home.png" }
        #expect(again?.darkTwin == root + "home-dark.png")
    }
}
