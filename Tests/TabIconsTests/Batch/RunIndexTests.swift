import Foundation
import Testing
@testable import TabIcons
@testable import TabIconsCore
@testable import TabIconsBatch

/// SPEC §6a "Incremental": the run index answers a run that has nothing to do from stats alone,
/// and every finding that is not "the same question, every stat as recorded" falls back to the
/// manifest, with the same result as a run that never had an index.
@Suite("The run index")
struct RunIndexTests {
    typealias B = BuildStep

    static let names = ["bell.png", "heart.png", "home.png", "rgba-32.png"]

    struct Scene {
        let dir: TemporaryDirectory
        let out: TemporaryDirectory
        var names = RunIndexTests.names
        var scales: [Double] = [1, 2, 3]
        var layout = OutputLayout.flat
        /// The most bytes read of an input, by name (1 MiB when not named).
        var limits: [String: Int] = [:]
        var index: String { out.path("manifest.json.index") }
        var manifest: String { out.path("manifest.json") }

        /// Inputs (each name's file a copy of a TestImages file) and a first run, its index aged
        /// a second so that no record is racily clean.
        init(files: [(String, String)] = RunIndexTests.names.map { ($0, $0) }, layout: OutputLayout = .flat) throws {
            dir = try B.inputs(files)
            out = try TemporaryDirectory("index-out")
            names = files.map(\.0)
            self.layout = layout
            let first = try run()
            #expect(first.result.counts.normalized == files.count && !first.result.answeredFromIndex)
            try age()
        }

        /// The batch as `tabicon normalize` runs it: files read by the batch, no icons held.
        /// `carried` is told how many inputs the index carried (nil: the manifest was read).
        func run(
            answers: Bool = true, check: Bool = false, force: Bool = false, verify: Bool = false,
            holdsIcons: Bool = false, stop: (@Sendable () -> Int32)? = nil,
            carried: (@Sendable (Int?) -> Void)? = nil
        ) throws -> (result: BatchResult, events: [String]) {
            var options = NormalizeOptions()
            options.scales = scales
            var batch = BatchNormalizer(
                normalizer: Normalizer(options: options), layout: layout, outputRoot: out.url, jobs: 2)
            if let carried { batch.readPrevious = { carried($0.indexed?.carriedCount) } }
            batch.answersFromIndex = answers
            batch.resultHoldsIcons = holdsIcons
            batch.checkOnly = check
            batch.force = force
            batch.verify = verify
            if let stop { batch.shouldStop = stop }
            let events = LockedState<[(Int, String)]>([])
            let result = try batch.run(inputs(names)) { event in
                let line: (Int, String) =
                    switch event {
                    case .done(let index, let name, _): (index, "done " + name)
                    case .reused(let index, let name, _): (index, "reused " + name)
                    case .unchanged(let index, let name): (index, "unchanged " + name)
                    case .failed(let index, let name, _): (index, "failed " + name)
                    }
                events.withLock { $0.append(line) }
            }
            return (result, events.withLock { $0 }.sorted { $0.0 < $1.0 }.map(\.1))
        }

        /// `icons/<name>` of the inputs' folder as the walk hands them over: files the batch reads.
        func inputs(_ names: [String]) -> [BatchInput] {
            names.map { name in
                BatchInput(
                    name: "icons/" + name, outputStem: "icons/" + (name as NSString).deletingPathExtension,
                    path: dir.path("icons/" + name), limit: limits[name] ?? 1 << 20, regularOnly: true)
            }
        }

        /// Moves the index's mtime a second on: records taken in the run's last clock tick are
        /// then older than it (a run of four icons finishes within a tick).
        func age(_ path: String? = nil) throws { try StatCacheTests.ageRecords(path ?? index) }

