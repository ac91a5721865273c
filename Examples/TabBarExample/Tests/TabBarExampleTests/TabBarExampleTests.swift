import Foundation
import TabIcons
import XCTest
@testable import TabBarExample

/// The renditions the plugin made are in `Bundle.module`, decode, and have the sizes of the
/// 25-point box at 1×, 2× and 3×.
final class TabBarExampleTests: XCTestCase {
    func testEveryRenditionLoadsAtItsScale() throws {
        XCTAssertEqual(TabIconAsset.all.map(\.name), ["bell", "gear", "gear-fill", "house", "house-fill", "search"])
        for asset in TabIconAsset.all {
            XCTAssertEqual(asset.scales, [1, 2, 3])
            for scale in asset.scales {
                let data = try XCTUnwrap(asset.data(scale: scale), "\(asset.name) at \(scale)x is not in Bundle.module")
                let image = try ImageDecoder.decode(data)
                // Every icon here is square: Bootstrap's 16×16 SVGs fill the box, bell.png is 96 px.
                XCTAssertEqual(image.bitmap.width, Int(25 * scale), "\(asset.name) at \(scale)x")
                XCTAssertEqual(image.bitmap.height, Int(25 * scale), "\(asset.name) at \(scale)x")
                XCTAssertEqual(ImageFormat.sniff(data), .png)
            }
        }
    }

    /// tabicons.json gives bell.png two points of clear space: a band of 2 × scale pixels along
    /// every edge is transparent, and the glyph reaches it (it fills the box less the padding).
    func testTabiconsJSONPadsTheBell() throws {
        for scale in [1.0, 2, 3] {
            let image = try ImageDecoder.decode(try XCTUnwrap(TabIconAssets.bell.data(scale: scale)))
            let (width, height, band) = (image.bitmap.width, image.bitmap.height, Int(2 * scale))
            func alpha(_ x: Int, _ y: Int) -> UInt8 { image.bitmap.pixels[(y * width + x) * 4 + 3] }
            var inBand = 0, atBandEdge = 0
            for y in 0..<height {
                for x in 0..<width {
                    let distance = min(x, y, width - 1 - x, height - 1 - y)
                    if distance < band { inBand = max(inBand, Int(alpha(x, y))) }
                    if distance == band { atBandEdge = max(atBandEdge, Int(alpha(x, y))) }
                }
            }
            XCTAssertEqual(inBand, 0, "bell at \(scale)x: a pixel inside the \(band) px padding is not transparent")
            XCTAssertGreaterThan(atBandEdge, 0, "bell at \(scale)x: the glyph does not reach the padding")
        }
    }

    func testFileNamesAreTheFlatLayouts() {
        XCTAssertEqual(TabIconAssets.house.fileNames, ["house.png", "house@2x.png", "house@3x.png"])
        XCTAssertEqual(TabIconAssets.house.source, "house.svg")
        XCTAssertEqual(TabIconAssets.bell.source, "bell.png")
        XCTAssertNil(TabIconAssets.house.fileName(scale: 4))
    }

    func testTwinsAreLinked() {
        XCTAssertEqual(TabIconAssets.house.selected, TabIconAssets.houseFill)
        XCTAssertEqual(TabIconAssets.gear.selected, TabIconAssets.gearFill)
        XCTAssertNil(TabIconAssets.search.selected)
        XCTAssertNil(TabIconAssets.house.dark)
    }

    func testTheTabBarShowsEachIconAndItsSelectedTwin() throws {
        XCTAssertEqual(TabBar.items.map(\.iconName), ["house", "search", "bell", "gear"])
        XCTAssertEqual(TabBar.items.map(\.selectedIconName), ["house-fill", "search", "bell", "gear-fill"])
        for item in TabBar.items {
            let plain = try XCTUnwrap(item.iconData(scale: 2))
            let selected = try XCTUnwrap(item.iconData(scale: 2, selected: true))
            XCTAssertEqual(plain == selected, item.iconName == item.selectedIconName, item.title)
        }
    }
}
