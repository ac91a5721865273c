import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon-bench jail --tabicon PATH [--repeat N] [--jobs N] DIR...`: the jail's cost (SPEC §2,
/// issue 17). For each folder, the batch `tabicon normalize` runs (`BatchNormalizer`, every input
/// redone, into a fresh folder) in a fresh process of this program, once in process and once
/// jailed in `PATH __worker` processes, alternating run by run so both share the machine's load
/// alike; both pay a process start and librsvg's first load, and allocate with `tabicon`'s
/// settings (`ProcessMemory`), as a build's `tabicon` does. Prints
/// the median wall and CPU seconds of each (CPU: the process's and its workers') and their ratio.
enum JailBench {
    static let usage = "usage: tabicon-bench jail --tabicon PATH [--repeat N] [--jobs N] DIR..."

    static func main(_ arguments: [String]) -> Int32 {
        var tabicon: String?, repeats = 5, jobs = ProcessInfo.processInfo.activeProcessorCount, folders: [String] = []
        var child = false
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--tabicon": tabicon = rest.popFirst()
            case "--repeat": repeats = rest.popFirst().flatMap(Int.init) ?? 0
            case "--jobs": jobs = rest.popFirst().flatMap(Int.init) ?? 0
            case "--child": child = true
            case let path where !path.hasPrefix("-"): folders.append(path)
            default: folders = []; rest = []
            }
        }
        if child, let folder = folders.first {
            ProcessMemory.returnLargeBuffersToTheSystem()  // as `tabicon`, whose batch this stands for
            runBatch(folder, jail: tabicon.map(WorkerJail.init(executable:)), jobs: jobs)
            return 0
        }
        guard let tabicon, repeats > 0, jobs > 0, !folders.isEmpty else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 2
        }
        print("\(Machine.description); --jobs \(jobs), \(repeats) runs each, medians")
        print("folder   inputs   in process: wall     CPU   jailed: wall     CPU   ratio: wall   CPU")
        for folder in folders {
            var plain: [(Double, Double)] = [], jailed: [(Double, Double)] = []
            for _ in 0..<repeats {
                plain.append(measure(["jail", "--child", "--jobs", "\(jobs)", folder]))
                jailed.append(measure(["jail", "--child", "--jobs", "\(jobs)", "--tabicon", tabicon, folder]))
            }
            let p = (median(plain.map(\.0)), median(plain.map(\.1))), j = (median(jailed.map(\.0)), median(jailed.map(\.1)))
            let count = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).count
            let name = (folder as NSString).lastPathComponent
            print(
                name.padding(toLength: 8, withPad: " ", startingAt: 0)
                    + String(
                        format: " %6d   %10.3f s %7.3f s %10.3f s %7.3f s %11.2f %5.2f", count, p.0, p.1, j.0, j.1, j.0 / p.0,
                        j.1 / p.1))
        }
        return 0
    }

    /// The batch over every file of `folder` into a fresh folder, then removed.
    private static func runBatch(_ folder: String, jail: WorkerJail?, jobs: Int) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        let inputs = names.map { name in
            BatchInput(
                name: name, outputStem: (name as NSString).deletingPathExtension,
                load: { () throws(TabIconsError) -> Data in
                    try InputReader.read(URL(fileURLWithPath: folder).appendingPathComponent(name))
                })
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("jail-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        var batch = BatchNormalizer(normalizer: Normalizer(options: NormalizeOptions()), outputRoot: out, jobs: jobs)
        batch.force = true
        batch.jail = jail
        _ = try? batch.run(inputs)
    }

    /// One child run of this program: (wall, CPU) seconds, CPU its own and its workers'.
    /// Spawned and reaped here (`waitpid`): Foundation's `Process.waitUntilExit` looks for the
    /// child's end every 50 ms on Linux, which rounded every wall time up to that step.
    private static func measure(_ arguments: [String]) -> (Double, Double) {
        let argv = (["/proc/self/exe"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let cpu0 = childCPU(), wall0 = now()
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/proc/self/exe", nil, nil, argv, environ) == 0 else { return (.nan, .nan) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (now() - wall0, childCPU() - cpu0)
    }

    private static func childCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
            / 1e6
    }

    private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
