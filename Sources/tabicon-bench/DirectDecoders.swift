import CJPEGDecode
import CRSVG
import CPNG
import CWebP
import Foundation
import TabIcons
import TabIconsBatch

/// The C libraries called directly, with nothing of TabIcons around them: the baseline the
/// `decode` scenario measures the decoders' overhead against. Each does the least a caller must:
/// read the header, allocate the RGBA buffer, decode full size into it.
enum DirectDecoders {
    /// Decodes `bytes` to RGBA and answers the pixel count (0 on failure).
    static func decode(_ bytes: Data, format: ImageFormat) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            switch format {
            case .png: return png(base, raw.count)
            case .jpeg: return jpeg(base, raw.count)
            case .webp: return webp(base, raw.count)
            case .svg: return svg(base, raw.count)
            }
        }
    }

    /// libpng's simplified API, 8-bit RGBA (16-bit files come out 8-bit here too).
    private static func png(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        var image = png_image()
        image.version = TABICONS_PNG_IMAGE_VERSION
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, base, count) != 0 else { return 0 }
        image.format = TABICONS_PNG_FORMAT_RGBA
        var pixels = [UInt8](repeating: 0, count: Int(tabicons_png_image_size(&image)))
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        return ok != 0 ? Int(image.width) * Int(image.height) : 0
    }

    /// libjpeg-turbo through the package's setjmp shim (the only way to call it safely), full size.
    private static func jpeg(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        guard let session = tabicons_jpeg_open(base, count) else { return 0 }
        defer { tabicons_jpeg_close(session) }
        var header = tabicons_jpeg_header()
        guard tabicons_jpeg_read_header(session, &header) == TABICONS_JPEG_OK else { return 0 }
        var output = tabicons_jpeg_output()
        guard tabicons_jpeg_set_scale(session, 8, &output) == TABICONS_JPEG_OK else { return 0 }
        let width = output.width, height = output.height
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let status = pixels.withUnsafeMutableBytes {
            tabicons_jpeg_read_rgba(session, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count)
        }
        return status == TABICONS_JPEG_OK ? Int(width) * Int(height) : 0
    }

    /// libwebp's one-call RGBA decode; an animation through WebPAnimDecoder's first frame, as the
    /// least a caller must do for one (WebPDecodeRGBA refuses animations).
    private static func webp(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(bytes, count, &features) == VP8_STATUS_OK else { return 0 }
        if features.has_animation != 0 {
            var data = WebPData(bytes: bytes, size: count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else { return 0 }
            options.color_mode = MODE_RGBA
            guard let decoder = WebPAnimDecoderNew(&data, &options) else { return 0 }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
                WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0
            else { return 0 }
            return Int(info.canvas_width) * Int(info.canvas_height)
        }
        var width: Int32 = 0, height: Int32 = 0
        guard let pixels = WebPDecodeRGBA(bytes, count, &width, &height) else { return 0 }
        WebPFree(pixels)
        return Int(width) * Int(height)
    }

    /// librsvg as its documentation shows: a handle from the bytes (no base file), 96 dpi, the
    /// intrinsic size in pixels (the viewBox's where it has none), a cairo ARGB32 surface of that
    /// size, `rsvg_handle_render_document`. No screening and no conversion to straight RGBA.
    private static func svg(_ base: UnsafeRawPointer, _ count: Int) -> Int {
        let stream = g_memory_input_stream_new_from_data(base, gssize(count), nil)
        defer { g_object_unref(UnsafeMutableRawPointer(stream)) }
        guard let handle = rsvg_handle_new_from_stream_sync(stream, nil, RSVG_HANDLE_FLAGS_NONE, nil, nil) else { return 0 }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        rsvg_handle_set_dpi(handle, 96)
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) == 0 {
            var hasViewBox: gboolean = 0
            var viewBox = RsvgRectangle()
            rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
            (width, height) = (viewBox.width, viewBox.height)
        }
        let w = Int32(width.rounded(.up)), h = Int32(height.rounded(.up))
        guard w > 0, h > 0, let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h) else { return 0 }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return 0 }
        defer { cairo_destroy(cr) }
        var viewport = RsvgRectangle(x: 0, y: 0, width: Double(w), height: Double(h))
        guard rsvg_handle_render_document(handle, cr, &viewport, nil) != 0 else { return 0 }
        cairo_surface_flush(surface)
        return Int(w) * Int(h)
    }
}
