import Foundation
import Testing
import TabIconsBatch
import TabIconsTestSupport

/// `TabIconsPlugin`'s walk of a target's `Icons/` (`IconFolder`, the plugin's own file, compiled
/// here through a symbolic link): subfolders read, names flat, the clash rule across folders,
/// and what a hostile tree cannot make it do (loop, follow a folder link, block on a FIFO).
@Suite("TabIconsPlugin: the icons of Icons/ and its subfolders")
struct PluginIconFolderTests {
    /// The flat layout's files, the rule the plugin declares (`RenditionFiles.names`).
    static func files(_ stem: String) -> [String] {
        [1, 2, 3].compactMap { OutputLayout.flat.path(stem: stem, scale: $0, fileExtension: "png") }
    }

    @Test("subfolders are walked; an icon is named by its file name alone; the rest is skipped with a warning each")
    func walk() throws {
        let dir = try TemporaryDirectory("icon-folder")
        try Self.make(
            dir,
            [
                "Icons/home.svg", "Icons/tabs/search.svg", "Icons/tabs/deep/bell.png", "Icons/tabs/Gear.JPEG",
                "Icons/notes.txt", "Icons/.hidden.png", "Icons/.DS_Store", "Icons/tabs/.git/config.png", "Icons/tabs/README",
                "Icons/empty/.keep", "elsewhere/shared.webp", "elsewhere/folder/inside.png"
            ])
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("Icons/linked.webp"), withDestinationPath: "../elsewhere/shared.webp")
        try FileManager.default.createSymbolicLink(atPath: dir.path("Icons/tabs/up"), withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path("Icons/outside"), withDestinationPath: dir.path("elsewhere/folder"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("Icons/gone.txt"), withDestinationPath: "nothing.txt")
        #expect(mkfifo(dir.path("Icons/pipe.png"), 0o644) == 0)

        let folder = try IconFolder(walking: dir.url.appendingPathComponent("Icons"), files: Self.files)
        #expect(
            folder.icons.map(\.path) == ["home.svg", "linked.webp", "tabs/Gear.JPEG", "tabs/deep/bell.png", "tabs/search.svg"])
        #expect(folder.icons.map(\.stem) == ["home", "linked", "Gear", "bell", "search"])
        #expect(
            Set(folder.warnings) == [
                "Icons/notes.txt: not an icon format tabicon reads (jpeg, jpg, png, svg, svgz, webp); skipped",
                "Icons/gone.txt: not an icon format tabicon reads (jpeg, jpg, png, svg, svgz, webp); skipped",
                "Icons/tabs/README: not an icon format tabicon reads (jpeg, jpg, png, svg, svgz, webp); skipped",
                "Icons/.hidden.png: a hidden file or folder; skipped",
                "Icons/tabs/.git: a hidden file or folder; skipped",
                "Icons/empty/.keep: a hidden file or folder; skipped",
                "Icons/tabs/up: a symbolic link to a folder is not followed; skipped (move the folder into Icons/)",
                "Icons/outside: a symbolic link to a folder is not followed; skipped (move the folder into Icons/)",
                "Icons/pipe.png: not a regular file (a FIFO, socket or device); skipped"
            ])
        #expect(folder.warnings.count == 9, "\(folder.warnings)")
    }

    @Test(
        "two icons giving one resource fail naming both, whatever their folders",
        arguments: [
            (["tabs/home.svg", "home.png"], "Icons/home.png and Icons/tabs/home.svg would both give the resource home.png"),
            (["a/home.svg", "b/home.svg"], "Icons/a/home.svg and Icons/b/home.svg would both give the resource home.png"),
            (["Tabs/Home.svg", "home.png"], "Icons/Tabs/Home.svg and Icons/home.png would both give the resource home.png"),
            (
                ["bell.png", "tabs/bell@2x.png"],
                "Icons/bell.png and Icons/tabs/bell@2x.png would both give the resource bell@2x.png"
            )
        ])
    func clash(paths: [String], message: String) throws {
        let dir = try TemporaryDirectory("icon-folder")
        try Self.make(dir, paths.map { "Icons/" + $0 })
        #expect(throws: IconFolder.Failure.self) {
            try IconFolder(walking: dir.url.appendingPathComponent("Icons"), files: Self.files)
        }
        #expect(Self.failure(dir).hasPrefix(message + "; rename one"), "\(Self.failure(dir))")
    }

    @Test("a link to nothing named like an icon, or a loop of links, fails naming it")
    func brokenLinks() throws {
        let dir = try TemporaryDirectory("icon-folder")
        try Self.make(dir, ["Icons/tabs/home.svg"])
        try FileManager.default.createSymbolicLink(atPath: dir.path("Icons/tabs/gone.svg"), withDestinationPath: "nothing.svg")
        #expect(Self.failure(dir) == "Icons/tabs/gone.svg: a symbolic link to nothing; remove it or restore its file")

        try FileManager.default.removeItem(atPath: dir.path("Icons/tabs/gone.svg"))
        try FileManager.default.createSymbolicLink(atPath: dir.path("Icons/a.png"), withDestinationPath: "b.png")
        try FileManager.default.createSymbolicLink(atPath: dir.path("Icons/b.png"), withDestinationPath: "a.png")
        #expect(Self.failure(dir) == "Icons/a.png: a symbolic link to nothing; remove it or restore its file")
    }

    private static func make(_ dir: TemporaryDirectory, _ paths: [String]) throws {
        for path in paths {
            let url = dir.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
    }

    private static func failure(_ dir: TemporaryDirectory) -> String {
        do {
            _ = try IconFolder(walking: dir.url.appendingPathComponent("Icons"), files: files)
            return ""
        } catch {
            return error.description
        }
    }
}
