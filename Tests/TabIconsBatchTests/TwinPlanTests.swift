import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport

/// Twins below the command line (SPEC §6): where the plan puts a twin's files and which units an
/// icon and its twins make, and a worker's reply held to its twin's plan.
@Suite("twins in the plan and on the wire")
struct TwinPlanTests {
    @Test("a worker cannot write a state list, nor a Contents.json into a dark twin's plan")
    func lyingWorker() throws {
        let data = try Fixtures.data(Fixtures.testImage("bell.png"))
        let hash = ContentHash(of: data)
        let plan = OutputPlan.Icon(
            stem: "icons/home-dark", renditionPaths: [(1, "icons/home.imageset/home-dark.png")], contentsPath: nil)
        let request = WorkerRequest.render(
            input: "icons/home-dark.png", plan: plan, options: NormalizeOptions(scales: [1]),
            format: .png, contentHash: hash, data: data)
        let icon = try RenderedIcon.render(
            data, input: "icons/home-dark.png", plan: plan,
            normalizer: Normalizer(options: NormalizeOptions(scales: [1])), format: .png, contentHash: hash)
        guard case .rendered(let honest) = try WorkerWireTests.decode(WorkerReply.rendered(icon).encoded, request, hash) else {
            Issue.record("the honest reply was refused")
            return
        }
        #expect(honest.files.map(\.path) == ["icons/home.imageset/home-dark.png"] && honest.row.contentsFile == nil)
        var row = icon.row
        row.selectorFile = Manifest.FileEntry(path: "drawable/home_selector.xml", bytes: 3, hash: "x")
        #expect(throws: WorkerWire.Malformed.self) {
            try WorkerWireTests.decode(WorkerReply.rendered(RenderedIcon(row: row, files: icon.files)).encoded, request, hash)
        }
        let contents = IconFiles.File(path: "icons/home.imageset/Contents.json", bytes: Array("{}".utf8))
        #expect(throws: WorkerWire.Malformed.self) {
            try WorkerWireTests.decode(
                WorkerReply.rendered(RenderedIcon(row: icon.row, files: icon.files + [contents])).encoded, request, hash)
        }
    }

    @Test("the plan: a twin's paths, the state list, and the units an icon and its twins make")
    func plan() throws {
        let names = ["home.png", "home-filled.png", "home-dark.png", "home-filled-dark.png", "search.png"]
        let inputs = names.map {
            BatchInput(
                name: "icons/" + $0, outputStem: "icons/" + ($0 as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in Data() })
        }
        let (android, twins) = OutputPlan.placeTwins(
            inputs, OutputPlan.naming(inputs, layout: .android, fileExtension: "webp", scales: [1, 3]),
            layout: .android, fileExtension: "webp")
        #expect(twins.map(\.selected) == [1, nil, nil, nil, nil] && twins.map(\.dark) == [2, 3, nil, nil, nil])
        #expect(
            try android[2].get().renditionPaths.map(\.path) == [
                "drawable-night-mdpi/home.webp", "drawable-night-xxhdpi/home.webp"
            ])
        #expect(
            try android[3].get().renditionPaths.map(\.path) == [
                "drawable-night-mdpi/home_filled.webp", "drawable-night-xxhdpi/home_filled.webp"
            ])
        #expect(try android[0].get().selectorPath == "drawable/home_selector.xml")
        #expect(try android[1].get().selectorPath == nil)
        let plan = OutputPlan(icons: android, folders: [], spared: [], twins: twins)
        #expect(plan.units == [[0, 2, 1, 3], [4]])
        let (xcassets, _) = OutputPlan.placeTwins(
            inputs, OutputPlan.naming(inputs, layout: .xcassets, fileExtension: "png", scales: [1, 2]),
            layout: .xcassets, fileExtension: "png")
        #expect(
            try xcassets[2].get().renditionPaths.map(\.path) == [
                "icons/home.imageset/home-dark.png", "icons/home.imageset/home-dark@2x.png"
            ])
        #expect(try xcassets[2].get().contentsPath == nil && xcassets[0].get().selectorPath == nil)
    }
}
