import TabIcons
import Foundation

/// One input of a batch: its name, the stem its outputs mirror, and how to get its bytes. Bytes
/// are loaded by the worker that processes the input, so a batch holds at most `jobs` inputs in
/// memory at once, however many it has.
public struct BatchInput: Sendable {
    /// The name the input is reported under (the manifest's `input`).
    public let name: String
    /// Where its outputs go inside `--out`, without extension (`InputItem.outputStem`).
    public let outputStem: String
    public let load: @Sendable () throws(TabIconsError) -> Data
    /// The input's size before it is loaded (a file's `stat`), when it can be known: a worker then
    /// waits for the memory budget before reading a large input, not after.
    public let expectedByteCount: @Sendable () -> Int?
    /// The file the bytes come from, if any: the output plan keeps every output off it by identity
    /// (SPEC §6a "Inputs are sacred").
    public let sourcePath: String?
    /// The options this input is made with when they are not the batch's (`--config`'s `icons`
    /// entries); nil: the batch's. Its scales and limits must be the batch's (`IconSettings`).
    public var settings: IconSettings?
    /// The config `set` it is judged in by the set's lints (SPEC §3a); nil: the run's one set.
    package var set: String?

    public init(
        name: String, outputStem: String, load: @escaping @Sendable () throws(TabIconsError) -> Data,
        expectedByteCount: @escaping @Sendable () -> Int? = { nil }, sourcePath: String? = nil
    ) {
        self.name = name
        self.outputStem = outputStem
        self.load = load
        self.expectedByteCount = expectedByteCount
        self.sourcePath = sourcePath
    }
}
