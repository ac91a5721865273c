// PLACEHOLDER: replaced by the WebP decoder work (issue 2). Throws until then.
enum WebPDecoder: FormatDecoder {
    static let format = ImageFormat.webp
    static func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(TabIconsError) -> DecodedImage {
        throw TabIconsError(.unsupported, "WebP decoding is not built yet", format: format)
    }
}
