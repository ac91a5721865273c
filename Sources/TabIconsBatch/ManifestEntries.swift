import TabIcons
import Foundation

/// The previous manifest's icon entries, left in its file and read one at a time when the run
/// asks for one (by input, or by place), so that a run holds about 30 bytes an entry (its place,
/// its input's hash, what the run did with it) rather than the entries (SPEC §6a
/// "Incremental"). `ManifestReader.outline` placed them; the file stays open (a manifest renamed
/// over it later does not change what it reads).
///
/// An entry is read as the untrusted text it is, again at each read: one that does not read as
/// an icon entry, or names a path that is not a plain path below `--out` (`RelativePath`), is
/// ignored with a warning (never reused, pruned or listed), as are the entries of a file that
/// changed under the run.
final class ManifestEntries: Sendable {
    private let fd: Int32
    private let places: [ManifestReader.EntryPlace]
    /// Entry positions ordered by their input's hash, then position: an input's entries by
    /// binary search.
    private let byInput: [Int32]
    private let state: LockedState<State>
    /// Whether an entry read for a lookup is kept for `recorded(at:)` (`--check`).
    private let keepsRead: Bool

    private struct State: Sendable {
        /// The input whose lookup took each entry (`entry(forInput:)`), with the owned paths'
        /// `PathSignature` as read then; nil for an entry no lookup took.
        var taken: [(input: Int32, signature: PathSignature)?]
        /// One line for each entry ignored, by position.
        var warnings: [Int: String] = [:]
        /// Entries a lookup read, until `recorded(at:)` takes them: a few, the units in flight.
        var read: [Int: Manifest.Icon] = [:]
    }

    /// At most this many entries wait in `read`: past it they are dropped (and read again if asked).
    private static let mostKept = 4096

    /// Takes `fd` (closed with this).
    /// `keepsRead`: entries read for a lookup are kept for `recorded(at:)` (`--check` compares
    /// each row with the entry in its place, which is then usually the one its input read).
    init(fd: Int32, places: [ManifestReader.EntryPlace], keepsRead: Bool = false) {
        self.fd = fd
        self.places = places
        self.keepsRead = keepsRead
        byInput = places.indices.map(Int32.init).sorted {
            (places[Int($0)].inputHash, $0) < (places[Int($1)].inputHash, $1)
        }
        state = LockedState(State(taken: Array(repeating: nil, count: places.count)))
    }

    deinit { close(fd) }

    var count: Int { places.count }

    /// The entry at `position` as the file holds it, nil when it does not read as an icon entry
    /// (then a warning, unless `quietly`).
    func entry(at position: Int, sharing: ManifestReader.Shared? = nil, quietly: Bool = false) -> Manifest.Icon? {
        let place = places[position]
        let count = Int(place.end - place.start)
        do throws(TabIconsError) {
            // An entry of a chunk or less (every one tabicon writes) read whole; a longer one a
            // chunk at a time, as the outline read it: a million renditions cost what is kept of them.
            var reader: ManifestReader
            if count <= JSONScanner.chunk {
                guard let bytes = UntrustedFile.bytes(of: fd, at: Int(place.start), count: count) else {
                    throw TabIconsError(.io, "cannot read it again")
                }
                reader = ManifestReader(bytes)
            } else {
                reader = ManifestReader(file: fd, from: Int(place.start), size: count)
            }
            reader.sharing = sharing
            return try reader.iconRow()
        } catch {
            if !quietly { warn(position, "ignored the previous manifest's entry number \(position + 1): \(error.message)") }
            return nil
        }
    }

    /// The entry at `position` when it reads as an icon entry and names only plain paths.
    private func plainEntry(at position: Int, sharing: ManifestReader.Shared?) -> Manifest.Icon? {
        guard let icon = entry(at: position, sharing: sharing) else { return nil }
        var bad: String?
        icon.forEachOwnedPath { path in if bad == nil, !RelativePath.isPlain(path) { bad = path } }
        guard let bad else { return icon }
        warn(
            position,
            "ignored the previous manifest's entry for \(icon.input): its path \(bad.debugDescription) is not a plain path below --out"
        )
        return nil
    }

    private func warn(_ position: Int, _ line: String) {
        state.withLock { if $0.warnings[position] == nil { $0.warnings[position] = line } }
    }

    /// The first entry for `input` (by position) that reads and names only plain paths, taken
    /// by input number `index` when there is one.
    func entry(forInput input: String, index: Int?, sharing: ManifestReader.Shared? = nil) -> Manifest.Icon? {
        let hash = input.hashValue
        var low = 0, high = byInput.count
        while low < high {
            let middle = (low + high) / 2
            if places[Int(byInput[middle])].inputHash < hash { low = middle + 1 } else { high = middle }
        }
        while low < byInput.count, case let position = Int(byInput[low]), places[position].inputHash == hash {
            low += 1
            guard let icon = plainEntry(at: position, sharing: sharing), icon.input == input else { continue }
            if let index {
                let signature = PathSignature(icon)
                let keep = keepsRead
                state.withLock { state in
                    state.taken[position] = (Int32(index), signature)
                    if keep {
                        if state.read.count >= Self.mostKept { state.read.removeAll() }
                        state.read[position] = icon
                    }
                }
            }
            return icon
        }
        return nil
    }

    /// Each entry that reads and names only plain paths, in order, except those taken by an
    /// input whose row now owns exactly the paths the entry did (`owns`: none of its files can
    /// be stale).
    func forEachEntry(skipping owns: (_ input: Int, PathSignature) -> Bool, _ body: (Manifest.Icon) -> Void) {
        let taken = state.withLock { $0.taken }
        for position in places.indices {
            if let taken = taken[position], owns(Int(taken.input), taken.signature) { continue }
            if let icon = plainEntry(at: position, sharing: nil) { body(icon) }
        }
    }

    /// The entry at `position` as the file holds it (nil when it does not read), taken from those
    /// a lookup kept when it is there.
    func recorded(at position: Int) -> Manifest.Icon? {
        if keepsRead, let icon = state.withLock({ $0.read.removeValue(forKey: position) }) { return icon }
        return entry(at: position, quietly: true)
    }

    /// Drops the entries kept for `recorded(at:)`: nothing will ask for them.
    func dropRead() {
        state.withLock { $0.read.removeAll() }
    }

    /// The warnings so far, in the entries' order.
    var warnings: [String] {
        state.withLock { $0.warnings.sorted { $0.key < $1.key }.map(\.value) }
    }
}

/// The set of paths an entry or row owns, as one number: the sum of their hashes and of one
/// constant a path. Equal for equal sets (in any order); unequal sets that meet it by chance
/// only keep a stale file (`ManifestEntries.forEachEntry`), never remove one.
struct PathSignature: Sendable, Equatable {
    private(set) var value = 0

    init(_ icon: Manifest.Icon) {
        icon.forEachOwnedPath { add($0) }
    }

    init(paths: [String]) {
        paths.forEach { add($0) }
    }

    private mutating func add(_ path: String) { value &+= path.hashValue &+ 0x1E37_79B9_7F4A_7C15 }
}
