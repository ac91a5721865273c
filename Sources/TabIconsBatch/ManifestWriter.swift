import TabIcons
import Foundation

/// The manifest's one writer: its text, SPEC §6's pretty-printed JSON in `JSONValue`'s layout
/// (two spaces a level, an object or array of scalars on one line), written field by field into
/// a buffer handed on in chunks. Writing a manifest of thousands of icons so holds neither its
/// text nor a tree of values; the bytes are exactly those of the whole document printed as a
/// `JSONValue` (a test compares them). Keys in SPEC §6's order; `options` and `folders` (SPEC
/// §6a) after SPEC §6's keys; an optional key only when set. A key added here is read in
/// `ManifestReader`.
enum ManifestWriter {
    /// About how many bytes each chunk holds.
    static let chunk = 64 << 10

    /// Hands the text of `manifest` to `emit` in order, chunk by chunk, until `emit` answers
    /// false; answers whether every chunk was taken. The same text `Stream` makes a piece at a time.
    @discardableResult
    static func write(_ manifest: Manifest, chunk: Int = chunk, _ emit: ([UInt8]) -> Bool) -> Bool {
        var stream = Stream(head: manifest, chunk: chunk)
        for icon in manifest.icons {
            stream.icon(icon)
            if let piece = stream.take(), !emit(piece) { return false }
        }
        return stream.finish(errors: manifest.errors, folders: manifest.folders, emit)
    }

    /// The manifest's text made as a run goes (SPEC §6a: a run holds neither the text nor its
    /// rows): the head, then each icon as it comes, in order, then the errors and folders. The
    /// caller takes the text in pieces of about `chunk` bytes (`take`) as it grows.
    struct Stream {
        private var text = ManifestText()
        private var document = ManifestText.Members(level: 0, oneLine: false)
        private var icons = ManifestText.Members(level: 1, oneLine: false)
        private let hasFolders: Bool
        private let chunk: Int
        /// The bytes taken so far: where `text` starts in the document.
        private var taken = 0

        /// The head of `manifest` (its version, tool, box, scales, options), up to its icons.
        init(head manifest: Manifest, chunk: Int = ManifestWriter.chunk) {
            self.chunk = chunk
            hasFolders = manifest.options != nil
            text.out.reserveCapacity(chunk + 4096)
            // The document holds containers, so each key is on its own line, one level in.
            text.out.append(UInt8(ascii: "{"))
            text.key("version", &document)
            text.int(manifest.version)
            text.key("tool", &document)
            text.string(manifest.tool)
            text.key("box", &document)
            text.double(manifest.box)
            text.key("scales", &document)
            text.doubles(manifest.scales)
            if let options = manifest.options {
                text.key("options", &document)
                options.json.write(into: &text.out, level: 1)
            }
            text.key("icons", &document)
        }

        /// The next icon entry.
        mutating func icon(_ icon: Manifest.Icon) {
            separateIcon()
            text.icon(icon, level: Self.iconLevel)
        }

        /// The next icon entry, its text made beforehand by `entryText` (by a worker, so that
        /// the run's lock is held only while it is appended); answers where in the document its
        /// first byte is (what the run index records of it).
        @discardableResult
        mutating func icon(text entry: [UInt8]) -> Int {
            separateIcon()
            let start = taken + text.out.count
            text.out += entry
            return start
        }

        /// The text `icon(_:)` writes of `icon`, into `out` (emptied first, its room kept).
        static func entryText(_ icon: Manifest.Icon, into out: inout [UInt8]) {
            var text = ManifestText()
            swap(&text.out, &out)
            text.out.removeAll(keepingCapacity: true)
            text.icon(icon, level: iconLevel)
            swap(&text.out, &out)
        }

        private static let iconLevel = 2

        private mutating func separateIcon() {
            if icons.first { text.out.append(UInt8(ascii: "[")) }
            text.separate(&icons)
        }

        /// The text made since the last piece taken, once it holds `chunk` bytes (or `all`).
        mutating func take(all: Bool = false) -> [UInt8]? {
            guard all ? !text.out.isEmpty : text.out.count >= chunk else { return nil }
            taken += text.out.count
            defer { text.out.removeAll(keepingCapacity: true) }
            return text.out
        }

