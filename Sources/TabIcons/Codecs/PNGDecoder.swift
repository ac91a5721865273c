// PLACEHOLDER: replaced by the PNG decoder work (issue 2). Throws until then.
enum PNGDecoder: FormatDecoder {
    static let format = ImageFormat.png
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        throw TabIconsError(.unsupported, "PNG decoding is not built yet", format: format)
    }
}
