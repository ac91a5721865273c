import TabIcons

/// What a run records of its inputs as they finish, in input order whatever order the workers
/// deliver them in (so the manifest and every count are the same for any `--jobs`): each outcome
/// counted into the result, each row written into the manifest's text (`ManifestWriter.Stream`
/// into `ManifestOutput`) or, under `--check`, compared with the previous manifest's entry in its
/// place, and then let go. An outcome is held only until every input before it has one, and a
/// row stays after that only in the result, when the caller asked for every entry
/// (`BatchNormalizer.resultHoldsIcons`): the run's memory follows what it works on at once, not
/// the set (SPEC §6a "Incremental"). Of the rows it keeps the paths they own, as hashes, for
/// pruning (`produces`).
struct RunRecord: Sendable {
    private(set) var result: BatchResult
    /// Outcomes that came before an earlier input's, by input, with their rows' text.
    private var waiting: [Int: (IconOutcome, [UInt8]?)] = [:]
    /// The first input whose outcome has not been recorded.
    private var next = 0
    private var stream: ManifestWriter.Stream
    /// Where the text goes; nil under `--check`, which compares instead.
    private let output: ManifestOutput?
    private var check: ManifestCheck?
    /// The hash of every path a row owns (`Hasher`, seeded per process): a stale file is pruned
    /// only when its path's hash is none of these, so a collision keeps a file, never removes one.
    /// A list (8 bytes a path, where a set takes about 17), sorted once every row and kept file
    /// is in (`sortProduced`) and searched after.
    private var produced: [Int] = []
    private var producedSorted = false
    /// Per input, the `PathSignature` of the paths its row owns (0: no row).
    private var signatures: [Int]
    private let inputs: [BatchInput]
    private let holdsIcons: Bool
    private let holdsChanges: Bool
    /// The run index made as the rows come (nil under `--check`, or when there is none to make).
    private let runIndex: RunIndexWriter?
    /// The inputs carried as the previous index recorded them (`IndexedEntries`): no worker takes
    /// them; each is recorded here, in order, once every input before it is.
    private var carrier: IndexedEntries.Reader?

    init(
        head: Manifest, inputs: [BatchInput], paths: Int = 0, manifestPath: String, limit: Int, previous: PreviousRun,
        checkOnly: Bool, holdsIcons: Bool, holdsChanges: Bool, index: RunIndexWriter? = nil
    ) {
        // Made once at the size the plan's paths need: growing by doubling holds both tables at once.
        produced.reserveCapacity(paths)
        result = BatchResult(manifest: head)
        stream = ManifestWriter.Stream(head: head)
        output = checkOnly ? nil : ManifestOutput(path: manifestPath, limit: limit)
        check = checkOnly ? ManifestCheck(recorded: previous.recorded, entries: previous.entries) : nil
        signatures = Array(repeating: 0, count: inputs.count)
        self.inputs = inputs
        self.holdsIcons = holdsIcons
        self.holdsChanges = holdsChanges
        self.runIndex = index
        carrier = previous.indexed.map(IndexedEntries.Reader.init)
    }

    /// Whether rows are written as text (`ManifestWriter.Stream.entryText` makes a row's text
    /// before the lock); under `--check` they are compared instead.
    var writesRows: Bool { output != nil }

    /// An input the run carried (`error` nil), or could not (its row read again was not the one
    /// checked), recorded with another's: the caller tells of it.
    typealias Carried = (index: Int, error: TabIconsError?)

    /// The outcome of input `index` (`text`: its row's, when `writesRows`; nil: made here),
    /// recorded with those after it that waited for it and the carried inputs among them.
    @discardableResult
    mutating func record(_ outcome: IconOutcome, text: [UInt8]? = nil, at index: Int) -> [Carried] {
        guard index == next else {
            waiting[index] = (outcome, text)
            return []
        }
        take(outcome, text, of: index)
        next += 1
        return advance()
    }

    /// The carried inputs that head the set (before any worker's): recorded at once.
    mutating func recordCarried() -> [Carried] { advance() }

