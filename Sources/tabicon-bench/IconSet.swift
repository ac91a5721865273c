import Foundation
import TabIcons
import TabIconsBatch

/// The icons the scenario publishes, read from `TestImages/`.
///
/// A bar's 5 items pair each glyph with its selected state: `home.png` with `home-filled.png` and
/// so on. Churned bars draw their items at random from every file in the folder, so contents come
/// and go and the cache has something to release.
struct IconSet {
    /// The standard bar: 5 items, each with an icon and a selected icon.
    let bar: [ItemIcons]
    /// Every file's bytes, for churned bars.
    let pool: [Data]
    /// Where they came from, for the report.
    let summary: String

    static let extensions = ["png", "jpg", "jpeg", "webp"]

    /// Loads from `folder`, or finds `TestImages/` in the current directory or above it.
    static func load(folder: String?) throws(SetupError) -> IconSet {
        guard let url = folder.map({ URL(fileURLWithPath: $0) }) ?? findTestImages() else {
            throw SetupError("no TestImages/ folder here or above; run from the package or pass --images DIR")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path)
                .filter { extensions.contains(($0 as NSString).pathExtension.lowercased()) }
                .sorted()
        } catch {
            throw SetupError("cannot read \(url.path): \(error.localizedDescription)")
        }
        var files: [(name: String, bytes: Data)] = []
        for name in names {
            guard let bytes = try? Data(contentsOf: url.appendingPathComponent(name)) else {
                throw SetupError("cannot read \(url.appendingPathComponent(name).path)")
            }
            files.append((name, bytes))
        }
        guard files.count >= 2 else { throw SetupError("\(url.path) has fewer than 2 icons (.png .jpg .webp)") }

        let stem = { (name: String) in (name as NSString).deletingPathExtension }
        var pairs: [ItemIcons] = []
        var paired = Set<String>()
        for file in files {
            guard let selected = files.first(where: { stem($0.name) == stem(file.name) + "-filled" }) else { continue }
            pairs.append(ItemIcons(icon: file.bytes, selectedIcon: selected.bytes))
            paired.formUnion([file.name, selected.name])
        }
        // Fewer than 5 glyph pairs: pair the remaining files in name order.
        let rest = files.filter { !paired.contains($0.name) }
        var index = 0
        while pairs.count < 5 {
            let icon = rest.isEmpty ? files[index % files.count] : rest[index % rest.count]
            let selected = rest.isEmpty ? files[(index + 1) % files.count] : rest[(index + 1) % rest.count]
            pairs.append(ItemIcons(icon: icon.bytes, selectedIcon: selected.bytes))
            index += 2
        }
        let bar = Array(pairs.prefix(5))
        let barBytes = bar.reduce(0) { $0 + ($1.icon?.count ?? 0) + ($1.selectedIcon?.count ?? 0) }
        let summary = "\(url.lastPathComponent)/: \(files.count) files; a bar's 10 icons are \(barBytes) bytes"
        return IconSet(bar: bar, pool: files.map(\.bytes), summary: summary)
    }

    private static func findTestImages() -> URL? {
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent("TestImages")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}

struct SetupError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
