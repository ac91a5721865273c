import Foundation
import Testing
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// `tabicon render` and `tabicon assemble` (SPEC §9): every input rendered alone into a folder of
/// its own, as a build graph's actions render them, then assembled, gives exactly the tree and
/// manifest `tabicon normalize` writes for the same inputs and options into an empty `--out`.
@Suite("render and assemble")
struct HermeticRenderTests {
    /// An icon, its selected and dark twins, a second icon with a `.fill` twin, a JPEG and two SVGs
    /// (a vector with `--vector`), all in one folder as twins must be.
    static let icons = [
        ("home.png", "home.png"), ("home-filled.png", "home-filled.png"), ("home-dark.png", "bell.png"),
        ("search.png", "search.png"), ("search.fill.png", "search-filled.png"), ("avatar.jpg", "avatar-exif6.jpg"),
        ("star.svg", "star.svg"), ("star-fill.svg", "star-fill.svg")
    ]

    /// Every file below `path`, by path (the stat cache, a cache of this folder's inodes and
    /// times, left out: it is no output).
    static func tree(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for file in BuildStep.allEntries(path) where !file.hasSuffix(".stat-cache") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + file, isDirectory: &isFolder), !isFolder.boolValue
            else { continue }
            files[file] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + file))
        }
        return files
    }

    /// Renders each input alone, assembles, normalizes the same list: the two trees (the
    /// manifest included) and the two manifests beside them, where android puts them.
    func renderAndNormalize(_ options: [String], config: String? = nil) throws -> (
        assembled: [String: Data], normalized: [String: Data], renders: [[String: Data]]
    ) {
        let dir = try BuildStep.inputs(Self.icons)
        var options = options
        if let config {
            try Data(config.utf8).write(to: URL(fileURLWithPath: dir.path("config.json")))
            options += ["--config", dir.path("config.json")]
        }
        let inputs = Self.icons.map { dir.path("icons/" + $0.0) }
        var folders: [String] = []
        var renders: [[String: Data]] = []
        for (index, input) in inputs.enumerated() {
            let folder = dir.path("render/\(index)")
            #expect(SilentCLI.run(["render", "-q", "-o", folder] + options + [input]) == .success, "\(input)")
            folders.append(folder)
            renders.append(try Self.tree(folder))
        }
        #expect(SilentCLI.run(["assemble", "-q", "-o", dir.path("assembled/res")] + folders) == .success)
        // In path order, as normalize lists a folder's icons and the assembly lists its icons.
        #expect(
            SilentCLI.run(["normalize", "-q", "-o", dir.path("normalized/res")] + options + inputs.sorted()) == .success)
        return (try Self.tree(dir.path("assembled")), try Self.tree(dir.path("normalized")), renders)
    }

    @Test(
        "assembled from one render per icon, the tree and manifest are normalize's, byte for byte",
        arguments: [
            ["--layout", "flat"], ["--layout", "xcassets"], ["--layout", "android"], ["--layout", "xcassets", "--vector"],
            ["--layout", "xcassets", "--symbols"],
            ["--layout", "android", "--vector", "--scales", "1,2"]
        ])
    func sameAsNormalize(_ options: [String]) throws {
        let (assembled, normalized, _) = try renderAndNormalize(options)
        #expect(assembled.keys.sorted() == normalized.keys.sorted())
        for (path, bytes) in normalized { #expect(assembled[path] == bytes, "\(path)") }
        // The twins were paired by the assembly although each was rendered alone.
        let manifestPath = options.contains("android") ? "res.manifest.json" : "res/manifest.json"
        let manifest = try Manifest(parsing: try #require(assembled[manifestPath]))
        let home = try #require(manifest.icons.first { $0.name == "home" })
        #expect(home.selectedTwin?.hasSuffix("icons/home-filled.png") == true)
        #expect(home.darkTwin?.hasSuffix("icons/home-dark.png") == true)
        #expect(manifest.icons.map(\.input) == manifest.icons.map(\.input).sorted())
    }

    @Test("with a config's per-icon settings (one icon as WebP, one with padding), still normalize's")
    func sameWithConfig() throws {
        let config = """
            {"options": {"layout": "xcassets"},
             "icons": [{"match": "**/search.png", "format": "webp"}, {"match": "**/avatar.jpg", "padding": "2"}]}
            """
        let (assembled, normalized, _) = try renderAndNormalize([], config: config)
        #expect(assembled == normalized)
        #expect(assembled.keys.contains("res/search.imageset/search.webp"))
    }

    @Test("with a config's lint thresholds, the assembly judges the set by them, as normalize does")
    func sameThresholds() throws {
        let config = """
            {"options": {"layout": "xcassets"},
             "lints": {"strokeMismatch": 0.01, "opticalSizeMismatch": 0.05, "offCentre": 0.05}}
            """
        let (assembled, normalized, renders) = try renderAndNormalize([], config: config)
        #expect(assembled == normalized)
        let fragment = try #require(renders[0].first { $0.key.hasSuffix(".tabicon.json") }?.value)
        #expect(try Manifest(parsing: fragment).lintThresholds?.opticalSizeMismatch == 0.05)
        // The thresholds made a difference: judged by the defaults, the set has fewer lints.
        var manifest = try Manifest(parsing: try #require(assembled["res/manifest.json"]))
        #expect(manifest.lintThresholds == nil)  // as normalize's: a fragment's key only
        let count = { (icons: [Manifest.Icon]) in icons.flatMap(\.lints).filter { SetLints.codes.contains($0.code) }.count }
        let strict = count(manifest.icons)
        SetLints.apply(&manifest.icons)
        #expect(strict > count(manifest.icons))
    }

    @Test("a render writes only the input's files and its fragment: no manifest, cache, journal or lock")
    func renderWritesOnlyItsFiles() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        #expect(
            SilentCLI.run(["render", "-q", "--layout", "xcassets", "-o", dir.path("r"), dir.path("icons/home.png")]) == .success)
        #expect(
            BuildStep.allEntries(dir.path("r")) == [
                "home.imageset", "home.imageset/Contents.json", "home.imageset/home.png", "home.imageset/home@2x.png",
                "home.imageset/home@3x.png", "home.tabicon.json"
            ])
        let fragment = try Manifest(parsing: Data(contentsOf: URL(fileURLWithPath: dir.path("r/home.tabicon.json"))))
        #expect(fragment.icons.count == 1 && fragment.errors.isEmpty && fragment.folders.isEmpty)
        #expect(
            fragment.icons[0].renditions?.map(\.path) == [
                "home.imageset/home.png", "home.imageset/home@2x.png", "home.imageset/home@3x.png"
            ])
    }

    @Test("render and assemble refuse a folder that is not empty, and leave it as it was")
    func refusesNonEmptyFolders() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try FileManager.default.createDirectory(atPath: dir.path("r"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir.path("r/notes.txt")))
        #expect(SilentCLI.run(["render", "-q", "-o", dir.path("r"), dir.path("icons/home.png")]) == .usage)
        #expect(BuildStep.allEntries(dir.path("r")) == ["notes.txt"])
        #expect(SilentCLI.run(["render", "-q", "-o", dir.path("r2"), dir.path("icons/home.png")]) == .success)
        #expect(SilentCLI.run(["assemble", "-q", "-o", dir.path("r"), dir.path("r2")]) == .usage)
        #expect(BuildStep.allEntries(dir.path("r")) == ["notes.txt"])
        // Not into the fragments' own folder either.
        #expect(SilentCLI.run(["assemble", "-q", "-o", dir.path("r2/out"), dir.path("r2")]) == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir.path("r2/out")))
    }

    @Test("render takes no state options and no ./tabicons.json it was not handed")
    func noState() throws {
        for option in ["--manifest=m.json", "--check", "--force", "--verify", "--json", "--preview=p.html"] {
            #expect(SilentCLI.run(["render", "-o", "/tmp/never", option, "x.png"]) == .usage, "\(option)")
        }
        #expect(SilentCLI.run(["render", "x.png"]) == .usage)  // no -o: a build action names its output
        #expect(CommandDeclaration.render.options.contains(.givenConfig))
        #expect(!CommandDeclaration.render.options.contains(.config))
    }

    @Test("inputs whose outputs would meet are refused in one render (an action cannot know the other)")
    func meetingInputs() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png"), ("home.webp", "bell-filled.webp")])
        #expect(
            SilentCLI.run(["render", "-q", "-o", dir.path("r"), dir.path("icons/home.png"), dir.path("icons/home.webp")])
                == .usage)
        #expect(!FileManager.default.fileExists(atPath: dir.path("r")))
    }

    /// The built binary, run from `cwd` with `environment` (nothing inherited).
    static func tabicon(_ arguments: [String], cwd: String, environment: [String: String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = TabiconBinary.url
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: cwd)
        process.environment = environment
        return try process.statusAndOutput()
    }

    @Test(
        "the same inputs give the same bytes from two checkouts, users' settings and job counts apart",
        .enabled(if: TabiconBinary.url != nil, "needs the built tabicon"))
    func hermetic() throws {
        let base = ["PATH": "/usr/bin:/bin"]
        // As root (CI), the second run is another user's, `nobody`'s, as a remote worker's would be.
        let otherUser = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
        let runs: [(folder: String, environment: [String: String], jobs: String, umask: String, user: String)] = [
            ("a/checkout", base.merging(["HOME": "/root", "TZ": "UTC", "LANG": "C.UTF-8"]) { $1 }, "1", "022", ""),
            (
                "b/elsewhere/deeper",
                base.merging(["TZ": "Asia/Kathmandu", "LANG": "de_DE.UTF-8", "LC_ALL": "tr_TR.UTF-8"]) { $1 },
                "3", "077", otherUser ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
            )
        ]
        var trees: [[String: Data]] = []
        let dir = try TemporaryDirectory("hermetic")
        for run in runs {
            let root = dir.path(run.folder)
            for (name, source) in Self.icons { try BuildStep.put(source, at: run.folder + "/icons/" + name, in: dir) }
            let icons = Self.icons.map { "icons/" + $0.0 }
            // umask through the shell: Process cannot set it.
            if !run.user.isEmpty {
                #expect(chown(dir.path("b"), 65534, 65534) == 0 && chown(dir.path("b/elsewhere"), 65534, 65534) == 0)
            }
            if !run.user.isEmpty { #expect(chown(root, 65534, 65534) == 0) }
            let script =
                "umask \(run.umask) && \(run.user)\(TabiconBinary.url!.path) render -q --layout xcassets --vector --jobs \(run.jobs) -o out "
                + icons.joined(separator: " ")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            process.currentDirectoryURL = URL(fileURLWithPath: root)
            process.environment = run.environment
            let (status, output) = try process.statusAndOutput()
            #expect(status == 0, "\(output)")
            var info = stat()
            #expect(stat(root + "/out", &info) == 0 && info.st_uid == (run.user.isEmpty ? getuid() : 65534))
            trees.append(try Self.tree(root + "/out"))
        }
        #expect(trees[0].keys.filter { $0.hasSuffix(".tabicon.json") }.count == Self.icons.count)
        #expect(trees[0] == trees[1])
        // No absolute path and no time in a fragment.
        for (path, bytes) in trees[0] where path.hasSuffix(".tabicon.json") {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains(dir.url.path) && !text.contains("\"/"), "\(path)")
        }
    }

    @Test("a failing input fails the render with normalize's message, and nothing of it is written")
    func failingInput() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: dir.path("icons/broken.png")))
        let environment = ["PATH": "/usr/bin:/bin"]
        let render = try Self.tabicon(
            ["render", "-o", dir.path("r"), "icons/broken.png", "icons/home.png"], cwd: dir.url.path, environment: environment)
        let normalize = try Self.tabicon(
            ["normalize", "-o", dir.path("n"), "icons/broken.png", "icons/home.png"], cwd: dir.url.path,
            environment: environment)
        #expect(render.0 == 1 && normalize.0 == 1)
        let failure = { (text: String) in text.split(separator: "\n").first { $0.contains("icons/broken.png") } }
        #expect(failure(render.1) != nil && failure(render.1) == failure(normalize.1), "\(render.1)\n\(normalize.1)")
        #expect(BuildStep.allEntries(dir.path("r")).filter { $0.contains("broken") }.isEmpty)
        #expect(BuildStep.allEntries(dir.path("r")).contains("home.tabicon.json"))
    }

    @Test("an SVG with text: normalize draws it with the svg-text lint; render refuses it and writes nothing of it")
    func textNeedsFonts() throws {
        let dir = try BuildStep.inputs([("home.png", "home.png")])
        let svg =
            #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><text x="2" y="20" font-size="20">A</text></svg>"#
        try Data(svg.utf8).write(to: URL(fileURLWithPath: dir.path("icons/letter.svg")))
        let inputs = [dir.path("icons/home.png"), dir.path("icons/letter.svg")]
        #expect(SilentCLI.run(["normalize", "-q", "-o", dir.path("n")] + inputs) == .success)
        let manifest = try BuildStep.manifest(dir.path("n/manifest.json"))
        #expect(manifest.icons.first { $0.name == "letter" }?.lints.map(\.code) == [.svgText])
        #expect(SilentCLI.run(["render", "-q", "-o", dir.path("r")] + inputs) == .someInputsFailed)
        #expect(BuildStep.allEntries(dir.path("r")) == ["home.png", "home.tabicon.json", "home@2x.png", "home@3x.png"])
    }
}
