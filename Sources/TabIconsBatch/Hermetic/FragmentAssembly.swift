import TabIcons
import Foundation

/// `tabicon assemble` (SPEC §9): the folders `HermeticRender` wrote, merged into the layout's final
/// tree and one manifest, byte for byte what `normalize` writes for the same inputs and options
/// into an empty `--out`. Each icon is placed by the same plan (`OutputPlan.make`: names, twins,
/// collisions) and finished by the same step (`UnitRunner.finish`: rows linked to their twins, an
/// image set's `Contents.json` with its dark twin, Android's state list); the icons are listed by
/// input path, the order a folder's walk gives. The fragments and their files are untrusted inputs:
/// read as `normalize` reads its inputs (a link to a file followed, as a build sandbox links them
/// in; nothing but regular files), under caps, each checked against its recorded size and hash.
public struct FragmentAssembly: Sendable {
    public var outputRoot: URL
    public var manifestURL: URL

    public init(outputRoot: URL, manifestURL: URL) {
        self.outputRoot = outputRoot
        self.manifestURL = manifestURL
    }

    /// The most fragments one assembly reads (a large design system's icons, many times over).
    static let mostFragments = 100_000
    /// The largest file a fragment may list (a rendition or vector: far below this).
    static let largestFile = 256 << 20

    /// One icon as a fragment recorded it, with its files' bytes.
    struct Recorded: Sendable {
        var stem: String
        var icon: Manifest.Icon
        var rendered: RenderedIcon
        var hash: ContentHash
    }

    /// The fragments of one assembly, read and checked (`read`).
    public struct Fragments: Sendable {
        /// The layout they were rendered for (the manifest's default place depends on it).
        public let layout: OutputLayout
        let options: OptionFingerprint
        let box: IconBox
        let scales: [Double]
        let fileExtension: String
        /// What the set lints judge by, as every fragment recorded it.
        let thresholds: SetLints.Thresholds
        /// By input path.
        let recorded: [Recorded]
        /// Where they were read from.
        let folders: [String]
    }

    /// The fragments found in `folders`, checked. One that cannot be used (another version's,
    /// other options than the first, a file missing or changed, the same input twice) is a usage
    /// error naming it.
    public static func read(_ folders: [String]) throws(BatchUsageError) -> Fragments {
        var recorded: [Recorded] = []
        var header: Manifest?
        var fragmentOf: [String: String] = [:]  // input → the fragment that recorded it
        for folder in folders {
            for (path, stem) in try fragments(in: folder) {
                let place = (folder as NSString).appendingPathComponent(path)
                let (document, icon, rendered, hash) = try read(path, in: folder, place: place)
                if let header {
                    guard document.options == header.options, document.box == header.box, document.scales == header.scales
                    else {
                        throw BatchUsageError(
                            "\(place) was rendered with other options than \(fragmentOf.values.sorted().first ?? "")"
                                + " (every fragment of one assembly must come from the same options and tabicon)")
                    }
                    guard document.lintThresholds == header.lintThresholds else {
                        throw BatchUsageError(
                            "\(place) was rendered with other lint thresholds (a config's \"lints\") than "
                                + "\(fragmentOf.values.sorted().first ?? ""): a set is judged by one")
                    }
                } else {
                    header = document
                }
                if let other = fragmentOf[icon.input] {
                    throw BatchUsageError("\(place) and \(other) both record the input \(icon.input)")
                }
                fragmentOf[icon.input] = place
                recorded.append(Recorded(stem: stem, icon: icon, rendered: rendered, hash: hash))
            }
        }
        guard let header, let options = header.options else {
            throw BatchUsageError("no fragments (*\(ManifestFragment.suffix)) in \(folders.joined(separator: ", "))")
        }
        guard let layout = options.layout, let run = options.fileExtension, let box = IconBox(points: header.box) else {
            throw BatchUsageError("the fragments record a layout, format or box this tabicon does not know")
        }
        return Fragments(
            layout: layout, options: options, box: box, scales: header.scales, fileExtension: run,
            thresholds: header.lintThresholds ?? SetLints.Thresholds(),
            recorded: recorded.sorted { $0.icon.input < $1.icon.input }, folders: folders)
    }

