import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// Streamed normalization is an optimization, not a second behaviour: for every PNG and every
/// option set that streams, the result equals decoding the whole image and normalizing it, and a
/// file that fails does so with the same error.
@Suite("Streamed normalization")
struct StreamedNormalizationTests {
    /// Option sets that stream, chosen so that small files (PngSuite's 32 px) stream too: boxes
    /// under the source, every shape that streams, every intent, several filters.
    static let optionSets: [NormalizeOptions] = [
        NormalizeOptions(),
        NormalizeOptions(box: IconBox(points: 10)!),
        NormalizeOptions(box: IconBox(points: 10)!, shape: .square, render: .template),
        NormalizeOptions(box: IconBox(points: 7)!, scales: [1, 2, 4], render: .templateLuminance, filter: .mitchell),
        NormalizeOptions(box: IconBox(points: 12.5)!, scales: [1.5, 2], shape: .square, filter: .box),
        NormalizeOptions(box: IconBox(points: 9)!, scales: [1, 3], filter: .triangle)
    ]

    /// The whole-image path `Normalizer.normalize(_: Data)` takes when nothing streams.
    static func whole(_ data: Data, _ options: NormalizeOptions) -> Result<NormalizedIcon, TabIconsError> {
        Result { () throws(TabIconsError) in
            let normalizer = Normalizer(options: options)
            let image = try ImageDecoder.decode(
                data,
                options: DecodeOptions(
                    limits: options.limits,
                    longestSideNeeded: normalizer.longestSideNeeded))
            return try normalizer.normalize(image)
        }
    }

    static func streamed(_ data: Data, _ options: NormalizeOptions) -> Result<NormalizedIcon?, TabIconsError> {
        Result { () throws(TabIconsError) in try StreamedNormalization.normalize(data, options: options) }
    }

    @Test("streamed renditions, lints and source facts equal the whole-image path's", arguments: StreamedPNGInputs.all)
    func sameResult(input: StreamedPNGInputs.Input) throws {
        for options in Self.optionSets {
            switch (Self.streamed(input.data, options), Self.whole(input.data, options)) {
            case (.success(let icon?), .success(let expected)):
                #expect(icon == expected, "\(options)")
            case (.success(nil), _):
                break  // not the streamed kind: Normalizer decodes it whole
            case (.failure(let error), .failure(let expected)):
                #expect(error == expected, "\(options)")
            case (let streamed, let whole):
                Issue.record("options \(options): streamed \(streamed) but whole \(whole)")
            }
        }
    }

    @Test("Normalizer.normalize(Data) takes the streamed path and gives its result")
    func normalizerUsesIt() throws {
        let data = StreamedPNGInputs.made(width: 301, height: 233, seed: 12)
        let options = NormalizeOptions()
        let icon = try Normalizer(options: options).normalize(data)
        #expect(try StreamedNormalization.normalize(data, options: options) == icon)
        #expect(try Self.whole(data, options).get() == icon)
        #expect(icon.renditions.map(\.bitmap.width) == [25, 50, 75])
        #expect(icon.renditions.map(\.bitmap.height) == [19, 39, 58])
        #expect(icon.source.hasTransparentPixels)
    }

    @Test(
        "enough of the inputs stream for the comparison to mean something",
        .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
    func coverage() throws {
        var streamed = 0
        for input in StreamedPNGInputs.all {
            if case .success(.some) = Self.streamed(input.data, NormalizeOptions(box: IconBox(points: 10)!)) { streamed += 1 }
        }
        // Of the 440 PNGs, those that decode and have a side over 10 px (193 when interlaced and
        // 16-bit files did not stream; counted when issue 17 made them stream).
        #expect(streamed == 309)
    }

    @Test("what does not stream: trim, circle, identity and upscaled renditions, text input; 16-bit files do")
    func notStreamed() throws {
        let noise = StreamedPNGInputs.made(width: 301, height: 233, seed: 12)
        #expect(try StreamedNormalization.normalize(noise, options: NormalizeOptions(trim: true)) == nil)
        #expect(try StreamedNormalization.normalize(noise, options: NormalizeOptions(shape: .circle)) == nil)
        #expect(try StreamedNormalization.normalize(noise, options: NormalizeOptions(box: IconBox(points: 301)!)) == nil)
        #expect(
            try StreamedNormalization.normalize(noise, options: NormalizeOptions(box: IconBox(points: 200)!, allowUpscale: true))
                == nil)
        let base64 = Data(noise.base64EncodedString().utf8)
        #expect(try StreamedNormalization.normalize(base64, options: NormalizeOptions()) == nil)
        // 75 px square at 3×: the 3× rendition is the decoded pixels untouched.
        let square = StreamedPNGInputs.made(width: 75, height: 75, seed: 1)
        #expect(try StreamedNormalization.normalize(square, options: NormalizeOptions()) == nil)
        #expect(try StreamedNormalization.normalize(square, options: NormalizeOptions(scales: [1, 2])) != nil)
        for name in ["rgba16-32.png"] {
            let data = try Fixtures.data(Fixtures.testImage(name))
            #expect(try StreamedNormalization.normalize(data, options: NormalizeOptions(box: IconBox(points: 10)!)) != nil)
        }
    }

    @Test("a file cut or damaged mid-stream fails as the whole-image path does, producing nothing")
    func failsMidStream() throws {
        let data = StreamedPNGInputs.made(width: 640, height: 480, seed: 5)
        var damaged = data
        damaged[data.count / 2] ^= 0x5A
        let cases: [(Data, TabIconsError.Code)] = [(Data(data.prefix(data.count * 7 / 10)), .truncated), (damaged, .corrupt)]
        for (bytes, code) in cases {
            let streamed = Self.streamed(bytes, NormalizeOptions())
            guard case .failure(let error) = streamed else {
                Issue.record("expected \(code), got \(streamed)")
                continue
            }
            #expect(error.code == code)
            #expect(Self.whole(bytes, NormalizeOptions()) == .failure(error))
            #expect(throws: error) { try Normalizer().normalize(bytes) }
        }
    }
}
