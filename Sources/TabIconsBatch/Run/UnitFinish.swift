import TabIcons
import Foundation

/// The engine's finishing step for one unit, once every input of it is `Prepared`.
extension UnitRunner {
    /// The outcome of every input of `unit`, in the unit's order. Its rows are linked to their
    /// twins (`IconTwins.link`) here: the twins of an icon are all in its unit.
    func finish(
        unit: [Int], inputs: [BatchInput], plan: OutputPlan, directory: OutputDirectory?, prepared: [Int: Prepared]
    ) -> [(index: Int, outcome: IconOutcome)] {
        var prepared = prepared
        let stopped = { unit.map { (index: $0, outcome: self.failure(prepared[$0])) } }
        guard settings.shouldStop() == 0, !unit.contains(where: { if case .stopped? = prepared[$0] { true } else { false } })
        else { return stopped() }

        var rows: [Int: Manifest.Icon] = [:]
        var files: [Int: [IconFile]] = [:]
        for index in unit {
            switch prepared[index] {
            case .reused(var row)?:
                row.set = inputs[index].set  // the config's set now, whatever it was
                rows[index] = row
                files[index] = []
            case .made(let icon, let hash, let options, let inputStat)?:
                guard let place = try? plan.icons[index].get() else { break }
                var (row, made) = icon.row(
                    input: inputs[index].name, plan: place, contentHash: hash, planOnly: settings.planOnly)
                row.options = options
                row.inputStat = inputStat
                row.set = inputs[index].set
                // (An assembled row has it from its render already.)
                let raster = RenderedIcon.rasterSymbolFallback(row.format)
                if settings.symbols != nil, !settings.planOnly, place.symbolContentsPath == nil, !row.lints.contains(raster) {
                    row.lints.append(raster)
                }
                rows[index] = row
                files[index] = made
            default:
                break
            }
        }
        // A dark twin's files belong to its icon's set (the image set, the icon's resource at night):
        // when the icon has none this run, the twin is not written either, so the set stays as the
        // last good run left it (SPEC §6a "Whole sets"; its previous files are kept).
        if settings.layout != .flat {
            for index in unit {
                guard let dark = plan.twins[index].dark, rows[index] == nil, rows[dark] != nil else { continue }
                rows[dark] = nil
                files[dark] = nil
                prepared[dark] = .failed(
                    TabIconsError(
                        .io, "not written: its files belong to its icon \(inputs[index].name), which failed",
                        input: inputs[dark].name))
            }
        }
        // A symbol is tinted in the dark appearance too: its dark twin has no set to go in, and
        // writes nothing (its row says so).
        for index in unit {
            guard rows[index]?.symbolFile != nil, let dark = plan.twins[index].dark, var twin = rows[dark] else { continue }
            twin.renditions = []
            twin.vectorFile = nil
            let lint = Lint(
                .symbolFallback, "not written: \(inputs[index].name) is a symbol, tinted in the dark appearance as in the light")
            if !twin.lints.contains(lint) { twin.lints.append(lint) }
            rows[dark] = twin
            files[dark] = []
        }
        addSharedFiles(unit, plan: plan, prepared: prepared, rows: &rows, files: &files)
        var twins: [String: (selected: String?, dark: String?)] = [:]
        for index in unit {
            let links = plan.twins[index]
            twins[inputs[index].name] = (links.selected.map { inputs[$0].name }, links.dark.map { inputs[$0].name })
        }
        let linked = unit.filter { rows[$0] != nil }
        var linkedRows = linked.map { rows[$0]! }
        IconTwins.link(&linkedRows) { twins[$0] ?? (nil, nil) }
        for (index, row) in zip(linked, linkedRows) { rows[index] = row }

        var outcomes: [(index: Int, outcome: IconOutcome)] = []
        func done(_ index: Int, _ row: Manifest.Icon, _ changes: [BatchResult.Change], unchanged: Int) {
            let reused = if case .reused? = prepared[index] { true } else { false }
            outcomes.append((index, reused ? .reused(row, changes: changes) : .normalized(row, changes, unchanged: unchanged)))
        }
        guard let directory else {
            return unit.map { index in
                rows[index].map { (index, .made($0, files: files[index]!)) } ?? (index, failure(prepared[index]))
            }
        }
        if settings.checkOnly {
            for index in unit {
                guard let row = rows[index] else { outcomes.append((index, failure(prepared[index]))); continue }
                do throws(TabIconsError) {
                    done(index, row, try compare(files[index]!, directory: directory), unchanged: 0)
                } catch {
                    outcomes.append((index, .failed(error.naming(inputs[index].name))))
                }
            }
            return outcomes
        }
        let staged: [OutputDirectory.Staged], unchanged: [String: FileStat], committed: [String: FileStat]
        do throws(TabIconsError) {
            let set = try directory.stage(unit.flatMap { files[$0] ?? [] })
            guard settings.shouldStop() == 0 else {
                directory.discard(set.staged)
                return stopped()
            }
            committed = try directory.commit(set.staged)
            (staged, unchanged) = (set.staged, set.unchanged)
        } catch {
            // The whole unit keeps its previous files ("Whole sets").
            return unit.map { index in
                rows[index] == nil ? (index, failure(prepared[index])) : (index, .failed(error.naming(inputs[index].name)))
            }
        }
        let stagedPaths = Set(staged.map(\.relative))
        for index in unit {
            guard let row = rows[index] else { outcomes.append((index, failure(prepared[index]))); continue }
            let mine = files[index]!.map(\.path)
            let changes = mine.filter(stagedPaths.contains).map { BatchResult.Change(kind: .write, path: $0) }
            // What the file system says of the files now that they are in place (a rename moves
            // ctime): the next run's stat cache. A carried-over file not written keeps its record.
            let recorded = Dictionary(row.ownedFiles.map { ($0.path, $0.stat) }, uniquingKeysWith: { first, _ in first })
            let written = Set(mine)
            let updated = row.withFileStats { path in
                written.contains(path) ? committed[path] ?? unchanged[path] : recorded[path] ?? nil
            }
            done(index, updated, changes, unchanged: mine.filter { unchanged[$0] != nil }.count)
        }
        return outcomes
    }

