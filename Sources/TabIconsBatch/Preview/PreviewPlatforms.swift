import TabIcons

/// The bars the page draws, with each platform's colours and metrics, and what each lint will do
/// in the app: one place for every value, so the CSS, the README and the tests agree.
///
/// iOS (`UITabBar`, HIG): a 49 pt bar, a 25 pt glyph box; selected items in `systemBlue`, others
/// in `systemGray`, on the default opaque background. Material 3 (`NavigationBarView`, baseline
/// scheme from seed #6750A4): an 80 dp bar on `surfaceContainer`, a 24 dp icon; the selected item
/// in `onSecondaryContainer` on a 64 × 32 dp `secondaryContainer` pill, others `onSurfaceVariant`,
/// the selected label `onSurface`.
package enum PreviewPlatforms {
    /// A bar's colours in one appearance.
    package struct Colours: Sendable {
        package var background: String
        package var selected: String
        package var unselected: String
        /// Material's active-indicator pill (nil on iOS) and selected label colour.
        package var indicator: String?
        package var selectedLabel: String
    }

    package static let iOSLight = Colours(
        background: "#f9f9f9", selected: "#007aff", unselected: "#8e8e93",
        indicator: nil, selectedLabel: "#007aff")
    package static let iOSDark = Colours(
        background: "#161616", selected: "#0a84ff", unselected: "#8e8e93",
        indicator: nil, selectedLabel: "#0a84ff")
    package static let materialLight = Colours(
        background: "#f3edf7", selected: "#1d192b", unselected: "#49454f",
        indicator: "#e8def8", selectedLabel: "#1d1b20")
    package static let materialDark = Colours(
        background: "#211f26", selected: "#e8def8", unselected: "#cac4d0",
        indicator: "#4a4458", selectedLabel: "#e6e0e9")

    /// The four bars in the order the page draws them, with their `data-bar` names.
    package static let bars: [(id: String, title: String, colours: Colours, isMaterial: Bool)] = [
        ("ios-light", "iOS · light", iOSLight, false),
        ("ios-dark", "iOS · dark", iOSDark, false),
        ("material-light", "Material · light", materialLight, true),
        ("material-dark", "Material · dark", materialDark, true)
    ]

    /// Material draws the icon in a 24 dp box; the page scales the icon's point size by 24 ÷ box.
    package static let materialIconBox = 24.0

    /// What a lint will do once the icon is in the app, one sentence a designer can act on.
    package static func consequence(_ code: Lint.Code) -> String {
        switch code {
        case .opaque: "A tab bar tints every pixel: this renders as a solid block."
        case .undersized: "Screens at the skipped scales enlarge a smaller file: the glyph looks blurry there."
        case .notSquare: "Fitted by its longest side, it looks smaller than the square glyphs beside it."
        case .padding:
            "The glyph fills under half of its box: it looks small and faint beside the other tabs (--trim removes the margin)."
        case .animated: "Tab bars show a still image: only the first frame appears."
        case .twinMismatch:
            "The tab switches between the two (when selected, or when the appearance turns dark): the glyph jumps in size or shape, or changes between tinted and full colour."
        case .vectorFallback:
            "It ships as PNG renditions, not a vector: it stays sharp at the tab bar's sizes, not at the Large Content Viewer's."
        case .symbolFallback:
            "It ships as an image set, not a symbol: it does not follow Dynamic Type or the weight of the text beside it."
        case .strokeMismatch: "Its lines are heavier or lighter than its neighbours': the bar looks like two sets."
        case .opticalSizeMismatch: "It looks bigger or smaller than the icons beside it, though each fills its box."
        case .offCentre: "It sits off the centre of its tab, beside icons that do not."
        case .strokeWidthNotApplied: "Its strokes keep their own weight: only an SVG's strokes can be redrawn."
        case .svgText:
            "Its text is drawn with the build machine's fonts: another machine may draw it differently (and `tabicon render` refuses it)."
        }
    }
}
