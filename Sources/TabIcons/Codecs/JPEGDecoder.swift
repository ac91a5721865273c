// PLACEHOLDER: replaced by the JPEG decoder work (issue 2). Throws until then.
enum JPEGDecoder: FormatDecoder {
    static let format = ImageFormat.jpeg
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        throw TabIconsError(.unsupported, "JPEG decoding is not built yet", format: format)
    }
}
