import Foundation
import TabIcons
import TabIconsBatch

// tabicon-bench: SPEC §7. Prints a table for people, or JSON with --json.
// Exit status: 0 done, 1 setup failed (no icons), 2 usage.

if CommandLine.arguments.dropFirst().first == "jail" {
    exit(JailBench.main(Array(CommandLine.arguments.dropFirst())))
}
if CommandLine.arguments.dropFirst().first == "vector" {
    exit(VectorBench.main(Array(CommandLine.arguments.dropFirst())))
}
if let scenario = CommandLine.arguments.dropFirst().first, CodecScenarios.names.contains(scenario) {
    exit(CodecScenarios.main(Array(CommandLine.arguments.dropFirst())))
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("tabicon-bench: \(message)\n\n\(Arguments.usage)\n".utf8))
        exit(2)
    }
    print(Arguments.usage)
    exit(0)
}

let icons: IconSet
do {
    icons = try IconSet.load(folder: arguments.images)
} catch {
    FileHandle.standardError.write(Data("tabicon-bench: \(error.message)\n".utf8))
    exit(1)
}

/// Whether the bar's first icon normalizes: the decodeEveryFrame figures (and first frames) are
/// decode costs only when it does, so the report says which it was.
let decoder: String = {
    guard let sample = icons.bar.first?.icon else { return "unknown" }
    switch Result(catching: { () throws(TabIconsError) in try Normalizer().normalize(sample) }) {
    case .success: return "Normalizer (real decoders)"
    case .failure(let error):
        return "Normalizer answered an error on \(icons.bar.count > 0 ? "the first icon" : "input"): \(error)"
    }
}()

let isTerminal = isatty(STDERR_FILENO) == 1
let results = RebuildEveryFrame(icons: icons, arguments: arguments).run { step in
    if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K\(step)…".utf8)) }
}
if isTerminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

let report = Report(
    scenario: arguments.scenario, machine: Machine.description, images: icons.summary,
    decoder: decoder, results: results)
print(arguments.json ? report.json.text() : report.text)
