import TabIcons
import Foundation

/// A batch's jailed workers: an idle one is reused for the next input, a failed one is dropped
/// (killed and reaped by `WorkerProcess`) and a fresh one spawned when next needed. At most one
/// worker per thread asking, so `--jobs N` means at most N workers.
final class WorkerPool: Sendable {
    let jail: WorkerJail
    private let idle = LockedState<[WorkerProcess]>([])

    init(jail: WorkerJail) {
        self.jail = jail
    }

    /// One request through a worker, its answer read by `decode`; nil when the batch was asked
    /// to stop. A worker whose answer `decode` refuses is killed: it is not trusted again. A worker killed by SIGKILL that the watchdog did not send
    /// (someone's `kill -9`, the kernel's OOM killer) is a reason outside the input: the input is
    /// tried once more in a fresh worker before it fails.
    func run<Answer>(
        _ request: WorkerRequest, shouldStop: () -> Int32,
        decode: (UInt8, [UInt8]) throws(WorkerWire.Malformed) -> Answer
    ) throws(TabIconsError) -> Answer? {
        let head = request.head
        var attempts = 0
        while true {
            attempts += 1
            let worker: WorkerProcess
            if let reused = idle.withLock({ $0.popLast() }) {
                worker = reused
            } else {
                worker = try WorkerProcess.spawn(executable: jail.executable, arguments: jail.workerArguments)
            }
            var watchdog = Watchdog(worker: worker.watched, data: request.data)
            switch worker.exchange(head: head, body: request.data, watchdog: &watchdog, shouldStop: shouldStop) {
            case .reply(let kind, let fields):
                do throws(WorkerWire.Malformed) {
                    let answer = try decode(kind, fields)
                    idle.withLock { $0.append(worker) }
                    return answer
                } catch {
                    worker.kill()
                    throw TabIconsError(
                        .unsupported, "the worker's answer is unreadable: \(error.description)",
                        format: ImageFormat.sniff(request.data))
                }
            case .stopped:
                return nil
            case .died(.signaled(SIGKILL), _, _) where attempts == 1:
                continue
            case .died(let death, let stderr, let peakData):
                throw WorkerFailure.error(death, stderr: stderr, peakData: peakData, data: request.data)
            }
        }
    }

    /// Ends every idle worker (the batch is done).
    func finish() {
        for worker in idle.withLock({ workers in
            defer { workers = [] }; return workers
        }) { worker.finish() }
    }
}
