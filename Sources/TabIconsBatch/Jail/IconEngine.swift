import TabIcons
import Foundation

/// Where the body of the batch runs for each input (`RenderedIcon.render`, `.inspect`): in a
/// jailed worker when the batch was given a `WorkerJail`, in process otherwise. `normalize`
/// (`IconRun`), `preview` (`PreviewRun`) and `inspect` all go through this one engine.
package final class IconEngine: Sendable {
    private let pool: WorkerPool?

    package init(jail: WorkerJail?) {
        pool = jail.map(WorkerPool.init)
    }

    /// The rendered icon, or nil when `shouldStop` answered a signal while it was being made.
    func render(
        _ data: Data, input: String, plan: OutputPlan.Icon, normalizer: Normalizer, format: OutputFormat,
        contentHash: ContentHash, shouldStop: () -> Int32
    ) throws(TabIconsError) -> RenderedIcon? {
        guard let pool else {
            return try RenderedIcon.render(
                data, input: input, plan: plan, normalizer: normalizer, format: format,
                contentHash: contentHash)
        }
        let request = WorkerRequest.render(input: input, plan: plan, options: normalizer.options, format: format, data: data)
        switch try answer(request, pool: pool, contentHash: contentHash, shouldStop: shouldStop) {
        case .rendered(let icon)?: return icon
        case nil: return nil
        default: throw TabIconsError(.unsupported, "the worker's answer is unreadable: not a rendered icon")
        }
    }

    /// `inspect`'s row for one input, or nil when stopped.
    package func inspect(
        _ data: Data, input: String, name: String, box: IconBox, limits: DecodeOptions.Limits,
        shouldStop: () -> Int32
    ) throws(TabIconsError) -> Manifest.Icon? {
        guard let pool else { return try RenderedIcon.inspect(data, input: input, name: name, box: box, limits: limits) }
        let request = WorkerRequest.inspect(input: input, name: name, box: box, limits: limits, data: data)
        switch try answer(request, pool: pool, contentHash: ContentHash(of: data), shouldStop: shouldStop) {
        case .inspected(let row)?: return row
        case nil: return nil
        default: throw TabIconsError(.unsupported, "the worker's answer is unreadable: not an inspected icon")
        }
    }

    private func answer(
        _ request: WorkerRequest, pool: WorkerPool, contentHash: ContentHash,
        shouldStop: () -> Int32
    ) throws(TabIconsError) -> WorkerReply? {
        let reply = try pool.run(request, shouldStop: shouldStop) { kind, fields throws(WorkerWire.Malformed) in
            try WorkerReply(kind: kind, fields: fields, answering: request, contentHash: contentHash)
        }
        if case .failed(let error)? = reply { throw error }
        return reply
    }

    /// Ends the idle workers; the engine may still be used afterwards (new ones are spawned).
    package func finish() {
        pool?.finish()
    }
}
