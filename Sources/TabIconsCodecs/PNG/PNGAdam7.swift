import TabIconsCore
/// The seven passes of PNG's Adam7 interlace (PNG 1.2 §2.6): where each pass's pixels sit in the
/// image. `PNGRowDecoder` reads an interlaced image pass by pass and places the pixels itself;
/// `PNGImageDataBound` sizes the filtered data a pass holds.
enum PNGAdam7 {
    struct Pass {
        let xStart: Int, yStart: Int, xStep: Int, yStep: Int

        /// Pixels in one row of this pass of a `width`-pixel-wide image (0 when it has none).
        func width(ofImageWidth width: Int) -> Int { max(0, (width - xStart + xStep - 1) / xStep) }
        /// Rows of this pass in a `height`-row image.
        func rows(ofImageHeight height: Int) -> Int { max(0, (height - yStart + yStep - 1) / yStep) }

        /// A non-interlaced image read as one pass of every pixel.
        static let whole = Pass(xStart: 0, yStart: 0, xStep: 1, yStep: 1)
    }

    static let passes = [
        Pass(xStart: 0, yStart: 0, xStep: 8, yStep: 8), Pass(xStart: 4, yStart: 0, xStep: 8, yStep: 8),
        Pass(xStart: 0, yStart: 4, xStep: 4, yStep: 8), Pass(xStart: 2, yStart: 0, xStep: 4, yStep: 4),
        Pass(xStart: 0, yStart: 2, xStep: 2, yStep: 4), Pass(xStart: 1, yStart: 0, xStep: 2, yStep: 2),
        Pass(xStart: 0, yStart: 1, xStep: 1, yStep: 2)
    ]

    /// The passes libpng delivers for a `width` × `height` image: those with at least one pixel
    /// (libpng skips the empty ones, which hold no data either).
    static func passes(width: Int, height: Int) -> [Pass] {
        passes.filter { $0.width(ofImageWidth: width) > 0 && $0.rows(ofImageHeight: height) > 0 }
    }
}
