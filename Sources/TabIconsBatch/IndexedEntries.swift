import TabIcons
import Foundation

/// The previous manifest's entries as the run index (`RunIndex`) placed them, for a run the index
/// could not answer whole because some inputs changed, were added or were removed (SPEC §6a
/// "Incremental"). Each record is this run's input with the same key (`RunIndex.InputKeys`: its
/// name), or no input's. An input whose every record stands against the stats the output plan
/// took (`StatCache`'s rule, the index's mtime the bound, as when it answers a run), in the unit
/// recorded (the same stem, path and own options, and the same twins), as do those of every
/// input of its unit, is carried: its entry's bytes and its index record are copied into the new
/// manifest and index (`CarriedRow`), nothing of it parsed or compared. Every other record's
/// entry is placed for `ManifestEntries` under its input's name (a removed input's under none:
/// only pruning reads it), which reads it when the run asks, as it reads an outlined manifest's.
/// So a run over thousands of icons with one changed, added or removed reads that icon's entry,
/// not the manifest.
///
/// Taken only when the index asks this run's question (its options; under `--check`, the whole
/// question: the check compares entries by place), no journal is there, the manifest and `--out`
/// are the ones recorded, the index is whole, the inputs found come in its order, every entry's
/// place lies in the manifest in that order, and each carried entry's bytes hash as recorded;
/// otherwise `read` answers nil and the run reads the manifest. A forged index can say only what
/// a forged manifest can: the carried entries are that manifest's, for inputs and files whose
/// stats are as recorded.
final class IndexedEntries: Sendable {
    /// An input carried over as the previous run recorded it.
    struct CarriedRow: Sendable {
        /// Its manifest entry's text, as the previous manifest holds it.
        let text: [UInt8]
        /// Its record in the previous index (`RunIndex.InputRecord` and its files).
        let indexRecord: [UInt8]
        let files: Int
        let undersized: Bool
        /// The paths of the files it records.
        let paths: [String]
    }

    /// What the run keeps of a record (64 bytes): its entry's place and hash, its record's place,
    /// its input, what the run counts of it, whether it is carried, and the digest of the
    /// record's fields (`RecordDigest`) that the record read again must have.
    private struct Place: Sendable {
        var entryStart: Int
        var entryLength: Int
        var entryHash: ContentHash
        var recordAt: Int
        var digest = 0
        var recordLength: Int32
        var files: Int32
        /// This run's input with the record's key; -1 for none (an input removed).
        var input: Int32
        var undersized: Bool
        var carried: Bool
    }

    /// A digest of an input's record as parsed (`RunIndexCheck.Check`s: its fixed part, then each
    /// file's), a `Hasher` seeded per process.
    private struct RecordDigest {
        private var hasher = Hasher()

        init(_ record: RunIndex.InputRecord) { hasher.combine(record) }

        mutating func add(path: String, stat: FileStat, hash: ContentHash) {
            hasher.combine(path)
            hasher.combine(stat)
            hasher.combine(hash)
        }

        func finish() -> Int { hasher.finalize() }
    }

    private let manifestFile: Int32
    private let indexFile: Int32
    /// In the index's order.
    private let places: [Place]
    private let placeOfInput: InputPlaces
    /// The manifest's stat, as the index recorded it.
    let manifestStat: FileStat
    /// The manifest's folders, as the index recorded them.
    let folders: [String]
    /// How many inputs are carried.
    let carriedCount: Int

    private init(
        manifestFile: Int32, indexFile: Int32, places: [Place], placeOfInput: InputPlaces, manifestStat: FileStat,
        folders: [String]
    ) {
        self.manifestFile = manifestFile
        self.indexFile = indexFile
        self.places = places
        self.placeOfInput = placeOfInput
        self.manifestStat = manifestStat
        self.folders = folders
        carriedCount = places.count { $0.carried }
    }

    deinit {
        close(manifestFile)
        close(indexFile)
    }

    /// Whether input number `input` is carried (then so is every input of its unit).
    func carries(_ input: Int) -> Bool { place(of: input)?.carried == true }

    private func place(of input: Int) -> Place? { placeOfInput[input].map { places[$0] } }

