import TabIcons
import Foundation

/// One input of a batch: its name, the stem its outputs mirror, and how to get its bytes.
/// Bytes are loaded by the worker that processes the input, so a batch holds at most `jobs`
/// inputs in memory at once, however many it has.
public struct BatchInput: Sendable {
    /// The name the input is reported under (the manifest's `input`).
    public var name: String {
        switch source {
        case .file(let name, _, _, _, _), .custom(let name, _, _, _, _): name
        }
    }
    /// Where its outputs go inside `--out`, without extension (`InputItem.outputStem`).
    public var outputStem: String {
        switch source {
        case .file(_, let stem, _, _, _), .custom(_, let stem, _, _, _): stem
        }
    }
    /// The input's bytes.
    public var load: @Sendable () throws(TabIconsError) -> Data {
        switch source {
        case .custom(_, _, let load, _, _): return load
        case .file(_, _, let path, let limit, let regularOnly):
            return { () throws(TabIconsError) -> Data in
                try InputReader.read(URL(fileURLWithPath: path), limit: limit, regularOnly: regularOnly)
            }
        }
    }
    /// The input's size in bytes before it is loaded (a file's `stat`), when it can be known:
    /// a worker then waits for the memory budget before reading a large input, not after.
    public var expectedByteCount: @Sendable () -> Int? {
        switch source {
        case .custom(_, _, _, let expected, _): return expected
        case .file(_, _, let path, _, _):
            return { InputReader.regularFileSize(atPath: path) }
        }
    }
    /// The file the bytes come from, when there is one: the output plan keeps every output off
    /// it by identity (SPEC §6a "Inputs are sacred").
    public var sourcePath: String? {
        switch source {
        case .custom(_, _, _, _, let path): path
        case .file(_, _, let path, _, _): path
        }
    }
    /// The options this input is made with when they are not the batch's (`--config`'s `icons`
    /// entries); nil: the batch's. Its scales and limits must be the batch's (`IconSettings`).
    public var settings: IconSettings?

    /// Where the bytes come from, with the input's names: a file read when a worker takes it, or
    /// the caller's closures.
    private enum Source: Sendable {
        /// `regularOnly`: anything but a regular file found when it is read is an `io` error.
        case file(name: String, stem: String, path: String, limit: Int, regularOnly: Bool)
        case custom(
            name: String, stem: String, load: @Sendable () throws(TabIconsError) -> Data,
            expected: @Sendable () -> Int?, path: String?)
    }
    private let source: Source

    public init(
        name: String, outputStem: String, load: @escaping @Sendable () throws(TabIconsError) -> Data,
        expectedByteCount: @escaping @Sendable () -> Int? = { nil }, sourcePath: String? = nil
    ) {
        source = .custom(name: name, stem: outputStem, load: load, expected: expectedByteCount, path: sourcePath)
    }

    /// The file at `path`, read when a worker takes it, refusing more than `limit` bytes (and,
    /// with `regularOnly`, anything but a regular file).
    init(name: String, outputStem: String, path: String, limit: Int, regularOnly: Bool) {
        source = .file(name: name, stem: outputStem, path: path, limit: limit, regularOnly: regularOnly)
    }
}
