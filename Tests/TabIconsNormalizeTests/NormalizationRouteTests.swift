import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// The route an input's bytes take (`NormalizationRoute`) is decided once, from the header, and
/// the normalizer, `planned` and the memory estimate all follow it; every route ends in the one
/// finishing step (`NormalizedIcon.finished`).
@Suite("Normalization route")
struct NormalizationRouteTests {
    static func route(_ data: Data, _ options: NormalizeOptions = NormalizeOptions()) -> String {
        switch NormalizationRoute(data, options: options) {
        case .streamedPNG: "streamed"
        case .raster: "raster"
        case .vector: "vector"
        }
    }

    @Test("each kind of input gets its route from its header and the options")
    func routes() throws {
        let noise = StreamedPNGInputs.made(width: 301, height: 233, seed: 12)
        #expect(Self.route(noise) == "streamed")
        #expect(Self.route(noise, NormalizeOptions(trim: true)) == "raster")
        #expect(Self.route(noise, NormalizeOptions(shape: .circle)) == "raster")
        #expect(Self.route(noise, NormalizeOptions(box: IconBox(points: 301)!)) == "raster")  // 1× is the source itself
        #expect(Self.route(Data(noise.base64EncodedString().utf8)) == "raster")
        let svg = try Data(contentsOf: Fixtures.testImage("house.svg"))
        #expect(Self.route(svg) == "vector")
        #expect(Self.route(Data(("data:image/svg+xml;base64," + svg.base64EncodedString()).utf8)) == "vector")
        #expect(Self.route(try Data(contentsOf: Fixtures.testImage("avatar-exif6.jpg"))) == "raster")
        #expect(Self.route(Data([1, 2, 3])) == "raster")
        // A header the decoder refuses: the whole-image decoder reports it, in its own words.
        var damaged = [UInt8](noise)
        damaged[29] ^= 0xFF  // the IHDR CRC
        #expect(Self.route(Data(damaged)) == "raster")
        let error = #expect(throws: TabIconsError.self) { _ = try Normalizer().normalize(Data(damaged)) }
        #expect(error?.message == "IHDR: CRC error")
    }

    @Test(
        "the estimate charges the route the normalizer takes",
        arguments: [NormalizeOptions(), NormalizeOptions(trim: true), NormalizeOptions(box: IconBox(points: 10)!, shape: .square)]
    )
    func estimateFollowsRoute(options: NormalizeOptions) throws {
        let inputs = [
            StreamedPNGInputs.made(width: 301, height: 233, seed: 12), StreamedPNGInputs.made(width: 75, height: 75, seed: 1),
            try Data(contentsOf: Fixtures.testImage("rgba16-32.png")), try Data(contentsOf: Fixtures.testImage("house.svg"))
        ]
        for data in inputs {
            let streamed = Self.route(data, options) == "streamed"
            #expect((StreamedNormalization.memoryEstimate(data, options: options) != nil) == streamed)
            #expect((try StreamedNormalization.outcome(data, options: options) != nil) == streamed)
            let estimate = Normalizer(options: options).normalizeMemoryEstimate(data)
            if !streamed {
                #expect(
                    estimate
                        == DecodeMemoryEstimate.bytes(
                            data, longestSideNeeded: Normalizer(options: options).longestSideNeeded,
                            limits: options.limits))
            }
        }
    }

    @Test(
        "planned equals normalize without the renditions on every route",
        arguments: ["home.png", "rgba16-32.png", "avatar-exif6.jpg", "bell-filled.webp", "house.svg", "star-fill.svg"])
    func plannedIsNormalizeWithoutPixels(_ name: String) throws {
        let data = try Data(contentsOf: Fixtures.testImage(name))
        for options in [
            NormalizeOptions(), NormalizeOptions(box: IconBox(points: 10)!, shape: .square, render: .auto),
            NormalizeOptions(shape: .circle, trim: true), NormalizeOptions(box: IconBox(points: 200)!)
        ] {
            let normalizer = Normalizer(options: options)
            var icon = try normalizer.normalize(data)
            var planned = try normalizer.planned(data)
            // Each parses its own document (equal by identity): the placement is what must agree.
            #expect(planned.vector?.placement == icon.vector?.placement, "\(name) \(options)")
            #expect((planned.vector != nil) == name.hasSuffix(".svg"), "\(name)")
            icon.renditions = []
            icon.vector = nil
            planned.vector = nil
            #expect(planned == icon, "\(name) \(options)")
        }
    }
}
