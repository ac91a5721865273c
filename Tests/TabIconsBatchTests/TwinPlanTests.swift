import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport

/// Twins below the command line (SPEC §6): where the plan puts a twin's files and which units an
/// icon and its twins make, and where a dark twin's rendered reply lands.
@Suite("twins in the plan and on the wire")
struct TwinPlanTests {
    @Test("a dark twin's reply lands at its plan's paths in its icon's set, with no Contents.json or state list of its own")
    func darkTwinReply() throws {
        let data = try Fixtures.data(Fixtures.testImage("bell.png"))
        let plan = OutputPlan.Icon(
            stem: "icons/home-dark", renditionPaths: [(1, "icons/home.imageset/home-dark.png")], contentsPath: nil)
        let request = WorkerRequest(options: NormalizeOptions(scales: [1]), work: .render(.png, vector: nil), data: data)
        let icon = try RenderedIcon.make(data, normalizer: Normalizer(options: request.options), work: request.work)
        guard case .rendered(let honest) = try WorkerWireTests.decode(WorkerReply.rendered(icon).encoded, request) else {
            Issue.record("the honest reply was refused")
            return
        }
        let (row, files) = honest.row(
            input: "icons/home-dark.png", plan: plan, contentHash: ContentHash(of: data), planOnly: false)
        #expect(files.map(\.path) == ["icons/home.imageset/home-dark.png"])
        #expect(row.contentsFile == nil && row.selectorFile == nil)
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
