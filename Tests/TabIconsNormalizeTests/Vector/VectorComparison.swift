import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize

/// Converts an SVG both ways (`--vector`'s SVG and VectorDrawable), reads each back as SVG (the
/// VectorDrawable through `VectorDrawableReader`), draws it at every rendition's size and compares
/// with tabicon's own PNG rendition of the input.
enum VectorComparison {
    struct Outcome: Equatable {
        /// The worst mean difference over the renditions and both targets (0…1, premultiplied).
        var worst: Double
        /// Renditions not compared: their glyph sits an odd number of pixels short of its canvas,
        /// so the PNG centres it on whole pixels (`ShapeRenderer`) half a pixel from where the
        /// vector, resolution-free, centres it exactly.
        var halfPixelRenditions = 0
        /// Drawings compared with a PNG rendition: each compared rendition, once per target.
        var compared = 0
        var svg: [UInt8]
        var drawable: [UInt8]
    }

    /// Nil when either target falls back; the feature then.
    static func compare(_ data: Data, options: NormalizeOptions = NormalizeOptions()) throws -> Result<Outcome, VectorUnsupported>
    {
        let normalizer = Normalizer(options: options)
        let icon = try normalizer.normalize(data)
        let svg: [UInt8], drawable: [UInt8]
        switch try #require(try normalizer.vectorFile(data, icon: icon, target: .svg)) {
        case .success(let bytes): svg = bytes
        case .failure(let unsupported): return .failure(unsupported)
        }
        switch try #require(try normalizer.vectorFile(data, icon: icon, target: .vectorDrawable)) {
        case .success(let bytes): drawable = bytes
        case .failure(let unsupported): return .failure(unsupported)
        }
        let readBack = Data(try VectorDrawableReader.svg(drawable).utf8)
        var worst = 0.0
        var halfPixel = 0
        var comparedDrawings = 0
        let vector = try #require(icon.vector)
        let regionWidth = vector.document.size.width * vector.placement.region.width
        let regionHeight = vector.document.size.height * vector.placement.region.height
        let compared = icon.renditions.filter { rendition in
            let glyph = options.box.paddedVectorRenditionSize(
                width: regionWidth, height: regionHeight, scale: rendition.scale,
                padding: options.padding.points(in: options.box))
            let odd = (rendition.bitmap.width - glyph.width) % 2 != 0 || (rendition.bitmap.height - glyph.height) % 2 != 0
            if odd { halfPixel += 1 }
            return !odd
        }
        for written in [Data(svg), readBack] {
            let document = try #require(try ImageDecoder.decode(written).vector)
            for rendition in compared {
                let drawn = try document.render(width: rendition.bitmap.width, height: rendition.bitmap.height)
                comparedDrawings += 1
                worst = max(
                    worst,
                    meanDifference(
                        drawn, RenderIntentConversion.apply(options.render, to: rendition.bitmap), intent: options.render))
            }
        }
        return .success(
            Outcome(worst: worst, halfPixelRenditions: halfPixel, compared: comparedDrawings, svg: svg, drawable: drawable))
    }

    /// The mean absolute difference of two bitmaps' premultiplied channels, as a share of 255.
    /// For a template the colour is dropped on both sides (what the platform tints).
    static func meanDifference(_ a: Bitmap, _ b: Bitmap, intent: NormalizeOptions.Render) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        let a = RenderIntentConversion.apply(intent, to: a)
        var total = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Int(a.pixels[i + 3]), alphaB = Int(b.pixels[i + 3])
            for c in 0..<3 {
                total += abs(Int(a.pixels[i + c]) * alphaA / 255 - Int(b.pixels[i + c]) * alphaB / 255)
            }
            total += abs(alphaA - alphaB)
        }
        return Double(total) / Double(a.pixels.count) / 255
    }
}
