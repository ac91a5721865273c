import Foundation
import Testing
import TabIcons  // not @testable: only what a build pipeline or UI runtime can see
import TabIconsTestSupport

/// SPEC §5a, line by line, through the public API alone: the names build pipelines and UI
/// runtimes code against must exist and behave as the SPEC says.
@Suite("The library's front door (SPEC §5a)")
struct LibraryFrontDoorTests {
    @Test("the SPEC's snippet compiles and answers what it says")
    func specSnippet() throws {
        let data = try Data(contentsOf: Fixtures.testImage("home.png"))

        #expect(IconBox.regular.points == 25)
        #expect(IconBox.compact.points == 18 && IconBox.material.points == 24)
        #expect(IconBox.decodeScale(width: 75, height: 75) == 3.0)

        #expect(ImageFormat.sniff(data) == .png)
        let image = try ImageDecoder.decode(data)
        #expect(image.bitmap.width == 96 && image.info.format == .png)

        let normalizer = Normalizer(options: NormalizeOptions())
        let icon = try normalizer.normalize(data)
        #expect(icon.decodeScale == 3.84 && icon.pointWidth == 25 && icon.pointHeight == 25)
        #expect(icon.renditions.map(\.bitmap.width) == [25, 50, 75])
        #expect(icon.lints.isEmpty)

        let table = IconTable()
        let rev: UInt64 = try table.publish(slot: 7, items: [ItemIcons(icon: data, selectedIcon: nil)])
        #expect(rev > 0)
        #expect(table.icons(slot: 7) == [ItemIcons(icon: data, selectedIcon: nil)])
        #expect(table.count >= 1)
        table.retire(slot: 7)
        #expect(table.icons(slot: 7) == nil)
    }
}
