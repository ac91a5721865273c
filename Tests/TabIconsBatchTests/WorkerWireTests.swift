import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport

/// The batch–worker messages (`WorkerWire`, `WorkerRequest`, `WorkerReply`): what one side writes
/// the other reads back, and a reply that is garbage, truncated or lying about its files is
/// refused as malformed, never a crash or a trusted row.
@Suite("Worker messages")
struct WorkerWireTests {
    static let plan = OutputPlan.Icon(
        stem: "icons/home", renditionPaths: [(1, "icons/home.png"), (2, "icons/home@2x.png"), (3, "icons/home@3x.png")],
        contentsPath: nil)

    static func request(_ data: Data) -> WorkerRequest {
        .render(
            input: "icons/home.png", plan: plan, options: NormalizeOptions(scales: [1, 2, 3], trim: true, render: .template),
            format: .webp(quality: 80), contentHash: ContentHash(of: data), data: data)
    }

    /// A real reply: the in-process body's answer for TestImages/home.png, framed.
    static func reply() throws -> (request: WorkerRequest, frame: [UInt8], hash: ContentHash) {
        let data = try Fixtures.data(Fixtures.testImage("home.png"))
        let request = request(data)
        let hash = ContentHash(of: data)
        let icon = try RenderedIcon.render(
            data, input: "icons/home.png", plan: plan, normalizer: Normalizer(), format: .png, contentHash: hash)
        return (request, WorkerReply.rendered(icon).encoded, hash)
    }

    static func decode(_ frame: [UInt8], _ request: WorkerRequest, _ hash: ContentHash) throws(WorkerWire.Malformed)
        -> WorkerReply
    {
        let header = try WorkerWire.header(frame[...])
        guard header.bodyLength == 0, frame.count == WorkerWire.headerSize + header.fieldsLength else {
            throw WorkerWire.Malformed("length")
        }
        return try WorkerReply(
            kind: header.kind, fields: Array(frame[WorkerWire.headerSize...]), answering: request, contentHash: hash)
    }

    @Test("a request reads back as written")
    func requestRoundTrip() throws {
        let request = Self.request(Data([1, 2, 3]))
        let frame = request.head
        let header = try WorkerWire.header(frame[...])
        #expect(header.fieldsLength == frame.count - WorkerWire.headerSize && header.bodyLength == 3)
        let read = try WorkerRequest(kind: header.kind, fields: Array(frame[WorkerWire.headerSize...]), body: request.data)
        guard case .render(let input, let plan, let options, let format, let contentHash, let data) = read else {
            Issue.record("not a render"); return
        }
        #expect(input == "icons/home.png" && plan == Self.plan && data == Data([1, 2, 3]))
        #expect(contentHash == ContentHash(of: Data([1, 2, 3])))
        #expect(options == NormalizeOptions(scales: [1, 2, 3], trim: true, render: .template) && format == .webp(quality: 80))
    }

    @Test("a reply reads back as written, named as the batch names it")
    func replyRoundTrip() throws {
        let (request, frame, hash) = try Self.reply()
        guard case .rendered(let icon) = try Self.decode(frame, request, hash) else { Issue.record("not rendered"); return }
        #expect(icon.row.input == "icons/home.png" && icon.row.name == "home" && icon.row.contentHash == hash.description)
        #expect(icon.files.map(\.path) == Self.plan.renditionPaths.map(\.path))
    }

    @Test("every truncation and every single flipped byte of a reply is refused or read, never a crash")
    func garbage() throws {
        let (request, frame, hash) = try Self.reply()
        for end in stride(from: 0, to: frame.count, by: max(1, frame.count / 300)) {
            #expect(throws: WorkerWire.Malformed.self) { try Self.decode(Array(frame[..<end]), request, hash) }
        }
        var random = SeededGenerator(seed: 17)
        for _ in 0..<300 {
            var bent = frame
            bent[Int.random(in: 0..<bent.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            _ = try? Self.decode(bent, request, hash)
        }
        #expect(throws: WorkerWire.Malformed.self) {
            try Self.decode((0..<64).map { _ in UInt8.random(in: 0...255, using: &random) }, request, hash)
        }
    }

    @Test(
        "a worker's reply never carries an image set's Contents.json (the batch makes it for the unit): a file or an entry for it is refused"
    )
    func noContentsFromAWorker() throws {
        let plan = OutputPlan.Icon(
            stem: "home",
            renditionPaths: [
                (1, "home.imageset/home.png"), (2, "home.imageset/home@2x.png"),
                (3, "home.imageset/home@3x.png")
            ],
            contentsPath: "home.imageset/Contents.json")
        let data = try Fixtures.data(Fixtures.testImage("home.png"))
        let hash = ContentHash(of: data)
        let request = WorkerRequest.render(
            input: "icons/home.png", plan: plan, options: NormalizeOptions(), format: .png, contentHash: hash, data: data)
        let icon = try RenderedIcon.render(
            data, input: "icons/home.png", plan: plan, normalizer: Normalizer(), format: .png, contentHash: hash)
        guard case .rendered(let honest) = try Self.decode(WorkerReply.rendered(icon).encoded, request, hash) else {
            Issue.record("the honest reply was refused")
            return
        }
        #expect(honest.row.contentsFile == nil && honest.files.map(\.path) == plan.renditionPaths.map(\.path))
        let contents = IconFiles.File(path: plan.contentsPath!, bytes: Array(#"{"images": [], "evil": true}"#.utf8))
        #expect(throws: WorkerWire.Malformed.self) {
            try Self.decode(
                WorkerReply.rendered(RenderedIcon(row: icon.row, files: icon.files + [contents])).encoded, request, hash)
        }
        var row = icon.row
        row.contentsFile = Manifest.FileEntry(
            path: plan.contentsPath!, bytes: contents.bytes.count, hash: ContentHash(of: contents.bytes))
        #expect(throws: WorkerWire.Malformed.self) {
            try Self.decode(WorkerReply.rendered(RenderedIcon(row: row, files: icon.files)).encoded, request, hash)
        }
    }

    @Test("a reply whose file is not the plan's, or whose bytes are not the row's, is refused")
    func lyingReply() throws {
        let (request, _, hash) = try Self.reply()
        let data = try Fixtures.data(Fixtures.testImage("home.png"))
        let icon = try RenderedIcon.render(
            data, input: "x", plan: Self.plan, normalizer: Normalizer(), format: .png, contentHash: hash)
        var files = icon.files
        files[0] = IconFiles.File(path: "../../etc/passwd", bytes: files[0].bytes)
        #expect(throws: WorkerWire.Malformed.self) {
            try Self.decode(WorkerReply.rendered(RenderedIcon(row: icon.row, files: files)).encoded, request, hash)
        }
        files = icon.files
        files[1] = IconFiles.File(path: files[1].path, bytes: files[1].bytes + [0])
        #expect(throws: WorkerWire.Malformed.self) {
            try Self.decode(WorkerReply.rendered(RenderedIcon(row: icon.row, files: files)).encoded, request, hash)
        }
        let inspected = WorkerReply.inspected(icon.row).encoded
        #expect(throws: WorkerWire.Malformed.self) { try Self.decode(inspected, request, hash) }
    }
}
