import TabIcons

/// The lints of a set (SPEC §3a): each icon's measures against the rest of its set's. A set is
/// the glyphs (intent `template`: a full-colour logo or photo has no stroke to compare) no other
/// icon has as a twin and of one config `set` (`Manifest.Icon.set`; none named: the run's one
/// set), judged from three up against the set's medians; a selected or dark twin is judged
/// against its own icon, for size only (a selected twin is often filled, so heavier by design).
/// Made again over the whole run's rows each time (a carried-over row's set lints are this
/// run's), in input order, so the same for any `--jobs`.
package enum SetLints {
    /// The fewest icons a set is judged with (every lint here): two differ from each other, not from a set.
    static let smallestSet = 3

    package static let codes: Set<Lint.Code> = [.strokeMismatch, .opticalSizeMismatch, .offCentre]

    package static func apply(_ icons: inout [Manifest.Icon], thresholds: Thresholds = Thresholds()) {
        for index in icons.indices { icons[index].lints.removeAll { codes.contains($0.code) } }
        let twins = Set(icons.flatMap { [$0.selectedTwin, $0.darkTwin].compactMap { $0 } })
        let glyph = { (icon: Manifest.Icon) in icon.intent == .template && icon.measures != nil }
        let members = icons.indices.filter { !twins.contains(icons[$0].input) && glyph(icons[$0]) }
        // The sets in the order their first icon comes, each in input order.
        var sets: [String?: [Int]] = [:]
        for index in members { sets[icons[index].set, default: []].append(index) }
        let judged = Set(sets.values.filter { $0.count >= smallestSet }.flatMap { $0 })
        guard !judged.isEmpty else { return }
        let centreTolerance = thresholds.offCentre, sizeTolerance = thresholds.opticalSizeMismatch
        let strokeTolerance = thresholds.strokeMismatch
        let indexOf = Dictionary(icons.indices.map { (icons[$0].input, $0) }, uniquingKeysWith: { first, _ in first })
        let judgedTwins = Set(judged.flatMap { [icons[$0].selectedTwin, icons[$0].darkTwin].compactMap { $0 } })
        for index in icons.indices
        where glyph(icons[index]) && (judged.contains(index) || judgedTwins.contains(icons[index].input)) {
            let m = icons[index].measures!
            for (axis, name) in [(0, "right"), (1, "down")] {
                guard m.isOffCentre(axis: axis, threshold: centreTolerance) else { continue }
                let bounds = m.boundsCentre[axis], weight = m.centre[axis]
                icons[index].lints.append(
                    Lint(
                        .offCentre,
                        "placed \(points(abs(bounds))) \(bounds > 0 ? name : opposite(name)) of the box's centre, its weight "
                            + "\(points(abs(weight))) off the same way; --centre optical moves it back (at most 1 pt), or centre it in its artboard"
                    ))
            }
        }
        for set in sets.values where set.count >= smallestSet {
            let weights = set.map { icons[$0].measures!.strokeWeight }, sizes = set.map { icons[$0].measures!.opticalSize }
            let (weight, size) = (median(weights), median(sizes))
            for index in set {
                let m = icons[index].measures!
                if weight > 0, abs(m.strokeWeight - weight) >= strokeTolerance * weight - 0.005 {
                    icons[index].lints.append(
                        Lint(
                            .strokeMismatch,
                            "stroke weight \(points(m.strokeWeight)), \(percent(m.strokeWeight / weight)) of \(whose(icons[index].set)) "
                                + "\(points(weight)); --stroke-width \(NumberText.decimal((weight * 100).rounded() / 100)) redraws an SVG's strokes at it"
                        ))
                }
                if abs(m.opticalSize - size) >= sizeTolerance - 0.005 {
                    icons[index].lints.append(sizeLint(m.opticalSize, against: size, whose(icons[index].set)))
                }
            }
        }
        // A twin against its icon, for size.
        for index in judged.sorted() {
            let base = icons[index].measures!.opticalSize
            for twin in [icons[index].selectedTwin, icons[index].darkTwin].compactMap({ $0.flatMap { indexOf[$0] } }) {
                guard glyph(icons[twin]), let size = icons[twin].measures?.opticalSize, abs(size - base) >= sizeTolerance - 0.005
                else { continue }
                icons[twin].lints.append(sizeLint(size, against: base, "its icon \(icons[index].input)'s"))
            }
        }
    }

    private static func sizeLint(_ size: Double, against other: Double, _ whose: String) -> Lint {
        Lint(
            .opticalSizeMismatch,
            "optical size \(points(size)), \(points(abs(size - other))) \(size > other ? "larger" : "smaller") than \(whose) "
                + "\(points(other)); "
                + (size > other
                    ? "--fit optical scales it to its set's size (or draw it smaller in its artboard)"
                    : "--fit optical scales it to its set's size where its box has room (or draw it larger in its artboard)"))
    }

    /// "the set's median", or "set "tabs"'s median" for a config `set`.
    private static func whose(_ set: String?) -> String {
        set.map { "set \($0.debugDescription)'s median" } ?? "the set's median"
    }

    package static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    private static func points(_ value: Double) -> String { NumberText.decimal((value * 100).rounded() / 100) + " pt" }
    private static func percent(_ ratio: Double) -> String { NumberText.decimal((ratio * 100).rounded()) + "%" }
    private static func opposite(_ direction: String) -> String { direction == "right" ? "left" : "up" }
}
