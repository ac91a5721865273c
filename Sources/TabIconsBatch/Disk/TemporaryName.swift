import TabIcons
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one name pattern of tabicon's temporary files, `.tabicon-` + 8 hex digits + `.tmp`: short
/// (a sibling, not the final name plus a suffix), and recognisable, so a run removes the
/// temporaries a killed run left, and only those.
package enum TemporaryName {
    static let prefix = ".tabicon-"
    static let suffix = ".tmp"

    /// Names count up from a random start: the system's randomness is asked once a process, not
    /// once a file (the file is created with `O_EXCL`, so a name that exists is never reused).
    private static let next = LockedState(UInt32.random(in: .min ... .max))

    /// A fresh temporary opened by `open` (an `O_CREAT | O_EXCL` open of the name it is given),
    /// the next name tried while the one tried exists (another process's temporary): the
    /// descriptor (negative, with `errno`, when the open failed otherwise) and the name.
    static func create(_ open: (String) -> Int32) -> (fd: Int32, name: String) {
        var name = make()
        var fd = open(name)
        while fd < 0 && errno == EEXIST {
            name = make()
            fd = open(name)
        }
        return (fd, name)
    }

    static func make() -> String {
        let hex = String(
            next.withLock { value in
                defer { value &+= 1 }; return value
            }, radix: 16)
        return prefix + String(repeating: "0", count: 8 - hex.count) + hex + suffix
    }

    package static func matches(_ name: String) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.utf8.count == prefix.utf8.count + 8 + suffix.utf8.count
        else { return false }
        return name.dropFirst(prefix.count).prefix(8).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