    /// The files an icon shares with its twins (`Contents.json`, Android's state list), set on its
    /// row and written unless it was carried over with these very bytes.
    private func addSharedFiles(
        _ unit: [Int], plan: OutputPlan, prepared: [Int: Prepared],
        rows: inout [Int: Manifest.Icon], files: inout [Int: [IconFile]]
    ) {
        for index in unit {
            guard var row = rows[index], let icon = try? plan.icons[index].get() else { continue }
            let links = plan.twins[index]
            let reused = { if case .reused? = prepared[index] { true } else { false } }()
            func share(_ recorded: Manifest.FileEntry?, _ path: String, _ text: String) -> Manifest.FileEntry {
                let bytes = Array(text.utf8)
                let entry = Manifest.FileEntry(path: path, of: bytes)
                // A carried-over file that is already these bytes (checked on disk by `reusable`) stays as it is.
                if reused, let recorded, recorded.path == path, recorded.hash == entry.hash,
                    recorded.bytes == entry.bytes
                {
                    return recorded
                }
                files[index]!.append((path, bytes))
                return entry
            }
            if let symbol = row.symbolFile, let path = icon.symbolContentsPath {
                let text = AssetCatalogContents.symbolSet(filename: OutputDirectory.split(symbol.path).name)
                row.contentsFile = share(row.contentsFile, path, text)
            } else if let path = icon.contentsPath, let intent = row.intent {
                let text = AssetCatalogContents.json(icon: row, intent: intent, darkTwin: links.dark.flatMap { rows[$0] })
                row.contentsFile = share(row.contentsFile, path, text)
            }
            if let path = icon.selectorPath, let twin = links.selected, rows[twin] != nil,
                let twinPlan = try? plan.icons[twin].get()
            {
                let text = AndroidStateList.xml(
                    icon: OutputLayout.androidResourceName(stem: icon.stem),
                    selected: OutputLayout.androidResourceName(stem: twinPlan.stem))
                row.selectorFile = share(row.selectorFile, path, text)
            } else {
                // No state list without a twin that has its drawable this run: it would name nothing.
                row.selectorFile = nil
            }
            rows[index] = row
        }
    }

    private func failure(_ prepared: Prepared?) -> IconOutcome {
        if case .failed(let error)? = prepared { .failed(error) } else { .stopped }
    }

    /// What writing `files` would do, for `--check`.
    private func compare(_ files: [IconFile], directory: OutputDirectory) throws(TabIconsError) -> [BatchResult.Change] {
        var changes: [BatchResult.Change] = []
        for file in files {
            let existing = try directory.read(file.path)
            if existing == nil {
                changes.append(.init(kind: .write, path: file.path))
            } else if existing != file.bytes {
                changes.append(.init(kind: .change, path: file.path))
            }
        }
        return changes
    }
}