    /// Writes the assembled tree and its manifest. Inputs whose outputs meet under the naming rule
    /// fail as in `normalize` (errors in the manifest).
    public func run(_ fragments: Fragments) throws(BatchUsageError) -> BatchResult {
        let root = outputRoot.relativePath
        try EmptyFolder.check(root, flag: "--out")
        // Nothing written among the fragments: a later assembly of the same folders would read it.
        func real(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        for folder in fragments.folders.map(real) {
            for (flag, path) in [("--out", root), ("--manifest", manifestURL.relativePath)]
            where real(path) == folder || real(path).hasPrefix(folder == "/" ? "/" : folder + "/") {
                throw BatchUsageError("\(flag) \(path) is inside the fragment folder \(folder)")
            }
        }
        let (recorded, options, layout, run) = (fragments.recorded, fragments.options, fragments.layout, fragments.fileExtension)
        // The inputs as normalize saw them: names, stems and each one's file extension.
        let scales = fragments.scales
        let runOptions = NormalizeOptions(box: fragments.box, scales: scales)
        let inputs = recorded.map { entry in
            var input = BatchInput(
                name: entry.icon.input, outputStem: entry.stem,
                load: { () throws(TabIconsError) -> Data in throw TabIconsError(.io, "an assembled input is not read") })
            input.set = entry.icon.set
            if let own = entry.icon.options?.fileExtension, own != run {
                input.settings = IconSettings(options: runOptions, format: own == "webp" ? .webp(quality: nil) : .png)
            }
            return input
        }
        let plan = try OutputPlan.make(
            inputs,
            .init(
                layout: layout, fileExtension: run, scales: scales, outputRoot: root,
                manifestPath: manifestURL.relativePath, inputFolders: [], vector: options.vector,
                symbols: options.symbols != nil))
        let directory: OutputDirectory
        do throws(TabIconsError) {
            directory = try OutputDirectory(root: root, create: true)
        } catch {
            throw BatchUsageError("--out \(root): \(error.message)")
        }
        // The finishing step needs the layout of the run; nothing here is rendered.
        let settings = EngineSettings(
            normalizer: Normalizer(options: runOptions), layout: layout, format: .png, vector: options.vector,
            symbols: options.symbols, shouldStop: { 0 })
        let finisher = UnitRunner(settings: settings, previous: nil, memoryBudget: 0, jail: nil)
        var outcomes = [IconOutcome?](repeating: nil, count: inputs.count)
        for unit in plan.units {
            var prepared: [Int: UnitRunner.Prepared] = [:]
            for index in unit {
                let entry = recorded[index]
                prepared[index] = .made(entry.rendered, entry.hash, options: entry.icon.options, inputStat: nil)
            }
            for (index, outcome) in finisher.finish(
                unit: unit, inputs: inputs, plan: plan, directory: directory, prepared: prepared)
            {
                outcomes[index] = outcome
            }
        }

        var manifest = Manifest(box: runOptions.box, scales: scales, options: options)
        var result = BatchResult(manifest: manifest)
        for (index, outcome) in outcomes.enumerated() {
            switch outcome {
            case .normalized(let icon, let changes, _)?:
                result.counts.normalized += 1
                result.counts.written += changes.count
                result.changes += changes
                manifest.icons.append(icon)
            case .failed(let error)?:
                manifest.errors.append(Manifest.ErrorEntry(input: inputs[index].name, error: error))
                result.counts.failed += 1
            default:
                break
            }
        }
        SetLints.apply(&manifest.icons, thresholds: fragments.thresholds)
        manifest.folders = directory.createdFolders.filter { directory.folderExists($0) }.sorted()
        result.manifest = manifest
        do throws(TabIconsError) {
            try AtomicFileWriter.write(manifest.jsonBytes, toPath: manifestURL.relativePath)
            result.changes.append(.init(kind: .write, path: manifestURL.relativePath))
        } catch {
            result.manifestError = error
        }
        return result
    }

    /// Every fragment below `folder` (its path there, and the stem it stands for), sorted by path:
    /// folders walked without following a link, hidden ones included, at most `mostFragments`.
    static func fragments(in folder: String) throws(BatchUsageError) -> [(path: String, stem: String)] {
        let directory: OutputDirectory
        do throws(TabIconsError) {
            directory = try OutputDirectory(root: folder, create: false)
        } catch {
            throw BatchUsageError("cannot read the fragment folder \(folder): \(error.message)")
        }
        var found: [(path: String, stem: String)] = []
        var pending = [""]
        var seen = 0
        while let relative = pending.popLast() {
            let fd: Int32?
            do throws(TabIconsError) {
                fd = try directory.openFolder(relative, create: false)
            } catch {
                throw BatchUsageError("cannot read the fragment folder \(folder)/\(relative): \(error.message)")
            }
            guard let fd else { throw BatchUsageError("no fragment folder \(folder)") }
            defer { close(fd) }
            let names: [[UInt8]]
            do throws(TabIconsError) { names = try DirectoryListing.names(inFolder: fd) } catch {
                throw BatchUsageError("cannot read the fragment folder \(folder)/\(relative): \(error.message)")
            }
            for bytes in names {
                seen += 1
                guard seen <= mostFragments * 8 else {
                    throw BatchUsageError("\(folder) holds more files than an assembly reads (\(mostFragments * 8))")
                }
                // A name that is not UTF-8 is no fragment and no folder of one (stems are text).
                guard let name = String(validating: bytes, as: UTF8.self) else { continue }
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                // A build sandbox links each input file in: a link is read as the file it leads
                // to (as `normalize` reads its inputs), a linked folder is not walked (no loop).
                if info.st_mode & S_IFMT == S_IFLNK, fstatat(fd, name, &info, 0) != 0 || info.st_mode & S_IFMT != S_IFREG {
                    continue
                }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append(path)
                case S_IFREG: if let stem = ManifestFragment.stem(ofPath: path) { found.append((path, stem)) }
                default: continue
                }
            }
            guard found.count <= mostFragments else {
                throw BatchUsageError("\(folder) holds more than \(mostFragments) fragments")
            }
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The fragment at `path` in `folder`, checked: this tool's, one icon, its files there with
    /// the recorded bytes.
    static func read(_ path: String, in folder: String, place: String) throws(BatchUsageError)
        -> (Manifest, Manifest.Icon, RenderedIcon, ContentHash)
    {
        func refuse(_ why: String) -> BatchUsageError { BatchUsageError("the fragment \(place) \(why)") }
        /// A file of the fragment's folder as an input is read (a link followed, as a build
        /// sandbox links inputs in; no FIFO or device; refused by its size past `cap`), nil when none.
        func contents(_ relative: String, cap: Int) throws(TabIconsError) -> [UInt8]? {
            let full = (folder as NSString).appendingPathComponent(relative)
            var info = stat()
            if stat(full, &info) != 0, errno == ENOENT { return nil }
            return [UInt8](try InputReader.read(URL(fileURLWithPath: full), limit: cap, regularOnly: true))
        }
        let read: [UInt8]?
        do throws(TabIconsError) { read = try contents(path, cap: UntrustedFile.cap) } catch {
            throw refuse("cannot be read: \(error.message)")
        }
        guard let text = read else { throw refuse("is gone") }
        let document: Manifest
        do throws(TabIconsError) { document = try Manifest(parsing: Data(text)) } catch { throw refuse("is \(error.message)") }
        guard document.tool == TabIconsVersion.tool else {
            throw refuse("was rendered by \(document.tool), not \(TabIconsVersion.tool): render it again with this tabicon")
        }
        guard document.version == 1, document.options != nil, document.icons.count == 1, document.errors.isEmpty,
            let icon = document.icons.first
        else { throw refuse("is not one rendered icon of this version") }
        if let problem = icon.problem { throw refuse("cannot be used: \(problem)") }
        guard let hash = ContentHash(description: icon.contentHash) else { throw refuse("records no content hash") }
        func bytes(_ file: Manifest.FileEntry) throws(BatchUsageError) -> [UInt8] {
            guard file.bytes <= largestFile else { throw refuse("lists \(file.path) of \(file.bytes) bytes") }
            let read: [UInt8]?
            let changed = refuse("lists \(file.path), whose bytes are not the ones recorded")
            do throws(TabIconsError) { read = try contents(file.path, cap: file.bytes) } catch {
                // Larger than recorded: refused by its size, unread.
                throw error.code == .tooLarge ? changed : refuse("lists \(file.path), which cannot be read: \(error.message)")
            }
            guard let read else { throw refuse("lists \(file.path), which is not there") }
            guard read.count == file.bytes, ContentHash(of: read).description == file.hash else { throw changed }
            return read
        }
        var renditions: [RenderedIcon.Rendition] = []
        for entry in icon.renditions ?? [] {
            let file = Manifest.FileEntry(path: entry.path, bytes: entry.bytes, hash: entry.hash)
            renditions.append(
                .init(scale: entry.scale, pixelWidth: entry.pixelWidth, pixelHeight: entry.pixelHeight, bytes: try bytes(file)))
        }
        var vector: [UInt8]?
        if let file = icon.vectorFile ?? icon.symbolFile { vector = try bytes(file) }
        guard let rendered = RenderedIcon(recorded: icon, renditions: renditions, vector: vector) else {
            throw refuse("records no measures, or a format, orientation or intent this tabicon does not know")
        }
        return (document, icon, rendered, hash)
    }
}

extension RenderedIcon {
    /// What a row recorded, with its files: the icon `row` places again (at another plan's paths).
    init?(recorded row: Manifest.Icon, renditions: [Rendition], vector: [UInt8]?) {
        guard let format = ImageFormat(rawValue: row.format), let orientation = Orientation(rawValue: row.orientation),
            let intent = row.intent, let measures = row.measures
        else { return nil }
        self.init(
            figures: Figures(
                format: format, pixelWidth: row.pixelWidth, pixelHeight: row.pixelHeight, orientation: orientation,
                hasAlpha: row.hasAlpha, animated: row.animated, vector: row.vector ?? false, decodeScale: row.decodeScale,
                pointWidth: row.pointWidth, pointHeight: row.pointHeight, intent: intent,
                lints: row.lints.filter { $0.code != .twinMismatch }, measures: measures),
            renditions: renditions, vector: vector)
    }
}
