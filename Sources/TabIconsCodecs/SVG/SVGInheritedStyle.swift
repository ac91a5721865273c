import TabIconsCore
extension SVGScreening {
    /// What an element inherits that screening weighs: its font size, how much its transforms
    /// (its own and its ancestors') enlarge, whether markers are drawn on it, its dash pattern.
    /// Style sheets are not matched to elements: what they set is assumed to apply everywhere.
    struct Inherited: Sendable {
        /// In the element's own user units (CSS's initial `medium`, 16 px).
        var fontSize = 16.0
        /// The most its transforms enlarge lengths, from the root down.
        var scale = 1.0
        var markers = false
        /// The dash pattern's length in the element's units (0: not dashed) and how many numbers it has.
        var dashPeriod = 0.0
        var dashEntries = 0

        /// The worst of what a document's style sheets set.
        struct SheetValues: Sendable {
            var fontSize = 0.0
            var fontFactor = 1.0
            var dashPeriod = 0.0
            var dashEntries = 0
            var markers = false

            mutating func read(_ declarations: [(name: Substring, value: Substring)]) {
                var probe = Inherited()
                for (name, value) in declarations {
                    probe.fontSize = 0
                    probe.applyProperty(name, value)
                    switch name {
                    case "font-size", "font":
                        if case .relative(let factor)? = SVGStyleValues.fontSize(value, shorthand: name == "font") {
                            fontFactor = max(fontFactor, factor)
                        } else {
                            fontSize = max(fontSize, probe.fontSize)
                        }
                    case "stroke-dasharray":
                        if probe.dashPeriod > 0 {
                            dashPeriod = dashPeriod > 0 ? min(dashPeriod, probe.dashPeriod) : probe.dashPeriod
                        }
                        dashEntries = max(dashEntries, probe.dashEntries)
                    default: markers = markers || probe.markers
                    }
                }
            }
        }

        /// This element's own attributes and `style`, over what it inherited and the style sheets.
        mutating func apply(_ attributes: [SVGMarkupScanner.Attribute], sheet: SheetValues) {
            for attribute in attributes {
                if attribute.name == "style" {
                    for (name, value) in SVGStyleValues.declarations(Substring(attribute.value)) { applyProperty(name, value) }
                } else {
                    applyProperty(Substring(attribute.name), Substring(attribute.value))
                }
            }
            fontSize = max(fontSize, sheet.fontSize) * sheet.fontFactor
            if sheet.dashPeriod > 0 { dashPeriod = dashPeriod > 0 ? min(dashPeriod, sheet.dashPeriod) : sheet.dashPeriod }
            dashEntries = max(dashEntries, sheet.dashEntries)
            markers = markers || sheet.markers
        }

        mutating func applyProperty(_ name: Substring, _ value: Substring) {
            switch name {
            case "transform":
                scale = min(scale * SVGStyleValues.transformScale(value), .greatestFiniteMagnitude)
            case "font-size", "font":
                switch SVGStyleValues.fontSize(value, shorthand: name == "font") {
                case .absolute(let size)?: fontSize = abs(size)
                case .relative(let factor)?: fontSize *= abs(factor)
                case nil: break
                }
            case "marker-start", "marker-mid", "marker-end", "marker":
                markers = value.containsASCII("url(")
            case "stroke-dasharray":
                let numbers = SVGStyleValues.numbers(value).map(abs)
                dashEntries = numbers.count
                let sum = numbers.reduce(0, +)
                dashPeriod = numbers.count % 2 == 1 ? 2 * sum : sum
            default: break
            }
        }
    }
}
