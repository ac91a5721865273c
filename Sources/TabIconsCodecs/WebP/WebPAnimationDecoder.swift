import TabIconsCore
internal import CWebP

/// The first composited frame of an animated WebP (SPEC §2: a tab icon shows one image).
///
/// `WebPAnimDecoder` is used rather than decoding the first ANMF frame alone because a first frame
/// may cover only part of the canvas, sit at an offset, or blend; the anim decoder applies those
/// rules and hands back a whole canvas. The canvas starts transparent (libwebp ignores the
/// background colour, as the WebP container spec recommends for the first frame's backdrop).
/// libwebp's scaler is not available on this path, so shrink-on-load does not apply to
/// animations; the canvas size has passed the limits before this is called.
enum WebPAnimationDecoder {
    static func firstFrame(_ bytes: UnsafeRawBufferPointer) throws(TabIconsError) -> Bitmap {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw TabIconsError(.truncated, "the input is empty", format: .webp)
        }
        var data = WebPData(bytes: base, size: bytes.count)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            throw TabIconsError(
                .unsupported, "libwebp rejected the demux ABI version this build expects",
                format: .webp)
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0

        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            throw demuxError(&data, during: "WebPAnimDecoderNew")
        }
        defer { WebPAnimDecoderDelete(decoder) }

        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.canvas_width > 0, info.canvas_height > 0 else {
            throw TabIconsError(.corrupt, "WebPAnimDecoderGetInfo: the animation has no canvas", format: .webp)
        }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
            // The demuxer has accepted the whole file, so the frame's own data is at fault.
            throw TabIconsError(
                .corrupt, "WebPAnimDecoderGetNext: the first frame does not decode",
                format: .webp)
        }
        let width = Int(info.canvas_width), height = Int(info.canvas_height)
        let pixels = Array(UnsafeBufferPointer(start: canvas, count: width * height * 4))
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The first frame's size from the demuxer (headers only), nil when it cannot say: what
    /// decoding it holds besides the canvases (`DecodeMemoryEstimate.webp`).
    static func firstFrameSize(_ bytes: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demuxer = WebPDemux(&data) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        var frame = WebPIterator()
        guard WebPDemuxGetFrame(demuxer, 1, &frame) != 0 else { return nil }
        defer { WebPDemuxReleaseIterator(&frame) }
        return (Int(frame.width), Int(frame.height))
    }

    /// Why `WebPAnimDecoderNew` refused the data, asked of the demuxer (the anim decoder itself
    /// reports only NULL): an incomplete file is `truncated`, a malformed one `corrupt`.
    private static func demuxError(_ data: inout WebPData, during call: String) -> TabIconsError {
        var state = WEBP_DEMUX_PARSE_ERROR
        if let demuxer = WebPDemuxPartial(&data, &state) { WebPDemuxDelete(demuxer) }
        switch state {
        case WEBP_DEMUX_PARSING_HEADER, WEBP_DEMUX_PARSED_HEADER:
            return TabIconsError(
                .truncated, "\(call): WEBP_DEMUX_PARSED_HEADER: the data ends before the animation does",
                format: .webp)
        case WEBP_DEMUX_DONE:
            return TabIconsError(.corrupt, "\(call): the animation's frames are invalid", format: .webp)
        default:
            return TabIconsError(
                .corrupt, "\(call): WEBP_DEMUX_PARSE_ERROR: the container is malformed",
                format: .webp)
        }
    }
}
