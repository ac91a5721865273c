import TabIconsCore
import TabIconsCodecs
/// The rule of `--render auto` (SPEC §3): is the icon drawn in one ink? A one-ink icon's colour
/// carries nothing a tint would lose, so it is a `template`; more than one colour (a logo, an
/// avatar, a photo) is `original`. Fed row by row, so the streamed path and a whole bitmap are
/// judged by the same code.
///
/// The hard cases, decided:
/// - Only the body of the drawing is judged: pixels at least half opaque (`bodyAlpha`). Anti-aliased
///   edges and soft shadows lighter than that do not decide, so an anti-aliased glyph, or a single
///   ink with a soft shadow of another colour, is a `template` (the shadow is then tinted at its
///   alpha, a faint halo). A shadow at least half opaque in another colour is a second ink:
///   `original`.
/// - "One ink" allows a spread of `inkSpread` per channel between the body's lightest and darkest
///   values: lossy WebP and JPEG move an ink a little, and near-greys (#000 with #222 details)
///   are one ink. Black with mid-grey details, or a gradient wider than the spread, is two inks:
///   `original` (a tint would flatten what the greys or the gradient draw).
/// - A drawing with no pixel half opaque (a faint glyph) is judged on its visible pixels
///   (`visibleAlpha`) instead; one with none at all is a `template` (there is nothing to lose).
/// - An opaque icon is judged like any other: a one-colour square is a `template` (and gets the
///   `opaque` lint); dark-on-light art is two inks, `original` (`template-luminance` turns it into
///   a template).
public struct InkSurvey: Sendable {
    /// The largest difference, per channel, between two body pixels of one ink.
    static let inkSpread = 48
    /// Pixels at least this opaque are the body of the drawing.
    static let bodyAlpha: UInt8 = 128
    /// Pixels fainter than this are ignored even when there is no body (haze).
    static let visibleAlpha: UInt8 = 32

    private var body = ChannelRange()
    private var visible = ChannelRange()

    public init() {}

    /// The survey of a whole bitmap.
    public static func of(_ bitmap: Bitmap) -> InkSurvey {
        var survey = InkSurvey()
        bitmap.pixels.withUnsafeBufferPointer { survey.add($0) }
        return survey
    }

    /// The next pixels (RGBA, unpremultiplied, any number of whole pixels).
    public mutating func add(_ pixels: UnsafeBufferPointer<UInt8>) {
        // Once the body holds two inks, nothing can change the answer.
        if body.isSpread { return }
        var i = 0
        while i + 3 < pixels.count {
            let alpha = pixels[i + 3]
            if alpha >= Self.bodyAlpha {
                body.add(pixels[i], pixels[i + 1], pixels[i + 2])
                if body.isSpread { return }
            } else if alpha >= Self.visibleAlpha, body.isEmpty {
                visible.add(pixels[i], pixels[i + 1], pixels[i + 2])
            }
            i += 4
        }
    }

    /// Whether the drawing is in one ink (see the type's comment for the hard cases).
    public var isOneInk: Bool {
        if !body.isEmpty { return !body.isSpread }
        return !visible.isSpread
    }

    /// The lightest and darkest value seen on each channel.
    private struct ChannelRange: Sendable {
        var low: (UInt8, UInt8, UInt8) = (255, 255, 255)
        var high: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var isEmpty = true
        var isSpread = false

        mutating func add(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
            isEmpty = false
            low = (min(low.0, r), min(low.1, g), min(low.2, b))
            high = (max(high.0, r), max(high.1, g), max(high.2, b))
            isSpread =
                Int(high.0) - Int(low.0) > InkSurvey.inkSpread || Int(high.1) - Int(low.1) > InkSurvey.inkSpread
                || Int(high.2) - Int(low.2) > InkSurvey.inkSpread
        }
    }
}
