import Foundation
import Testing
import TabIcons
@testable import TabIconsBatch
import TabIconsTestSupport

/// Issue 38: a batch killed with SIGKILL cannot end its workers, so each worker ends itself when
/// its parent is gone (`ParentWatch`), instead of drawing on, orphaned, until its CPU backstop.
@Suite(
    "Workers die with their batch",
    .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
struct WorkerParentDeathTests {
    /// One process as `/proc/PID/stat` shows it.
    struct Stat {
        let pid: pid_t
        let state: Character
        let parent: pid_t
        /// User and system CPU, in clock ticks.
        let cpuTicks: Int
        /// Since boot, in clock ticks: a pid reused by another process has another.
        let startTime: UInt64
    }

    /// The whole of a /proc file, read until its end (Foundation's readers stop at a short read).
    static func procFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes += chunk[..<n]
        }
    }

    static func stat(_ pid: pid_t) -> Stat? {
        guard let bytes = procFile("/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // The command name in parentheses may hold spaces: the fields start after the last `)`.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, let parent = pid_t(fields[1]),
            let user = Int(fields[11]), let system = Int(fields[12]), let start = UInt64(fields[19])
        else { return nil }
        return Stat(pid: pid, state: state, parent: parent, cpuTicks: user + system, startTime: start)
    }

    /// The `tabicon __worker` processes whose parent is `parent`.
    static func workers(of parent: pid_t) -> [Stat] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).compactMap { pid in
            guard let stat = stat(pid), stat.parent == parent, let cmdline = procFile("/proc/\(pid)/cmdline") else {
                return nil
            }
            let arguments = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains(WorkerJail.workerArgument) ? stat : nil
        }
    }

    /// Whether the process is still running: not gone, not a zombie (a container's init may never
    /// reap an orphan), not another process under a reused pid.
    static func isRunning(_ process: Stat) -> Bool {
        guard let now = stat(process.pid) else { return false }
        return now.startTime == process.startTime && now.state != "Z" && now.state != "X"
    }

    @Test("tabicon normalize killed with SIGKILL while its workers draw: every worker it spawned is gone within 2 s")
    func workersDieWithTheirBatch() throws {
        // 9000×9000 px in 65 KB, streamed within the memory limit: seconds of a worker's CPU
        // (about a minute in a debug build), and a raster, so no CPU limit of the batch ends it.
        let dir = try TemporaryDirectory("orphans-in")
        let big = PNGTestWriter.black9000
        for index in 0..<4 { try big.write(to: dir.url.appendingPathComponent("big\(index).png")) }
        let out = try TemporaryDirectory("orphans-out")
        let batch = Process()
        batch.executableURL = TabiconBinary.url
        batch.arguments = ["normalize", "-q", "--jobs", "2", dir.url.path, "-o", out.url.path]
        batch.standardOutput = FileHandle.nullDevice
        batch.standardError = FileHandle.nullDevice
        try batch.run()
        let parent = batch.processIdentifier

        // Its workers, once one of them has drawn for a while (it is in the middle of an input).
        let ticks = Int(sysconf(Int32(_SC_CLK_TCK)))
        var workers: [Stat] = []
        let started = Date()
        while batch.isRunning && Date().timeIntervalSince(started) < 60 {
            workers = Self.workers(of: parent)
            if workers.contains(where: { $0.cpuTicks >= ticks / 2 }) { break }
            usleep(20_000)
        }
        // Whatever happens below, no worker of this test is left drawing.
        defer { for worker in workers where Self.isRunning(worker) { kill(worker.pid, SIGKILL) } }
        try #require(batch.isRunning && !workers.isEmpty, "no worker was seen busy before the batch ended")

        kill(parent, SIGKILL)
        batch.waitUntilExit()
        let killed = Date()
        while workers.contains(where: Self.isRunning) && Date().timeIntervalSince(killed) < 2 { usleep(20_000) }
        let survivors = workers.filter(Self.isRunning).map(\.pid)
        #expect(survivors.isEmpty, "workers \(survivors) of \(workers.map(\.pid)) outlived their batch by 2 s")
    }

    @Test(
        "a worker spawned and used on a thread that has since ended serves another (PR_SET_PDEATHSIG would kill it with that thread)"
    )
    func workerOutlivesItsSpawningThread() throws {
        let executable = try #require(TabiconBinary.url).path
        let png = try Fixtures.data(Fixtures.testImage("home.png"))
        let request = WorkerRequest(options: NormalizeOptions(), work: .plan(), data: png)
        // As a batch's pool thread does: spawn a worker, give it an input (so it is surely past
        // its start), return it to the pool, end.
        let spawned = Spawned()
        let thread = Thread {
            spawned.result = Result { () throws(TabIconsError) in
                try WorkerProcess.spawn(executable: executable, arguments: [WorkerJail.workerArgument])
            }
            if case .success(let worker) = spawned.result, case .replies = worker.exchange([request], shouldStop: { 0 }) {
                spawned.served = true
            }
            spawned.done.signal()
        }
        thread.start()
        spawned.done.wait()
        let worker = try #require(spawned.result).get()
        defer { worker.kill() }
        #expect(spawned.served)
        // Time for the thread to be gone and a death signal to land.
        usleep(300_000)
        guard case .replies(let replies) = worker.exchange([request], shouldStop: { 0 }) else {
            Issue.record("the worker died once the thread that spawned it ended")
            return
        }
        #expect(replies.count == 1)
        WorkerProcess.finish([worker])
    }

    /// What the spawning thread hands over (read after `done`).
    final class Spawned: @unchecked Sendable {
        var result: Result<WorkerProcess, TabIconsError>?
        var served = false
        let done = DispatchSemaphore(value: 0)
    }
}
