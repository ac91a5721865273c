import TabIconsCore
import TabIconsCodecs
/// How a platform is told to draw an icon (SPEC §3): `template` (tinted by its alpha, the colour
/// dropped) or `original` (drawn as it is). Written in every image set's `Contents.json` and in
/// the manifest (`intent`), and what the preview tints by: never left to Xcode's "Default", which
/// a tab bar draws as a template, so a logo or an avatar would become a silhouette.
public enum IconIntent: String, Sendable, Equatable, CaseIterable, Codable {
    case template
    case original

    /// The intent a run with `render` gives an icon whose glyph (the pixels as laid out, before
    /// resampling) is `glyph`. Only `auto` looks at the pixels (`InkSurvey`).
    public static func decided(render: NormalizeOptions.Render, glyph: Bitmap) -> IconIntent {
        decided(render: render) { InkSurvey.of(glyph) }
    }

    /// `decided(render:glyph:)` with the survey made by the caller (row by row when streaming).
    static func decided(render: NormalizeOptions.Render, survey: () -> InkSurvey) -> IconIntent {
        switch render {
        case .original: .original
        case .template, .templateLuminance: .template
        case .auto: survey().isOneInk ? .template : .original
        }
    }
}
