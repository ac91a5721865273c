import TabIconsCore
internal import CSVGRender

/// `.svgz`: one gzip stream around an SVG document, inflated here (zlib, in CSVGRender) rather
/// than by librsvg, so the decompressed size is bounded before anything else runs: inflation stops
/// at the SVG size limit, and a gzip bomb costs at most that many bytes and the time to write them.
enum SVGCompression {
    /// The whole stream, at most `limit` bytes of it; `tooLarge` past the limit, `truncated` or
    /// `corrupt` (zlib's words) when the stream is damaged.
    static func inflate(_ bytes: UnsafeRawBufferPointer, limit: Int) throws(TabIconsError) -> [UInt8] {
        // One byte past the limit tells "exactly the limit" from "more".
        let capacity = limit + 1
        var output = [UInt8](repeating: 0, count: capacity)
        var written = 0
        var message: UnsafeMutablePointer<CChar>?
        let status = output.withUnsafeMutableBytes { out in
            tabicons_gunzip(bytes.baseAddress, bytes.count, out.baseAddress, capacity, &written, &message)
        }
        let reason = message.map { String(cString: $0) } ?? ""
        tabicons_svg_free_message(message)
        switch status {
        case TABICONS_GZIP_DONE where written <= limit:
            output.removeSubrange(written...)
            return output
        case TABICONS_GZIP_DONE, TABICONS_GZIP_OUTPUT_FULL:
            throw TabIconsError(.tooLarge, "the .svgz inflates past the SVG limit of \(limit) bytes", format: .svg)
        case TABICONS_GZIP_TRUNCATED:
            throw TabIconsError(.truncated, "the .svgz ends before its gzip stream does", format: .svg)
        default:
            throw TabIconsError(.corrupt, "the .svgz is not valid gzip data (\(reason))", format: .svg)
        }
    }

    /// Up to `count` bytes from the start of the stream, whatever follows (for sniffing); empty
    /// when the data is not gzip at all.
    static func inflatedPrefix(_ bytes: [UInt8], count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        var written = 0
        var message: UnsafeMutablePointer<CChar>?
        bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                _ = tabicons_gunzip(input.baseAddress, input.count, out.baseAddress, count, &written, &message)
            }
        }
        tabicons_svg_free_message(message)
        return Array(output.prefix(written))
    }
}
