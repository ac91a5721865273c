/// The smallest lossless PNG layouts a bitmap allows (SPEC §4: "as small as the colour content
/// allows … without changing a pixel").
///
/// One pass over the pixels decides what can be dropped: the colour (R = G = B everywhere → gray)
/// and the alpha channel (every pixel opaque). A second, optional layout is an indexed one when
/// there are at most 256 distinct RGBA values: libpng then writes PLTE (+ tRNS) and packs the
/// indices into 1, 2, 4 or 8 bits. Which of the two compresses smaller is for the encoder to find
/// out; both decode to exactly the input.
struct PNGColorReduction {
    /// A channel layout libpng's simplified writer takes for 8-bit data.
    enum Layout: Equatable {
        case gray, grayAlpha, rgb, rgba
        var channels: Int {
            switch self {
            case .gray: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    /// Indexed pixels: one byte per pixel into `colormap` (RGBA entries, at most 256). Entries
    /// with alpha below 255 come first, so libpng's tRNS holds only those.
    struct Palette {
        var indices: [UInt8]
        var colormap: [UInt8]
        var count: Int { colormap.count / 4 }
    }

    let layout: Layout
    /// The bitmap's pixels in `layout`, rows packed.
    let samples: [UInt8]
    let palette: Palette?

    init(_ bitmap: Bitmap) {
        let pixels = bitmap.pixels
        var isGray = true, isOpaque = true
        var i = 0
        while i < pixels.count && (isGray || isOpaque) {
            if pixels[i] != pixels[i + 1] || pixels[i] != pixels[i + 2] { isGray = false }
            if pixels[i + 3] != 255 { isOpaque = false }
            i += 4
        }
        layout = isGray ? (isOpaque ? .gray : .grayAlpha) : (isOpaque ? .rgb : .rgba)
        samples = Self.pack(pixels, into: layout)
        palette = Self.palette(pixels)
    }

    private static func pack(_ rgba: [UInt8], into layout: Layout) -> [UInt8] {
        let keep: [Int] = switch layout {
        case .gray: [0]
        case .grayAlpha: [0, 3]
        case .rgb: [0, 1, 2]
        case .rgba: [0, 1, 2, 3]
        }
        if layout == .rgba { return rgba }
        var out = [UInt8]()
        out.reserveCapacity(rgba.count / 4 * keep.count)
        var i = 0
        while i < rgba.count {
            for k in keep { out.append(rgba[i + k]) }
            i += 4
        }
        return out
    }

    /// The indexed form, or nil past 256 distinct colours.
    private static func palette(_ rgba: [UInt8]) -> Palette? {
        var firstSeen: [UInt32: Int] = [:] // colour → order of first appearance
        var colours: [UInt32] = []
        var i = 0
        while i < rgba.count {
            let colour = UInt32(rgba[i]) << 24 | UInt32(rgba[i + 1]) << 16 | UInt32(rgba[i + 2]) << 8 | UInt32(rgba[i + 3])
            if firstSeen[colour] == nil {
                guard colours.count < 256 else { return nil }
                firstSeen[colour] = colours.count
                colours.append(colour)
            }
            i += 4
        }
        // Translucent entries first (tRNS stops at the last one), each group in order of first
        // appearance: deterministic for a given bitmap.
        let ordered = colours.filter { $0 & 0xFF != 0xFF } + colours.filter { $0 & 0xFF == 0xFF }
        var index: [UInt32: UInt8] = [:]
        var colormap: [UInt8] = []
        colormap.reserveCapacity(ordered.count * 4)
        for (n, colour) in ordered.enumerated() {
            index[colour] = UInt8(n)
            colormap += [UInt8(colour >> 24), UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF)]
        }
        var indices = [UInt8]()
        indices.reserveCapacity(rgba.count / 4)
        i = 0
        while i < rgba.count {
            let colour = UInt32(rgba[i]) << 24 | UInt32(rgba[i + 1]) << 16 | UInt32(rgba[i + 2]) << 8 | UInt32(rgba[i + 3])
            indices.append(index[colour] ?? 0)
            i += 4
        }
        return Palette(indices: indices, colormap: colormap)
    }
}
