import TabIconsCore
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
        // A pixel a word, differences ORed together (a loop the compiler vectorizes), a block at a
        // time so that a photo stops at its first colourful, translucent block.
        var (notGray, notOpaque): (UInt32, UInt32) = (0, 0)
        pixels.withUnsafeBytes { raw in
            let count = raw.count / 4
            var start = 0
            while start < count && (notGray == 0 || notOpaque == 0) {
                for p in start..<min(start + 1024, count) {
                    let word = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: p * 4, as: UInt32.self))
                    notGray |= (word ^ (word >> 8)) & 0xFFFF  // R ≠ G, G ≠ B
                    notOpaque |= ~word & 0xFF00_0000
                }
                start += 1024
            }
        }
        let (isGray, isOpaque) = (notGray == 0, notOpaque == 0)
        layout = isGray ? (isOpaque ? .gray : .grayAlpha) : (isOpaque ? .rgb : .rgba)
        samples = Self.pack(pixels, into: layout)
        palette = Self.palette(pixels)
    }

    private static func pack(_ rgba: [UInt8], into layout: Layout) -> [UInt8] {
        if layout == .rgba { return rgba }
        let pixels = rgba.count / 4, channels = layout.channels
        return [UInt8](unsafeUninitializedCapacity: pixels * channels) { out, initialized in
            rgba.withUnsafeBufferPointer { src in
                // A loop a layout: each copies fixed channels, which the compiler unrolls.
                switch layout {
                case .gray:
                    for p in 0..<pixels { out[p] = src[p * 4] }
                case .grayAlpha:
                    for p in 0..<pixels { (out[p * 2], out[p * 2 + 1]) = (src[p * 4], src[p * 4 + 3]) }
                case .rgb:
                    for p in 0..<pixels {
                        (out[p * 3], out[p * 3 + 1], out[p * 3 + 2]) = (src[p * 4], src[p * 4 + 1], src[p * 4 + 2])
                    }
                case .rgba:
                    break
                }
            }
            initialized = pixels * channels
        }
    }

    /// The indexed form, or nil past 256 distinct colours.
    ///
    /// Colours are looked up in a 512-slot open-addressing table keyed by the RGBA word (a
    /// multiplicative hash, linear probing): at most 256 entries, so it is never more than half
    /// full, and no `Dictionary` hashing per pixel.
    private static func palette(_ rgba: [UInt8]) -> Palette? {
        let pixelCount = rgba.count / 4
        var keys = [UInt32](repeating: 0, count: 512)
        var slots = [Int16](repeating: -1, count: 512)  // order of first appearance, -1 empty
        var colours: [UInt32] = []
        colours.reserveCapacity(256)
        var indices = [UInt8](repeating: 0, count: pixelCount)
        let complete = rgba.withUnsafeBytes { raw -> Bool in
            keys.withUnsafeMutableBufferPointer { keys in
                slots.withUnsafeMutableBufferPointer { slots in
                    indices.withUnsafeMutableBufferPointer { indices in
                        // A run of one colour (a transparent margin, a flat fill) is looked up once.
                        var (previous, previousIndex): (UInt32?, UInt8) = (nil, 0)
                        for p in 0..<pixelCount {
                            let colour = UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: p * 4, as: UInt32.self))
                            if colour == previous {
                                indices[p] = previousIndex
                                continue
                            }
                            defer { (previous, previousIndex) = (colour, indices[p]) }
                            var h = Int((colour &* 0x9E37_79B1) >> 23)
                            while true {
                                let slot = slots[h]
                                if slot < 0 {
                                    guard colours.count < 256 else { return false }
                                    keys[h] = colour
                                    slots[h] = Int16(colours.count)
                                    indices[p] = UInt8(colours.count)
                                    colours.append(colour)
                                    break
                                }
                                if keys[h] == colour {
                                    indices[p] = UInt8(slot)
                                    break
                                }
                                h = (h + 1) & 511
                            }
                        }
                        return true
                    }
                }
            }
        }
        guard complete else { return nil }
        // Translucent entries first (tRNS stops at the last one), each group in order of first
        // appearance: deterministic for a given bitmap.
        let ordered =
            colours.indices.filter { colours[$0] & 0xFF != 0xFF } + colours.indices.filter { colours[$0] & 0xFF == 0xFF }
        var remap = [UInt8](repeating: 0, count: colours.count)
        var colormap: [UInt8] = []
        colormap.reserveCapacity(ordered.count * 4)
        for (n, first) in ordered.enumerated() {
            remap[first] = UInt8(n)
            let colour = colours[first]
            colormap += [UInt8(colour >> 24), UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF)]
        }
        for p in 0..<pixelCount { indices[p] = remap[Int(indices[p])] }
        return Palette(indices: indices, colormap: colormap)
    }
}
