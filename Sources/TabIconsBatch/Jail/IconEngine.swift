import TabIcons
import Foundation

/// Where the body of the batch runs for each input (`RenderedIcon.render`, `.inspect`): in a
/// jailed worker when the batch was given a `WorkerJail`, in process otherwise. `normalize`
/// (`UnitRunner`), `preview` (`PreviewRun`) and `inspect` all go through this one engine.
package final class IconEngine: Sendable {
    private let pool: WorkerPool?

    package init(jail: WorkerJail?) {
        pool = jail.map(WorkerPool.init)
    }

    /// One input to render, with everything its rendering needs.
    struct RenderJob {
        let data: Data
        let input: String
        let plan: OutputPlan.Icon
        let normalizer: Normalizer
        let format: OutputFormat
        let contentHash: ContentHash
    }

    /// How many inputs share a round trip to a worker (`RenderGroup`); one in process.
    var groupSize: Int { pool == nil ? 1 : 8 }

    /// Each job's rendered icon or error, in order; nil when `shouldStop` answered a signal
    /// while they were being made.
    func render(_ jobs: [RenderJob], shouldStop: () -> Int32) -> [Result<RenderedIcon, TabIconsError>]? {
        guard let pool else {
            return jobs.map { job in
                Result { () throws(TabIconsError) in
                    try RenderedIcon.render(
                        job.data, input: job.input, plan: job.plan, normalizer: job.normalizer, format: job.format,
                        contentHash: job.contentHash)
                }
            }
        }
        let requests = jobs.map { job in
            WorkerRequest.render(
                input: job.input, plan: job.plan, options: job.normalizer.options, format: job.format,
                contentHash: job.contentHash, data: job.data)
        }
        return answers(requests, pool: pool, contentHash: { jobs[$0].contentHash }, shouldStop: shouldStop)?.map { answer in
            switch answer {
            case .success(.rendered(let icon)): .success(icon)
            case .success: .failure(TabIconsError(.unsupported, "the worker's answer is unreadable: not a rendered icon"))
            case .failure(let error): .failure(error)
            }
        }
    }

    /// One input's rendered icon, or nil when stopped.
    func render(_ job: RenderJob, shouldStop: () -> Int32) throws(TabIconsError) -> RenderedIcon? {
        try render([job], shouldStop: shouldStop)?[0].get()
    }

    /// `inspect`'s row for one input, or nil when stopped.
    package func inspect(
        _ data: Data, input: String, name: String, box: IconBox, limits: DecodeOptions.Limits,
        shouldStop: () -> Int32
    ) throws(TabIconsError) -> Manifest.Icon? {
        guard let pool else { return try RenderedIcon.inspect(data, input: input, name: name, box: box, limits: limits) }
        let request = WorkerRequest.inspect(input: input, name: name, box: box, limits: limits, data: data)
        let hash = ContentHash(of: data)
        guard let answer = answers([request], pool: pool, contentHash: { _ in hash }, shouldStop: shouldStop)?[0] else {
            return nil
        }
        guard case .inspected(let row) = try answer.get() else {
            throw TabIconsError(.unsupported, "the worker's answer is unreadable: not an inspected icon")
        }
        return row
    }

    /// The requests' replies, checked against them; a worker's `failed` reply is its input's error.
    private func answers(
        _ requests: [WorkerRequest], pool: WorkerPool, contentHash: (Int) -> ContentHash,
        shouldStop: () -> Int32
    ) -> [Result<WorkerReply, TabIconsError>]? {
        let replies = pool.run(requests, shouldStop: shouldStop) { position, kind, fields throws(WorkerWire.Malformed) in
            try WorkerReply(kind: kind, fields: fields, answering: requests[position], contentHash: contentHash(position))
        }
        return replies?.map { reply in
            if case .success(.failed(let error)) = reply { return .failure(error) }
            return reply
        }
    }

    /// Ends the idle workers; the engine may still be used afterwards (new ones are spawned).
    package func finish() {
        pool?.finish()
    }
}
