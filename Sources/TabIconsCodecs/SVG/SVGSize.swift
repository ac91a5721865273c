import TabIconsCore
internal import CSVGRender

/// An SVG's intrinsic size in CSS pixels at 96 dpi (SPEC §2), from the root element's `width`,
/// `height` and `viewBox` as librsvg reports them.
///
/// - Absolute units are converted: 1in = 96px, 1cm = 96/2.54 px, 1mm = a tenth of that,
///   1pt = 96/72 px, 1pc = 12pt.
/// - A missing size is 100%, librsvg's default; a percentage (of a viewport an icon does not have)
///   takes the viewBox's size on that side. When one side is absolute and the other is not, the
///   other follows the viewBox's aspect (`width="48"` with `viewBox="0 0 24 12"` is 48×24).
/// - Refused (`unsupported`, with the reason): neither usable sizes nor a viewBox, font-relative
///   units (`em`, `ex`: there is no font to be relative to), zero or negative sizes.
package struct SVGSize: Sendable, Equatable {
    package var width: Double
    package var height: Double
    /// The viewBox when there is one: the document's user space.
    var viewBox: (x: Double, y: Double, width: Double, height: Double)?

    package static func == (a: SVGSize, b: SVGSize) -> Bool {
        a.width == b.width && a.height == b.height
            && a.viewBox.map { [$0.x, $0.y, $0.width, $0.height] } == b.viewBox.map { [$0.x, $0.y, $0.width, $0.height] }
    }

    /// Whole pixels for a size in CSS px: the nearest whole number (halves away from zero), at
    /// least 1, as librsvg's own reference renderings are sized. Exporters write 16.000002 for 16
    /// (Inkscape does, in a twelfth of the Adwaita icons): rounding up would make those 17 px, and
    /// floating error (25 / 22 × 22 = 25.000000000000004) must never add a pixel either.
    package static func wholePixels(_ length: Double) -> Int {
        guard length.isFinite else { return Int.max }
        let whole = length.rounded(.toNearestOrAwayFromZero)
        return whole >= Double(Int.max) ? Int.max : max(1, Int(whole))
    }

    /// `written` are the root's `width` and `height` as the markup has them (`SVGScreening`).
    init(_ d: tabicons_svg_dimensions, written: (width: String?, height: String?) = (nil, nil)) throws(TabIconsError) {
        if let value = written.width, let number = Self.leadingNumber(value), number <= 0 {
            throw TabIconsError(.unsupported, "the width \(value) is not a positive size", format: .svg)
        }
        if let value = written.height, let number = Self.leadingNumber(value), number <= 0 {
            throw TabIconsError(.unsupported, "the height \(value) is not a positive size", format: .svg)
        }
        let viewBox =
            d.has_viewbox != 0 && d.viewbox_width > 0 && d.viewbox_height > 0
            ? (x: d.viewbox_x, y: d.viewbox_y, width: d.viewbox_width, height: d.viewbox_height) : nil
        self.viewBox = viewBox
        let w = try Self.cssPixels(d.width, d.width_unit, side: "width")
        let h = try Self.cssPixels(d.height, d.height_unit, side: "height")
        switch (w, h, viewBox) {
        case let (w?, h?, _):
            (width, height) = (w, h)
        case let (w?, nil, box?):
            (width, height) = (w, w * box.height / box.width)
        case let (nil, h?, box?):
            (width, height) = (h * box.width / box.height, h)
        case let (nil, nil, box?):
            (width, height) = (box.width, box.height)
        default:
            let which = d.has_viewbox != 0 ? "an empty viewBox" : "no viewBox"
            throw TabIconsError(
                .unsupported, "no intrinsic size: width and height are missing or percentages and there is \(which)", format: .svg
            )
        }
        guard width.isFinite, height.isFinite, width > 0, height > 0 else {
            throw TabIconsError(.unsupported, "no usable intrinsic size (\(width)×\(height) px)", format: .svg)
        }
    }

    /// The number a length starts with ("-16" in "-16px"), nil when it starts with none.
    private static func leadingNumber(_ text: String) -> Double? {
        let number = text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            .prefix {
                (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }
        return Double(String(decoding: number, as: UTF8.self))
    }

    /// A root width or height in CSS px; nil for a percentage (or a missing size).
    private static func cssPixels(_ length: Double, _ unit: tabicons_svg_unit, side: String) throws(TabIconsError) -> Double? {
        let perUnit: Double
        switch unit {
        case TABICONS_SVG_UNIT_PERCENT: return nil
        case TABICONS_SVG_UNIT_PX: perUnit = 1
        case TABICONS_SVG_UNIT_IN: perUnit = 96
        case TABICONS_SVG_UNIT_CM: perUnit = 96 / 2.54
        case TABICONS_SVG_UNIT_MM: perUnit = 96 / 25.4
        case TABICONS_SVG_UNIT_PT: perUnit = 96.0 / 72
        case TABICONS_SVG_UNIT_PC: perUnit = 16
        case TABICONS_SVG_UNIT_EM, TABICONS_SVG_UNIT_EX:
            let name = unit == TABICONS_SVG_UNIT_EM ? "em" : "ex"
            throw TabIconsError(
                .unsupported,
                "the \(side) \(NumberText.decimal(length))\(name) is font-relative: an icon has no font to be relative to",
                format: .svg)
        default:
            throw TabIconsError(.unsupported, "the \(side) is in a unit librsvg knows and TabIcons does not", format: .svg)
        }
        guard length > 0, length.isFinite else {
            throw TabIconsError(.unsupported, "the \(side) \(NumberText.decimal(length)) is not a positive size", format: .svg)
        }
        return length * perUnit
    }
}
