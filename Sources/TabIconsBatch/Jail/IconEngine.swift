import TabIcons
import Foundation

/// Where the body of the engine runs for each input (`RenderedIcon.make`): in a jailed worker
/// when the run was given a `WorkerJail`, in process otherwise.
final class IconEngine: Sendable {
    private let pool: WorkerPool?

    init(jail: WorkerJail?) {
        pool = jail.map(WorkerPool.init)
    }

    /// One input to make, with everything its making needs.
    struct Job {
        let data: Data
        let normalizer: Normalizer
        let work: RenderedIcon.Work
    }

    /// How many inputs share a round trip to a worker (`RenderGroup`); one in process.
    var groupSize: Int { pool == nil ? 1 : 8 }

    /// Each job's result, in order; nil when `shouldStop` answered a signal while they were made.
    func make(_ jobs: [Job], shouldStop: () -> Int32) -> [Result<RenderedIcon, TabIconsError>]? {
        guard let pool else {
            return jobs.map { job in
                Result { () throws(TabIconsError) in try RenderedIcon.make(job.data, normalizer: job.normalizer, work: job.work) }
            }
        }
        let requests = jobs.map { WorkerRequest(options: $0.normalizer.options, work: $0.work, data: $0.data) }
        let replies = pool.run(requests, shouldStop: shouldStop) { position, kind, fields throws(WorkerWire.Malformed) in
            try WorkerReply(kind: kind, fields: fields, answering: requests[position])
        }
        return replies?.map { reply in
            switch reply {
            case .success(.rendered(let icon)): .success(icon)
            case .success(.failed(let error)), .failure(let error): .failure(error)
            }
        }
    }

    /// Ends the idle workers; the engine may still be used afterwards (new ones are spawned).
    func finish() {
        pool?.finish()
    }
}
