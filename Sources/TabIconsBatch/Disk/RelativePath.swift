import TabIcons

/// What a path read back from disk (the previous manifest, the journal) must be before tabicon
/// acts on it (SPEC §6a "What it reads back is untrusted"): a plain relative path strictly below
/// `--out`. Not absolute, not empty, no empty, `.` or `..` component, no NUL. Anything else could
/// climb out of `--out` (`../victims/v.txt`, `/etc/passwd`) or name `--out` itself.
package enum RelativePath {
    package static func isPlain(_ path: String) -> Bool {
        !path.utf8.contains(0)
            && path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0 != "." && $0 != ".."
            }
    }
}