    /// Records from `next` on what waited and what is carried, up to the first input that has
    /// neither yet.
    private mutating func advance() -> [Carried] {
        var carried: [Carried] = []
        while true {
            if let (outcome, text) = waiting.removeValue(forKey: next) {
                take(outcome, text, of: next)
            } else if next < inputs.count, carrier?.carries(next) == true {
                switch carrier!.row(next, name: inputs[next].name) {
                case .success(let row):
                    take(.carried(row), nil, of: next)
                    carried.append((next, nil))
                case .failure(let error):
                    take(.failed(error), nil, of: next)
                    carried.append((next, error))
                }
            } else {
                return carried
            }
            next += 1
        }
    }

    private mutating func take(_ outcome: IconOutcome, _ text: [UInt8]?, of index: Int) {
        switch outcome {
        case .written(let icon, let written, let unchanged):
            result.counts.normalized += 1
            result.counts.written += written.count
            result.counts.unchanged += unchanged
            note(written)
            row(icon, text: text, of: index)
        case .checked(let icon, let changes):
            result.counts.normalized += 1
            note(changes)
            row(icon, text: text, of: index)
        case .reused(let icon, let changes):
            // Carried over; its changes are the files its twins changed (`Contents.json`, a state list).
            result.counts.reused += 1
            if output != nil { result.counts.written += changes.count }
            result.counts.unchanged += icon.ownedFileCount - changes.count
            note(changes)
            row(icon, text: text, of: index)
        case .carried(let row):
            result.counts.reused += 1
            result.counts.unchanged += row.files
            for path in row.paths { produced.append(path.hashValue) }
            signatures[index] = PathSignature(paths: row.paths).value
            if row.undersized { result.counts.undersized += 1 }
            // Under --check it is the entry in the manifest: nothing to compare.
            if check == nil {
                // Appended whether or not there is an index (`runIndex?` would skip its arguments).
                let start = append(row.text)
                runIndex?.add(carried: row, entryStart: start)
            }
        case .failed(let error):
            result.manifest.errors.append(.init(input: inputs[index].name, error: error))
            result.counts.failed += 1
            runIndex?.spoil()
        case .stopped:
            break
        }
    }

    /// Changes of files, held in the result or counted.
    private mutating func note(_ changes: [BatchResult.Change]) {
        if holdsChanges { result.changes += changes } else { result.changesNotHeld += changes.count }
    }

    private mutating func row(_ icon: Manifest.Icon, text: [UInt8]?, of index: Int) {
        icon.forEachOwnedPath { produced.append($0.hashValue) }
        signatures[index] = PathSignature(icon).value
        let undersized = icon.lints.contains(where: { $0.code == .undersized })
        if undersized { result.counts.undersized += 1 }
        if check != nil {
            check!.icon(icon)
        } else {
            var entry = text ?? []
            if text == nil { ManifestWriter.Stream.entryText(icon, into: &entry) }
            let start = append(entry)
            runIndex?.add(icon, undersized: undersized, entryStart: start, entry: entry)
        }
        if holdsIcons { result.manifest.icons.append(icon) }
    }

    /// An entry's text into the manifest's (handed on a piece at a time); answers where it starts.
    private mutating func append(_ entry: [UInt8]) -> Int {
        let start = stream.icon(text: entry)
        if let piece = stream.take() { output?.put(piece) }
        return start
    }

    /// Every row's and kept file's path in: `produces` may be asked.
    mutating func sortProduced() {
        produced.sort()
        producedSorted = true
    }

