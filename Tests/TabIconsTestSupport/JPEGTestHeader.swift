import Foundation

/// JPEG headers built in the tests, apart from the decoder.
package enum JPEGTestHeader {
    /// The header of a `width × height` JPEG with the given components' (h, v) sampling, as
    /// libjpeg reads it (`JPEGDecoder.prepare`): SOI, the SOF marker, the first scan's SOS
    /// header (every component; for a progressive file its DC scan), then EOI with no entropy data.
    package static func bytes(sof: UInt8, width: Int, height: Int, sampling: [(Int, Int)]) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, sof]
        let length = 8 + 3 * sampling.count
        bytes += [
            UInt8(length >> 8), UInt8(length & 0xFF), 8,
            UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
            UInt8(sampling.count)
        ]
        for (i, (h, v)) in sampling.enumerated() { bytes += [UInt8(i + 1), UInt8(h << 4 | v), 0] }
        let progressive = sof == 0xC2 || sof == 0xC6 || sof == 0xCA || sof == 0xCE
        bytes += [0xFF, 0xDA, 0, UInt8(6 + 2 * sampling.count), UInt8(sampling.count)]
        for i in sampling.indices { bytes += [UInt8(i + 1), 0] }
        bytes += [0, progressive ? 0 : 63, 0]  // Ss, Se, Ah/Al
        return Data(bytes + [0xFF, 0xD9])
    }
}
