import Foundation
import Testing
import TabIcons
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// Measures and the set's lints through `tabicon normalize` (SPEC §3a): icons drawn here with known
/// strokes and sizes, one changed at a time.
@Suite("a set's measures and lints, end to end")
struct SetMeasuresTests {
    /// A 24-unit icon (Lucide's grid: 24 × 24, stroke 2) of `shape`, stroked `width`, moved by `dx`.
    static func svg(_ shape: String, width: Double = 2, dx: Double = 0) -> String {
        let body =
            switch shape {
            case "ring": #"<circle cx="12" cy="12" r="9"/>"#
            case "ring-dot": #"<circle cx="12" cy="12" r="9"/><path d="M12 8 V12 L15 14"/>"#
            case "square": #"<rect x="4" y="4" width="16" height="16" rx="2"/>"#
            default: #"<rect x="4" y="4" width="16" height="16" rx="2"/><path d="M8 12 H16"/>"#
            }
        return #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="black" "#
            + #"stroke-width="\#(width)" stroke-linecap="round" stroke-linejoin="round"><g transform="translate(\#(dx) 0)">"#
            + body + "</g></svg>"
    }

    static func lints(_ icons: [(String, String)], config: String? = nil, options: [String] = []) throws -> [String: [String]] {
        let dir = try TemporaryDirectory("set-lints")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        for (name, text) in icons { try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path("icons/\(name).svg"))) }
        var words = ["normalize", "-q"] + options + ["-o", dir.path("out"), dir.path("icons")]
        if let config {
            try Data(config.utf8).write(to: URL(fileURLWithPath: dir.path("config.json")))
            words += ["--config", dir.path("config.json")]
        }
        #expect(SilentCLI.run(words) == .success)
        let manifest = try BuildStep.manifest(dir.path("out/manifest.json"))
        let set = Set(SetLints.codes.map(\.rawValue))
        return Dictionary(
            uniqueKeysWithValues: manifest.icons.map { ($0.name, $0.lints.map(\.code.rawValue).filter(set.contains)) })
    }

    /// Circles and rounded squares whose hulls have near equal areas, strokes included (a disc of
    /// radius 10: 314 units²; a square of 18 with corners of radius 3: 324 − 7.7 = 316).
    static let shapes = ["ring", "ring-dot", "square", "square-line"]

    @Test("a homogeneous set: no set lint")
    func homogeneous() throws {
        let icons = Self.shapes.map { ($0, Self.svg($0)) }
        let lints = try Self.lints(icons)
        #expect(lints.values.allSatisfy { $0.isEmpty }, "\(lints)")
    }

    @Test("one icon's stroke 25% heavier: stroke-mismatch on it alone")
    func heavier() throws {
        let icons = Self.shapes.map { ($0, Self.svg($0, width: $0 == "square" ? 2.5 : 2)) }
        let lints = try Self.lints(icons)
        #expect(lints == ["ring": [], "ring-dot": [], "square": ["stroke-mismatch"], "square-line": []])
    }

    @Test("one icon moved 1 unit right in its artboard: off-centre on it alone")
    func moved() throws {
        let icons = Self.shapes.map { ($0, Self.svg($0, dx: $0 == "ring" ? 1 : 0)) }
        let lints = try Self.lints(icons)
        #expect(lints == ["ring": ["off-centre"], "ring-dot": [], "square": [], "square-line": []])
        // --centre optical moves it back (1 unit is 1.04 pt: 1 pt of it), on the command line or in the config.
        #expect(try Self.lints(icons, options: ["--centre", "optical"]).values.allSatisfy { $0.isEmpty })
        let config = #"{"icons": [{"match": "**/ring.svg", "centre": "optical"}]}"#
        #expect(try Self.lints(icons, config: config).values.allSatisfy { $0.isEmpty })
    }

    @Test("the config's sets and thresholds: a bold family is its own set; a looser threshold lets 25% pass")
    func configSets() throws {
        let icons =
            Self.shapes.map { ($0, Self.svg($0)) } + Self.shapes.dropFirst().map { ("bold-" + $0, Self.svg($0, width: 3)) }
        let plain = try Self.lints(icons)
        #expect(
            plain.filter { !$0.value.isEmpty }.keys.sorted() == ["bold-ring-dot", "bold-square", "bold-square-line"], "\(plain)")
        let grouped = try Self.lints(icons, config: #"{"icons": [{"match": "**/bold-*", "set": "bold"}]}"#)
        #expect(grouped.values.allSatisfy { $0.isEmpty }, "\(grouped)")
        // One 2.5-unit stroke among 2-unit ones: off at 15%, within at 30%.
        let heavier = Self.shapes.map { ($0, Self.svg($0, width: $0 == "square" ? 2.5 : 2)) }
        #expect(try Self.lints(heavier, config: #"{"lints": {"strokeMismatch": 0.3}}"#)["square"] == [])
    }

    @Test("a row records its set; a rerun with another config carries the icons over and lints by the new sets")
    func setsOnRerun() throws {
        let dir = try TemporaryDirectory("set-rerun")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        let icons =
            Self.shapes.map { ($0, Self.svg($0)) } + Self.shapes.dropFirst().map { ("bold-" + $0, Self.svg($0, width: 3)) }
        for (name, text) in icons { try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path("icons/\(name).svg"))) }
        try Data(#"{"icons": [{"match": "**/bold-*", "set": "bold"}]}"#.utf8).write(
            to: URL(fileURLWithPath: dir.path("sets.json")))
        try Data(#"{}"#.utf8).write(to: URL(fileURLWithPath: dir.path("none.json")))
        let run = { (config: String) in
            SilentCLI.run(["normalize", "-q", "--config", dir.path(config), "-o", dir.path("out"), dir.path("icons")])
        }
        #expect(run("sets.json") == .success)
        var manifest = try BuildStep.manifest(dir.path("out/manifest.json"))
        #expect(manifest.icons.allSatisfy { $0.set == ($0.name.hasPrefix("bold-") ? "bold" : nil) })
        #expect(manifest.icons.allSatisfy { $0.lints.isEmpty })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/manifest.json")))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""set": "bold""#))
        let stamps = BuildStep.stamps(dir)
        #expect(run("none.json") == .success)
        manifest = try BuildStep.manifest(dir.path("out/manifest.json"))
        #expect(manifest.icons.allSatisfy { $0.set == nil })
        #expect(
            manifest.icons.filter { !$0.lints.isEmpty }.map(\.name).sorted() == [
                "bold-ring-dot", "bold-square", "bold-square-line"
            ])
        // Carried over: no icon file rewritten.
        #expect(BuildStep.stamps(dir).filter { $0.key.hasSuffix(".png") } == stamps.filter { $0.key.hasSuffix(".png") })
        #expect(run("sets.json") == .success)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("out/manifest.json"))) == bytes)
    }

    @Test("--stroke-width through the built tabicon (its workers): the set evened out, a rerun with another width redoes it")
    func strokeWidth() throws {
        let dir = try TemporaryDirectory("stroke-width")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        // Three families: 2 units of 24, 1.5 units of 24 and 3 units of 48 (1.56 pt at 25 pt).
        let icons = [
            ("ring", Self.svg("ring")), ("square", Self.svg("square", width: 1.5)), ("ring-dot", Self.svg("ring-dot", width: 2.5))
        ]
        for (name, text) in icons { try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path("icons/\(name).svg"))) }
        func normalize(_ extra: [String]) throws -> Manifest {
            let run = try OutputHygieneTests.run(["normalize", "-q"] + extra + ["-o", dir.path("out"), dir.path("icons")])
            #expect(run.status == 0, "\(run.err)")
            return try BuildStep.manifest(dir.path("out/manifest.json"))
        }
        let before = try normalize([])
        #expect(before.icons.flatMap(\.lints).filter { $0.code == .strokeMismatch }.count == 2)
        let evened = try normalize(["--stroke-width", "1.5"])
        for icon in evened.icons {
            let weight = try #require(icon.measures?.strokeWeight)
            #expect(abs(weight - 1.5) <= 0.1, "\(icon.name): \(weight)")
            #expect(icon.lints.isEmpty, "\(icon.lints)")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/manifest.json")))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""strokeWidth": 1.5"#))
        // The same width again: carried over, the manifest as it was.
        _ = try normalize(["--stroke-width", "1.5"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("out/manifest.json"))) == bytes)
        // Another: every icon redone at it.
        let heavier = try normalize(["--stroke-width", "2"])
        #expect(heavier.icons.allSatisfy { abs(($0.measures?.strokeWeight ?? 0) - 2) <= 0.1 }, "\(heavier.icons.map(\.measures))")
        #expect(zip(heavier.icons, evened.icons).allSatisfy { $0.renditions != $1.renditions })
        // Per icon in the config: only the matched icon is redrawn.
        try Data(#"{"icons": [{"match": "**/square.svg", "stroke-width": 2.5}]}"#.utf8).write(
            to: URL(fileURLWithPath: dir.path("c.json")))
        let one = try normalize(["--config", dir.path("c.json")])
        let weights = Dictionary(uniqueKeysWithValues: one.icons.map { ($0.name, $0.measures?.strokeWeight ?? 0) })
        #expect(abs(weights["square"]! - 2.5) <= 0.1 && abs(weights["ring"]! - 2 * 25 / 24) <= 0.1, "\(weights)")
    }

    @Test("--fit optical: the set's glyphs scaled to its median optical size, the same for any --jobs, carried over on a rerun")
    func fitOptical() throws {
        let dir = try TemporaryDirectory("fit-optical")
        try FileManager.default.createDirectory(atPath: dir.path("icons"), withIntermediateDirectories: true)
        func svg(_ body: String) -> String {
            #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="black" "#
                + #"stroke-width="2">"# + body + "</svg>"
        }
        // Three drawn small in their artboards, two large: the large ones are shrunk to the small ones' size.
        let icons = [
            ("a-ring", svg(#"<circle cx="12" cy="12" r="7"/>"#)),
            ("b-square", svg(#"<rect x="6" y="6" width="12" height="12"/>"#)),
            ("c-dot", svg(#"<circle cx="12" cy="12" r="7"/><path d="M12 9 V12"/>"#)),
            ("d-big-ring", svg(#"<circle cx="12" cy="12" r="10"/>"#)),
            ("e-big-square", svg(#"<rect x="2" y="2" width="20" height="20"/>"#))
        ]
        for (name, text) in icons { try Data(text.utf8).write(to: URL(fileURLWithPath: dir.path("icons/\(name).svg"))) }
        func normalize(_ extra: [String], out: String = "out") throws -> Manifest {
            let run = try OutputHygieneTests.run(["normalize", "-q"] + extra + ["-o", dir.path(out), dir.path("icons")])
            #expect(run.status == 0, "\(run.err)")
            return try BuildStep.manifest(dir.path("\(out)/manifest.json"))
        }
        let plain = try normalize([])
        let flagged = plain.icons.filter { $0.lints.contains { $0.code == .opticalSizeMismatch } }.map(\.name)
        #expect(flagged == ["d-big-ring", "e-big-square"])
        let median = SetLints.median(plain.icons.compactMap { $0.measures?.opticalSize })
        let fitted = try normalize(["--fit", "optical"])
        for icon in fitted.icons {
            let size = try #require(icon.measures?.opticalSize)
            // At the median, or smaller and as the rule placed it (its artboard already fills the box: no room to grow).
            #expect(
                abs(size - median) <= 0.15 || (size < median && icon.decodeScale == 0.96), "\(icon.name): \(size) for \(median)")
            #expect(!icon.lints.contains { $0.code == .opticalSizeMismatch }, "\(icon.name): \(icon.lints)")
        }
        // Scaled down, their strokes are thinner: --stroke-width evens that out too, and the set reads as one.
        #expect(fitted.icons.filter { !$0.lints.isEmpty }.map(\.name) == ["d-big-ring", "e-big-square"])
        let both = try normalize(["--fit", "optical", "--stroke-width", "2"], out: "both")
        #expect(both.icons.allSatisfy { $0.lints.isEmpty }, "\(both.icons.map(\.lints))")
        #expect(both.icons.allSatisfy { abs(($0.measures?.strokeWeight ?? 0) - 2) <= 0.1 })
        // The large ones were scaled down: their decode scale says so; the point size stays the box.
        #expect(fitted.icons.filter { $0.decodeScale > 0.96 + 0.01 }.map(\.name).sorted() == ["d-big-ring", "e-big-square"])
        #expect(fitted.icons.allSatisfy { $0.pointWidth == 25 && $0.pointHeight == 25 })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir.path("out/manifest.json")))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""fit": "optical""#))
        _ = try normalize(["--fit", "optical"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("out/manifest.json"))) == bytes)
        _ = try normalize(["--fit", "optical", "--jobs", "1"], out: "one")
        _ = try normalize(["--fit", "optical", "--jobs", "3"], out: "three")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: dir.path("one/manifest.json")))
                == Data(contentsOf: URL(fileURLWithPath: dir.path("three/manifest.json"))))
        // render makes each input alone: the set's size is not to be known there.
        let render = try OutputHygieneTests.run(["render", "--fit", "optical", "-o", dir.path("r"), dir.path("icons")])
        #expect(render.status == 2 && render.err.contains("--fit optical needs the set's other icons"), "\(render.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("r")))
    }

    @Test("the same drawing from PNG sources of four sizes: the same measures within 0.1 pt")
    func sourceSizes() throws {
        let dir = try TemporaryDirectory("set-sizes")
        try Data(Self.svg("ring").utf8).write(to: URL(fileURLWithPath: dir.path("ring.svg")))
        var measures: [IconMeasures] = []
        for side in [48, 96, 150, 300] {
            // The ring drawn as a PNG of `side` pixels (the SVG normalized into a box of that size at 1×).
            #expect(
                SilentCLI.run([
                    "normalize", "-q", "--box", "\(side)", "--scales", "1", "-o", dir.path("png\(side)"), dir.path("ring.svg")
                ]) == .success)
            #expect(SilentCLI.run(["normalize", "-q", "-o", dir.path("out\(side)"), dir.path("png\(side)/ring.png")]) == .success)
            let manifest = try BuildStep.manifest(dir.path("out\(side)/manifest.json"))
            measures.append(try #require(manifest.icons.first?.measures))
        }
        for m in measures {
            #expect(abs(m.strokeWeight - measures[0].strokeWeight) <= 0.1, "\(measures)")
            #expect(abs(m.opticalSize - measures[0].opticalSize) <= 0.1, "\(measures)")
            #expect(abs(m.centre[0]) <= 0.1 && abs(m.centre[1]) <= 0.1, "\(measures)")
        }
        // A 24-unit ring of stroke 2 in a 25 pt box drawn 24 units wide: 2 × 25/24 pt.
        #expect(abs(measures[3].strokeWeight - 2 * 25 / 24) <= 0.1, "\(measures)")
    }
}
