import Foundation
import TabIcons
import TabIconsBatch

/// The two commands `TabIconsPlugin`'s build commands run (SPEC §8; hidden: a person runs
/// `normalize`). A build command must declare its outputs before it runs, so the plugin names
/// them, and these commands hold the tool to them: whatever the naming rule says, a build never
/// rests on a file the plugin promised and the tool did not write.
///
/// `tabicon package-icon [--base DIR] --out DIR --manifest FILE [--layout L --scales S
/// --format F] [--config FILE] --expect NAME... INPUT`: `normalize` of one icon into its own
/// folder (`-q --jobs 1 --allow-upscale`: SwiftPM runs the icons side by side, and every
/// declared scale must exist, so a raster too small for a scale is upscaled for it, with a
/// warning), then the files written must be exactly the expected names.
///
/// `tabicon package-names --out FILE [--layout flat] --scales 1,2,3 --format png [--config FILE]
/// ICON...` (each icon's path below `Icons/`, `tabs/home.svg`): the Swift file of generated names (`IconAssetsSource`), written only when its bytes
/// change, and the warning for a tabicons.json entry that matches none of the icons.
enum PackageCommands {
    static let iconCommand = "package-icon"
    static let namesCommand = "package-names"

    static func icon(_ arguments: [String], console: Console, jail: WorkerJail?) throws(ParsedArguments.UsageError)
        -> TabIconCommand.ExitStatus
    {
        let words = try Words(
            arguments,
            valued: [
                "--out", "--manifest", "--config", "--expect", "--base",
                "--layout", "--scales", "--format"
            ])
        guard let out = words.last("--out"), let manifest = words.last("--manifest"), words.positionals.count == 1 else {
            throw .init("package-icon needs --out DIR, --manifest FILE and one input")
        }
        let input = words.positionals[0]
        // The target's folder: the input is named from there (`Icons/home.svg`, what the
        // manifest records and tabicons.json's `match` sees), and a ./tabicons.json is the
        // target's, never one that happens to be where SwiftPM runs the command.
        if let base = words.last("--base"), !FileManager.default.changeCurrentDirectoryPath(base) {
            throw .init("package-icon: cannot work in \(TerminalText.quoted(base))")
        }
        let tool = ToolStamp(manifest: manifest)
        tool.forgetRunsOfAnotherTool()
        var normalize = ["-q", "--jobs", "1", "--allow-upscale", "-o", out, "--manifest", manifest]
        for option in ["--layout", "--scales", "--format", "--config"] {
            if let value = words.last(option) { normalize += [option, value] }
        }
        var command = try NormalizeCommand(arguments: normalize + ["--", input])
        command.warnsUnmatchedEntries = false
        let status = command.run(console: console, jail: jail)
        guard status == .success else { return status }

        guard let data = FileManager.default.contents(atPath: manifest), let written = try? Manifest(parsing: data) else {
            console.err("tabicon: package-icon: cannot read back the manifest \(TerminalText.quoted(manifest))")
            return .someInputsFailed
        }
        let files = written.icons.flatMap { $0.renditions ?? [] }.map(\.path)
        let expected = words.all("--expect")
        guard Set(files) == Set(expected), files.count == expected.count else {
            console.err(
                "tabicon: \(TerminalText.quoted(input)): the plugin declared \(expected.joined(separator: ", "))"
                    + " but tabicon wrote \(files.isEmpty ? "nothing" : files.joined(separator: ", ")): the plugin names"
                    + " the flat layout's files (check the layout, format and scales tabicons.json sets)")
            return .someInputsFailed
        }
        tool.record()
        for icon in written.icons where icon.vector != true {
            let source = max(icon.pixelWidth, icon.pixelHeight)
            for rendition in icon.renditions ?? [] where max(rendition.pixelWidth, rendition.pixelHeight) > source {
                console.warn(
                    "\(TerminalText.quoted(input)): \(icon.pixelWidth)×\(icon.pixelHeight) px is smaller than its"
                        + " \(NumberText.decimal(rendition.scale))× rendition (\(rendition.pixelWidth)×\(rendition.pixelHeight)),"
                        + " which is upscaled: give a larger source or an SVG")
            }
        }
        return .success
    }

