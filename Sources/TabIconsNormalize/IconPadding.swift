import TabIconsCore
/// `--padding` (SPEC §3): clear space kept on every side of the glyph, in points or as a
/// percentage of the box. `IconBox.paddedRenditionSize` owns what it does to sizes.
public struct IconPadding: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Points, or with `isPercent` a percentage of the box.
    public let value: Double
    public let isPercent: Bool

    public static let none = IconPadding(points: 0)

    public init(points: Double) { (value, isPercent) = (points, false) }
    public init(percent: Double) { (value, isPercent) = (percent, true) }

    /// `2`, `2.5` (points) or `10%` (of the box), in plain decimals; nil for anything else.
    public init?(_ text: String) {
        let percent = text.hasSuffix("%")
        guard let number = NumberText.parseDecimal(percent ? String(text.dropLast()) : text) else { return nil }
        (value, isPercent) = (number, percent)
    }

    /// The padding in points for `box`.
    public func points(in box: IconBox) -> Double { isPercent ? box.points * value / 100 : value }

    public var description: String { NumberText.decimal(value) + (isPercent ? "%" : "") }
}