        /// The index's bytes changed by `edit`, its checksum made again: a forged index.
        func forgeIndex(_ edit: (inout [UInt8]) throws -> Void) throws {
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: index)))
            try edit(&bytes)
            var checksum = RunIndex.ChainedHash()
            checksum.add(bytes.dropLast(RunIndex.checksumBytes))
            var sum: [UInt8] = []
            RunIndex.put(checksum.finish(), into: &sum)
            bytes.replaceSubrange((bytes.count - RunIndex.checksumBytes)..., with: sum)
            try Data(bytes).write(to: URL(fileURLWithPath: index))
        }

        /// Where each input's record starts in the index's `bytes`.
        static func recordOffsets(_ bytes: [UInt8], inputs: Int) -> [Int] {
            var offsets: [Int] = []
            var at = RunIndex.magic.count
            for _ in 0..<inputs {
                offsets.append(at)
                guard let record = RunIndex.InputRecord(bytes[...], &at) else { return offsets }
                for _ in 0..<record.files {
                    var peek = at
                    at += RunIndex.fileRecordBytes(pathLength: RunIndex.readUInt32(bytes[...], &peek))
                }
            }
            return offsets
        }

        /// Whether the manifest and index there are byte for byte what a run that reads the
        /// manifest (the index removed) writes, and that run finds nothing to do.
        func isWhatAReadRunWrites() throws -> Bool {
            let manifestBytes = try Data(contentsOf: URL(fileURLWithPath: manifest))
            let indexBytes = try Data(contentsOf: URL(fileURLWithPath: index))
            try FileManager.default.removeItem(atPath: index)
            let read = try run()
            #expect(!read.result.answeredFromIndex && read.result.counts.written == 0 && read.result.changesNotHeld == 0)
            return try Data(contentsOf: URL(fileURLWithPath: manifest)) == manifestBytes
                && Data(contentsOf: URL(fileURLWithPath: index)) == indexBytes
        }

        /// Whether a run answers from the index, and its result equals the one of a run that reads
        /// the manifest (counts, folders, nothing changed).
        func answersAsTheManifestWould() throws -> Bool {
            let answered = try run()
            let read = try run(answers: false)
            #expect(answered.result.counts == read.result.counts)
            #expect(answered.result.manifest.folders == read.result.manifest.folders)
            #expect(answered.result.isUpToDate == read.result.isUpToDate)
            return answered.result.answeredFromIndex
        }
    }

    @Test(
        "an unchanged set is answered from the index: every input unchanged, the counts and folders a read run finds, no file touched"
    )
    func unchangedSet() throws {
        let scene = try Scene()
        let stamps = B.stamps(scene.out)
        let (result, events) = try scene.run()
        #expect(result.answeredFromIndex)
        #expect(events == Self.names.map { "unchanged icons/" + $0 })
        #expect(result.counts == .init(reused: 4, normalized: 0, failed: 0, written: 0, unchanged: 10, removed: 0, undersized: 1))
        #expect(result.changes.isEmpty && result.changesNotHeld == 0 && result.isUpToDate)
        #expect(result.manifest.folders == (try B.manifest(scene.manifest)).folders)
        #expect(B.stamps(scene.out) == stamps)
        // --check too; a run that holds the icons never asks the index, and puts the same one back.
        #expect(try scene.run(check: true).result.answeredFromIndex)
        let holding = try scene.run(holdsIcons: true)
        #expect(!holding.result.answeredFromIndex && holding.result.manifest.icons.count == 4)
        #expect(holding.events == Self.names.map { "reused icons/" + $0 })
        #expect(B.stamps(scene.out) == stamps)
        // A run that keeps no index (the library's default) finds the same, and removes it.
        let read = try scene.run(answers: false)
        #expect(!read.result.answeredFromIndex && read.result.counts == result.counts)
        #expect(B.stamps(scene.out) == stamps.filter { $0.key != "manifest.json.index" })
    }

    @Test("--force and --verify never answer from it; a run that changed nothing puts the same index back (inode and mtime kept)")
    func forceAndVerify() throws {
        let scene = try Scene()
        let stamps = B.stamps(scene.out)
        for (force, verify) in [(true, false), (false, true)] {
            let (result, _) = try scene.run(force: force, verify: verify)
            #expect(!result.answeredFromIndex)
            #expect(result.counts.written == 0 && result.changesNotHeld == 0)
            #expect(B.stamps(scene.out) == stamps)
        }
        #expect(try scene.answersAsTheManifestWould())
    }

    @Test(
        "an input changed with its size and mtime restored, touched, replaced, or an output changed, deleted or made a link: read from the manifest, then answered again",
        arguments: ["input in place", "input touched", "input replaced", "output in place", "output deleted", "output a link"])
    func fallBacks(what: String) throws {
        let scene = try Scene()
        let input = scene.dir.path("icons/bell.png"), output = scene.out.path("icons/heart@2x.png")
        switch what {
        case "input in place", "input replaced":
            // Same size, one byte other (a text chunk's), so only a read tells.
            let bell = try Data(contentsOf: Fixtures.testImage("bell.png"))
            try StatCacheTests.withTextChunk(bell, "a").write(to: URL(fileURLWithPath: input))
            _ = try scene.run()
            try scene.age()
            try StatCacheTests.rewriteHidingIt(
                input, with: StatCacheTests.withTextChunk(bell, "b"), inPlace: what == "input in place")
        case "input touched":
            #expect(utimensat(AT_FDCWD, input, nil, 0) == 0)  // both times now
        case "output in place":
            var changed = try Data(contentsOf: URL(fileURLWithPath: output))
            changed[changed.count - 20] ^= 0xFF
            try StatCacheTests.rewriteHidingIt(output, with: changed)
        case "output deleted":
            try FileManager.default.removeItem(atPath: output)
        default:
            // The same file, reached through a link: a run that reads the manifest refuses it.
            try FileManager.default.moveItem(atPath: output, toPath: scene.out.path("icons/elsewhere.png"))
            try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: "elsewhere.png")
        }
        let (result, _) = try scene.run()
        #expect(!result.answeredFromIndex)
        switch what {
        case "input in place", "input replaced": #expect(result.counts.normalized == 1 && result.counts.reused == 3)
        case "input touched": #expect(result.counts.reused == 4 && result.counts.written == 0)
        case "output a link": #expect(result.counts.failed == 1)
        default: #expect(result.counts.normalized == 1 && result.counts.written >= 1)
        }
        if what == "output a link" {
            // An error leaves no index: every run reads the manifest until the error is gone.
            #expect(!FileManager.default.fileExists(atPath: scene.index))
            #expect(try !scene.run().result.answeredFromIndex)
        } else {
            try scene.age()
            #expect(try scene.answersAsTheManifestWould())
        }
    }

    /// Runs `scene` telling how many inputs the index carried (nil: the manifest was read).
    static func runCounting(_ scene: Scene, check: Bool = false) throws -> (result: BatchResult, events: [String], carried: Int?)
    {
        let carried = LockedState<Int?>(-1)
        let (result, events) = try scene.run(check: check, carried: { n in carried.withLock { $0 = n } })
        return (result, events, carried.withLock { $0 })
    }

    @Test(
        "an input removed, added or renamed: the others carried as the index placed them, the removed one's files pruned; the manifest and index are what a run reading the manifest writes"
    )
    func addedAndRemoved() throws {
        var scene = try Scene()
        let stamps = B.stamps(scene.out)
        scene.names.removeLast()  // rgba-32.png
        var (result, events, carried) = try Self.runCounting(scene)
        #expect(carried == 3 && !result.answeredFromIndex)
        #expect(result.counts == .init(reused: 3, normalized: 0, failed: 0, written: 0, unchanged: 9, removed: 1, undersized: 0))
        #expect(events == scene.names.map { "unchanged icons/" + $0 })
        #expect(!FileManager.default.fileExists(atPath: scene.out.path("icons/rgba-32.png")))
        let now = B.stamps(scene.out)
        #expect(Set(now.keys.filter { now[$0] != stamps[$0] }) == ["manifest.json", "manifest.json.index"])
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
        // Added back first in the list, and in the middle.
        for names in [["rgba-32.png"] + Self.names.dropLast(), Self.names] {
            try scene.age()
            let before = scene.names
            scene.names = names
            (result, events, carried) = try Self.runCounting(scene)
            #expect(!result.answeredFromIndex)
            if names == Self.names {
                // From [rgba, bell, heart, home]: bell, heart and home found again, but rgba's place
                // is now after them: the inputs found are not in the index's order.
                #expect(carried == nil && result.counts.reused == 4 && result.counts.written == 0)
                #expect(before.first == "rgba-32.png")
            } else {
                #expect(carried == 3)
                #expect(result.counts.normalized == 1 && result.counts.reused == 3 && result.counts.removed == 0)
                #expect(events == ["done icons/rgba-32.png"] + Self.names.dropLast().map { "unchanged icons/" + $0 })
            }
            try scene.age()
            #expect(try scene.isWhatAReadRunWrites())
        }
        // Renamed: a removed input and an added one.
        try scene.age()
        #expect(rename(scene.dir.path("icons/home.png"), scene.dir.path("icons/house.png")) == 0)
        scene.names[2] = "house.png"
        (result, events, carried) = try Self.runCounting(scene)
        #expect(carried == 3 && result.counts.normalized == 1 && result.counts.removed == 3)
        #expect(events[2] == "done icons/house.png" && events.filter { $0.hasPrefix("unchanged") }.count == 3)
        for scale in ["", "@2x", "@3x"] {
            #expect(!FileManager.default.fileExists(atPath: scene.out.path("icons/home\(scale).png")))
            #expect(FileManager.default.fileExists(atPath: scene.out.path("icons/house\(scale).png")))
        }
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
    }

    @Test(
        "other options read the manifest, as does --check of another input list (it compares by place), with the result of a run without an index"
    )
    func otherQuestion() throws {
        var scene = try Scene()
        scene.scales = [1, 2]
        var (result, _, carried) = try Self.runCounting(scene)
        #expect(carried == nil && !result.answeredFromIndex && result.counts.normalized == 4)
        try scene.age()
        scene.names.removeLast()
        let stamps = B.stamps(scene.out)
        let checked = try Self.runCounting(scene, check: true)
        let read = try scene.run(answers: false, check: true)
        #expect(checked.carried == nil && checked.result.counts == read.result.counts)
        #expect(checked.result.changes == read.result.changes && !checked.result.isUpToDate)
        #expect(checked.result.changes.contains { $0.kind == .remove && $0.path == "icons/rgba-32.png" })
        #expect(B.stamps(scene.out) == stamps)
        (result, _, carried) = try Self.runCounting(scene)
        #expect(carried == 3 && result.counts.removed == 1)
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
    }

    @Test(
        "a twin added or removed takes its icon out of what is carried (its Contents.json lists its twins); the files are what a run reading the manifest writes",
        arguments: ["added", "removed"])
    func twinAddedOrRemoved(how: String) throws {
        let all = [
            ("bell.png", "bell.png"), ("home.png", "home.png"), ("home-dark.png", "heart.png"), ("search.png", "search.png")
        ]
        var scene = try Scene(files: how == "added" ? all.filter { $0.0 != "home-dark.png" } : all, layout: .xcassets)
        if how == "added" {
            try B.put("heart.png", at: "icons/home-dark.png", in: scene.dir)
            scene.names = all.map(\.0)
        } else {
            scene.names.removeAll { $0 == "home-dark.png" }
        }
        let contents = scene.out.path("icons/home.imageset/Contents.json")
        let (result, events, carried) = try Self.runCounting(scene)
        #expect(carried == 2 && result.counts.failed == 0)
        #expect(events.contains("unchanged icons/bell.png") && events.contains("unchanged icons/search.png"))
        #expect(!events.contains("unchanged icons/home.png"))
        let listsDark = try String(contentsOfFile: contents, encoding: .utf8).contains("home-dark")
        #expect(listsDark == (how == "added"))
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
    }

    @Test(
        "an input read with another limit is not carried but found as the same input: its entry reused while it stands, its files kept when it fails"
    )
    func sameNameOtherSpelling() throws {
        var scene = try Scene()
        scene.limits["heart.png"] = 1 << 19
        var (result, events, carried) = try Self.runCounting(scene)
        #expect(carried == 3 && result.counts.reused == 4 && result.counts.written == 0)
        #expect(events[1] == "reused icons/heart.png")
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
        try scene.age()
        scene.limits["heart.png"] = 1 << 18
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: scene.dir.path("icons/heart.png")))
        (result, events, carried) = try Self.runCounting(scene)
        #expect(carried == 3 && result.counts.failed == 1 && result.counts.removed == 0)
        #expect(
            result.manifest.errors.first?.keptFiles.map(\.path) == ["icons/heart.png", "icons/heart@2x.png", "icons/heart@3x.png"]
        )
        for file in ["icons/heart.png", "icons/heart@2x.png", "icons/heart@3x.png"] {
            #expect(FileManager.default.fileExists(atPath: scene.out.path(file)))
        }
    }

    @Test("a forged index that asks this run's whole question but holds a record more reads the manifest")
    func forgedCount() throws {
        var scene = try Scene(files: (Self.names + ["search.png"]).map { ($0, $0) })
        scene.names.removeLast()
        var options = NormalizeOptions()
        options.scales = scene.scales
        let batch = BatchNormalizer(normalizer: Normalizer(options: options), outputRoot: scene.out.url, jobs: 2)
        let question = try #require(RunIndex.question(of: batch, inputs: scene.inputs(scene.names)))
        try scene.forgeIndex { bytes in
            let tailAt = bytes.count - RunIndex.checksumBytes - RunIndex.Tail.bytes
            var tail = RunIndex.Tail(bytes[tailAt..<(tailAt + RunIndex.Tail.bytes)])
            #expect(tail.inputs == 5)
            tail.question = question
            var fixed: [UInt8] = []
            tail.write(into: &fixed)
            bytes.replaceSubrange(tailAt..<(tailAt + RunIndex.Tail.bytes), with: fixed)
        }
        try scene.age()
        let (result, _, carried) = try Self.runCounting(scene)
        #expect(!result.answeredFromIndex && carried == 4)
        #expect(result.counts.reused == 4 && result.counts.removed == 3 && result.warnings.isEmpty)
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
    }

    @Test(
        "a forged index whose records share a key, or name inputs out of order, reads the manifest when the input list changed, with the same result"
    )
    func forgedKeys() throws {
        for how in ["shared", "swapped"] {
            var scene = try Scene()
            try scene.forgeIndex { bytes in
                let offsets = Scene.recordOffsets(bytes, inputs: Self.names.count)
                var records: [RunIndex.InputRecord] = []
                for offset in offsets.prefix(2) {
                    var at = offset
                    records.append(try #require(RunIndex.InputRecord(bytes[...], &at)))
                }
                if how == "shared" { records[1].key = records[0].key } else { records.swapAt(0, 1) }
                for (offset, record) in zip(offsets.prefix(2), [records[0], records[1]]) {
                    var fixed: [UInt8] = []
                    var original = record
                    if how == "swapped" {
                        // Only the keys trade places: each record keeps its own entry and files.
                        var at = offset
                        original = try #require(RunIndex.InputRecord(bytes[...], &at))
                        original.key = record.key
                        original.unit = record.unit
                    }
                    original.write(into: &fixed)
                    bytes.replaceSubrange(offset..<(offset + RunIndex.InputRecord.bytes), with: fixed)
                }
            }
            try scene.age()
            // With the same list, records are taken by position (the question vouches for it):
            // the keys matter once the list changes.
            scene.names.removeLast()
            let (result, _, carried) = try Self.runCounting(scene)
            #expect(carried == nil, "\(how)")
            #expect(result.counts.reused == 3 && result.counts.removed == 1 && result.warnings.isEmpty)
            try scene.age()
            #expect(try scene.isWhatAReadRunWrites())
        }
    }

    @Test("a manifest touched or edited, or a journal beside it, reads the manifest")
    func manifestAndJournal() throws {
        let scene = try Scene()
        #expect(utimensat(AT_FDCWD, scene.manifest, nil, 0) == 0)  // both times now
        #expect(try !scene.run().result.answeredFromIndex)
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
        // An edit that drops an entry: the manifest then owns less, and the run redoes that icon.
        try B.editManifest(scene.manifest) { $0.icons.removeFirst() }
        let edited = try scene.run()
        #expect(!edited.result.answeredFromIndex && edited.result.counts.normalized == 1)
        try scene.age()
        try Data(#"{"folder":"icons"}"#.utf8).write(to: URL(fileURLWithPath: scene.manifest + ".journal"))
        #expect(try !scene.run(check: true).result.answeredFromIndex)
        #expect(try !scene.run().result.answeredFromIndex)
        #expect(!FileManager.default.fileExists(atPath: scene.manifest + ".journal"))
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
    }

    @Test(
        "an index that is not whole or not this run's reads the manifest, and the run writes a good one",
        arguments: ["truncated", "a body byte", "a tail byte", "the magic", "empty", "garbage", "another run's", "too large"])
    func brokenIndex(how: String) throws {
        let scene = try Scene()
        let url = URL(fileURLWithPath: scene.index)
        var bytes = try Data(contentsOf: url)
        switch how {
        case "truncated": bytes.removeLast(7)
        case "a body byte": bytes[RunIndex.magic.count + 3] ^= 1
        case "a tail byte": bytes[bytes.count - RunIndex.checksumBytes - 9] ^= 1
        case "the magic": bytes[3] ^= 1
        case "empty": bytes = Data()
        case "garbage": bytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 131) })
        case "another run's":
            let other = try TemporaryDirectory("index-other")
            var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: other.url, jobs: 1)
            batch.answersFromIndex = true
            _ = try batch.run(scene.inputs(["bell.png"]))
            bytes = try Data(contentsOf: URL(fileURLWithPath: other.path("manifest.json.index")))
        default: break
        }
        try bytes.write(to: url)
        if how == "too large" { #expect(truncate(scene.index, off_t(UntrustedFile.cap + 1)) == 0) }
        try scene.age()
        let (result, _) = try scene.run()
        #expect(!result.answeredFromIndex && result.counts.reused == 4 && result.counts.written == 0)
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
    }

    @Test(
        "a forged index with a right checksum still reads the manifest when it lists more folders than its paths justify, a path that is not plain, or too few files",
        arguments: ["none", "folders", "path", "files"])
    func forgedIndex(how: String) throws {
        let scene = try Scene()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: scene.index)))
        let tailAt = bytes.count - RunIndex.checksumBytes - RunIndex.Tail.bytes
        var tail = RunIndex.Tail(bytes[tailAt..<(tailAt + RunIndex.Tail.bytes)])
        switch how {
        case "none": break  // the checksum made again over the same bytes: answered
        case "folders":
            var count: [UInt8] = []
            RunIndex.put(1_000_000_000, into: &count)
            bytes.replaceSubrange(tail.foldersAt..<(tail.foldersAt + 8), with: count)
        case "path":
            // The first file's path, "icons/bell.png", made "../icons/bell" (as long).
            let at = RunIndex.magic.count + RunIndex.InputRecord.bytes + 4
            #expect(String(decoding: bytes[at..<(at + 14)], as: UTF8.self) == "icons/bell.png")
            bytes.replaceSubrange(at..<(at + 14), with: Array("../icons/bell1".utf8))
        default:
            tail.files -= 1
            var fixed: [UInt8] = []
            tail.write(into: &fixed)
            bytes.replaceSubrange(tailAt..<(tailAt + RunIndex.Tail.bytes), with: fixed)
        }
        try Data(bytes).write(to: URL(fileURLWithPath: scene.index))
        try scene.forgeIndex { _ in }
        try scene.age()
        #expect(try scene.run().result.answeredFromIndex == (how == "none"))
    }

    @Test(
        "one input changed: the others carried as the index placed them, their entries copied; the manifest and index are what a run reading the manifest writes",
        arguments: ["bell", "home"])
    func oneChanged(changed: String) throws {
        let scene = try Scene()
        let stamps = B.stamps(scene.out)
        // Other pixels, the same paths: the first input (the carried are recorded after it), or
        // one in the middle (the first carried before any worker's).
        try B.put("search.png", at: "icons/\(changed).png", in: scene.dir)
        let carried = LockedState<Int?>(nil)
        let (result, events) = try scene.run(carried: { n in carried.withLock { $0 = n } })
        #expect(carried.withLock { $0 } == 3)
        #expect(!result.answeredFromIndex)
        #expect(
            result.counts
                == BatchResult.Counts(reused: 3, normalized: 1, failed: 0, written: 3, unchanged: 7, removed: 0, undersized: 1))
        #expect(events == Self.names.map { ($0 == changed + ".png" ? "done icons/" : "unchanged icons/") + $0 })
        // Only bell's files, the manifest and the index were written.
        let now = B.stamps(scene.out)
        let rewritten = Set(now.keys.filter { now[$0] != stamps[$0] })
        #expect(
            rewritten == [
                "icons/\(changed).png", "icons/\(changed)@2x.png", "icons/\(changed)@3x.png", "manifest.json",
                "manifest.json.index"
            ])
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
    }

    @Test("a changed twin takes its icon's unit out of what is carried (its Contents.json lists the twin's files)")
    func changedTwin() throws {
        let scene = try Scene(
            files: [
                ("bell.png", "bell.png"), ("home.png", "home.png"), ("home-dark.png", "heart.png"), ("search.png", "search.png")
            ],
            layout: .xcassets)
        try B.put("profile.png", at: "icons/home-dark.png", in: scene.dir)
        let carried = LockedState<Int?>(nil)
        let (result, events) = try scene.run(carried: { n in carried.withLock { $0 = n } })
        #expect(carried.withLock { $0 } == 2)
        #expect(result.counts.normalized == 1 && result.counts.reused == 3 && result.counts.failed == 0)
        #expect(
            events == [
                "unchanged icons/bell.png", "reused icons/home.png", "done icons/home-dark.png", "unchanged icons/search.png"
            ])
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
    }

    @Test(
        "an entry's place moved, shortened, its hash changed, or two places overlapping: the run reads the manifest, with the same result",
        arguments: ["moved", "shortened", "hash", "overlapping", "past the end"])
    func forgedPlace(how: String) throws {
        let scene = try Scene()
        try scene.forgeIndex { bytes in
            let offsets = Scene.recordOffsets(bytes, inputs: Self.names.count)
            var at = offsets[2]
            var record = try #require(RunIndex.InputRecord(bytes[...], &at))
            var previousAt = offsets[1]
            let previous = try #require(RunIndex.InputRecord(bytes[...], &previousAt))
            switch how {
            case "moved": record.entryStart += 1
            case "shortened": record.entryLength -= 1
            case "hash": record.entryHash = ContentHash(high: record.entryHash.high ^ 1, low: record.entryHash.low)
            case "overlapping": record.entryStart = previous.entryStart + previous.entryLength - 1
            default: record.entryLength = 1 << 40
            }
            var fixed: [UInt8] = []
            record.write(into: &fixed)
            bytes.replaceSubrange(offsets[2]..<(offsets[2] + RunIndex.InputRecord.bytes), with: fixed)
        }
        try scene.age()
        try B.put("search.png", at: "icons/bell.png", in: scene.dir)
        let carried = LockedState<Int?>(-1)
        let (result, _) = try scene.run(carried: { n in carried.withLock { $0 = n } })
        #expect(carried.withLock { $0 } == nil)
        #expect(
            result.counts
                == BatchResult.Counts(reused: 3, normalized: 1, failed: 0, written: 3, unchanged: 7, removed: 0, undersized: 1))
        #expect(result.warnings.isEmpty)
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
    }

    @Test("a carried entry or record changed after the index was read is an io error for its input, nothing of it copied")
    func carriedChangedUnderTheRun() throws {
        let scene = try Scene()
        try B.put("search.png", at: "icons/bell.png", in: scene.dir)
        let inputs = scene.inputs(scene.names)
        var options = NormalizeOptions()
        options.scales = scene.scales
        var batch = BatchNormalizer(normalizer: Normalizer(options: options), outputRoot: scene.out.url, jobs: 2)
        batch.answersFromIndex = true
        let question = try #require(RunIndex.question(of: batch, inputs: inputs))
        let plan = try OutputPlan.make(
            inputs,
            .init(
                layout: .flat, fileExtension: "png", scales: scene.scales, outputRoot: scene.out.url.path,
                manifestPath: scene.manifest, inputFolders: []))
        let keys = RunIndex.InputKeys(of: batch, inputs: inputs, units: plan.sharedUnits)
        let indexed = try #require(
            IndexedEntries.read(
                path: scene.index, question: question, keys: keys, sameInputs: false, manifestPath: scene.manifest,
                journalPath: scene.manifest + ".journal", root: scene.out.url.path, inputs: inputs, plan: plan))
        #expect(indexed.carriedCount == 3 && !indexed.carries(0) && indexed.carries(1))
        var reader = IndexedEntries.Reader(indexed)
        let row = try reader.row(1, name: "icons/heart.png").get()
        #expect(row.paths == ["icons/heart.png", "icons/heart@2x.png", "icons/heart@3x.png"] && row.files == 3)
        #expect(
            String(decoding: row.text, as: UTF8.self).hasPrefix("{")
                && String(decoding: row.text, as: UTF8.self).contains(#""input": "icons/heart.png""#))
        // The manifest's bytes changed in place (the descriptor read sees it): heart's entry, then
        // home's record; each read by a reader made after the change.
        let manifest = try #require(FileHandle(forUpdatingAtPath: scene.manifest))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: scene.manifest))
        let position = try #require(bytes.firstRange(of: Data("heart@2x".utf8))).lowerBound
        bytes[position] = UInt8(ascii: "H")
        try manifest.seek(toOffset: 0)
        manifest.write(bytes)
        try manifest.close()
        reader = IndexedEntries.Reader(indexed)
        #expect(throws: TabIconsError.self) { try reader.row(1, name: "icons/heart.png").get() }
        var index = try Data(contentsOf: URL(fileURLWithPath: scene.index))
        let path = try #require(index.firstRange(of: Data("icons/home@2x.png".utf8))).lowerBound
        index[path + 6] = UInt8(ascii: "H")
        let handle = try #require(FileHandle(forUpdatingAtPath: scene.index))
        handle.write(index)
        try handle.close()
        reader = IndexedEntries.Reader(indexed)
        #expect(throws: TabIconsError.self) { try reader.row(2, name: "icons/home.png").get() }
        #expect(try reader.row(3, name: "icons/rgba-32.png").get().paths == ["icons/rgba-32.png"])
    }

    @Test("--check with one input changed carries the others and finds what a check reading the manifest finds; nothing written")
    func checkOneChanged() throws {
        let scene = try Scene()
        try B.put("search.png", at: "icons/bell.png", in: scene.dir)
        let stamps = B.stamps(scene.out)
        let carried = LockedState<Int?>(nil)
        let checked = try scene.run(check: true, carried: { n in carried.withLock { $0 = n } })
        #expect(carried.withLock { $0 } == 3)
        let read = try scene.run(answers: false, check: true)
        #expect(checked.result.counts == read.result.counts && checked.result.changes == read.result.changes)
        #expect(!checked.result.isUpToDate && checked.result.changes.contains { $0.path.hasSuffix("icons/bell@2x.png") })
        #expect(B.stamps(scene.out) == stamps)
    }

    @Test(
        "one input changed and a carried candidate's output deleted, or the changed input broken: the deleted output written again; the broken input's files kept, no index"
    )
    func changedWithOthers() throws {
        let scene = try Scene()
        try B.put("search.png", at: "icons/bell.png", in: scene.dir)
        try FileManager.default.removeItem(atPath: scene.out.path("icons/home@2x.png"))
        let carried = LockedState<Int?>(nil)
        var (result, _) = try scene.run(carried: { n in carried.withLock { $0 = n } })
        #expect(carried.withLock { $0 } == 2)
        #expect(
            result.counts.normalized == 2 && result.counts.reused == 2
                && FileManager.default.fileExists(atPath: scene.out.path("icons/home@2x.png")))
        try scene.age()
        #expect(try scene.isWhatAReadRunWrites())
        try scene.age()
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: scene.dir.path("icons/bell.png")))
        (result, _) = try scene.run(carried: { n in carried.withLock { $0 = n } })
        #expect(carried.withLock { $0 } == 3)
        #expect(result.counts.failed == 1 && result.counts.reused == 3)
        #expect(
            result.manifest.errors.first?.keptFiles.map { $0.path } == [
                "icons/bell.png", "icons/bell@2x.png", "icons/bell@3x.png"
            ])
        for file in ["icons/bell.png", "icons/bell@2x.png", "icons/bell@3x.png"] {
            #expect(FileManager.default.fileExists(atPath: scene.out.path(file)))
        }
        #expect(!FileManager.default.fileExists(atPath: scene.index))
        #expect(try !scene.run().result.answeredFromIndex)
    }

    @Test("every single-byte change of a good index, and every shorter prefix of it, is refused")
    func everyByte() throws {
        let scene = try Scene()
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: scene.index)))
        let inputs = scene.inputs(scene.names)
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: scene.out.url, jobs: 2)
        batch.answersFromIndex = true
        let question = try #require(RunIndex.question(of: batch, inputs: inputs))
        let probe = scene.out.path("probe.index")
        func answers(_ bytes: [UInt8]) throws -> Bool {
            try Data(bytes).write(to: URL(fileURLWithPath: probe))
            try scene.age(probe)
            return RunIndexCheck.answer(
                path: probe, question: question, manifestPath: scene.manifest, journalPath: scene.manifest + ".journal",
                root: scene.out.url.path, inputs: inputs, jobs: 2) != nil
        }
        #expect(try answers(good))
        var accepted: [Int] = []
        for position in good.indices {
            var bytes = good
            bytes[position] ^= 0x5A
            if try answers(bytes) { accepted.append(position) }
        }
        #expect(accepted.isEmpty)
        for count in stride(from: 0, to: good.count, by: 7) where try answers(Array(good.prefix(count))) {
            Issue.record("a prefix of \(count) bytes was taken")
        }
    }

    @Test("a record not older than the index: an input's is never trusted, an output's only once its bytes hash as recorded")
    func racyRecords() throws {
        let scene = try Scene()
        // The index's mtime before every record: each one is racily clean.
        var times = [timespec(tv_sec: 1, tv_nsec: 0), timespec(tv_sec: 1, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, scene.index, &times, 0) == 0)
        #expect(try !scene.run().result.answeredFromIndex)
        let tail = RunIndex.Tail(
            try Array(Data(contentsOf: URL(fileURLWithPath: scene.index))).suffix(RunIndex.Tail.bytes + RunIndex.checksumBytes)
                .prefix(RunIndex.Tail.bytes))
        #expect(tail.inputs == 4 && tail.files == 10 && tail.undersized == 1)
        // The outputs' records as the index holds them, all newer than a bound of 1 ns: each one
        // stands only by its bytes.
        let check = RunIndexCheck.Verifier(
            inputs: [], directory: try OutputDirectory(root: scene.out.url.path, create: false),
            cache: StatCache(trusted: true, recordedBefore: 1), jobs: 1)
        let manifest = try B.manifest(scene.manifest)
        let files = manifest.icons.flatMap(\.ownedFiles)
        #expect(check.verify(files.map { .file($0.path, $0.stat!, ContentHash(description: $0.hash)!) }))
        let wrongHash = files.map { RunIndexCheck.Check.file($0.path, $0.stat!, ContentHash(high: 1, low: 2)) }
        #expect(!check.verify(wrongHash))
    }

    @Test("an input that fails or a stop leaves no index and no temporary; the next runs read the manifest")
    func errorsAndStops() throws {
        var scene = try Scene()
        // An input that fails: the index is gone with the run that had an error.
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: scene.dir.path("icons/broken.png")))
        scene.names.append("broken.png")
        let failed = try scene.run()
        #expect(failed.result.counts.failed == 1 && !FileManager.default.fileExists(atPath: scene.index))
        #expect(try !scene.run().result.answeredFromIndex)
        scene.names.removeLast()
        _ = try scene.run()
        try scene.age()
        #expect(try scene.answersAsTheManifestWould())
        // A stopped run: no index (a killed run's temporaries are then removed by the next run,
        // which reads the manifest), and no temporary left.
        try B.put("search.png", at: "icons/home.png", in: scene.dir)
        let stopped = try scene.run(stop: { SIGTERM })
        #expect(stopped.result.stoppedBy == SIGTERM)
        #expect(!FileManager.default.fileExists(atPath: scene.index) && B.temporaries(scene.out).isEmpty)
        #expect(try !scene.run().result.answeredFromIndex)
    }

    @Test("the index's path is the run's own file: an input there, a folder or a link is a usage error")
    func indexPathIsReserved() throws {
        let scene = try Scene()
        var batch = BatchNormalizer(normalizer: Normalizer(), outputRoot: scene.out.url, jobs: 1)
        batch.answersFromIndex = true
        let asInput = BatchInput(name: "index", outputStem: "index", path: scene.index, limit: 1 << 20, regularOnly: true)
        #expect(throws: BatchUsageError.self) { try batch.run([asInput]) }
        try FileManager.default.removeItem(atPath: scene.index)
        try FileManager.default.createSymbolicLink(atPath: scene.index, withDestinationPath: scene.manifest)
        #expect(throws: BatchUsageError.self) { try scene.run() }
        #expect(FileManager.default.fileExists(atPath: scene.manifest))
    }
}
