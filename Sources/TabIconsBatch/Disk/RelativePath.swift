import TabIcons

/// What a path read back from disk (the previous manifest, the journal) must be before tabicon
/// acts on it (SPEC §6a "What it reads back is untrusted"): a plain relative path strictly below
/// `--out`. Not absolute, not empty, no empty, `.` or `..` component, no NUL. Anything else could
/// climb out of `--out` (`../victims/v.txt`, `/etc/passwd`) or name `--out` itself.
package enum RelativePath {
    package static func isPlain(_ path: String) -> Bool {
        // In the string's own storage: a rerun asks this of every recorded file.
        Substring(path).utf8.withBytes(isPlain)
    }

    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // One pass over the bytes: each component between slashes must be non-empty and not `.` or `..`.
        var component = 0  // bytes in the current component
        var dots = 0  // of which leading dots, while only dots
        for byte in bytes {
            switch byte {
            case 0: return false
            case UInt8(ascii: "/"):
                if component == 0 || component == dots && dots <= 2 { return false }
                component = 0
                dots = 0
            default:
                if byte == UInt8(ascii: "."), dots == component { dots += 1 }
                component += 1
            }
        }
        return !(component == 0 || component == dots && dots <= 2)
    }
}
