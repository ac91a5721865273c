import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon-bench jail --tabicon PATH [--repeat N] [--jobs N] DIR...`: the jail's cost (SPEC §2,
/// issue 17). For each folder, the same batch `tabicon normalize` runs (`BatchNormalizer`, every
/// input redone, into a fresh folder), in process and jailed in `PATH __worker` processes,
/// alternating run by run so both share the machine's load alike. Prints the median wall and CPU
/// seconds of each (CPU: the process's and its reaped workers') and their ratio.
enum JailBench {
    static let usage = "usage: tabicon-bench jail --tabicon PATH [--repeat N] [--jobs N] DIR..."

    static func main(_ arguments: [String]) -> Int32 {
        var tabicon: String?, repeats = 5, jobs = ProcessInfo.processInfo.activeProcessorCount, folders: [String] = []
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--tabicon": tabicon = rest.popFirst()
            case "--repeat": repeats = rest.popFirst().flatMap(Int.init) ?? 0
            case "--jobs": jobs = rest.popFirst().flatMap(Int.init) ?? 0
            case let path where !path.hasPrefix("-"): folders.append(path)
            default: folders = []; rest = []
            }
        }
        guard let tabicon, repeats > 0, jobs > 0, !folders.isEmpty else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        print("\(Machine.description); --jobs \(jobs), \(repeats) runs each, medians")
        print("folder                      inputs  in-process wall  cpu    jailed wall  cpu    wall ×  cpu ×")
        for folder in folders {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            let inputs = names.map { name in
                BatchInput(name: name, outputStem: (name as NSString).deletingPathExtension, load: { () throws(TabIconsError) -> Data in
                    try InputReader.read(URL(fileURLWithPath: folder).appendingPathComponent(name))
                })
            }
            var plain: [(Double, Double)] = [], jailed: [(Double, Double)] = []
            for _ in 0..<repeats {
                plain.append(measure(inputs, jail: nil, jobs: jobs))
                jailed.append(measure(inputs, jail: WorkerJail(executable: tabicon), jobs: jobs))
            }
            let p = (median(plain.map(\.0)), median(plain.map(\.1))), j = (median(jailed.map(\.0)), median(jailed.map(\.1)))
            print(String(format: "%-27@ %6d  %13.3f s %6.3f s  %9.3f s %6.3f s  %5.2f  %5.2f",
                         (folder as NSString).lastPathComponent as NSString, inputs.count, p.0, p.1, j.0, j.1, j.0 / p.0, j.1 / p.1))
        }
        return 0
    }

    /// One batch into a fresh folder: (wall, CPU) seconds.
    private static func measure(_ inputs: [BatchInput], jail: WorkerJail?, jobs: Int) -> (Double, Double) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("jail-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        var batch = BatchNormalizer(normalizer: Normalizer(options: NormalizeOptions()), outputRoot: out, jobs: jobs)
        batch.force = true
        batch.jail = jail
        let cpu0 = cpuSeconds(), wall0 = Date()
        _ = try? batch.run(inputs)
        return (Date().timeIntervalSince(wall0), cpuSeconds() - cpu0)
    }

    private static func cpuSeconds() -> Double {
        var total = 0.0
        for who in [RUSAGE_SELF, RUSAGE_CHILDREN] {
            var usage = rusage()
            getrusage(who.rawValue, &usage)
            total += Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        }
        return total
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
