import TabIconsCore
/// The EXIF orientation tag, read from the TIFF structure an EXIF block carries.
///
/// Written in Swift rather than in the C shim because this is the part of a JPEG most often
/// malformed (cameras, editors and fuzzers all get it wrong) and every read here is an explicit,
/// bounds-checked array access: a bad offset can only give up, never read outside the block. It
/// is also format-neutral: a WebP `EXIF` chunk holds the same TIFF structure.
///
/// The rule: a broken EXIF block never fails a decode. Anything that does not lead cleanly to
/// IFD0 tag 0x0112 with a value 1–8 means orientation 1 (as stored).
enum EXIF {
    /// The orientation in an EXIF payload: a TIFF header ("II*\0" or "MM\0*"), optionally preceded
    /// by the "Exif\0\0" identifier that JPEG's APP1 (and some WebP writers) put in front of it.
    static func orientation(_ payload: [UInt8]) -> Orientation {
        let identifier: [UInt8] = Array("Exif".utf8) + [0, 0]
        if payload.starts(with: identifier) {
            return orientation(tiff: Array(payload.dropFirst(identifier.count)))
        }
        return orientation(tiff: payload)
    }

    /// The orientation in a TIFF structure whose offsets count from its first byte.
    static func orientation(tiff: [UInt8]) -> Orientation {
        guard let reader = TIFFReader(tiff),
            let ifd0 = reader.uint32(at: 4).map(Int.init),
            let entryCount = reader.uint16(at: ifd0).map(Int.init)
        else { return .up }
        for index in 0..<entryCount {
            let entry = ifd0 + 2 + index * 12
            guard let tag = reader.uint16(at: entry), let type = reader.uint16(at: entry + 2) else { return .up }
            guard tag == 0x0112 else { continue }
            // Orientation is a single value; a count other than 1 is a malformed entry.
            guard reader.uint32(at: entry + 4) == 1 else { return .up }
            // SHORT is what the standard says; a few writers use LONG. The value sits in the
            // entry's own 4-byte value field either way.
            let value: Int?
            switch type {
            case 3: value = reader.uint16(at: entry + 8).map(Int.init)
            case 4: value = reader.uint32(at: entry + 8).map(Int.init)
            default: value = nil
            }
            guard let value, let orientation = Orientation(rawValue: value) else { return .up }
            return orientation
        }
        return .up
    }
}

/// Reads TIFF integers in the byte order the header declares; every read is bounds-checked and
/// answers nil past the end.
private struct TIFFReader {
    let bytes: [UInt8]
    let bigEndian: Bool

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x49, 0x49, 0x2A, 0x00): bigEndian = false
        case (0x4D, 0x4D, 0x00, 0x2A): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
    }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }
}
