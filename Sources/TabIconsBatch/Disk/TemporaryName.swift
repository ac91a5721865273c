import TabIcons

/// The one name pattern of tabicon's temporary files, `.tabicon-` + 8 hex digits + `.tmp`: short
/// (a sibling, not the final name plus a suffix), and recognisable, so a run removes the
/// temporaries a killed run left, and only those.
package enum TemporaryName {
    static let prefix = ".tabicon-"
    static let suffix = ".tmp"

    /// Names count up from a random start: the system's randomness is asked once a process, not
    /// once a file (the file is created with `O_EXCL`, so a name that exists is never reused).
    private static let next = LockedState(UInt32.random(in: .min ... .max))

    package static func make() -> String {
        let hex = String(
            next.withLock { value in
                defer { value &+= 1 }; return value
            }, radix: 16)
        return prefix + String(repeating: "0", count: 8 - hex.count) + hex + suffix
    }

    /// A temporary's path in the folder of the file at `path`.
    static func path(beside path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return make() }
        return String(path[...slash]) + make()
    }

    package static func matches(_ name: String) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.utf8.count == prefix.utf8.count + 8 + suffix.utf8.count
        else { return false }
        return name.dropFirst(prefix.count).prefix(8).allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }
}
