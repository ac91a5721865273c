import TabIcons
import Foundation

/// A worker's answer to one `WorkerRequest`, in `WorkerWire`'s framing: the rendered icon (its
/// manifest row as the manifest's own JSON, and its files), the inspected row, or the error the
/// library threw.
///
/// The batch trusts none of it: a reply is read with every length checked, a file must be one
/// of the plan's paths, each rendition's size and hash must be those of the bytes that came with
/// it, and the input's name and content hash are the batch's own, not the worker's.
enum WorkerReply: Sendable {
    case rendered(RenderedIcon)
    case inspected(Manifest.Icon)
    case failed(TabIconsError)

    static let renderedKind: UInt8 = 1
    static let inspectedKind: UInt8 = 2
    static let failedKind: UInt8 = 3

    var encoded: [UInt8] {
        var writer = WorkerWire.Writer()
        switch self {
        case .rendered(let icon):
            writer.data(Self.encoded(icon.row))
            writer.int(icon.files.count)
            for file in icon.files {
                writer.string(file.path)
                writer.data(file.bytes)
            }
            return WorkerWire.frame(kind: Self.renderedKind, fields: writer.bytes)
        case .inspected(let row):
            writer.data(Self.encoded(row))
            return WorkerWire.frame(kind: Self.inspectedKind, fields: writer.bytes)
        case .failed(let error):
            writer.string(error.code.rawValue)
            writer.string(error.message)
            writer.optionalString(error.format?.rawValue)
            return WorkerWire.frame(kind: Self.failedKind, fields: writer.bytes)
        }
    }

    /// The reply to `request` from its bytes, checked against the request.
    init(kind: UInt8, fields: [UInt8], answering request: WorkerRequest, contentHash: ContentHash) throws(WorkerWire.Malformed) {
        var reader = WorkerWire.Reader(fields)
        switch (kind, request) {
        case (Self.renderedKind, .render(let input, let plan, _, _, _, _)):
            // The plan's path strings stand for the reply's equal ones: a run holds each once.
            let planned = plan.renditionPaths.map(\.path) + (plan.vectorPath.map { [$0] } ?? [])
            let row = try Self.row(
                try reader.data(), input: input, name: OutputLayout.iconName(stem: plan.stem), contentHash: contentHash,
                paths: planned)
            var files: [IconFiles.File] = []
            for _ in 0..<(try reader.count(minimumSize: 8)) {
                let path = try reader.string()
                files.append(IconFiles.File(path: planned.first { $0 == path } ?? path, bytes: Array(try reader.data())))
            }
            try reader.end()
            try Self.check(row, files: files, plan: plan)
            self = .rendered(RenderedIcon(row: row, files: files))
        case (Self.inspectedKind, .inspect(let input, let name, _, _, _)):
            let row = try Self.row(try reader.data(), input: input, name: name, contentHash: contentHash)
            try reader.end()
            guard row.renditions == nil, row.contentsFile == nil, row.vectorFile == nil else {
                throw WorkerWire.Malformed("an inspected icon with files")
            }
            self = .inspected(row)
        case (Self.failedKind, _):
            guard let code = TabIconsError.Code(rawValue: try reader.string()) else {
                throw WorkerWire.Malformed("an unknown error code")
            }
            let message = try reader.string()
            let format = try reader.optionalString().map { (name: String) throws(WorkerWire.Malformed) -> ImageFormat in
                guard let format = ImageFormat(rawValue: name) else { throw WorkerWire.Malformed("an unknown format") }
                return format
            }
            try reader.end()
            self = .failed(TabIconsError(code, message, format: format))
        default:
            throw WorkerWire.Malformed("a reply of kind \(kind) to this request")
        }
    }

    /// A row as the worker sends it: its `Codable` form.
    private static func encoded(_ row: Manifest.Icon) -> Data { (try? JSONEncoder().encode(row)) ?? Data() }

    /// The row from its `Codable` form, naming what the batch named.
    private static func row(
        _ json: ArraySlice<UInt8>, input: String, name: String,
        contentHash: ContentHash, paths: [String] = []
    ) throws(WorkerWire.Malformed) -> Manifest.Icon {
        var row: Manifest.Icon
        do {
            row = try JSONDecoder().decode(Manifest.Icon.self, from: Data(json))
        } catch {
            throw WorkerWire.Malformed("an unreadable manifest row")
        }
        row.input = input
        row.name = name
        row.contentHash = contentHash.description
        return row
    }

    /// The files are the plan's, each once, renditions first in the row's order, and the row's
    /// sizes and hashes are the files'.
    private static func check(_ row: Manifest.Icon, files: [IconFiles.File], plan: OutputPlan.Icon) throws(WorkerWire.Malformed) {
        // A state list names drawables of the run: the batch makes it (`UnitRunner`), never a worker.
        guard row.selectorFile == nil else { throw WorkerWire.Malformed("a state list, which only the batch writes") }
        let renditions = row.renditions ?? []
        // A vector is the plan's, alone in place of the renditions, with its size and hash.
        if let vector = row.vectorFile {
            guard vector.path == plan.vectorPath, renditions.isEmpty, let file = files.first, file.path == vector.path,
                vector.bytes == file.bytes.count, vector.hash == ContentHash(of: file.bytes).description
            else { throw WorkerWire.Malformed("a vector file the plan has no place for, or not its file") }
        }
        let expected = renditions.map(\.path) + (row.vectorFile.map { [$0.path] } ?? [])
        guard files.map(\.path) == expected, Set(expected).count == expected.count else {
            throw WorkerWire.Malformed("files that are not the row's")
        }
        for (entry, file) in zip(renditions, files) {
            guard plan.path(forScale: entry.scale) == entry.path, entry.bytes == file.bytes.count,
                entry.hash == ContentHash(of: file.bytes).description
            else {
                throw WorkerWire.Malformed("a rendition whose size or hash is not its file's")
            }
        }
        // An image set's Contents.json names the unit's files: the batch makes it, never a worker.
        guard row.contentsFile == nil else { throw WorkerWire.Malformed("a Contents.json, which only the batch writes") }
    }
}
