import TabIcons

extension SetLints {
    /// How far off is too far: a config's `lints` (`IconConfig.thresholds`), else these defaults.
    /// `render` records them in each fragment when they are not the defaults, so that `assemble`
    /// judges the set as `normalize` would (SPEC §9).
    package struct Thresholds: Sendable, Equatable, Codable {
        /// A stroke weight this far off the median, as a fraction of it.
        package var strokeMismatch = 0.15
        /// An optical size this many points off the median (or its icon's, for a twin).
        package var opticalSizeMismatch = 1.0
        /// A glyph's bounds this many points off the box's centre on an axis, with its weight off
        /// the same way at least as far. A glyph whose bounds sit off-centre but whose weight sits
        /// on the centre (a play triangle moved right) was centred by eye, deliberately, and is
        /// left alone; so is one whose bounds are centred and weight is not (a person, heavy below).
        package var offCentre = 0.5

        package init() {}

        /// Why a `lints` object cannot be read: the key at fault (`lints.KEY`, or `lints` itself).
        package struct Invalid: Error, Sendable, Equatable {
            package let place: String
            package let reason: String
        }

        /// Each threshold's key in `lints`, and its largest value (each is above 0): a fraction of
        /// the median for the stroke, points for the others (at most 25: a box's side).
        private static var keys: [(name: String, path: WritableKeyPath<Thresholds, Double>, most: Double)] {
            [
                ("strokeMismatch", \.strokeMismatch, 1), ("opticalSizeMismatch", \.opticalSizeMismatch, 25),
                ("offCentre", \.offCentre, 25)
            ]
        }

        /// `{"strokeMismatch": 0.15, "opticalSizeMismatch": 1, "offCentre": 0.5}`, each key optional
        /// (the default where absent): a config's `lints`, or a fragment's.
        package init(json value: JSONValue) throws(Invalid) {
            guard case .object(let pairs) = value else {
                throw Invalid(place: "lints", reason: "must be an object such as {\"strokeMismatch\": 0.15}")
            }
            for (key, number) in pairs {
                guard let (_, path, most) = Self.keys.first(where: { $0.name == key }) else {
                    throw Invalid(
                        place: "lints." + key,
                        reason: "is not a lint threshold; the keys are " + Self.keys.map(\.name).joined(separator: ", "))
                }
                let read: Double? =
                    switch number {
                    case .int(let n): Double(n)
                    case .double(let d): d
                    default: nil
                    }
                guard let read, read.isFinite, read > 0, read <= most else {
                    throw Invalid(
                        place: "lints." + key, reason: "must be a number above 0 and at most \(NumberText.decimal(most))")
                }
                self[keyPath: path] = read
            }
        }

        /// Every threshold, in `keys`' order.
        var jsonValue: JSONValue { .object(Self.keys.map { ($0.name, JSONValue.double(self[keyPath: $0.path])) }) }

        /// A manifest's `lints` (a fragment's), read as a config's are.
        package init(from decoder: any Decoder) throws {
            let value = try JSONValue(from: decoder)
            do throws(Invalid) {
                try self.init(json: value)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.reason))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: JSONValue.Key.self)
            for key in Self.keys { try container.encode(self[keyPath: key.path], forKey: JSONValue.Key(stringValue: key.name)) }
        }
    }
}