    /// Each input's position in `places`: its own number when the index holds this very input
    /// list (nothing held), else as matched by key; nil for an input the index does not hold
    /// (an input added).
    private struct InputPlaces: Sendable {
        private var table: [Int32]?

        init(count: Int, sameList: Bool) { table = sameList ? nil : Array(repeating: -1, count: count) }

        subscript(input: Int) -> Int? {
            guard let table else { return input }
            return table[input] < 0 ? nil : Int(table[input])
        }

        /// Input `input`'s record is at `place` (with the same list, it is by position already).
        mutating func set(_ input: Int, at place: Int) { table?[input] = Int32(place) }
    }

    /// The entries not carried, in the manifest's order, placed for `ManifestEntries` (which takes
    /// the descriptor made here): a removed input's under no input's name (only pruning reads it).
    func uncarriedEntries(of inputs: [BatchInput], keepsRead: Bool) -> ManifestEntries {
        let placed = places.filter { !$0.carried }.map { place in
            ManifestReader.EntryPlace(
                start: UInt32(place.entryStart), end: UInt32(place.entryStart + place.entryLength),
                inputHash: place.input < 0 ? 0 : inputs[Int(place.input)].name.hashValue)
        }
        return ManifestEntries(fd: dup(manifestFile), places: placed, keepsRead: keepsRead)
    }

    /// Reads the carried inputs' rows in input order, the order of their places in both files.
    struct Reader {
        private let entries: IndexedEntries
        private var manifest: ForwardReader
        private var index: ForwardReader

        init(_ entries: IndexedEntries) {
            self.entries = entries
            manifest = ForwardReader(fd: entries.manifestFile)
            index = ForwardReader(fd: entries.indexFile)
        }

        /// Whether input number `input` is carried.
        func carries(_ input: Int) -> Bool { entries.carries(input) }

        /// Carried input number `input`'s row and record, read again (after every input before it
        /// asked); an `io` error naming `name` when either is no longer what the run checked (a
        /// file changed under it).
        mutating func row(_ input: Int, name: String) -> Result<CarriedRow, TabIconsError> {
            guard let place = entries.place(of: input), place.carried,
                let text = manifest.bytes(at: place.entryStart, count: place.entryLength),
                ContentHash(of: text) == place.entryHash,
                let indexRecord = index.bytes(at: place.recordAt, count: Int(place.recordLength)),
                let paths = IndexedEntries.paths(in: indexRecord, of: place)
            else {
                return .failure(
                    TabIconsError(
                        .io, "the previous manifest or its index changed while the run read them; run again", input: name))
            }
            return .success(
                CarriedRow(
                    text: Array(text), indexRecord: Array(indexRecord), files: Int(place.files), undersized: place.undersized,
                    paths: paths))
        }
    }

    /// The files' paths of an input's record read again (parsed as the index's body is, by
    /// `RunIndexCheck.Body`), nil unless it is whole and its fields' digest is the one judged.
    private static func paths(in bytes: ArraySlice<UInt8>, of place: Place) -> [String]? {
        var body = RunIndexCheck.Body(inputs: 1, files: Int(place.files), at: place.recordAt)
        guard body.take(bytes), body.isComplete, case .input(_, let record, _)? = body.checks.first else { return nil }
        var fields = RecordDigest(record)
        var paths: [String] = []
        for case .file(let path, let stat, let hash) in body.checks.dropFirst() {
            fields.add(path: path, stat: stat, hash: hash)
            paths.append(path)
        }
        return fields.finish() == place.digest ? paths : nil
    }

