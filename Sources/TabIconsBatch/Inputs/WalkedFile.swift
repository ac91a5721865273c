/// A file the walk found below a folder argument, held as one string, its output stem
/// (`icons/tabs/home`): its path and the name it is reported under are made when asked for, from
/// its folder argument's (one object for every file found below it), the stem's part below the
/// folder's name and the extension as found. A set of thousands of files holds one string a file
/// rather than three, and the output plan shares that string as its icon's stem.
package struct WalkedFile: Sendable {
    /// A folder argument as the walk names what it finds below it.
    package final class Folder: Sendable {
        /// The folder's path and a slash (`/work/icons/`): a file's path goes on from here.
        let path: String
        /// The argument as given and a slash (`icons/`), when it is not `path`: what a file's
        /// name goes on from.
        let shownPath: String?
        /// What a stem starts with before its slash: the folder's name (`icons`).
        let stemPrefix: String

        init(path: String, shownPath: String, stemPrefix: String) {
            self.path = path + "/"
            self.shownPath = shownPath == path ? nil : shownPath + "/"
            self.stemPrefix = stemPrefix
        }
    }

    package let outputStem: String
    private let folder: Folder
    /// The name's extension with its dot, as found (`.SVG`): at most `.svgz`, held inline.
    private let fileExtension: String

    /// The file at `relative` (with its extension, the text from `dot` on) below `folder`.
    init(folder: Folder, relative: String, dot: String.Index) {
        self.folder = folder
        outputStem = folder.stemPrefix + "/" + relative[..<dot]
        fileExtension = String(relative[dot...])
    }

    /// The path it is read from.
    package var path: String { joined(folder.path) }
    /// The name's extension as found, without its dot (`SVG`).
    package var extensionName: Substring { fileExtension.dropFirst() }
    /// The name it is reported under (the manifest's `input`).
    package var displayName: String { folder.shownPath.map(joined) ?? path }

    /// What tells one walked file from another, for a digest (`RunIndex.question`): the folder's
    /// path and name as given, the stem and the extension, each as `add` takes a string. As
    /// `path` and `displayName` are made from these, they are told apart by them; no string is
    /// made for it.
    package func spell(_ add: (Substring.UTF8View) -> Void) {
        add(Substring(folder.path).utf8)
        add(Substring(folder.shownPath ?? "").utf8)
        add(Substring(outputStem).utf8)
        add(Substring(fileExtension).utf8)
    }

    /// `body` given the path as a C string, made in a buffer of its own rather than a `String`
    /// (the run index asks every input's stat).
    package func withPath<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        let below = belowFolder
        let count = folder.path.utf8.count + below.count + fileExtension.utf8.count
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            var at = 0
            func copy(_ part: Substring.UTF8View) {
                part.withBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[at..<(at + bytes.count)])
                        .copyMemory(from: UnsafeRawBufferPointer(bytes))
                }
                at += part.count
            }
            copy(Substring(folder.path).utf8)
            copy(below)
            copy(Substring(fileExtension).utf8)
            buffer[at] = 0
            return body(buffer.baseAddress!)
        }
    }

    /// The stem's part below the folder (`tabs/home`): what a path and a name go on with.
    private var belowFolder: Substring.UTF8View { outputStem.utf8.dropFirst(folder.stemPrefix.utf8.count + 1) }

    /// `start`, the stem's part below the folder and the extension.
    private func joined(_ start: String) -> String {
        let below = belowFolder
        var text = start
        text.reserveCapacity(start.utf8.count + below.count + fileExtension.utf8.count)
        text += Substring(below)
        text += fileExtension
        return text
    }
}
