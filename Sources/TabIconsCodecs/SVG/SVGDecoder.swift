import TabIconsCore
import Foundation

/// SVG through librsvg (SPEC §2): gunzip when compressed (`SVGCompression`, bounded), the size
/// limit, screening (`SVGScreening`), one parse (`SVGDocument`), the intrinsic size (`SVGSize`),
/// then one rendering for the `DecodedImage`'s bitmap. The document travels with the result, so
/// the normalizer draws every rendition from it at its own size.
///
/// The bitmap is the document at its intrinsic size in whole pixels, or, given a shrink-on-load
/// hint, with its longest side exactly the hint (a vector has no pixels to protect: the hint may
/// be larger than the intrinsic size). The pixel limits apply to what is rendered; the intrinsic
/// size (what the manifest reports) may not pass the side limit either (`checkIntrinsicSize`). `hasAlpha` is always true (SVG has no opaque
/// form); colour model `rgba`, bit depth 8.
enum SVGDecoder: FormatDecoder {
    static let format = ImageFormat.svg
    static let name = "SVG"
    static let fileExtensions = ["svg", "svgz"]

    /// XML whose root element is `svg`, also gzip-compressed (`SVGSniff`).
    static func sniff<Bytes: Collection>(head: [UInt8], _ data: Bytes) -> Bool where Bytes.Element == UInt8 {
        SVGSniff.isSVG(data)
    }

    static func decodeMemory(_ bytes: UnsafeRawBufferPointer, longestSideNeeded: Int?, limits: DecodeOptions.Limits) -> Int {
        DecodeMemoryEstimate.svg(Data(bytes), limits: limits)
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        let document = try parse(bytes, limits: options.limits)
        try checkIntrinsicSize(document.size, limits: options.limits)
        let width = SVGSize.wholePixels(document.size.width), height = SVGSize.wholePixels(document.size.height)
        var render = (width: width, height: height)
        if let needed = options.longestSideNeeded {
            render = IconBox.fitted(width: document.size.width, height: document.size.height, longestSide: max(1, needed))
        }
        try options.limits.check(width: render.width, height: render.height, format: format)
        let bitmap = try document.render(width: render.width, height: render.height)
        return DecodedImage(
            bitmap: bitmap, format: format, sourceWidth: width, sourceHeight: height,
            hasAlpha: true, bitDepth: 8, colorModel: .rgba, vector: document)
    }

    /// Refuses an intrinsic size longer than the side limit on either side: it is drawn at the
    /// renditions' sizes, not its own, but it is what the manifest reports (`pixelWidth`), and a
    /// viewBox of 1e20 × 1 would reach it as Int.max with a point height of 0.
    static func checkIntrinsicSize(_ size: SVGSize, limits: DecodeOptions.Limits) throws(TabIconsError) {
        guard size.width > Double(limits.maxSide) || size.height > Double(limits.maxSide) else { return }
        func text(_ side: Double) -> String { side < 1e15 ? NumberText.decimal(side) : "more than 10^15" }
        throw TabIconsError(
            .tooLarge,
            "an intrinsic size of \(text(size.width))×\(text(size.height)) px exceeds the limit of \(limits.maxSide) px a side",
            format: format)
    }

    /// The screened, parsed document. librsvg is loaded (from `library`) only once the markup has
    /// passed the screening, so what the screening refuses says why whether or not librsvg is there.
    static func parse(
        _ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits,
        library: SVGLibrary.Location = .system
    ) throws(TabIconsError) -> SVGDocument {
        if SVGSniff.isGzip(bytes) {
            let inflated = try SVGCompression.inflate(bytes, limit: limits.maxSVGBytes)
            let result = inflated.withUnsafeBytes { plain in
                Result { () throws(TabIconsError) -> SVGDocument in try parsePlain(plain, limits: limits, library: library) }
            }
            return try result.get()
        }
        return try parsePlain(bytes, limits: limits, library: library)
    }

    private static func parsePlain(
        _ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits,
        library: SVGLibrary.Location
    ) throws(TabIconsError) -> SVGDocument {
        guard bytes.count <= limits.maxSVGBytes else {
            throw TabIconsError(
                .tooLarge, "an SVG of \(bytes.count) bytes exceeds the SVG limit of \(limits.maxSVGBytes) bytes", format: format)
        }
        guard !SVGSniff.isUTF16(bytes) else {
            throw TabIconsError(.unsupported, "UTF-16 SVG is not supported: save it as UTF-8", format: format)
        }
        let screening = try SVGScreening(bytes, limits: limits)
        return try SVGDocument(parsing: bytes, screening: screening, library: SVGLibrary(library))
    }
}