        /// The rest of the text after the last icon, handed to `emit` in pieces; answers whether
        /// every piece was taken.
        mutating func finish(errors: [Manifest.ErrorEntry], folders: [String], _ emit: ([UInt8]) -> Bool) -> Bool {
            var stopped = false
            func flush(_ text: inout ManifestText, force: Bool = false) {
                guard !stopped, force ? !text.out.isEmpty : text.out.count >= chunk else { return }
                stopped = !emit(text.out)
                text.out.removeAll(keepingCapacity: true)
            }
            if icons.first { text.out += "[]".utf8 } else { text.close(UInt8(ascii: "]"), icons) }
            text.key("errors", &document)
            text.list(errors, level: 1) { text, entry, level in
                text.error(entry, level: level)
                flush(&text)
                return !stopped
            }
            guard !stopped else { return false }
            if hasFolders {
                text.key("folders", &document)
                text.strings(folders)
            }
            text.close(UInt8(ascii: "}"), document)
            text.out.append(UInt8(ascii: "\n"))
            flush(&text, force: true)
            return !stopped
        }
    }

    /// One icon entry alone, as a worker sends its row (read back by `Manifest.Icon(parsing:)`).
    static func row(_ icon: Manifest.Icon) -> [UInt8] {
        var text = ManifestText()
        text.icon(icon, level: 0)
        return text.out
    }
}

