import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs

/// The PNG files the streamed-decoding tests run over: every PNG of PngSuite, libpng's test
/// images and the broken-file collections in the corpus, and the package's TestImages (which are
/// there without the corpus), plus two made here that are large enough to have many IDAT chunks.
package enum StreamedPNGInputs {
    package struct Input: CustomTestStringConvertible, Sendable {
        package let name: String
        package let data: Data
        package var testDescription: String { name }
    }

    /// Every input, sorted by name; the corpus's only when it is present.
    package static let all: [Input] = {
        var inputs: [Input] = []
        let fm = FileManager.default
        var roots = [Fixtures.packageRoot.appendingPathComponent("TestImages")]
        if Fixtures.hasCorpus {
            roots += ["pngsuite", "libpng", "bad"].map { Fixtures.corpus($0) }
        }
        for root in roots {
            guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let url as URL in walker where url.pathExtension.lowercased() == "png" {
                guard let data = try? Data(contentsOf: url) else { continue }
                let name = url.path.replacingOccurrences(
                    of: Fixtures.packageRoot.deletingLastPathComponent().path + "/", with: "")
                inputs.append(Input(name: name, data: data))
            }
        }
        inputs.append(Input(name: "made: 301×233 noise RGBA", data: made(width: 301, height: 233, seed: 12)))
        inputs.append(Input(name: "made: 640×480 noise RGBA", data: made(width: 640, height: 480, seed: 7)))
        return inputs.sorted { $0.name < $1.name }
    }()

    /// A PNG of seeded noise with some fully transparent and half-transparent pixels, encoded by
    /// the package's own encoder as a rendition is written (noise barely compresses, so the IDAT
    /// data stays large; the encoder's `.fast` setting is internal to TabIconsCodecs).
    package static func made(width: Int, height: Int, seed: UInt64) -> Data {
        var generator = SeededGenerator(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            for c in 0..<3 { pixels[i + c] = generator.byte() }
            let a = generator.byte()
            pixels[i + 3] = a < 40 ? 0 : a < 80 ? a : 255
        }
        let bitmap = Bitmap(width: width, height: height, pixels: pixels)
        return Data((try? OutputFormat.png.encode(bitmap)) ?? [])
    }
}
