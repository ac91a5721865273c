import Foundation
import Testing
import TabIconsCore
import TabIconsCodecs
@testable import TabIconsNormalize
import TabIconsTestSupport

/// resvg (the `resvg-py` pip package), an SVG renderer that shares nothing with librsvg, through
/// `scripts/resvg-render.py`: many drawings in one Python process. The suites that use it are
/// skipped with a message where `python3 -c "import resvg_py"` fails.
enum ResvgRenderer {
    static let script = Fixtures.packageRoot.appendingPathComponent("scripts/resvg-render.py").path

    static let isAvailable: Bool = (try? python(["-c", "import resvg_py"])) == 0

    static let needs: Comment = "needs python3 with resvg-py (pip install resvg-py)"

    @discardableResult
    static func python(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Each SVG drawn at its width × height, as straight RGBA bitmaps, in order.
    static func render(_ jobs: [(svg: [UInt8], width: Int, height: Int)]) throws -> [Bitmap] {
        let folder = try TemporaryDirectory("resvg")
        var listing = ""
        for (index, job) in jobs.enumerated() {
            try Data(job.svg).write(to: folder.url.appendingPathComponent("\(index).svg"))
            listing += "\(folder.path("\(index).svg")) \(job.width) \(job.height) \(folder.path("\(index).png"))\n"
        }
        try Data(listing.utf8).write(to: folder.url.appendingPathComponent("list"))
        let status = try python([script, folder.path("list")])
        try #require(status == 0, "resvg-render.py failed")
        return try jobs.indices.map { index in
            try ImageDecoder.decode(Data(contentsOf: folder.url.appendingPathComponent("\(index).png"))).bitmap
        }
    }
}
