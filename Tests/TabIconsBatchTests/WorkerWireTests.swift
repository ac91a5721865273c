import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport

/// The batch–worker messages (`WorkerWire`, `WorkerRequest`, `WorkerReply`): what one side writes
/// the other reads back; a reply that is garbage, truncated, or claims what was not asked for is
/// refused as malformed, never a crash; and a worker names nothing: the row and the files' paths,
/// sizes and hashes are the batch's (`RenderedIcon.row`).
@Suite("Worker messages")
struct WorkerWireTests {
    static let plan = OutputPlan.Icon(
        stem: "icons/home", renditionPaths: [(1, "icons/home.png"), (2, "icons/home@2x.png"), (3, "icons/home@3x.png")],
        contentsPath: nil)
    static let options = NormalizeOptions(scales: [1, 2, 3], trim: true, render: .template)

    static func request(_ data: Data, work: RenderedIcon.Work = .render(.png, vector: nil)) -> WorkerRequest {
        WorkerRequest(options: options, work: work, data: data)
    }

    /// A real reply: the in-process body's answer for TestImages/home.png, framed.
    static func reply(work: RenderedIcon.Work = .render(.png, vector: nil)) throws -> (
        request: WorkerRequest, icon: RenderedIcon, frame: [UInt8]
    ) {
        let data = try Fixtures.data(Fixtures.testImage("home.png"))
        let icon = try RenderedIcon.make(data, normalizer: Normalizer(options: options), work: work)
        return (request(data, work: work), icon, WorkerReply.rendered(icon).encoded)
    }

    static func decode(_ frame: [UInt8], _ request: WorkerRequest) throws(WorkerWire.Malformed) -> WorkerReply {
        let header = try WorkerWire.header(frame[...])
        guard header.bodyLength == 0, frame.count == WorkerWire.headerSize + header.fieldsLength else {
            throw WorkerWire.Malformed("length")
        }
        return try WorkerReply(kind: header.kind, fields: Array(frame[WorkerWire.headerSize...]), answering: request)
    }

    @Test(
        "a request reads back as written",
        arguments: [
            RenderedIcon.Work.render(.webp(quality: 80), vector: nil), .render(.png, vector: .vectorDrawable),
            .render(.webp(quality: nil), vector: .svg), .plan(),
            .render(.png, vector: .symbol(SymbolWeights(ultralight: 0.3, black: 2.2))), .plan(symbols: .standard)
        ])
    func requestRoundTrip(work: RenderedIcon.Work) throws {
        let request = Self.request(Data([1, 2, 3]), work: work)
        let frame = request.head
        let header = try WorkerWire.header(frame[...])
        #expect(header.fieldsLength == frame.count - WorkerWire.headerSize && header.bodyLength == 3)
        let read = try WorkerRequest(kind: header.kind, fields: Array(frame[WorkerWire.headerSize...]), body: request.data)
        #expect(read.options == Self.options && read.work == work && read.data == Data([1, 2, 3]))
    }

    @Test("a request's --stroke-width and --fit read back as written, and their absence as absent")
    func strokeWidthRoundTrip() throws {
        for width in [1.5, 0.25, nil] as [Double?] {
            var options = Self.options
            options.strokeWidth = width
            let request = WorkerRequest(options: options, work: .plan(), data: Data([7]))
            let frame = request.head
            let header = try WorkerWire.header(frame[...])
            let read = try WorkerRequest(kind: header.kind, fields: Array(frame[WorkerWire.headerSize...]), body: request.data)
            #expect(read.options == options && read.options.strokeWidth == width)
        }
        for fit in [.size(17.25), .set, nil] as [NormalizeOptions.OpticalFit?] {
            var options = Self.options
            options.opticalFit = fit
            let request = WorkerRequest(options: options, work: .plan(), data: Data([7]))
            let header = try WorkerWire.header(request.head[...])
            let read = try WorkerRequest(
                kind: header.kind, fields: Array(request.head[WorkerWire.headerSize...]), body: request.data)
            #expect(read.options.opticalFit == fit)
        }
        var centred = Self.options
        centred.opticalCentre = 0.75
        let request = WorkerRequest(options: centred, work: .plan(), data: Data([7]))
        let header = try WorkerWire.header(request.head[...])
        let read = try WorkerRequest(kind: header.kind, fields: Array(request.head[WorkerWire.headerSize...]), body: request.data)
        #expect(read.options == centred)
    }

