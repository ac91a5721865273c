import Foundation

/// The one error every TabIcons operation throws: a code a program can switch on, and a message a
/// person can act on.
///
/// The codes are the vocabulary of SPEC §6 and appear verbatim in the CLI's manifest. The message
/// carries the C library's own reason where there is one ("IDAT: incorrect data check",
/// "Premature end of JPEG file") rather than a paraphrase, so a user can search for it.
/// Errors are values: no code path in TabIcons crashes or exits on bad input.
public struct TabIconsError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable, CaseIterable, Codable {
        /// The bytes are not PNG, JPEG or WebP (the message names what they look like).
        case unsupportedFormat
        /// The file is damaged: bad checksum, invalid header or data.
        case corrupt
        /// The file ends before its image data does.
        case truncated
        /// A size limit (pixels, side, input bytes) would be exceeded; checked before allocating.
        case tooLarge
        /// A valid file of a kind TabIcons does not handle (e.g. 12-bit JPEG).
        case unsupported
        /// Reading or writing a file failed.
        case io
        /// The caller asked for something that cannot be done (e.g. more than 16 items in a slot).
        case invalidArgument
    }

    public var code: Code
    /// The reason, preferably in the underlying library's own words.
    public var message: String
    /// The format being decoded or encoded when the error happened, when known.
    public var format: ImageFormat?
    /// The input's name (a path, `-` for stdin) when known.
    public var input: String?

    public init(_ code: Code, _ message: String, format: ImageFormat? = nil, input: String? = nil) {
        self.code = code
        self.message = message
        self.format = format
        self.input = input
    }

    public var description: String {
        var parts: [String] = []
        if let input { parts.append(input) }
        if let format { parts.append(format.rawValue) }
        parts.append("\(code.rawValue): \(message)")
        return parts.joined(separator: ": ")
    }

    /// The operating system's reason for error number `code`, in `strerror`'s words, lower-cased
    /// ("no such file or directory", "permission denied"): how every `io` error says what the
    /// system said, rather than Foundation's wrapping of it.
    package static func systemReason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// The same error, naming the input it came from (decoders do not know file names).
    public func naming(_ input: String?) -> TabIconsError {
        var copy = self
        if copy.input == nil { copy.input = input }
        return copy
    }
}
