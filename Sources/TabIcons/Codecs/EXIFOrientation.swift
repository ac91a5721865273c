/// Reads the EXIF orientation tag (0x0112) from IFD0 of a TIFF-structured EXIF payload.
///
/// Only IFD0 is read because that is where the orientation of the primary image lives; IFD1
/// describes the thumbnail. Every offset is bounds-checked against the payload, so a damaged or
/// hostile EXIF block yields 1 ("as stored") rather than a crash: a bad tag must never cost the
/// image, since the pixels themselves decoded fine.
enum EXIFOrientation {
    /// The orientation 1–8 in `tiff`, or 1 when it is absent, out of range or unreadable.
    ///
    /// `tiff` starts at the byte-order mark ("II" or "MM"); an "Exif\0\0" prefix (as JPEG APP1
    /// carries it, and as some WebP writers copy it into the EXIF chunk) is skipped.
    static func read(tiff: UnsafeRawBufferPointer) -> Int {
        var bytes = tiff
        let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] // "Exif\0\0"
        if bytes.count >= exifPrefix.count, bytes.prefix(exifPrefix.count).elementsEqual(exifPrefix) {
            bytes = UnsafeRawBufferPointer(rebasing: bytes[exifPrefix.count...])
        }
        guard bytes.count >= 8 else { return 1 }

        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false // "II"
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        default: return 1
        }
        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count else { return nil }
            let a = Int(bytes[offset]), b = Int(bytes[offset + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func u32(_ offset: Int) -> Int? {
            guard let first = u16(offset), let second = u16(offset + 2) else { return nil }
            return bigEndian ? first << 16 | second : second << 16 | first
        }

        guard u16(2) == 42, let ifd0 = u32(4), let entryCount = u16(ifd0) else { return 1 }
        for index in 0..<entryCount {
            let entry = ifd0 + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4) else {
                return 1
            }
            guard tag == 0x0112 else { continue }
            // SHORT is what the standard prescribes; LONG appears in the wild and is harmless.
            let value: Int?
            switch (type, count) {
            case (3, 1): value = u16(entry + 8)
            case (4, 1): value = u32(entry + 8)
            default: value = nil
            }
            guard let value, (1...8).contains(value) else { return 1 }
            return value
        }
        return 1
    }
}
