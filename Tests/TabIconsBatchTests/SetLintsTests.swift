import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch

/// The set's lints (SPEC §3a) over rows whose measures are given: each is raised on exactly the
/// icon that differs, from three icons up, twins judged against their icon for size only.
@Suite("the set's lints")
struct SetLintsTests {
    static func row(
        _ name: String, weight: Double = 2, size: Double = 16, centre: [Double] = [0, 0], bounds: [Double] = [0, 0]
    ) -> Manifest.Icon {
        var icon = Manifest.Icon(
            input: "icons/\(name).png", name: name, format: .png, pixelWidth: 96, pixelHeight: 96, orientation: .up,
            hasAlpha: true, animated: false, vector: false, contentHash: ContentHash(of: Array(name.utf8)), decodeScale: 3.84,
            pointWidth: 25, pointHeight: 25, intent: .template, renditions: [], lints: [])
        icon.measures = IconMeasures(strokeWeight: weight, opticalSize: size, centre: centre, boundsCentre: bounds, coverage: 0.2)
        return icon
    }

    static func linted(_ icons: [Manifest.Icon], _ thresholds: SetLints.Thresholds = .init()) -> [String: [Lint.Code]] {
        var icons = icons
        SetLints.apply(&icons, thresholds: thresholds)
        return Dictionary(uniqueKeysWithValues: icons.map { ($0.name, $0.lints.map(\.code)) })
    }

    @Test("a stroke 15% heavier, and only it")
    func stroke() {
        let lints = Self.linted([
            Self.row("a"), Self.row("b", weight: 2.1), Self.row("c", weight: 2.4), Self.row("d", weight: 1.95)
        ])
        #expect(lints == ["a": [], "b": [], "c": [.strokeMismatch], "d": []])
        // 14% is within.
        #expect(Self.linted([Self.row("a"), Self.row("b"), Self.row("c", weight: 2.28)])["c"] == [])
    }

    @Test("an optical size 1 pt off, and only it")
    func size() {
        let lints = Self.linted([Self.row("a"), Self.row("b", size: 16.5), Self.row("c", size: 15), Self.row("d", size: 16.2)])
        #expect(lints == ["a": [], "b": [], "c": [.opticalSizeMismatch], "d": []])
    }

    @Test("off-centre: bounds and weight off the same way; not a glyph centred by eye")
    func offCentre() {
        let lints = Self.linted([
            Self.row("moved", centre: [0.6, 1.5], bounds: [0.5, 0]),  // moved right by 0.5 pt
            Self.row("play", centre: [0.05, 0], bounds: [1.2, 0]),  // moved right so its weight is centred
            Self.row("person", centre: [0, 2], bounds: [0, 0]),  // weight low, bounds centred: as drawn
            Self.row("up", centre: [0, -0.8], bounds: [0, -0.5])
        ])
        #expect(lints == ["moved": [.offCentre], "play": [], "person": [], "up": [.offCentre]])
    }

    @Test("two icons are no set; a selected twin may be heavier, but not larger")
    func smallSetsAndTwins() {
        #expect(Self.linted([Self.row("a"), Self.row("b", weight: 4, size: 20, centre: [2, 2], bounds: [2, 2])])["b"] == [])
        var home = Self.row("home")
        home.selectedTwin = "icons/home-filled.png"
        home.darkTwin = "icons/home-dark.png"
        let lints = Self.linted([
            home, Self.row("home-filled", weight: 6, size: 17.5), Self.row("home-dark", weight: 2, size: 16.4),
            Self.row("bell"), Self.row("star")
        ])
        #expect(lints == ["home": [], "home-filled": [.opticalSizeMismatch], "home-dark": [], "bell": [], "star": []])
    }

    @Test("made again each run: a row's old set lints are dropped, not doubled")
    func again() {
        var icons = [Self.row("a"), Self.row("b"), Self.row("c", weight: 3)]
        SetLints.apply(&icons)
        SetLints.apply(&icons)
        #expect(icons[2].lints.map(\.code) == [.strokeMismatch])
        icons[2].measures?.strokeWeight = 2
        SetLints.apply(&icons)
        #expect(icons[2].lints.isEmpty)
    }

    @Test("a full-colour icon (a photo, a logo) is no glyph: not in the set, not linted")
    func colourIsNoGlyph() {
        var photo = Self.row("avatar", weight: 9, size: 24, centre: [3, 3], bounds: [3, 3])
        photo.intent = .original
        let lints = Self.linted([Self.row("a"), Self.row("b"), Self.row("c", weight: 2.05), photo])
        #expect(lints == ["a": [], "b": [], "c": [], "avatar": []])
        // Two glyphs and a photo are no set.
        #expect(Self.linted([Self.row("a"), Self.row("b", weight: 4), photo])["b"] == [])
    }

    @Test("the config's thresholds: each lint at its own, and only the icon past it")
    func thresholds() {
        var loose = SetLints.Thresholds()
        loose.strokeMismatch = 0.25
        loose.opticalSizeMismatch = 2
        loose.offCentre = 1
        let icons = [
            Self.row("a"), Self.row("b"), Self.row("heavier", weight: 2.4), Self.row("heaviest", weight: 2.6),
            Self.row("smaller", size: 14.5), Self.row("smallest", size: 13.9),
            Self.row("moved", centre: [0.7, 0], bounds: [0.7, 0]), Self.row("moved-more", centre: [1.1, 0], bounds: [1.0, 0])
        ]
        #expect(
            Self.linted(icons, loose) == [
                "a": [], "b": [], "heavier": [], "heaviest": [.strokeMismatch], "smaller": [], "smallest": [.opticalSizeMismatch],
                "moved": [], "moved-more": [.offCentre]
            ])
        #expect(
            Self.linted(icons) == [
                "a": [], "b": [], "heavier": [.strokeMismatch], "heaviest": [.strokeMismatch], "smaller": [.opticalSizeMismatch],
                "smallest": [.opticalSizeMismatch], "moved": [.offCentre], "moved-more": [.offCentre]
            ])
    }

    @Test("config sets: each judged against its own median; a set under three is not judged")
    func sets() {
        func row(_ name: String, _ set: String?, weight: Double = 2, size: Double = 16) -> Manifest.Icon {
            var icon = Self.row(name, weight: weight, size: size)
            icon.set = set
            return icon
        }
        // Bold at 3 pt is its own set: nothing off; one bold icon at 2 pt is off in it.
        let icons = [
            row("a", nil), row("b", nil), row("c", nil), row("d", nil, size: 18),
            row("bold-a", "bold", weight: 3), row("bold-b", "bold", weight: 3), row("bold-c", "bold", weight: 2),
            row("pair-a", "pair", weight: 9, size: 24), row("pair-b", "pair", weight: 1, size: 4)
        ]
        #expect(
            Self.linted(icons) == [
                "a": [], "b": [], "c": [], "d": [.opticalSizeMismatch], "bold-a": [], "bold-b": [], "bold-c": [.strokeMismatch],
                "pair-a": [], "pair-b": []
            ])
        var named = icons
        SetLints.apply(&named)
        #expect(
            named[6].lints.first?.message
                == #"stroke weight 2 pt, 67% of set "bold"'s median 3 pt; --stroke-width 3 redraws an SVG's strokes at it"#)
        // Without sets, the nine are one set (median weight 2): the bold ones are off.
        let one = icons.map {
            var icon = $0; icon.set = nil; return icon
        }
        #expect(Self.linted(one)["bold-a"] == [.strokeMismatch])
    }
}
