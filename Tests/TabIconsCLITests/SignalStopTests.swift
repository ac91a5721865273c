import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
import TabIconsBatch
@testable import TabIconsCLI
import TabIconsTestSupport
import TabIconsBatchTestSupport

/// The built `tabicon` killed at random points (SPEC §6a "Whole sets"): SIGINT and SIGTERM stop
/// it cleanly (exit 130 / 143, no temporary, the previous manifest); after SIGKILL every file is
/// still a whole old or new one. Either way every icon's set is old or new, and the next run
/// leaves exactly what a clean run writes, with no temporary.
@Suite("Signals", .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct SignalStopTests {
    static let count = 16

    @Test(
        "killed with SIGINT, SIGTERM or SIGKILL at random points: old or new set per icon, no temporary after the next run",
        arguments: [SIGINT, SIGTERM, SIGKILL])
    func killed(signal: Int32) throws {
        let names = (0..<Self.count).map { "icon\($0).png" }
        let dir = try BuildStep.inputs(names.enumerated().map { ($1, BuildStep.glyphs[$0 % 8]) })
        let old = try TemporaryDirectory("old")
        #expect(BuildStep.cli([dir.path("icons"), "-o", old.url.path]) == .success)
        let oldManifest = try Data(contentsOf: old.url.appendingPathComponent("manifest.json"))
        let oldIcons = try Manifest(parsing: oldManifest).icons
        for (index, name) in names.enumerated() {
            try BuildStep.put(BuildStep.glyphs[(index + 1) % 8], at: "icons/" + name, in: dir)
        }
        let reference = try TemporaryDirectory("reference")
        #expect(BuildStep.cli([dir.path("icons"), "-o", reference.url.path]) == .success)
        let newIcons = try BuildStep.manifest(reference.path("manifest.json")).icons
        let expected = try reference.snapshot()

        var random = SeededGenerator(seed: UInt64(signal))
        // Three trials at random points. For SIGINT and SIGTERM, more (up to 12 in all) until one
        // has stopped cleanly through the handler, each signalled halfway between the latest
        // trial that came too early (killed before the handler was installed) and the earliest
        // that came too late (the run had finished): the handler must be seen at work.
        var tooEarly: UInt32 = 0
        var tooLate: UInt32?
        var cleanStops = 0
        var trial = 0
        while trial < 3 || (signal != SIGKILL && cleanStops == 0 && trial < 12) {
            defer { trial += 1 }
            let delay =
                trial < 3
                ? UInt32.random(in: 5_000...150_000, using: &random)
                : tooLate.map { (tooEarly + $0) / 2 } ?? max(tooEarly * 2, 150_000)
            let out = try TemporaryDirectory("killed")
            try FileManager.default.removeItem(at: out.url)
            try FileManager.default.copyItem(at: old.url, to: out.url)
            let process = Process()
            process.executableURL = TabiconBinary.url
            process.arguments = ["normalize", "-q", "--jobs", "2", dir.path("icons"), "-o", out.url.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(delay)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let stoppedCleanly = process.terminationReason == .exit && process.terminationStatus == 128 + signal
            if stoppedCleanly {
                cleanStops += 1
            } else if process.terminationReason == .exit && process.terminationStatus == 0 {
                tooLate = min(tooLate ?? delay, delay)
            } else if process.terminationReason == .uncaughtSignal {
                tooEarly = max(tooEarly, delay)
            }
            let context = "signal \(signal), trial \(trial), status \(process.terminationStatus)"
            if signal != SIGKILL {
                // Finished before the signal (0), stopped by it (128 + n), or hit before the
                // handler was installed (killed by the signal itself, nothing written yet).
                #expect(
                    stoppedCleanly || process.terminationStatus == 0 || process.terminationReason == .uncaughtSignal, "\(context)"
                )
                #expect(BuildStep.temporaries(out).isEmpty, "\(context)")
                if stoppedCleanly {
                    #expect(try Data(contentsOf: out.url.appendingPathComponent("manifest.json")) == oldManifest, "\(context)")
                }
            }
            for (index, icon) in oldIcons.enumerated() {
                let hashes = icon.ownedFiles.map { file in
                    (try? Data(contentsOf: out.url.appendingPathComponent(file.path))).map { ContentHash(of: $0).description }
                }
                let isOld = hashes == icon.ownedFiles.map(\.hash)
                let isNew = hashes == newIcons[index].ownedFiles.map(\.hash)
                if signal == SIGKILL {
                    // The renames of one set are not one atomic step: a SIGKILL between two of
                    // them can leave a mix, but never a partial file.
                    for (position, hash) in hashes.enumerated() {
                        #expect(
                            hash == icon.ownedFiles[position].hash || hash == newIcons[index].ownedFiles[position].hash,
                            "\(context)")
                    }
                } else {
                    #expect(isOld || isNew, "\(icon.name): a mix of old and new files, \(context)")
                }
            }
            #expect(BuildStep.cli([dir.path("icons"), "-o", out.url.path]) == .success)
            #expect(BuildStep.temporaries(out).isEmpty, "\(context)")
            #expect(try out.snapshot() == expected, "\(context)")
        }
        if signal != SIGKILL {
            #expect(
                cleanStops > 0,
                "signal \(signal): none of \(trial) trials stopped cleanly through the handler (exit \(128 + signal))")
        }
    }
}
