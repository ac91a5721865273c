import TabIcons
import Foundation

/// The manifest's one serializer and its one parser, side by side so a key added to one is
/// seen in the other. Keys are written in SPEC §6's order; `options` and `folders` (SPEC §6a)
/// come after SPEC §6's keys.
extension Manifest {
    package var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("version", .int(version)), ("tool", .string(tool)), ("box", .double(box)),
            ("scales", .array(scales.map { .double($0) })),
        ]
        if let options { pairs.append(("options", options.json)) }
        pairs.append(("icons", .array(icons.map(\.jsonValue))))
        pairs.append(("errors", .array(errors.map(\.jsonValue))))
        if options != nil { pairs.append(("folders", .array(folders.map { .string($0) }))) }
        return .object(pairs)
    }

    /// A manifest read back from its JSON text. A document that is not one (another tool's file,
    /// a hand edit that broke it) is an error; the batch then treats the run as a first run.
    public init(parsing data: Data) throws(TabIconsError) {
        let value: JSONValue
        do throws(JSONParser.Failure) {
            value = try JSONParser.parse(Array(data))
        } catch {
            throw TabIconsError(.corrupt, "not a tabicon manifest: \(error.description)")
        }
        guard let version = value["version"]?.intValue, let tool = value["tool"]?.stringValue,
              let box = value["box"]?.doubleValue.flatMap(IconBox.init(points:)),
              let scales = value["scales"]?.arrayValue?.compactMap(\.doubleValue),
              let icons = value["icons"]?.arrayValue, let errors = value["errors"]?.arrayValue
        else { throw TabIconsError(.corrupt, "not a tabicon manifest: missing version, tool, box, scales, icons or errors") }
        self.init(box: box, scales: scales, options: value["options"].map(OptionFingerprint.init(json:)))
        self.version = version
        self.tool = tool
        self.folders = value["folders"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.icons = try icons.map { (icon: JSONValue) throws(TabIconsError) -> Icon in try Icon(json: icon) }
        self.errors = try errors.map { (entry: JSONValue) throws(TabIconsError) -> ErrorEntry in
            guard let input = entry["input"]?.stringValue, let code = entry["code"]?.stringValue,
                  let message = entry["message"]?.stringValue
            else { throw TabIconsError(.corrupt, "not a tabicon manifest: an error entry lacks input, code or message") }
            var parsed = ErrorEntry(input: input, error: TabIconsError(.io, message))
            parsed.code = code
            parsed.keptFiles = entry["keptFiles"]?.arrayValue?.compactMap(FileEntry.init(json:)) ?? []
            return parsed
        }
    }
}

