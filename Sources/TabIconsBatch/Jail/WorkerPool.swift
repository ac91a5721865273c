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

    /// Requests through one worker, each answer read by `decode` (given the request's position):
    /// every request's answer or error, in order; nil when the batch was asked to stop.
    ///
    /// A worker whose answer `decode` refuses is killed: it is not trusted again. A worker that
    /// fails one input alone fails it (`WorkerFailure`), except that a SIGKILL the watchdog did
    /// not send (`kill -9`, the OOM killer) is a reason outside the input, which is tried once more
    /// in a fresh worker. When a worker given several inputs fails, the cause is not known: each
    /// input without an answer is tried again alone, so the cause fails by itself.
    func run<Answer>(
        _ requests: [WorkerRequest], shouldStop: () -> Int32,
        decode: (Int, UInt8, [UInt8]) throws(WorkerWire.Malformed) -> Answer
    ) -> [Result<Answer, TabIconsError>]? {
        var results: [Result<Answer, TabIconsError>] = []
        var attempts = 0
        while results.count < requests.count {
            attempts += 1
            let worker: WorkerProcess
            if let reused = idle.withLock({ $0.popLast() }) {
                worker = reused
            } else {
                do throws(TabIconsError) {
                    worker = try WorkerProcess.spawn(executable: jail.executable, arguments: jail.workerArguments)
                } catch {
                    return results + requests[results.count...].map { _ in .failure(error) }
                }
            }
            let waiting = Array(requests[results.count...])
            let answered: [WorkerProcess.Reply]
            let failure: (death: WorkerProcess.Death, stderr: String, peakData: Int)?
            switch worker.exchange(waiting, shouldStop: shouldStop) {
            case .stopped: return nil
            case .replies(let replies): (answered, failure) = (replies, nil)
            case .died(let replies, let death, let stderr, let peakData):
                (answered, failure) = (replies, (death, stderr, peakData))
            }
            for (kind, fields) in answered {
                let position = results.count
                do throws(WorkerWire.Malformed) {
                    results.append(.success(try decode(position, kind, fields)))
                } catch {
                    worker.kill()
                    results.append(
                        .failure(
                            TabIconsError(
                                .unsupported, "the worker's answer is unreadable: \(error.description)",
                                format: ImageFormat.sniff(requests[position].data))))
                    guard let rest = alone(requests[results.count...], shouldStop: shouldStop, decode: decode) else { return nil }
                    return results + rest
                }
            }
            guard let failure else {
                idle.withLock { $0.append(worker) }
                return results
            }
            // (`exchange` reports a failure with at least one request unanswered.)
            guard results.count < requests.count else { return results }
            if waiting.count > 1 {
                guard let rest = alone(requests[results.count...], shouldStop: shouldStop, decode: decode) else { return nil }
                return results + rest
            }
            if case .signaled(SIGKILL) = failure.death, attempts == 1 { continue }
            let request = requests[results.count]
            results.append(
                .failure(
                    WorkerFailure.error(failure.death, stderr: failure.stderr, peakData: failure.peakData, data: request.data)))
        }
        return results
    }

    /// Each request tried by itself; nil (the whole) when the batch was asked to stop.
    private func alone<Answer>(
        _ requests: ArraySlice<WorkerRequest>, shouldStop: () -> Int32,
        decode: (Int, UInt8, [UInt8]) throws(WorkerWire.Malformed) -> Answer
    ) -> [Result<Answer, TabIconsError>]? {
        var results: [Result<Answer, TabIconsError>] = []
        for (position, request) in zip(requests.indices, requests) {
            guard
                let result = run(
                    [request], shouldStop: shouldStop,
                    decode: { _, kind, fields throws(WorkerWire.Malformed) in
                        try decode(position, kind, fields)
                    })
            else { return nil }
            results += result
        }
        return results
    }

    /// Ends every idle worker (the batch is done).
    func finish() {
        let workers = idle.withLock { workers in
            defer { workers = [] }; return workers
        }
        WorkerProcess.finish(workers)
    }
}