    static func names(_ arguments: [String], console: Console) throws(ParsedArguments.UsageError) -> TabIconCommand.ExitStatus {
        let words = try Words(arguments, valued: ["--out", "--layout", "--scales", "--format", "--config"])
        guard let out = words.last("--out"), let scaleText = words.last("--scales") else {
            throw .init("package-names needs --out FILE and --scales")
        }
        let scales = try NormalizeCommand.scales(scaleText, name: "--scales")
        let format = words.last("--format") ?? OutputFormatName.png.rawValue
        guard OutputFormatName(rawValue: format) != nil else { throw .init("--format must be png or webp, not '\(format)'") }
        guard words.last("--layout") ?? OutputLayout.flat.rawValue == OutputLayout.flat.rawValue else {
            throw .init("package-names names the flat layout's files only")
        }
        let icons = words.positionals.map(IconAssetsSource.Icon.init(path:))
        // The one run that sees every icon: a tabicons.json entry that matches none of them (a
        // typo) is a warning here, once, as `normalize` would give it (inputs named Icons/NAME).
        if let path = words.last("--config") {
            do throws(IconConfig.Failure) {
                if let config = try IconConfig.load(path, required: true) {
                    let matched = Set(
                        words.positionals.flatMap { name in
                            config.entries(matching: "Icons/" + name).map(\.index)
                        })
                    for entry in config.icons where !matched.contains(entry.index) {
                        console.warn(
                            "--config \(TerminalText.quoted(config.path)): \(entry.place) "
                                + "(match \(TerminalText.quoted(entry.glob.pattern))) matches no icon in Icons/")
                    }
                }
            } catch {
                // package-icon reports a broken file, naming the key; the names do not depend on it.
            }
        }
        let text: String
        do {
            text = try IconAssetsSource(icons: icons, scales: scales, fileExtension: format).text()
        } catch {
            console.err("tabicon: error: \(error.description)")
            return .someInputsFailed
        }
        let bytes = Data(text.utf8)
        if FileManager.default.contents(atPath: out) != bytes {
            do {
                try bytes.write(to: URL(fileURLWithPath: out), options: .atomic)
            } catch {
                console.err("tabicon: cannot write \(TerminalText.quoted(out)): \(error.localizedDescription)")
                return .someInputsFailed
            }
        }
        return .success
    }

    /// Which tabicon wrote an icon's manifest: the XXH3 of its executable's bytes, in `tool.txt`
    /// beside the manifest. The manifest carries an icon over when its options and tabicon's
    /// version match, but a TabIcons edited or updated without a new version string renders
    /// differently: a run by a tabicon of other bytes forgets the manifest and renders again
    /// (unchanged files are left as they are). SwiftPM relinks the tool into the same bytes
    /// whenever it plans the build again (docs/plugin.md "What reruns"): that keeps the manifest.
    struct ToolStamp {
        let path: String
        let manifest: String
        /// nil when the executable cannot be read: then every run renders again.
        let current: String?

        init(manifest: String) {
            self.manifest = manifest
            path = ((manifest as NSString).deletingLastPathComponent as NSString).appendingPathComponent("tool.txt")
            let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
            current = (try? Data(contentsOf: URL(fileURLWithPath: executable), options: .mappedIfSafe)).map {
                ContentHash(of: $0).description
            }
        }

        func forgetRunsOfAnotherTool() {
            let recorded = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            guard current == nil || recorded != current else { return }
            try? FileManager.default.removeItem(atPath: manifest)
        }

        func record() {
            guard let current else { return }
            try? Data(current.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
    }

    /// `--name value` pairs (repeatable) and the positionals; `--` ends the options.
    struct Words {
        private var values: [(name: String, value: String)] = []
        private(set) var positionals: [String] = []

        init(_ arguments: [String], valued: Set<String>) throws(ParsedArguments.UsageError) {
            var index = 0
            var optionsEnded = false
            while index < arguments.count {
                let word = arguments[index]
                index += 1
                if optionsEnded || !word.hasPrefix("--") {
                    positionals.append(word)
                } else if word == "--" {
                    optionsEnded = true
                } else if valued.contains(word), index < arguments.count {
                    values.append((word, arguments[index]))
                    index += 1
                } else {
                    throw .init("unknown option \(word) (or its value is missing)")
                }
            }
        }

        func last(_ name: String) -> String? { values.last { $0.name == name }?.value }
        func all(_ name: String) -> [String] { values.filter { $0.name == name }.map(\.value) }
    }
}