/// The text of the manifest's parts, appended to `out` as `JSONValue` would print them.
fileprivate struct ManifestText {
    var out: [UInt8] = []

    /// Where the members of an open container stand: its level, whether it is on one line (all
    /// its members are scalars), whether a member came yet.
    struct Members {
        let level: Int
        let oneLine: Bool
        var first = true
    }

    mutating func newline(_ level: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    /// Before a member: the comma, the line break (unless on one line) and the key.
    mutating func key(_ name: StaticString, _ members: inout Members) {
        separate(&members)
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        out += "\": ".utf8
    }

    /// Before an element of an array.
    mutating func separate(_ members: inout Members) {
        if !members.first {
            if members.oneLine { out += ", ".utf8 } else { out.append(UInt8(ascii: ",")) }
        }
        members.first = false
        if !members.oneLine { newline(members.level + 1) }
    }

    mutating func close(_ bracket: UInt8, _ members: Members) {
        if !members.oneLine { newline(members.level) }
        out.append(bracket)
    }

    mutating func string(_ value: String) { JSONValue.quote(value, into: &out) }

    /// A recorded hash as its text, without making a `String` of `ContentHash`'s spelling.
    mutating func hash(_ value: RecordedHash) {
        guard case .content(let hash) = value else { return string(value.text) }
        out.append(UInt8(ascii: "\""))
        hash.write(into: &out)
        out.append(UInt8(ascii: "\""))
    }
    mutating func double(_ value: Double) { out += JSONValue.number(value).utf8 }
    mutating func bool(_ value: Bool) { out += (value ? "true" : "false").utf8 }

    mutating func int(_ value: Int) {
        guard value != 0 else { out.append(UInt8(ascii: "0")); return }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, filled from the end
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                count += 1
                buffer[24 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            out.append(contentsOf: buffer[(24 - count)...])
        }
    }

    mutating func doubles(_ values: [Double]) {
        var members = Members(level: 0, oneLine: true)
        out.append(UInt8(ascii: "["))
        for value in values {
            separate(&members)
            double(value)
        }
        out.append(UInt8(ascii: "]"))
    }

    mutating func strings(_ values: [String]) {
        var members = Members(level: 0, oneLine: true)
        out.append(UInt8(ascii: "["))
        for value in values {
            separate(&members)
            string(value)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// An array of objects at `level`: each on its own line (`[]` when empty); `element` answers
    /// false to stop.
    mutating func list<Element>(
        _ elements: [Element], level: Int,
        _ element: (inout ManifestText, Element, Int) -> Bool
    ) {
        guard !elements.isEmpty else { out += "[]".utf8; return }
        var members = Members(level: level, oneLine: false)
        out.append(UInt8(ascii: "["))
        for entry in elements {
            separate(&members)
            guard element(&self, entry, level + 1) else { return }
        }
        close(UInt8(ascii: "]"), members)
    }

    mutating func icon(_ entry: Manifest.Icon, level: Int) {
        // Its fields read once, not each through the entry's key-path lookup.
        let icon = entry.fields
        // `lints` is an array: never on one line.
        var members = Members(level: level, oneLine: false)
        out.append(UInt8(ascii: "{"))
        key("input", &members); string(icon.input)
        key("name", &members); string(icon.name)
        key("format", &members); string(icon.format)
        key("pixelWidth", &members); int(icon.pixelWidth)
        key("pixelHeight", &members); int(icon.pixelHeight)
        key("orientation", &members); int(icon.orientation)
        key("hasAlpha", &members); bool(icon.hasAlpha)
        key("animated", &members); bool(icon.animated)
        if icon.vector == true { key("vector", &members); bool(true) }
        key("contentHash", &members); hash(icon.recordedContentHash)
        key("decodeScale", &members); double(icon.decodeScale)
        key("pointWidth", &members); double(icon.pointWidth)
        key("pointHeight", &members); double(icon.pointHeight)
        if let intent = icon.intent { key("intent", &members); string(intent.rawValue) }
        if let twin = icon.selectedTwin { key("selectedTwin", &members); string(twin) }
        if let twin = icon.darkTwin { key("darkTwin", &members); string(twin) }
        let inner = level + 1
        if let renditions = icon.renditions {
            key("renditions", &members)
            list(renditions, level: inner) { text, rendition, level in
                text.rendition(rendition, level: level)
                return true
            }
        }
        if let file = icon.contentsFile { key("contentsFile", &members); self.file(file, level: inner) }
        if let file = icon.selectorFile { key("selectorFile", &members); self.file(file, level: inner) }
        if let file = icon.vectorFile { key("vectorFile", &members); self.file(file, level: inner) }
        if let stat = icon.inputStat { key("inputStat", &members); self.stat(stat) }
        if let options = icon.options { key("options", &members); options.json.write(into: &out, level: inner) }
        key("lints", &members)
        list(icon.lints, level: inner) { text, lint, _ in
            var members = Members(level: 0, oneLine: true)
            text.out.append(UInt8(ascii: "{"))
            text.key("code", &members); text.string(lint.code.rawValue)
            text.key("message", &members); text.string(lint.message)
            text.out.append(UInt8(ascii: "}"))
            return true
        }
        close(UInt8(ascii: "}"), members)
    }

    /// A rendition: on one line unless it holds a stat record (an object).
    mutating func rendition(_ entry: Manifest.RenditionEntry, level: Int) {
        var members = Members(level: level, oneLine: entry.stat == nil)
        out.append(UInt8(ascii: "{"))
        key("scale", &members); double(entry.scale)
        key("path", &members); string(entry.path)
        key("pixelWidth", &members); int(entry.pixelWidth)
        key("pixelHeight", &members); int(entry.pixelHeight)
        key("bytes", &members); int(entry.bytes)
        key("hash", &members); hash(entry.recordedHash)
        if let stat = entry.stat { key("stat", &members); self.stat(stat) }
        close(UInt8(ascii: "}"), members)
    }

    /// A file entry: on one line unless it holds a stat record.
    mutating func file(_ entry: Manifest.FileEntry, level: Int) {
        var members = Members(level: level, oneLine: entry.stat == nil)
        out.append(UInt8(ascii: "{"))
        key("path", &members); string(entry.path)
        key("bytes", &members); int(entry.bytes)
        key("hash", &members); hash(entry.recordedHash)
        if let stat = entry.stat { key("stat", &members); self.stat(stat) }
        close(UInt8(ascii: "}"), members)
    }

    /// A stat record: scalars, one line.
    mutating func stat(_ stat: FileStat) {
        var members = Members(level: 0, oneLine: true)
        out.append(UInt8(ascii: "{"))
        key("size", &members); int(stat.size)
        key("mtime", &members); int(stat.mtime)
        key("ctime", &members); int(stat.ctime)
        key("inode", &members); int(Int(truncatingIfNeeded: stat.inode))
        key("device", &members); int(Int(truncatingIfNeeded: stat.device))
        out.append(UInt8(ascii: "}"))
    }

    /// An error entry: on one line unless it keeps files (an array).
    mutating func error(_ entry: Manifest.ErrorEntry, level: Int) {
        var members = Members(level: level, oneLine: entry.keptFiles.isEmpty)
        out.append(UInt8(ascii: "{"))
        key("input", &members); string(entry.input)
        key("code", &members); string(entry.code)
        key("message", &members); string(entry.message)
        if !entry.keptFiles.isEmpty {
            key("keptFiles", &members)
            list(entry.keptFiles, level: level + 1) { text, file, level in
                text.file(file, level: level)
                return true
            }
        }
        close(UInt8(ascii: "}"), members)
    }
}

extension Manifest {
    /// The document as pretty-printed JSON, keys in the order SPEC §6 shows them.
    public func jsonData() -> Data { Data(jsonBytes) }

    package var jsonBytes: [UInt8] {
        var bytes: [UInt8] = []
        ManifestWriter.write(self) {
            bytes += $0; return true
        }
        return bytes
    }
}
