import Foundation
import PackagePlugin

/// `TabIconsPlugin` (SPEC §8): a target's `Icons/` folder becomes normalized tab icons, as
/// resources of the target (`Bundle.module`), and a Swift file of generated names
/// (`TabIconAssets.home`).
///
/// Build commands, not a prebuild command: a prebuild command cannot run a tool built from
/// source, and this plugin's tool is the package's own `tabicon`, built wherever SwiftPM builds
/// (Linux included). A build command runs only when one of its declared inputs or outputs
/// changed, or its command line did, so each icon is its own command: touching one icon redoes
/// that icon only, and a build where nothing changed runs nothing. (SwiftPM itself makes every
/// tool a plugin depends on an input of every command, and relinks it whenever it plans the
/// build again: then every icon reruns once. docs/plugin.md "What reruns" says why this cannot be
/// avoided from here.)
///
/// SwiftPM must know every output before the tool runs, so the plugin names the files by the
/// flat layout's rule (`home.png`, `home@2x.png`, `home@3x.png`) and `tabicon package-icon`
/// fails the build if what it wrote differs from what was declared: the rule is never
/// duplicated in silence.
@main
struct TabIconsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget, let directory = Self.directory(of: target) else { return [] }
        let folder = directory.appending(path: "Icons", directoryHint: .isDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return []
        }
        let inside = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        if let raw = target.sourceFiles.first(where: { $0.type == .resource && $0.url.path.hasPrefix(inside) }) {
            throw PluginError(
                "\(target.name): \(raw.url.lastPathComponent) in Icons/ is declared as a resource; add"
                    + " `exclude: [\"Icons\"]` to the target instead (its renditions are the resources)")
        }
        // tabicons.json's presence is part of the package's structure (SwiftPM plans again when
        // it appears or goes); its content is read by tabicon alone, on every build.
        let configURL = directory.appending(path: "tabicons.json")
        let hasConfig = FileManager.default.fileExists(atPath: configURL.path)
        let found: IconFolder
        do {
            found = try IconFolder(walking: folder, files: RenditionFiles.names(stem:))
        } catch {
            throw PluginError(error.description)
        }
        for warning in found.warnings { Diagnostics.warning(warning) }
        let icons = found.icons

        let tool = try context.tool(named: "tabicon").url
        let work = context.pluginWorkDirectoryURL
        // An icon's files are named by its stem alone (folders in Icons/ only group), and the
        // stems are distinct (IconFolder's clash rule), so each gets a folder of that name.
        Self.removeStaleFolders(in: work, keeping: Set(icons.map(\.stem)))
        var commands: [Command] = []
        for icon in icons {
            let stem = icon.stem
            let out = work.appending(path: "icons", directoryHint: .isDirectory).appending(
                path: stem, directoryHint: .isDirectory)
            let files = RenditionFiles.names(stem: stem)
            // A folder of its own for each manifest too: a run clears the temporaries it finds in
            // the folders it writes, which must not be another icon's run in flight.
            let manifest = work.appending(path: "manifests", directoryHint: .isDirectory)
                .appending(path: stem, directoryHint: .isDirectory).appending(path: "manifest.json")
            var arguments =
                ["package-icon", "--base", directory.path, "--out", out.path, "--manifest", manifest.path]
                + RenditionFiles.arguments
            var inputs = [folder.appending(path: icon.path)]
            if hasConfig {
                arguments += ["--config", configURL.path]
                inputs.append(configURL)
            }
            // Named from the target's folder (--base): `Icons/tabs/home.svg` in messages, the
            // manifest and tabicons.json's `match`.
            arguments += files.flatMap { ["--expect", $0] } + ["--", "Icons/" + icon.path]
            commands.append(
                .buildCommand(
                    displayName: "TabIcons: normalizing \(Self.shown(icon))",
                    executable: tool, arguments: arguments, inputFiles: inputs,
                    outputFiles: files.map { out.appending(path: $0) }))
        }
        // The names depend on the icons' paths alone, which are all in the command line: adding,
        // renaming, moving or removing an icon changes it (and reruns this), touching one does not.
        // With tabicons.json, that is an input too: the names command warns once for an `icons`
        // entry that matches no icon (each icon's own run cannot tell).
        let names = work.appending(path: "TabIconAssets.swift")
        commands.append(
            .buildCommand(
                displayName: "TabIcons: naming \(icons.count) icon\(icons.count == 1 ? "" : "s") in TabIconAssets.swift",
                executable: tool,
                arguments: ["package-names", "--out", names.path] + RenditionFiles.arguments
                    + (hasConfig ? ["--config", configURL.path] : []) + ["--"] + icons.map(\.path),
                inputFiles: hasConfig ? [configURL] : [],
                outputFiles: [names]))
        return commands
    }

    /// An icon in the build log: `house.svg`, `compass.svg in tabs › more`. No `/`: SwiftPM's
    /// progress line keeps only what follows a description's last `/` (`LLBuildProgressTracker`).
    static func shown(_ icon: IconFolder.Icon) -> String {
        let parts = icon.path.split(separator: "/", omittingEmptySubsequences: false)
        guard let name = parts.last, parts.count > 1 else { return icon.path }
        return String(name) + " in " + parts.dropLast().joined(separator: " › ")
    }

    /// The renditions and manifest of an icon no longer in `Icons/`: no command declares them
    /// any more, so nothing else would ever remove them from the plugin's work folder.
    static func removeStaleFolders(in work: URL, keeping stems: Set<String>) {
        for kind in ["icons", "manifests"] {
            let folder = work.appending(path: kind, directoryHint: .isDirectory)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !stems.contains(name) {
                try? FileManager.default.removeItem(at: folder.appending(path: name))
            }
        }
    }

    /// The target's folder (`Target.directoryURL` needs tools 6.1; the concrete types have it in 6.0).
    static func directory(of target: SourceModuleTarget) -> URL? {
        if let swift = target as? SwiftSourceModuleTarget { return swift.directoryURL }
        if let clang = target as? ClangSourceModuleTarget { return clang.directoryURL }
        return nil
    }
}

/// The files a target's icons become: the flat layout's 1×, 2×, 3× PNGs (`home.png`,
/// `home@2x.png`, `home@3x.png`: what `UIImage(named:in:)` and `Bundle.module` look for).
///
/// Fixed, and given to tabicon on its command line (which outranks tabicons.json's `options`),
/// because SwiftPM runs a build-tool plugin only when it plans the build again (a file added or
/// removed, Package.swift changed), never because a file's content changed: names read from
/// tabicons.json here would go stale when it is edited. Everything in tabicons.json that does
/// not rename files is tabicon's to apply on every build.
enum RenditionFiles {
    static let scales: [Double] = [1, 2, 3]
    static let format = "png"
    /// tabicon's options for exactly these files.
    static let arguments = ["--layout", "flat", "--scales", "1,2,3", "--format", format]

    /// The flat layout's names (`OutputLayout.flat`), checked by `package-icon` on every run.
    static func names(stem: String) -> [String] {
        scales.map { stem + ($0 == 1 ? "" : "@\(Int($0))x") + "." + format }
    }
}

struct PluginError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
