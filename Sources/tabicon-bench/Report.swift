import TabIcons
import TabIconsBatch
import Foundation

/// One configuration's figures: one row of the table, one object of `results` in the JSON.
struct Measurement {
    var strategy: String
    var flavour: String
    var bars: Int
    var frames: Int
    var nsPerFrameMedian: Double
    var nsPerFrameP99: Double
    var decodesPerFrame: Double
    var newRevisionsPerFrame: Double
    var frameShare120Hz: Double
    var liveEntriesAfterChurn: Int
    var mountedBarsAfterChurn: Int
    var liveBytesAfterChurn: Int
    /// The bytes the mounted bars reference, each distinct content once: what an exact table holds.
    var referencedBytesAfterChurn: Int
    var decodesFirstFrame: Int
    var liveEntriesAfterTeardown: Int
    var liveBytesAfterTeardown: Int

    var nsPerBarMedian: Double { nsPerFrameMedian / Double(bars) }

    /// SPEC §7's keys in the order, then the extra ones.
    var json: JSONValue {
        .object([
            ("strategy", .string(strategy)), ("flavour", .string(flavour)), ("bars", .int(bars)),
            ("frames", .int(frames)),
            ("nsPerFrameMedian", .int(Int(nsPerFrameMedian))), ("nsPerFrameP99", .int(Int(nsPerFrameP99))),
            ("decodesPerFrame", .double(decodesPerFrame)), ("newRevisionsPerFrame", .double(newRevisionsPerFrame)),
            ("frameShare120Hz", .double(frameShare120Hz)),
            ("liveEntriesAfterChurn", .int(liveEntriesAfterChurn)),
            ("mountedBarsAfterChurn", .int(mountedBarsAfterChurn)),
            ("liveBytesAfterChurn", .int(liveBytesAfterChurn)),
            ("referencedBytesAfterChurn", .int(referencedBytesAfterChurn)),
            ("nsPerBarMedian", .double(nsPerBarMedian)),
            ("decodesFirstFrame", .int(decodesFirstFrame)),
            ("liveEntriesAfterTeardown", .int(liveEntriesAfterTeardown)),
            ("liveBytesAfterTeardown", .int(liveBytesAfterTeardown))
        ])
    }
}

/// The whole run.
struct Report {
    var scenario: String
    var machine: String
    var images: String
    var decoder: String
    var results: [Measurement]

    var json: JSONValue {
        .object([
            ("scenario", .string(scenario)), ("machine", .string(machine)),
            ("results", .array(results.map(\.json))),
            ("images", .string(images)), ("decoder", .string(decoder))
        ])
    }

    /// The table a person reads.
    var text: String {
        var lines = ["\(scenario) — \(machine)", "images: \(images)", "decoder: \(decoder)", ""]
        let header = [
            "strategy", "flavour", "bars", "frames", "median ns", "p99 ns", "ns/bar",
            "decodes/f", "new revs/f", "120Hz %", "1st-frame dec", "entries/mounted", "bytes live/referenced",
            "after teardown"
        ]
        var rows = [header]
        for m in results {
            rows.append([
                m.strategy, m.flavour, "\(m.bars)", "\(m.frames)",
                Self.number(m.nsPerFrameMedian), Self.number(m.nsPerFrameP99), Self.number(m.nsPerBarMedian),
                Self.number(m.decodesPerFrame), Self.number(m.newRevisionsPerFrame),
                Self.number(m.frameShare120Hz * 100, digits: 3),
                "\(m.decodesFirstFrame)",
                "\(m.liveEntriesAfterChurn)/\(m.mountedBarsAfterChurn)",
                "\(m.liveBytesAfterChurn)/\(m.referencedBytesAfterChurn)",
                "\(m.liveEntriesAfterTeardown) entries, \(m.liveBytesAfterTeardown) B"
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for (index, row) in rows.enumerated() {
            let cells = row.enumerated().map { column, cell in
                column < 2
                    ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }
            lines.append(cells.joined(separator: "  "))
            if index == 0 { lines.append(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))) }
        }
        return lines.joined(separator: "\n")
    }

    /// A figure with about `digits` significant digits: whole numbers from 1000 up, no trailing
    /// zeros below.
    static func number(_ value: Double, digits: Int = 4) -> String {
        if value == 0 { return "0" }
        if abs(value) >= 1000 || value == value.rounded() { return String(Int(value.rounded())) }
        return String(format: "%.\(digits)g", value)
    }
}
