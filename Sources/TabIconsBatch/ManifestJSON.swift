import TabIcons

/// A file entry as one line of the journal (`RunJournal`) prints it. The manifest itself is
/// written by `ManifestWriter`, in the same keys.
extension Manifest.FileEntry {
    var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [("path", .string(path)), ("bytes", .int(bytes)), ("hash", .string(hash))]
        if let stat { pairs.append(("stat", stat.jsonValue)) }
        return .object(pairs)
    }
}
