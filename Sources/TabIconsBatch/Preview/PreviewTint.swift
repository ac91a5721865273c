import Foundation
import TabIcons

/// How the page draws an icon in the bars: tinted as a template, or as drawn.
///
/// Both platforms tint a tab icon by default: UIKit builds a tab item's images "from the alpha
/// values in the source image" unless the image is `.alwaysOriginal`, and Material's bottom
/// navigation applies `itemIconTintList` unless the app clears it. So the page tints:
/// - every icon of a `template` or `template-luminance` run (the asset catalog marks them so);
/// - with `original`, every icon whose visible pixels are all one colour (a glyph drawn in one
///   ink): its colour carries nothing, the platform tints it, and that is how the app shows it.
/// A multicolour icon (a photo, an avatar, a logo) is drawn as it is, the way an app that opts
/// out of tinting shows it; its card says that a default tab bar would tint it by its alpha.
package enum PreviewTint: String, Sendable, Equatable {
    case template
    case original

    /// Two visible pixels are "one colour" when no channel differs by more than this: anti-aliasing
    /// of a one-ink glyph keeps its colour (resampling is on premultiplied alpha), lossy WebP moves
    /// it a little.
    static let colourTolerance = 24
    /// Pixels fainter than this are ignored (soft shadows, haze).
    static let visibleAlpha: UInt8 = 32

    package static func of(_ icon: PreviewDocument.Icon, render: NormalizeOptions.Render) -> PreviewTint {
        if render != .original { return .template }
        guard let largest = icon.renditions.max(by: { $0.pixelWidth * $0.pixelHeight < $1.pixelWidth * $1.pixelHeight }),
              let image = try? ImageDecoder.decode(Data(largest.bytes)) else { return .original }
        return isOneColour(image.bitmap) ? .template : .original
    }

    /// Whether every visible pixel is within `colourTolerance` of the first one's colour.
    static func isOneColour(_ bitmap: Bitmap) -> Bool {
        bitmap.pixels.withUnsafeBufferPointer { p in
            var reference: (Int, Int, Int)?
            var i = 0
            while i < p.count {
                if p[i + 3] >= visibleAlpha {
                    let colour = (Int(p[i]), Int(p[i + 1]), Int(p[i + 2]))
                    if let r = reference {
                        if abs(colour.0 - r.0) > colourTolerance || abs(colour.1 - r.1) > colourTolerance
                            || abs(colour.2 - r.2) > colourTolerance { return false }
                    } else {
                        reference = colour
                    }
                }
                i += 4
            }
            return true
        }
    }
}