    /// Whether a row of this run owns `path`, or a failed input keeps it (`keep`); by hash, so
    /// a path no row owns may rarely answer true (never the other way). Asked once the list is
    /// sorted (`sortProduced`); before, every path is taken as produced, so nothing is pruned.
    func produces(_ path: String) -> Bool {
        guard producedSorted else { return true }
        let hash = path.hashValue
        var low = 0
        var high = produced.count
        while low < high {
            let middle = (low + high) / 2
            if produced[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return low < produced.count && produced[low] == hash
    }

    /// Whether input number `index`'s row owns the paths of `signature` (by their signature).
    func rowOwns(_ index: Int, _ signature: PathSignature) -> Bool {
        index < signatures.count && signatures[index] != 0 && signatures[index] == signature.value
    }

    /// The files a failed input keeps (its last good run's, SPEC §6a "Whole sets"): they are not
    /// stale, and stay tabicon's (its error entry lists them).
    mutating func keep(_ files: [Manifest.FileEntry], ofError position: Int) {
        result.manifest.errors[position].keptFiles = files
        for file in files { produced.append(file.path.hashValue) }
        producedSorted = false
    }

    /// The result of a run stopped by `signal`: its manifest text dropped, the file there left
    /// as it was.
    consuming func stopped(by signal: Int32, warnings: [String]) -> BatchResult {
        output?.abandon()
        runIndex?.spoil()
        result.stoppedBy = signal
        result.warnings = warnings
        return result
    }

    mutating func add(_ changes: [BatchResult.Change], removed: Int) {
        note(changes)
        if output != nil { result.counts.removed = removed }
    }

    /// The rest of the manifest (its errors and `folders`) written, or under `--check` compared:
    /// the result of the run, its manifest as the caller asked for it.
    consuming func finish(folders: [String], warnings: [String], manifestPath path: String, limit: Int) -> BatchResult {
        result.manifest.folders = folders
        result.warnings = warnings
        if let check {
            if !check.finish(result.manifest) {
                note([.init(kind: check.recorded == nil ? .write : .change, path: path)])
            }
            return result
        }
        guard let output else { return result }
        let errors = result.manifest.errors
        _ = stream.finish(errors: errors, folders: folders) { output.put($0) }
        do throws(TabIconsError) {
            switch try output.finish() {
            case .equal: break
            case .absent: note([.init(kind: .write, path: path)])
            case .different: note([.init(kind: .change, path: path)])
            }
            // The index answers only for a run with nothing to say again.
            if errors.isEmpty, warnings.isEmpty {
                runIndex?.finish(manifestPath: path, folders: folders)
            } else {
                runIndex?.spoil()
            }
        } catch {
            runIndex?.spoil()
            result.manifestError = error
            guard error.code == .tooLarge else { return result }
            // Never a manifest the next run would refuse to read: the journal keeps what this
            // run wrote tabicon's, and the previous manifest stays as it was.
            let shown = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
            result.manifestError = TabIconsError(
                .tooLarge,
                "the manifest would hold more than \(shown), the most a run reads back; split the set into runs with their own --out",
                input: path)
        }
        return result
    }
}

/// `--check`'s comparison of the manifest a run would write with the one there, row by row as
/// the rows come (each against the recorded entry in its place, read from the file), without
/// the stat records (a cache of one machine's file system, not part of what a run produces: a
/// fresh clone has other inodes and times).
struct ManifestCheck: Sendable {
    /// The recorded manifest without its icons, and its icon entries.
    let recorded: Manifest?
    private let entries: ManifestEntries?
    private var position = 0
    private var equal: Bool

    init(recorded: Manifest?, entries: ManifestEntries?) {
        self.recorded = recorded
        self.entries = entries
        equal = recorded != nil
    }

    mutating func icon(_ icon: Manifest.Icon) {
        // A row carried over untouched is the entry its lookup read (`isSameEntry`): equal as it is.
        guard equal, let entries, position < entries.count, let recorded = entries.recorded(at: position),
            recorded.isSameEntry(as: icon) || recorded.withoutStats == icon.withoutStats
        else {
            equal = false
            entries?.dropRead()
            return
        }
        position += 1
    }

    /// Whether the manifest `rest` ends (its head, errors and folders; its icons were compared
    /// one by one) equals the recorded one.
    func finish(_ rest: Manifest) -> Bool {
        guard equal, let recorded, position == (entries?.count ?? 0) else { return false }
        var rest = rest
        rest.icons = []
        return rest.equalsIgnoringStats(recorded)
    }
}
