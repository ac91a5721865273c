import Foundation
import TabIcons
import TabIconsBatch

/// The jail mode (`TABICONS_FUZZ_MODE=jail`, issue 17): each input goes through the batch's
/// engine twice, as `tabicon preview` runs it (`PreviewRun`, nothing written), once in a jailed
/// worker (`WorkerJail`: `TABICONS_FUZZ_WORKER`, a `tabicon` of this tree, `run.sh` builds it) and
/// once in this process, where only the decoders' limits and the SVG screening stand between the
/// input and the process.
///
/// What is a finding:
/// - this process dies (ASan, a trap, librsvg's abort): the in-process screening let through an
///   input that kills an app, or the parent's side of the jail (the wire, the reply checks) broke;
/// - the two disagree on an input the worker answered: the jail must give the very bytes, manifest
///   row and error the library gives in process;
/// - the worker crashed on an input this process then normalized: a crash only the worker sees.
/// A worker stopped by a limit of its own (256 MiB, an SVG's second of CPU, the wall bound) while
/// the process, which has no such limits, finished: the jail's answer, not a finding.
func fuzzJailed(_ data: Data, selector: UInt8) -> CInt {
    guard let worker = jailWorker else {
        fatalError(
            "TABICONS_FUZZ_MODE=jail needs TABICONS_FUZZ_WORKER: a tabicon executable of this tree (fuzz/run.sh builds it)")
    }
    let normalizer = Normalizer(options: options(selector: selector))
    let input = BatchInput(name: "input", outputStem: "input", load: { data })
    var jailed = PreviewRun(normalizer: normalizer, jobs: 1)
    jailed.jail = WorkerJail(executable: worker)
    let behindBars = jailed.run([input])
    let inProcess = PreviewRun(normalizer: normalizer, jobs: 1).run([input])
    if behindBars == inProcess { return 0 }

    if let failure = behindBars.errors.first, let kind = WorkerFailureKind(message: failure.message) {
        switch kind {
        case .limit:
            return 0
        case .died:
            fatalError(
                "the worker died (\(failure.code): \(failure.message)) on an input this process answered: \(describe(inProcess))")
        }
    }
    fatalError("the jail and the process disagree: jailed \(describe(behindBars)), in process \(describe(inProcess))")
}

/// The worker executable, from the environment.
let jailWorker: String? = ProcessInfo.processInfo.environment["TABICONS_FUZZ_WORKER"].flatMap { $0.isEmpty ? nil : $0 }

/// How a worker failed its input, read off the error entry's words (`WorkerFailure`, the batch's
/// one source of them).
enum WorkerFailureKind {
    /// A limit of the worker's own: memory, an SVG's CPU, the wall bound, the CPU backstop.
    case limit
    /// A crash, a kill from outside, an exit or an unreadable answer.
    case died

    init?(message: String) {
        if ["needed more than", "took more than"].contains(where: message.hasPrefix) {
            self = .limit
        } else if [" crashed: ", "'s worker was killed", " ended its worker with status ", "the worker's answer is unreadable"]
            .contains(where: message.contains)
        {
            self = .died
        } else {
            return nil
        }
    }
}

private func describe(_ document: PreviewDocument) -> String {
    let icons = document.icons.map { icon in
        "\(icon.entry.name): \(icon.renditions.map { "\($0.pixelWidth)×\($0.pixelHeight) \($0.bytes.count) B" })"
    }
    let errors = document.errors.map { "\($0.code): \($0.message)" }
    return "icons \(icons), errors \(errors)"
}
