import TabIcons
import Foundation

/// `--config FILE` (SPEC §6): `{"options": {...}, "icons": [{"match": "GLOB", "set": "NAME", ...}, ...],
/// "lints": {"strokeMismatch": 0.15, ...}}`, read
/// as the untrusted file it is (a cloned repository's `tabicons.json`) through `UntrustedFile`,
/// then Foundation's `JSONDecoder`. This type knows the document's shape; what each setting's key
/// and value mean is the CLI's (the options' long names, each value read by its option's parser).
package struct IconConfig: Sendable {
    /// The file as the user named it (or `tabicons.json`, the default).
    package let path: String
    /// `options`, in file order.
    package let options: [Setting]
    /// `icons`, in file order.
    package let icons: [Entry]
    /// `lints`: how far off the set's lints allow (SPEC §3a).
    package let thresholds: SetLints.Thresholds

    /// The longest `set` name (it is written into the manifest and lint messages).
    package static let maxSetName = 64

    /// The most a config file may hold.
    package static let cap = 1 << 20
    /// The most `icons` entries: each is matched against every input, so a hostile file of tiny
    /// entries would make matching the cost of a run.
    package static let maxEntries = 1000

    /// One `"key": value` of `options` or of an `icons` entry.
    package struct Setting: Sendable {
        package let key: String
        package let value: JSONValue
        /// `options.box`, `icons[2].box`: where it is, for messages.
        package let place: String
    }

    /// One element of `icons`: the settings applied, in file order, to every input its glob matches.
    package struct Entry: Sendable {
        /// Its position in `icons`, from 0.
        package let index: Int
        package let glob: IconGlob
        package let settings: [Setting]
        /// The `set` its icons are judged in by the set's lints (SPEC §3a); nil: the run's one set.
        package let set: String?
        /// `icons[2]`.
        package var place: String { "icons[\(index)]" }
    }

    /// Why the file cannot be used: a usage error (exit 2) naming the file and, when there is one,
    /// the place in it (`icons[2].box`).
    package struct Failure: Error, Sendable, Equatable {
        package let file: String
        package let place: String?
        package let reason: String

        package init(file: String, place: String?, reason: String) {
            self.file = file
            self.place = place
            self.reason = reason
        }
    }

    /// The config at `path` (a link followed to the file it names); nil when there is no file
    /// there and `required` is false (the default `./tabicons.json`, used only when present).
    package static func load(_ path: String, required: Bool) throws(Failure) -> IconConfig? {
        func fail(_ reason: String) -> Failure { Failure(file: path, place: nil, reason: reason) }
        let read: (bytes: [UInt8], stat: FileStat)?
        do throws(UntrustedFile.Failure) {
            read = try UntrustedFile.read(path, cap: cap, followingLinks: true)
        } catch {
            switch error {
            case .tooLarge(let size): throw fail("holds \(size) bytes, more than the \(cap >> 20) MiB a config file may")
            case .notARegularFile: throw fail("is a folder or a special file, not a config file")
            case .unreadable(let reason): throw fail("cannot be read: \(reason)")
            }
        }
        guard let bytes = read?.bytes else {
            if required { throw fail("does not exist") }
            return nil
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw fail("is not JSON")
        }
        return try IconConfig(path: path, json: value)
    }

    /// The config a JSON document describes (`load` without the file).
    package init(path: String, json: JSONValue) throws(Failure) {
        func fail(_ place: String?, _ reason: String) -> Failure { Failure(file: path, place: place, reason: reason) }
        let shape = #"{"options": {...}, "icons": [{"match": "GLOB", ...}, ...], "lints": {...}}"#
        guard case .object(let top) = json else { throw fail(nil, "must be a JSON object \(shape)") }
        var options: [Setting] = []
        var icons: [Entry] = []
        var thresholds = SetLints.Thresholds()
        for (key, value) in top {
            switch key {
            case "options":
                guard case .object(let pairs) = value else { throw fail("options", "must be an object of settings") }
                options = pairs.map { Setting(key: $0.0, value: $0.1, place: "options." + $0.0) }
            case "icons":
                guard case .array(let entries) = value else {
                    throw fail("icons", "must be an array of objects, each with a \"match\"")
                }
                guard entries.count <= Self.maxEntries else {
                    throw fail("icons", "has \(entries.count) entries, more than the \(Self.maxEntries) a config may")
                }
                for (index, entry) in entries.enumerated() {
                    let place = "icons[\(index)]"
                    guard case .object(let pairs) = entry else { throw fail(place, "must be an object with a \"match\"") }
                    guard let match = pairs.first(where: { $0.0 == "match" })?.1 else {
                        throw fail(place, "has no \"match\" (a glob over the input paths, such as \"logos/*.png\")")
                    }
                    guard case .string(let pattern) = match else { throw fail(place + ".match", "must be a string, a glob") }
                    let glob: IconGlob
                    do throws(IconGlob.Invalid) {
                        glob = try IconGlob(pattern)
                    } catch {
                        throw fail(place + ".match", "is not a glob: \(error.reason)")
                    }
                    var set: String?
                    if let named = pairs.first(where: { $0.0 == "set" })?.1 {
                        guard case .string(let name) = named, !name.isEmpty, name.utf8.count <= Self.maxSetName,
                            name.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control })
                        else {
                            throw fail(
                                place + ".set", "must be a name of 1 to \(Self.maxSetName) bytes without control characters")
                        }
                        set = name
                    }
                    let settings = pairs.filter { $0.0 != "match" && $0.0 != "set" }.map {
                        Setting(key: $0.0, value: $0.1, place: place + "." + $0.0)
                    }
                    icons.append(Entry(index: index, glob: glob, settings: settings, set: set))
                }
            case "lints":
                do throws(SetLints.Thresholds.Invalid) {
                    thresholds = try SetLints.Thresholds(json: value)
                } catch {
                    throw fail(error.place, error.reason)
                }
            default:
                throw fail(nil, "has the key \(key.debugDescription); a config holds only \"options\", \"icons\" and \"lints\"")
            }
        }
        self.path = path
        self.options = options
        self.icons = icons
        self.thresholds = thresholds
    }

    /// The set of `input`: the last matching entry's that names one (later entries win, as settings do).
    package func set(of input: String) -> String? { entries(matching: input).last { $0.set != nil }?.set }

    /// The entries whose glob matches `input` (the path as the manifest records it), in file order.
    package func entries(matching input: String) -> [Entry] {
        let text = IconGlob.text(input)
        return icons.filter { $0.glob.matches(text: text) }
    }
}
