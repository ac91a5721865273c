import Foundation

/// The icons of a target's `Icons/` folder (SPEC §8), found by walking it and its subfolders.
///
/// Names stay flat, as in an asset catalog whose folders do not provide a namespace: an icon is
/// named by its file name alone (`Icons/tabs/home.svg` is `home`: its renditions `home.png`,
/// `home@2x.png`, `home@3x.png`, its Swift name `home`), so a folder only groups files. Two icons
/// whose renditions would share a name in the resource bundle, which holds them all side by side
/// (`tabs/home.svg` and `home.png`, `Home.png` on a file system that ignores case, or
/// `home@2x.png` beside `home.png`, whose 2× it would be), fail naming both.
///
/// The walk's decisions (hostile trees, as `tabicon normalize` walks a folder): hidden entries
/// are skipped with a warning, `.DS_Store` silently (Finder writes one wherever a folder is
/// opened); a symbolic link to a file is an icon named by the link; a symbolic link to a folder
/// is not followed (no loop, no icon listed twice), with a warning; a link to nothing named like
/// an icon fails naming it; FIFOs, sockets and devices are skipped with a warning (reading a FIFO
/// would block the build).
///
/// Plain Foundation, no `PackagePlugin`: the plugin reports `warnings` and `Failure`s, and the
/// unit tests compile this very file (a symbolic link in Tests/TabIconsCLITests/).
struct IconFolder {
    /// One icon: its path below `Icons/` (`tabs/home.svg`) and the name its files get (`home`).
    struct Icon: Equatable {
        let path: String
        var stem: String { ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
    }

    /// Why the folder gives no icons: the message names the files.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The extensions tabicon reads (`ImageDecoder.fileExtensions`); anything else is reported
    /// and skipped.
    static let iconExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "svg", "svgz"]

    /// The icons, sorted by path (bytewise).
    let icons: [Icon]
    /// One line per entry skipped (`Icons/notes.txt: …`), in the walk's order.
    let warnings: [String]

    /// Walks `folder` (a target's `Icons/`); `files(stem)` are the resource names an icon of that
    /// stem gives (`RenditionFiles.names`), for the clash rule.
    init(walking folder: URL, files: (String) -> [String]) throws(Failure) {
        var found: [String] = []
        var warnings: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = relative.isEmpty ? folder.path : folder.path + "/" + relative
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: directory)
            } catch {
                throw Failure(
                    description: "Icons/\(relative.isEmpty ? "" : relative + "/"): cannot be read (\(error.localizedDescription))"
                )
            }
            for name in names.sorted(by: Self.bytewise) {
                let path = relative.isEmpty ? name : relative + "/" + name
                let shown = "Icons/" + path
                if name == ".DS_Store" { continue }
                if name.hasPrefix(".") {
                    warnings.append("\(shown): a hidden file or folder; skipped")
                    continue
                }
                let isIconName = Self.iconExtensions.contains((name as NSString).pathExtension.lowercased())
                switch Self.kind(of: directory + "/" + name) {
                case .directory:
                    pending.append(path)
                case .linkToDirectory:
                    warnings.append(
                        "\(shown): a symbolic link to a folder is not followed; skipped (move the folder into Icons/)")
                case .brokenLink where isIconName:
                    throw Failure(description: "\(shown): a symbolic link to nothing; remove it or restore its file")
                case .file where isIconName:
                    found.append(path)
                case .file, .brokenLink:
                    warnings.append(
                        "\(shown): not an icon format tabicon reads (\(Self.iconExtensions.sorted().joined(separator: ", "))); skipped"
                    )
                case .other:
                    warnings.append("\(shown): not a regular file (a FIFO, socket or device); skipped")
                }
            }
        }
        let icons = found.sorted(by: Self.bytewise).map(Icon.init(path:))
        var byFile: [String: String] = [:]
        for icon in icons {
            for file in files(icon.stem) {
                if let other = byFile[file.lowercased()] {
                    throw Failure(
                        description: "Icons/\(other) and Icons/\(icon.path) would both give the resource \(file); rename one"
                            + " (folders in Icons/ do not enter the names; give one source an icon: its 2× and 3× are made from it)"
                    )
                }
                byFile[file.lowercased()] = icon.path
            }
        }
        self.icons = icons
        self.warnings = warnings
    }

    enum EntryKind: Equatable { case directory, file, linkToDirectory, brokenLink, other }

    /// What an entry is, without following it when it is a folder; a symbolic link is followed
    /// (through any chain of links) to say what it points at.
    static func kind(of path: String) -> EntryKind {
        guard let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType else {
            return .other
        }
        switch type {
        case .typeDirectory: return .directory
        case .typeRegular: return .file
        case .typeSymbolicLink:
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            switch try? FileManager.default.attributesOfItem(atPath: target)[.type] as? FileAttributeType {
            case .typeRegular?: return .file
            case .typeDirectory?: return .linkToDirectory
            case nil, .typeSymbolicLink?: return .brokenLink  // nothing there, or a loop
            default: return .other
            }
        default: return .other
        }
    }

    static func bytewise(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }
}
