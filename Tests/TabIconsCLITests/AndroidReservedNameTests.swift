import Foundation
import Testing
@testable import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// Issue 38: on Android an icon's name is a Java identifier (`R.drawable.NAME`), and
/// `aapt2 link --java` refuses Java's reserved words and literals as an "invalid symbol name". Such
/// an icon is renamed, as a name starting with a digit is: `class` → `ic_class`
/// (`OutputLayout.androidResourceName`), never failed.
@Suite("android names that are Java reserved words")
struct AndroidReservedNameTests {
    /// Every Java keyword (JLS §3.9) and the literals `true`, `false`, `null` (§3.10), written out
    /// here rather than taken from the code, so a word left out there fails here. `_` is a keyword
    /// too: it does not start with a letter, so it gets the prefix anyway.
    static let reserved = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
        "continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float",
        "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native",
        "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp", "super",
        "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while",
        "true", "false", "null"
    ]

    /// Contextual keywords, legal as field names (aapt2 and javac take them), and names that only
    /// hold a reserved word: kept as they are.
    static let kept = ["var", "record", "yield", "sealed", "permits", "module", "when", "classic", "new_tab", "class_filled"]

    @Test("every reserved word and literal gets the prefix ic_, whatever its case; _ too; contextual keywords are kept")
    func renamed() {
        #expect(Self.reserved.count == 53)
        #expect(OutputLayout.javaReservedWords == Set(Self.reserved))
        for word in Self.reserved {
            #expect(OutputLayout.androidResourceName(word) == "ic_" + word)
            #expect(OutputLayout.androidResourceName(word.uppercased()) == "ic_" + word)
        }
        #expect(OutputLayout.androidResourceName("_") == "ic__")
        for word in Self.kept { #expect(OutputLayout.androidResourceName(word) == word) }
        #expect(OutputLayout.androidResourceName("class-filled") == "class_filled")
        #expect(OutputLayout.androidResourceName("2fa") == "ic_2fa")
    }

    @Test("every android path of a reserved name is renamed: renditions, night twin, state list, vector")
    func everyPath() {
        let android = OutputLayout.android
        #expect(android.path(stem: "icons/new", scale: 2, fileExtension: "png") == "drawable-xhdpi/ic_new.png")
        #expect(
            android.darkTwinPath(iconStem: "icons/new", twinStem: "icons/new-dark", scale: 1, fileExtension: "png")
                == "drawable-night-mdpi/ic_new.png")
        #expect(android.selectorPath(iconStem: "icons/class") == "drawable/ic_class_selector.xml")
        #expect(android.vectorPath(stem: "icons/int") == "drawable/ic_int.xml")
        #expect(android.darkTwinVectorPath(iconStem: "icons/true", twinStem: "icons/true-dark") == "drawable-night/ic_true.xml")
        // The other layouts keep the name: an image set or a file may be called `class`.
        #expect(OutputLayout.flat.path(stem: "icons/class", scale: 2, fileExtension: "png") == "icons/class@2x.png")
    }
}

/// The same through aapt2, as Android's build runs it: `aapt2 link --java` writes the R class and
/// checks every resource's name as a Java field (without `--java` it links `class` without a
/// word). Debian's `aapt` and `android-framework-res`; skipped when they are absent.
@Suite(
    "android reserved names through aapt2 link --java",
    .enabled(
        if: AndroidTools.isInstalled,
        "needs aapt2 and framework-res.apk (Debian: apt-get install aapt android-framework-res)"))
struct AndroidReservedNameLinkTests {
    /// `aapt2 compile` of `res`, then `aapt2 link --java`: its status and output, and the R class.
    static func link(_ res: String, in work: TemporaryDirectory) throws -> (status: Int32, output: String, r: String) {
        let compile = try AndroidTools.aapt2(["compile", "--dir", res, "-o", work.path("r.zip")])
        #expect(compile.status == 0, "\(compile.output)")
        try Data(
            "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"com.example.tabicons\"/>\n".utf8
        )
        .write(to: work.url.appendingPathComponent("AndroidManifest.xml"))
        let link = try AndroidTools.aapt2([
            "link", "-I", AndroidTools.framework, "--manifest", work.path("AndroidManifest.xml"), "-o", work.path("icons.apk"),
            "--java", work.path("gen"), work.path("r.zip")
        ])
        let r = (try? String(contentsOfFile: work.path("gen/com/example/tabicons/R.java"), encoding: .utf8)) ?? ""
        return (link.status, link.output, r)
    }