    /// The index at `path` read for this run, nil when it cannot serve (see the type).
    /// `sameInputs`: only an index of this very input list serves (`--check`).
    static func read(
        path: String, question: RunIndex.Question, keys: RunIndex.InputKeys, sameInputs: Bool, manifestPath: String,
        journalPath: String, root: String, inputs: [BatchInput], plan: OutputPlan
    ) -> IndexedEntries? {
        guard
            let index = RunIndexCheck.Opened(
                path: path, question: question, inputs: sameInputs ? inputs.count : nil, manifestPath: manifestPath,
                journalPath: journalPath, root: root),
            let (manifestFile, manifestStat) = (try? UntrustedFile.opened(manifestPath)) ?? nil
        else { return nil }
        var handedOver = false
        defer { if !handedOver { close(manifestFile) } }
        guard manifestStat == index.tail.manifest, manifestStat.size <= Int(UInt32.max) else { return nil }
        // The same input list: record n is input n, in the unit recorded (units come from the
        // list and the options), its key and unit not read. Another: each matched by key, its
        // unit compared.
        let sameList = index.tail.question == question && index.tail.inputs == inputs.count
        let byKey = sameList ? nil : keys.table()
        guard sameList || byKey != nil else { return nil }

        let cache = StatCache(trusted: true, recordedBefore: index.stat.mtime)
        var places: [Place] = []
        var placeOfInput = InputPlaces(count: inputs.count, sameList: sameList)
        var lastInput = -1  // the last record's input: the inputs found come in the index's order
        var icon: OutputPlan.Icon?  // the last record's input's, its paths listed
        var seen: UInt64 = 0  // its planned paths' positions its records named
        var fields: RecordDigest?  // its record's, so far
        let read = index.read { checks, _ in
            defer { checks.removeAll(keepingCapacity: true) }
            for check in checks {
                switch check {
                case .input(let number, let record, let at):
                    if let fields { places[places.count - 1].digest = fields.finish() }
                    fields = RecordDigest(record)
                    // Lengths past what the manifest and index can hold are not this run's.
                    guard record.entryLength >= 0, record.entryLength <= UntrustedFile.cap, record.files <= Int32.max else {
                        return false
                    }
                    let input = sameList ? number : byKey!.input(forKey: record.key)
                    if let input {
                        guard input > lastInput else { return false }
                        lastInput = input
                        placeOfInput.set(input, at: places.count)
                    }
                    icon = input.flatMap { try? plan.icons[$0].get().listed }
                    seen = 0
                    let stands =
                        input.map { sameList || record.unit == keys.unit($0) } == true
                        && icon.map { record.files <= $0.pathCount && $0.pathCount <= 64 } == true
                        && cache.isUnchanged(recorded: record.stat, current: plan.inputStat(input!))
                    places.append(
                        Place(
                            entryStart: record.entryStart, entryLength: record.entryLength, entryHash: record.entryHash,
                            recordAt: at, recordLength: Int32(RunIndex.InputRecord.bytes), files: Int32(record.files),
                            input: Int32(input ?? -1), undersized: record.undersized, carried: stands))
                case .file(let path, let stat, let hash):
                    let last = places.count - 1
                    places[last].recordLength += Int32(RunIndex.fileRecordBytes(pathLength: path.utf8.count))
                    fields?.add(path: path, stat: stat, hash: hash)
                    guard places[last].carried else { continue }
                    // Each a planned path, once, its stat as recorded (an icon too small for a
                    // scale has fewer files than paths).
                    guard let icon, let position = icon.position(of: path), seen & (1 << position) == 0,
                        let current = plan.outputStat(ofInput: Int(places[last].input), at: position),
                        cache.isUnchanged(recorded: stat, current: current)
                    else {
                        places[last].carried = false
                        continue
                    }
                    seen |= 1 << position
                }
            }
            return true
        }
        guard let folders = read, !sameList || places.count == inputs.count else { return nil }
        if let fields { places[places.count - 1].digest = fields.finish() }
        // A unit is carried whole or not at all: an icon's shared files list its twins'.
        for unit in plan.sharedUnits
        where unit.contains(where: { placeOfInput[$0].map { !places[$0].carried } ?? true }) {
            for case let place? in unit.map({ placeOfInput[$0] }) { places[place].carried = false }
        }
        // Every entry in the manifest, in input order, apart; each carried one's bytes as recorded.
        var reader = ForwardReader(fd: manifestFile)
        var end = 0
        for place in places {
            guard place.entryStart >= end, place.entryLength >= 2, place.entryLength <= manifestStat.size - place.entryStart
            else { return nil }
            end = place.entryStart + place.entryLength
            if place.carried {
                guard let text = reader.bytes(at: place.entryStart, count: place.entryLength),
                    ContentHash(of: text) == place.entryHash
                else { return nil }
            }
        }
        handedOver = true
        return IndexedEntries(
            manifestFile: manifestFile, indexFile: dup(index.fd), places: places, placeOfInput: placeOfInput,
            manifestStat: manifestStat, folders: folders)
    }
}