    @Test("a reply reads back as made; the batch names it, places its files at the plan's paths and hashes them")
    func replyRoundTrip() throws {
        let (request, icon, frame) = try Self.reply()
        guard case .rendered(let read) = try Self.decode(frame, request) else { Issue.record("not rendered"); return }
        #expect(read == icon && read.renditions.map(\.scale) == [1, 2, 3])
        let hash = ContentHash(of: request.data)
        let (row, files) = read.row(input: "icons/home.png", plan: Self.plan, contentHash: hash, planOnly: false)
        #expect(row.input == "icons/home.png" && row.name == "home" && row.contentHash == hash.description)
        #expect(files.map(\.path) == Self.plan.renditionPaths.map(\.path))
        #expect(row.renditions?.map(\.hash) == files.map { ContentHash(of: $0.bytes).description })
        #expect(row.renditions?.map(\.bytes) == files.map(\.bytes.count))
        #expect(row.contentsFile == nil && row.selectorFile == nil && row.vectorFile == nil)
    }

    @Test("inspect's reply: the figures only, a row without renditions")
    func planReply() throws {
        let (request, icon, frame) = try Self.reply(work: .plan())
        guard case .rendered(let read) = try Self.decode(frame, request) else { Issue.record("not rendered"); return }
        #expect(read == icon && read.renditions.isEmpty && read.vector == nil)
        let (row, files) = read.row(
            input: "home.png", plan: Self.plan, contentHash: ContentHash(of: request.data), planOnly: true)
        #expect(row.renditions == nil && files.isEmpty && row.decodeScale > 0)
    }

    @Test("every truncation and every single flipped byte of a reply is refused or read, never a crash")
    func garbage() throws {
        let (request, _, frame) = try Self.reply()
        for end in stride(from: 0, to: frame.count, by: max(1, frame.count / 300)) {
            #expect(throws: WorkerWire.Malformed.self) { try Self.decode(Array(frame[..<end]), request) }
        }
        var random = SeededGenerator(seed: 17)
        for _ in 0..<300 {
            var bent = frame
            bent[Int.random(in: 0..<bent.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            _ = try? Self.decode(bent, request)
        }
        #expect(throws: WorkerWire.Malformed.self) {
            try Self.decode((0..<64).map { _ in UInt8.random(in: 0...255, using: &random) }, request)
        }
    }

    @Test("refused: a rendition at a scale not asked for, twice or out of order; renditions or a vector for inspect")
    func claimsNotAskedFor() throws {
        let (request, icon, _) = try Self.reply()
        func refused(_ forge: (inout RenderedIcon) -> Void, _ request: WorkerRequest) -> Bool {
            var forged = icon
            forge(&forged)
            return (try? Self.decode(WorkerReply.rendered(forged).encoded, request)) == nil
        }
        let first = icon.renditions[0]
        #expect(refused({ $0.renditions.append(first) }, request))
        #expect(refused({ $0.renditions.reverse() }, request))
        #expect(refused({ $0.renditions[0] = .init(scale: 4, pixelWidth: 1, pixelHeight: 1, bytes: first.bytes) }, request))
        #expect(refused({ $0.renditions[0] = .init(scale: 1, pixelWidth: 0, pixelHeight: 1, bytes: first.bytes) }, request))
        #expect(refused({ $0.figures.pixelWidth = -1 }, request))
        #expect(refused({ $0.figures.decodeScale = .infinity }, request))
        #expect(refused({ $0.vector = Array("<svg/>".utf8) }, request))
        let inspect = Self.request(request.data, work: .plan())
        #expect(refused({ _ in }, inspect))
        #expect(
            refused(
                {
                    $0.renditions = []; $0.vector = Array("<svg/>".utf8)
                }, inspect))
        // An honest skipped upscale leaves a gap, which is read.
        #expect(!refused({ $0.renditions.remove(at: 1) }, request))
    }
}
