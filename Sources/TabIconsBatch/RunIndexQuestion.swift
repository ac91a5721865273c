import TabIcons
import Foundation

extension RunIndex {
    /// What a run asks (`question(of:inputs:)`), as two digests: `asked`, everything but the
    /// files' bytes that decides what it writes and what it owns (the options, the layout, the
    /// paths as given, every input in order), which an index must match to answer the run whole;
    /// and `options`, all of that but the input list, which an index must match to carry the
    /// entries of inputs found in both runs (`IndexedEntries`: an icon added or removed).
    struct Question: Sendable, Equatable {
        var asked: ContentHash
        var options: ContentHash
    }

    /// The run's question; nil when an input is not a file (a library caller's bytes): no stat
    /// stands for those.
    static func question(of batch: BatchNormalizer, inputs: [BatchInput]) -> Question? {
        var scratch = magic
        scratch += batch.fingerprint.json.utf8(indent: nil)
        for path in [batch.outputRoot.relativePath, batch.manifestURL.relativePath, batch.previewURL?.relativePath ?? ""] {
            put(Substring(path).utf8, into: &scratch)
        }
        put(batch.manifestLimit, into: &scratch)
        put(batch.inputFolders.count, into: &scratch)
        for folder in batch.inputFolders { put(Substring(folder).utf8, into: &scratch) }
        let options = ContentHash(of: scratch)
        var digest = ChainedHash()
        put(inputs.count, into: &scratch)
        for input in inputs {
            guard spell(input, of: batch, into: &scratch) else { return nil }
            if scratch.count >= block {
                digest.add(scratch)
                scratch.removeAll(keepingCapacity: true)
            }
        }
        digest.add(scratch)
        return Question(asked: digest.finish(), options: options)
    }

    /// What tells one input from another in the question: a walked file by what its names are
    /// made of (no string made), any other by its names and path; then its own options. False
    /// when it is not a file.
    private static func spell(_ input: BatchInput, of batch: BatchNormalizer, into scratch: inout [UInt8]) -> Bool {
        if let walked = input.walked {
            scratch.append(1)
            walked.file.spell { put($0, into: &scratch) }
            put(walked.limit, into: &scratch)
        } else {
            guard let file = input.file else { return false }
            scratch.append(0)
            for text in [input.name, input.outputStem, file.path] { put(Substring(text).utf8, into: &scratch) }
            put(file.limit, into: &scratch)
            scratch.append(file.regularOnly ? 1 : 0)
        }
        if let own = batch.fingerprint(of: input) { scratch += own.json.utf8(indent: nil) } else { scratch.append(0) }
        return true
    }

    /// A string's length and bytes.
    private static func put(_ text: Substring.UTF8View, into out: inout [UInt8]) {
        put(text.count, into: &out)
        text.withBytes { out += $0 }
    }

    /// Each input's key (the hash of its name, the manifest's `input`, by which runs find an
    /// input's previous entry) and its unit's (the hash of its unit's parts of the question, the
    /// icon's first: `OutputPlan.units`; of one input, its part's), as each input's record holds
    /// them. A record is matched to the input with its key, whose previous entry it then places
    /// (to be reused, or kept if the input fails, as a run reading the manifest finds it by
    /// name), and carried only while its unit is the one recorded: the same names, path and own
    /// options, and the same twins (a twin added or removed changes what its icon's
    /// `Contents.json` lists).
    /// Each made when asked (a record is written or matched), not held: only a unit of more than
    /// one input keeps its digest.
    struct InputKeys: Sendable {
        private let batch: BatchNormalizer
        private let inputs: [BatchInput]
        /// The unit digests of the inputs of units of more than one (twins are few).
        private let sharedUnits: [Int: ContentHash]

        var count: Int { inputs.count }

        /// The keys of a run that has a question (`question(of:inputs:)` is nil unless every input
        /// is a file). `units`: the plan's units of more than one input (`OutputPlan.sharedUnits`).
        init(of batch: BatchNormalizer, inputs: [BatchInput], units: [[Int]]) {
            self.batch = batch
            self.inputs = inputs
            var shared: [Int: ContentHash] = [:]
            var scratch: [UInt8] = []
            for unit in units where unit.count > 1 {
                for member in unit { RunIndex.put(Self.spellingHash(of: inputs[member], batch: batch), into: &scratch) }
                let digest = ContentHash(of: scratch)
                scratch.removeAll(keepingCapacity: true)
                for member in unit { shared[member] = digest }
            }
            sharedUnits = shared
        }

        /// Input number `input`'s key: its name's hash.
        func key(_ input: Int) -> ContentHash {
            var name = inputs[input].name
            return name.withUTF8 { ContentHash(UnsafeRawBufferPointer($0)) }
        }

        /// Input number `input`'s unit digest.
        func unit(_ input: Int) -> ContentHash {
            sharedUnits[input] ?? Self.spellingHash(of: inputs[input], batch: batch)
        }

        private static func spellingHash(of input: BatchInput, batch: BatchNormalizer) -> ContentHash {
            var scratch: [UInt8] = []
            _ = RunIndex.spell(input, of: batch, into: &scratch)
            return ContentHash(of: scratch)
        }

        /// The inputs by key, for `input(forKey:)`; nil when two inputs have one name.
        func table() -> Table? {
            var entries = (0..<inputs.count).map { (key: key($0), input: Int32($0)) }
            entries.sort { ($0.key.high, $0.key.low) < ($1.key.high, $1.key.low) }
            for (left, right) in zip(entries, entries.dropFirst()) where left.key == right.key { return nil }
            return Table(entries: entries)
        }

        /// The inputs sorted by key (24 bytes an input, while the index is read).
        struct Table {
            fileprivate let entries: [(key: ContentHash, input: Int32)]

            /// The input with `key`, if any.
            func input(forKey key: ContentHash) -> Int? {
                var low = 0, high = entries.count
                while low < high {
                    let middle = (low + high) / 2
                    if (entries[middle].key.high, entries[middle].key.low) < (key.high, key.low) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                return low < entries.count && entries[low].key == key ? Int(entries[low].input) : nil
            }
        }
    }
}
