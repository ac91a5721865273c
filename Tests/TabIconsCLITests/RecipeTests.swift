import Foundation
import Testing

@testable import TabIconsBatch
import TabIconsBatchTestSupport
import TabIconsTestSupport

/// The build recipes of README.md and docs/build-step.md, run as they are written there: each is
/// read from the Markdown at its `<!-- recipe: NAME -->` marker and run by make, sh or git in a
/// scratch project with the built `tabicon` on PATH. An icon added, changed or removed is picked
/// up, and a clean does not lose the manifest pruning needs. (The Gradle recipe is not run: no
/// Gradle here.)
@Suite("recipes: run as the documents write them", .enabled(if: TabiconBinary.url != nil, "needs the built tabicon"))
struct RecipeTests {
    /// The fenced block after `<!-- recipe: name -->` in `document` (relative to the package root).
    static func recipe(_ name: String, in document: String) throws -> String {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(document), encoding: .utf8)
        let marker = try #require(text.range(of: "<!-- recipe: \(name) -->\n```"), "\(document) has no recipe \(name)")
        let body = try #require(text[marker.upperBound...].firstIndex(of: "\n")).self
        let rest = text[text.index(after: body)...]
        let end = try #require(rest.range(of: "\n```"), "\(document): recipe \(name) has no closing fence")
        return String(rest[..<end.lowerBound]) + "\n"
    }

    /// Runs `executable` with `arguments` in `folder`, PATH starting with the built tabicon's
    /// folder; its status and what it printed (stdout and stderr together).
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], in folder: String, environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var env = ProcessInfo.processInfo.environment
        let bin = try #require(TabiconBinary.url).deletingLastPathComponent().path
        env["PATH"] = bin + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["MAKEFLAGS"] = nil
        env["MAKELEVEL"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return try process.statusAndOutput()
    }

    /// A shell script run by `sh -e`, as Xcode and CI run one.
    @discardableResult
    static func sh(_ script: String, in folder: String, environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        try run("/bin/sh", ["-e", "-c", script], in: folder, environment: environment)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func modified(_ path: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    @Test(
        "make: icons in subfolders and of every format made; one added, changed or removed picked up; what depends on the manifest remade only then",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/make"), "needs /usr/bin/make")
    )
    func make() throws {
        let project = try TemporaryDirectory("recipe-make")
        for (source, path) in [
            ("bell.png", "icons/bell.png"), ("star.svg", "icons/star.svg"), ("cmyk.jpg", "icons/cmyk.jpg"),
            ("home.png", "icons/tabs/home.png")
        ] {
            try BuildStep.put(source, at: path, in: project)
        }
        // The recipe, and a rule that depends on its manifest (what a build would do with the icons).
        let makefile =
            "app.stamp: Generated/Icons/manifest.json\n\ttouch app.stamp\n\n"
            + (try Self.recipe("make", in: "docs/build-step.md"))
        try Data(makefile.utf8).write(to: project.url.appendingPathComponent("Makefile"))
        let out = project.path("Generated/Icons/icons")

        let first = try Self.run("/usr/bin/make", [], in: project.url.path)
        #expect(first.status == 0, "\(first.output)")
        for file in ["bell@3x.png", "star@3x.png", "cmyk@3x.png", "tabs/home@3x.png"] {
            #expect(Self.exists(out + "/" + file), "\(file) not made")
        }
        let stamp = try Self.modified(project.path("app.stamp"))

        // Nothing changed: tabicon runs (it decides), writes nothing, and nothing downstream is remade.
        let files = try project.snapshot()
        let again = try Self.run("/usr/bin/make", [], in: project.url.path)
        #expect(again.status == 0 && !again.output.contains("touch app.stamp"), "\(again.output)")
        #expect(try project.snapshot() == files)
        #expect(try Self.modified(project.path("app.stamp")) == stamp)

        try BuildStep.put("heart.png", at: "icons/tabs/heart.png", in: project)
        let added = try Self.run("/usr/bin/make", [], in: project.url.path)
        #expect(added.status == 0 && added.output.contains("touch app.stamp"), "\(added.output)")
        #expect(Self.exists(out + "/tabs/heart@3x.png"))

        let bell = try Data(contentsOf: URL(fileURLWithPath: out + "/bell@3x.png"))
        try BuildStep.put("search.png", at: "icons/bell.png", in: project)
        let changed = try Self.run("/usr/bin/make", [], in: project.url.path)
        #expect(changed.status == 0 && changed.output.contains("touch app.stamp"), "\(changed.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/bell@3x.png")) != bell)

        try FileManager.default.removeItem(atPath: project.path("icons/tabs/home.png"))
        let removed = try Self.run("/usr/bin/make", [], in: project.url.path)
        #expect(removed.status == 0 && removed.output.contains("touch app.stamp"), "\(removed.output)")
        #expect(!Self.exists(out + "/tabs/home.png") && !Self.exists(out + "/tabs/home@3x.png"))
        #expect(Self.exists(out + "/tabs/heart@3x.png"))
    }

    @Test(
        "Xcode's Run Script with its build variables: image sets in the catalog, the manifest in the source tree; after a clean, a removed icon is pruned"
    )
    func xcode() throws {
        let project = try TemporaryDirectory("recipe-xcode")
        for name in ["bell.png", "home.png", "home-filled.png"] { try BuildStep.put(name, at: "icons/" + name, in: project) }
        let catalog = project.path("MyApp/Assets.xcassets")
        try FileManager.default.createDirectory(atPath: catalog, withIntermediateDirectories: true)
        try Data(#"{"info": {"author": "xcode", "version": 1}}"#.utf8).write(to: URL(fileURLWithPath: catalog + "/Contents.json"))
        let derived = project.path("DerivedData/MyApp/Build/Intermediates.noindex/MyApp.build/Debug-iphoneos/MyApp.build")
        let variables = [
            "SRCROOT": project.url.path, "PROJECT_DIR": project.url.path, "TARGET_NAME": "MyApp",
            "CONFIGURATION": "Debug", "DERIVED_FILE_DIR": derived + "/DerivedSources",
            "BUILT_PRODUCTS_DIR": project.path("DerivedData/MyApp/Build/Products/Debug-iphoneos"),
            "HOME": project.path("home")
        ]
        try FileManager.default.createDirectory(atPath: derived + "/DerivedSources", withIntermediateDirectories: true)
        let script = try Self.recipe("xcode", in: "README.md")

        let first = try Self.sh(script, in: project.path("MyApp"), environment: variables)
        #expect(first.status == 0, "\(first.output)")
        let sets = catalog + "/TabIcons/icons"
        for set in ["bell", "home", "home-filled"] {
            #expect(Self.exists("\(sets)/\(set).imageset/Contents.json"), "\(set).imageset")
        }
        #expect(Self.exists(project.path("TabIcons.manifest.json")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: project.path("MyApp")) == ["Assets.xcassets"])
        // Nothing but image sets (and their folders) in the catalog.
        let inCatalog = try FileManager.default.subpathsOfDirectory(atPath: catalog).filter { !$0.contains(".imageset") }
        #expect(inCatalog.sorted() == ["Contents.json", "TabIcons", "TabIcons/icons"])

        // A clean (DerivedData gone) and an icon removed: the next build prunes its image set.
        try FileManager.default.removeItem(atPath: project.path("DerivedData"))
        try FileManager.default.removeItem(atPath: project.path("icons/bell.png"))
        let second = try Self.sh(script, in: project.path("MyApp"), environment: variables)
        #expect(second.status == 0, "\(second.output)")
        #expect(!Self.exists("\(sets)/bell.imageset"))
        #expect(Self.exists("\(sets)/home.imageset/Contents.json"))
    }

    @Test(
        "Android: drawables into res/, nothing but resource folders at its top, the manifest beside it; aapt2 compiles the folder"
    )
    func android() throws {
        let project = try TemporaryDirectory("recipe-android")
        for (source, path) in [
            ("bell.png", "icons/bell.png"), ("home.png", "icons/tabs/home.png"), ("star.svg", "icons/star.svg")
        ] {
            try BuildStep.put(source, at: path, in: project)
        }
        let res = project.path("app/src/main/res")
        try FileManager.default.createDirectory(atPath: res + "/values", withIntermediateDirectories: true)
        let strings = Data("<resources><string name=\"app_name\">App</string></resources>\n".utf8)
        try strings.write(to: URL(fileURLWithPath: res + "/values/strings.xml"))
        let script = try Self.recipe("android", in: "README.md")

        let first = try Self.sh(script, in: project.url.path)
        #expect(first.status == 0, "\(first.output)")
        let top = try FileManager.default.contentsOfDirectory(atPath: res).sorted()
        #expect(
            top == ["drawable-hdpi", "drawable-mdpi", "drawable-xhdpi", "drawable-xxhdpi", "drawable-xxxhdpi", "values"])
        #expect(Self.exists(project.path("app/src/main/res.manifest.json")))
        #expect(Self.exists(res + "/drawable-xxxhdpi/home.webp"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: res + "/values/strings.xml")) == strings)
        if AndroidTools.isInstalled {
            let compiled = try AndroidTools.aapt2(["compile", "--dir", res, "-o", project.path("compiled.zip")])
            #expect(compiled.status == 0, "\(compiled.output)")
        }

        try FileManager.default.removeItem(atPath: project.path("icons/tabs/home.png"))
        let second = try Self.sh(script, in: project.url.path)
        #expect(second.status == 0, "\(second.output)")
        #expect(!Self.exists(res + "/drawable-xxxhdpi/home.webp"))
        #expect(Self.exists(res + "/drawable-xxxhdpi/bell.webp"))
    }

    @Test(
        "CI: outputs and manifest committed, the stat cache ignored; --check on a fresh clone exits 0, and 1 once an icon changes",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs /usr/bin/git")
    )
    func ci() throws {
        let scratch = try TemporaryDirectory("recipe-ci")
        let repo = scratch.path("repo")
        try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
        for name in ["bell.png", "home.png", "star.svg"] { try BuildStep.put(name, at: "repo/icons/" + name, in: scratch) }
        let git = [
            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": scratch.url.path
        ]
        #expect(try Self.run("/usr/bin/git", ["init", "-q"], in: repo, environment: git).status == 0)
        let commit = try Self.sh(try Self.recipe("ci-commit", in: "README.md"), in: repo, environment: git)
        #expect(commit.status == 0, "\(commit.output)")
        #expect(try Self.run("/usr/bin/git", ["commit", "-q", "-m", "icons"], in: repo, environment: git).status == 0)
        let tracked = try Self.run("/usr/bin/git", ["ls-files"], in: repo, environment: git).output
        #expect(tracked.contains("Generated/Icons/manifest.json\n") && tracked.contains("Generated/Icons/icons/bell@3x.png\n"))
        #expect(!tracked.contains("stat-cache"))

        let clone = scratch.path("clone")
        #expect(try Self.run("/usr/bin/git", ["clone", "-q", repo, clone], in: scratch.url.path, environment: git).status == 0)
        let check = try Self.recipe("ci-check", in: "README.md")
        let clean = try Self.sh(check, in: clone, environment: git)
        #expect(clean.status == 0, "\(clean.output)")
        #expect(clean.output.contains("Generated/Icons/ is up to date"))

        try BuildStep.put("search.png", at: "clone/icons/bell.png", in: scratch)
        let stale = try Self.sh(check, in: clone, environment: git)
        #expect(stale.status == 1, "\(stale.output)")
        #expect(stale.output.contains("change Generated/Icons/icons/bell@3x.png"))
    }
}
