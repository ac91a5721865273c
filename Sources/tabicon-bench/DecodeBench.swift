import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon-bench decode` (SPEC §7): per format, images/s and MB/s of `ImageDecoder.decode` at
/// full size, and its overhead over the C library called directly (`DirectDecoders`) on the same
/// files in the same run. Rounds alternate TabIcons and direct so both see the same machine
/// load; each figure is the median round.
///
/// 16-bit PNGs get their own row: TabIcons reads them through libpng's 16-bit linear output and
/// encodes sRGB itself (PNGDecoder explains why), while the direct baseline asks libpng for
/// 8-bit output, so that row's "overhead" is a different path, not wrapper cost.
///
/// SVG is rendered at its intrinsic size; the baseline is librsvg and cairo called as their
/// documentation shows (`DirectDecoders.svg`), so the overhead includes the screening pass, the
/// bounded gunzip check and the conversion from cairo's premultiplied ARGB to straight RGBA.
///
/// What the overhead includes: sniffing, the PNG chunk walk before libpng, the limit checks,
/// the transparency scan, EXIF orientation, error mapping — everything TabIcons adds per decode.
struct DecodeBench {
    struct Row {
        let format: ImageFormat
        /// The row's name: the format, with 16-bit PNGs apart (they take libpng's linear path).
        let kind: String
        let files: Int
        let bytes: Int
        let pixels: Int
        let rounds: Int
        let tabicons: Double  // seconds per round (median)
        let direct: Double

        var imagesPerSecond: Double { Double(files) / tabicons }
        var megabytesPerSecond: Double { Double(bytes) / tabicons / 1e6 }
        var megapixelsPerSecond: Double { Double(pixels) / tabicons / 1e6 }
        var overhead: Double { tabicons / direct - 1 }
    }

    let inputs: CodecInputs
    let budget: Double

    func run() -> [Row] {
        var rows: [Row] = []
        let kinds: [(ImageFormat, String, (CodecInputs.File) -> Bool)] = [
            (.png, "png", { $0.format == .png && !Self.is16BitPNG($0.bytes) }),
            (.png, "png16", { $0.format == .png && Self.is16BitPNG($0.bytes) }),
            (.jpeg, "jpeg", { $0.format == .jpeg }),
            (.webp, "webp", { $0.format == .webp }),
            (.svg, "svg", { $0.format == .svg })
        ]
        for (format, kind, belongs) in kinds {
            let files = inputs.files.filter(belongs)
            guard !files.isEmpty else { continue }
            var ours: [Double] = [], direct: [Double] = []
            var pixels = 0
            let start = now()
            while ours.count < 3 || (now() - start < budget * 2 && ours.count < 200) {
                var t = now()
                var count = 0
                for file in files {
                    if let image = try? ImageDecoder.decode(file.bytes) { count += image.bitmap.width * image.bitmap.height }
                }
                ours.append(now() - t)
                pixels = count
                t = now()
                for file in files { _ = DirectDecoders.decode(file.bytes, format: format) }
                direct.append(now() - t)
            }
            rows.append(
                Row(
                    format: format, kind: kind, files: files.count, bytes: files.reduce(0) { $0 + $1.bytes.count },
                    pixels: pixels, rounds: ours.count, tabicons: median(ours), direct: median(direct)))
        }
        return rows
    }

    /// IHDR bit depth 16.
    static func is16BitPNG(_ bytes: Data) -> Bool {
        bytes.count > 24 && bytes[bytes.startIndex + 24] == 16
    }

    static func text(_ rows: [Row]) -> String {
        var lines = ["format  files   MB     images/s   MB/s    MP/s   direct images/s  overhead"]
        for row in rows {
            lines.append(
                String(
                    format: "%-6@ %6d %6.1f %10.1f %7.1f %7.1f %16.1f %8.1f%%",
                    row.kind as NSString, row.files, Double(row.bytes) / 1e6,
                    row.imagesPerSecond, row.megabytesPerSecond, row.megapixelsPerSecond,
                    Double(row.files) / row.direct, row.overhead * 100))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ rows: [Row]) -> JSONValue {
        .array(
            rows.map { row in
                .object([
                    ("format", .string(row.kind)), ("files", .int(row.files)), ("bytes", .int(row.bytes)),
                    ("rounds", .int(row.rounds)), ("imagesPerSecond", .double(row.imagesPerSecond)),
                    ("megabytesPerSecond", .double(row.megabytesPerSecond)),
                    ("megapixelsPerSecond", .double(row.megapixelsPerSecond)),
                    ("directImagesPerSecond", .double(Double(row.files) / row.direct)),
                    ("overheadPercent", .double(row.overhead * 100))
                ])
            })
    }
}
