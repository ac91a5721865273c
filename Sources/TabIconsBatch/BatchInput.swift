import TabIcons
import Foundation

/// One input of a batch: its name, the stem its outputs mirror, and how to get its bytes.
/// Bytes are loaded by the worker that processes the input, so a batch holds at most `jobs`
/// inputs in memory at once, however many it has.
public struct BatchInput: Sendable {
    /// The name the input is reported under (the manifest's `input`).
    public var name: String {
        switch source {
        case .walked(let file, _): file.displayName
        case .file(let name, _, _, _, _), .custom(let name, _, _, _, _): name
        }
    }
    /// Where its outputs go inside `--out`, without extension (`InputItem.outputStem`).
    public var outputStem: String {
        switch source {
        case .walked(let file, _): file.outputStem
        case .file(_, let stem, _, _, _), .custom(_, let stem, _, _, _): stem
        }
    }
    /// The input's bytes.
    public var load: @Sendable () throws(TabIconsError) -> Data {
        switch source {
        case .custom(_, _, let load, _, _): return load
        case .walked, .file:
            let (path, limit, regularOnly) = file!
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
        case .walked, .file:
            let path = file!.path
            return { InputReader.regularFileSize(atPath: path) }
        }
    }
    /// The file the bytes come from, when there is one: the output plan keeps every output off
    /// it by identity (SPEC §6a "Inputs are sacred").
    public var sourcePath: String? {
        switch source {
        case .custom(_, _, _, _, let path): path
        case .walked, .file: file!.path
        }
    }
    /// The format the input's name suggests by its extension (`ImageDecoder.format(suggestedByExtension:)`):
    /// what a worker started ahead loads, never what decodes it.
    var suggestedFormat: ImageFormat? {
        switch source {
        case .walked(let file, _): return ImageDecoder.format(suggestedByExtension: file.extensionName)
        case .file(let name, _, _, _, _), .custom(let name, _, _, _, _): return ImageDecoder.format(suggestedByName: name)
        }
    }
    /// The file read for the bytes, when the batch reads one (not a caller's closure): what the
    /// run index records a stat of (`RunIndex`).
    var file: (path: String, limit: Int, regularOnly: Bool)? {
        switch source {
        case .walked(let file, let limit): (file.path, limit, true)
        case .file(_, _, let path, let limit, let regularOnly): (path, limit, regularOnly)
        case .custom: nil
        }
    }
    /// The file the walk found and the most bytes read of it, when this input is one.
    var walked: (file: WalkedFile, limit: Int)? {
        if case .walked(let file, let limit) = source { (file, limit) } else { nil }
    }
    /// The options this input is made with when they are not the batch's (`--config`'s `icons`
    /// entries); nil: the batch's. Its scales and limits must be the batch's (`IconSettings`).
    public var settings: IconSettings? {
        get { _settings?.value }
        set { _settings = newValue.map(OptionalBox.init) }
    }
    // Boxed: most inputs have none, and a set of thousands holds every input for the whole run.
    private var _settings: OptionalBox<IconSettings>?

    /// Where the bytes come from, with the input's names: a file the walk found (one string,
    /// `WalkedFile`), another file read when a worker takes it (held as its path: a set of
    /// thousands of files holds no closure an input), or the caller's closures. The last two are
    /// boxed (`indirect`): a set of thousands is walked files.
    private enum Source: Sendable {
        /// A regular file the walk found, refusing more than the limit's bytes.
        case walked(WalkedFile, limit: Int)
        /// `regularOnly`: anything but a regular file found when it is read is an `io` error.
        indirect case file(name: String, stem: String, path: String, limit: Int, regularOnly: Bool)
        indirect case custom(
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

    /// A file the walk found, refusing more than `limit` bytes.
    init(walked file: WalkedFile, limit: Int) {
        source = .walked(file, limit: limit)
    }
}