extension Manifest.Icon {
    var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("input", .string(input)), ("name", .string(name)), ("format", .string(format)),
            ("pixelWidth", .int(pixelWidth)), ("pixelHeight", .int(pixelHeight)),
            ("orientation", .int(orientation)), ("hasAlpha", .bool(hasAlpha)), ("animated", .bool(animated)),
        ]
        if vector == true { pairs.append(("vector", .bool(true))) }
        pairs += [
            ("contentHash", .string(contentHash)), ("decodeScale", .double(decodeScale)),
            ("pointWidth", .double(pointWidth)), ("pointHeight", .double(pointHeight)),
        ]
        if let intent { pairs.append(("intent", .string(intent.rawValue))) }
        if let selectedTwin { pairs.append(("selectedTwin", .string(selectedTwin))) }
        if let darkTwin { pairs.append(("darkTwin", .string(darkTwin))) }
        if let renditions { pairs.append(("renditions", .array(renditions.map(\.jsonValue)))) }
        if let contentsFile { pairs.append(("contentsFile", contentsFile.jsonValue)) }
        if let selectorFile { pairs.append(("selectorFile", selectorFile.jsonValue)) }
        if let inputStat { pairs.append(("inputStat", inputStat.jsonValue)) }
        if let options { pairs.append(("options", options.json)) }
        pairs.append(("lints", .array(lints.map { .object([("code", .string($0.code.rawValue)), ("message", .string($0.message))]) })))
        return .object(pairs)
    }

    init(json: JSONValue) throws(TabIconsError) {
        guard let input = json["input"]?.stringValue, let name = json["name"]?.stringValue,
              let format = json["format"]?.stringValue,
              let pixelWidth = json["pixelWidth"]?.intValue, let pixelHeight = json["pixelHeight"]?.intValue,
              let orientation = json["orientation"]?.intValue, let hasAlpha = json["hasAlpha"]?.boolValue,
              let animated = json["animated"]?.boolValue, let contentHash = json["contentHash"]?.stringValue,
              let decodeScale = json["decodeScale"]?.doubleValue, let pointWidth = json["pointWidth"]?.doubleValue,
              let pointHeight = json["pointHeight"]?.doubleValue, let lints = json["lints"]?.arrayValue
        else { throw TabIconsError(.corrupt, "not a tabicon manifest: an icon entry lacks a key of SPEC §6") }
        self.input = input
        self.name = name
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.animated = animated
        self.vector = json["vector"]?.boolValue == true ? true : nil
        self.contentHash = contentHash
        self.decodeScale = decodeScale
        self.pointWidth = pointWidth
        self.pointHeight = pointHeight
        self.renditions = try json["renditions"]?.arrayValue.map { entries throws(TabIconsError) in
            try entries.map { (entry: JSONValue) throws(TabIconsError) -> Manifest.RenditionEntry in
                guard let scale = entry["scale"]?.doubleValue, let file = Manifest.FileEntry(json: entry),
                      let width = entry["pixelWidth"]?.intValue, let height = entry["pixelHeight"]?.intValue
                else { throw TabIconsError(.corrupt, "not a tabicon manifest: a rendition lacks a key of SPEC §6") }
                var rendition = Manifest.RenditionEntry(scale: scale, path: file.path, pixelWidth: width, pixelHeight: height,
                                                        bytes: file.bytes, hash: file.hash)
                rendition.stat = file.stat
                return rendition
            }
        }
        self.contentsFile = json["contentsFile"].flatMap(Manifest.FileEntry.init(json:))
        self.selectorFile = json["selectorFile"].flatMap(Manifest.FileEntry.init(json:))
        self.inputStat = json["inputStat"].flatMap(FileStat.init(json:))
        self.intent = json["intent"]?.stringValue.flatMap(IconIntent.init(rawValue:))
        self.selectedTwin = json["selectedTwin"]?.stringValue
        self.darkTwin = json["darkTwin"]?.stringValue
        self.options = json["options"].map(OptionFingerprint.init(json:))
        self.lints = lints.compactMap { lint in
            guard let code = lint["code"]?.stringValue.flatMap(Lint.Code.init(rawValue:)),
                  let message = lint["message"]?.stringValue else { return nil }
            return Lint(code, message)
        }
    }
}

extension Manifest.RenditionEntry {
    var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("scale", .double(scale)), ("path", .string(path)), ("pixelWidth", .int(pixelWidth)),
            ("pixelHeight", .int(pixelHeight)), ("bytes", .int(bytes)), ("hash", .string(hash)),
        ]
        if let stat { pairs.append(("stat", stat.jsonValue)) }
        return .object(pairs)
    }
}

extension Manifest.FileEntry {
    var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [("path", .string(path)), ("bytes", .int(bytes)), ("hash", .string(hash))]
        if let stat { pairs.append(("stat", stat.jsonValue)) }
        return .object(pairs)
    }

    init?(json: JSONValue) {
        guard let path = json["path"]?.stringValue, let bytes = json["bytes"]?.intValue,
              let hash = json["hash"]?.stringValue else { return nil }
        self.init(path: path, bytes: bytes, hash: hash, stat: json["stat"].flatMap(FileStat.init(json:)))
    }
}

extension Manifest.ErrorEntry {
    var jsonValue: JSONValue {
        var pairs: [(String, JSONValue)] = [("input", .string(input)), ("code", .string(code)), ("message", .string(message))]
        if !keptFiles.isEmpty { pairs.append(("keptFiles", .array(keptFiles.map(\.jsonValue)))) }
        return .object(pairs)
    }
}
