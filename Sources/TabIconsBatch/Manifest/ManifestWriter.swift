import TabIcons
import Foundation

/// The manifest's text (SPEC §6): keys in SPEC §6's order, each spelled by its type's `CodingKeys`,
/// in `JSONValue`'s layout with a final newline. An optional key is written only when set;
/// `folders` only with `options` (a run's manifest, not an inspect document).
extension Manifest {
    /// The document as pretty-printed JSON.
    public func jsonData() -> Data { Data(jsonBytes) }

    package var jsonBytes: [UInt8] {
        var bytes = jsonValue.utf8()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    var jsonValue: JSONValue {
        var pairs: [(CodingKeys, JSONValue)] = [
            (.version, .int(version)), (.tool, .string(tool)), (.box, .double(box)),
            (.scales, .array(scales.map(JSONValue.double)))
        ]
        if let options { pairs.append((.options, options.jsonValue)) }
        if let lintThresholds { pairs.append((.lintThresholds, lintThresholds.jsonValue)) }
        pairs.append((.icons, .array(icons.map(\.jsonValue))))
        pairs.append((.errors, .array(errors.map(\.jsonValue))))
        if options != nil { pairs.append((.folders, .array(folders.map(JSONValue.string)))) }
        return .object(keys: pairs)
    }
}

extension Manifest.Icon {
    var jsonValue: JSONValue {
        var pairs: [(CodingKeys, JSONValue)] = [
            (.input, .string(input)), (.name, .string(name)), (.format, .string(format)),
            (.pixelWidth, .int(pixelWidth)), (.pixelHeight, .int(pixelHeight)), (.orientation, .int(orientation)),
            (.hasAlpha, .bool(hasAlpha)), (.animated, .bool(animated))
        ]
        if vector == true { pairs.append((.vector, .bool(true))) }
        pairs += [
            (.contentHash, .string(contentHash)), (.decodeScale, .double(decodeScale)),
            (.pointWidth, .double(pointWidth)), (.pointHeight, .double(pointHeight))
        ]
        if let intent { pairs.append((.intent, .string(intent.rawValue))) }
        if let selectedTwin { pairs.append((.selectedTwin, .string(selectedTwin))) }
        if let darkTwin { pairs.append((.darkTwin, .string(darkTwin))) }
        if let renditions { pairs.append((.renditions, .array(renditions.map(\.jsonValue)))) }
        if let contentsFile { pairs.append((.contentsFile, contentsFile.jsonValue)) }
        if let selectorFile { pairs.append((.selectorFile, selectorFile.jsonValue)) }
        if let vectorFile { pairs.append((.vectorFile, vectorFile.jsonValue)) }
        if let symbolFile { pairs.append((.symbolFile, symbolFile.jsonValue)) }
        if let options { pairs.append((.options, options.jsonValue)) }
        pairs.append(
            (.lints, .array(lints.map { .object([("code", .string($0.code.rawValue)), ("message", .string($0.message))]) })))
        if let m = measures {
            let pair = { (values: [Double]) in JSONValue.array(values.map(JSONValue.double)) }
            pairs.append(
                (
                    .measures,
                    .object([
                        ("strokeWeight", .double(m.strokeWeight)), ("opticalSize", .double(m.opticalSize)),
                        ("centre", pair(m.centre)), ("boundsCentre", pair(m.boundsCentre)), ("coverage", .double(m.coverage))
                    ])
                ))
        }
        if let set { pairs.append((.set, .string(set))) }
        return .object(keys: pairs)
    }
}

extension Manifest.RenditionEntry {
    var jsonValue: JSONValue {
        .object(keys: [
            (CodingKeys.scale, .double(scale)), (.path, .string(path)), (.pixelWidth, .int(pixelWidth)),
            (.pixelHeight, .int(pixelHeight)), (.bytes, .int(bytes)), (.hash, .string(hash))
        ])
    }
}

extension Manifest.FileEntry {
    var jsonValue: JSONValue {
        .object(keys: [(CodingKeys.path, .string(path)), (.bytes, .int(bytes)), (.hash, .string(hash))])
    }
}

extension Manifest.ErrorEntry {
    var jsonValue: JSONValue {
        var pairs: [(CodingKeys, JSONValue)] = [(.input, .string(input)), (.code, .string(code)), (.message, .string(message))]
        if !keptFiles.isEmpty { pairs.append((.keptFiles, .array(keptFiles.map(\.jsonValue)))) }
        return .object(keys: pairs)
    }
}

extension JSONValue {
    /// An object whose keys are a type's `CodingKeys`, so each key is spelled once.
    static func object<Key: CodingKey>(keys pairs: [(Key, JSONValue)]) -> JSONValue {
        .object(pairs.map { ($0.0.stringValue, $0.1) })
    }
}