    /// An input's path as the manifest records it (absolute here), from `dir`: `icons/class.png`.
    static func relative(_ input: String, to dir: TemporaryDirectory) -> String {
        input.hasPrefix(dir.url.path + "/") ? String(input.dropFirst(dir.url.path.count + 1)) : input
    }

    /// The drawables an R class declares.
    static func drawables(_ r: String) -> Set<String> {
        guard let start = r.range(of: "public static final class drawable {") else { return [] }
        let body = r[start.upperBound...].prefix { $0 != "}" }
        return Set(
            body.split(separator: "\n").compactMap { line in
                guard let equals = line.firstIndex(of: "=") else { return nil }
                return line[..<equals].split(separator: " ").last.map(String.init)
            })
    }

    @Test("icons named after every reserved word, with a selected and a dark twin, written as android drawables that link")
    func everyReservedWordLinks() throws {
        let names = AndroidReservedNameTests.reserved + ["_", "var", "record", "class-filled", "new-dark"]
        let dir = try BuildStep.inputs(names.enumerated().map { ($1 + ".png", BuildStep.glyphs[$0 % BuildStep.glyphs.count]) })
        let work = try TemporaryDirectory("android-reserved")
        #expect(
            BuildStep.cli([
                "--layout", "android", "--scales", "1", "--jobs", "2", dir.path("icons"), "-o", work.path("res"),
                "--manifest", work.path("tabicons.json")
            ]) == .success)
        let manifest = try BuildStep.manifest(work.path("tabicons.json"))
        #expect(manifest.errors.isEmpty, "\(manifest.errors)")
        let icons = Dictionary(uniqueKeysWithValues: manifest.icons.map { (Self.relative($0.input, to: dir), $0) })
        #expect(icons["icons/class.png"]?.renditions?.map(\.path) == ["drawable-mdpi/ic_class.png"])
        #expect(icons["icons/class.png"]?.selectorFile?.path == "drawable/ic_class_selector.xml")
        #expect(icons["icons/class-filled.png"]?.renditions?.map(\.path) == ["drawable-mdpi/class_filled.png"])
        #expect(icons["icons/new-dark.png"]?.renditions?.map(\.path) == ["drawable-night-mdpi/ic_new.png"])
        let selector = try String(contentsOfFile: work.path("res/drawable/ic_class_selector.xml"), encoding: .utf8)
        #expect(selector.contains("\"@drawable/class_filled\"") && selector.contains("\"@drawable/ic_class\""))

        let linked = try Self.link(work.path("res"), in: work)
        #expect(linked.status == 0, "\(linked.output)")
        let expected = Set(
            AndroidReservedNameTests.reserved.map { "ic_" + $0 } + ["ic__", "var", "record", "class_filled", "ic_class_selector"])
        #expect(Self.drawables(linked.r) == expected)
    }

    @Test("class beside ic_class: one name each (the later input keeps its extension), both link")
    func renamedNameMeetsAnInput() throws {
        let dir = try BuildStep.inputs([("class.png", "home.png"), ("ic_class.png", "bell.png"), ("default.png", "heart.png")])
        try BuildStep.put("search.png", at: "icons/more/ic_default.png", in: dir)
        let work = try TemporaryDirectory("android-reserved-meet")
        #expect(
            BuildStep.cli([
                "--layout", "android", dir.path("icons"), "-o", work.path("res"), "--manifest", work.path("tabicons.json")
            ]) == .success)
        let manifest = try BuildStep.manifest(work.path("tabicons.json"))
        #expect(manifest.errors.isEmpty, "\(manifest.errors)")
        let first = Dictionary(
            uniqueKeysWithValues: manifest.icons.map { (Self.relative($0.input, to: dir), $0.renditions?.first?.path) })
        #expect(
            first == [
                "icons/class.png": "drawable-mdpi/ic_class.png", "icons/ic_class.png": "drawable-mdpi/ic_class_png.png",
                "icons/default.png": "drawable-mdpi/ic_default.png",
                "icons/more/ic_default.png": "drawable-mdpi/ic_default_png.png"
            ])
        let linked = try Self.link(work.path("res"), in: work)
        #expect(linked.status == 0, "\(linked.output)")
        #expect(Self.drawables(linked.r) == ["ic_class", "ic_class_png", "ic_default", "ic_default_png"])
    }
}
