import Foundation
import TabIcons
import TabIconsBatch

/// `tabicon assemble [options] -o DIR <fragment-dir>...`: the folders `tabicon render` wrote,
/// merged by `FragmentAssembly` into what `normalize` writes (SPEC §9). The manifest goes where
/// `normalize`'s would for the fragments' layout, unless `--manifest` says otherwise.
struct AssembleCommand {
    let folders: [String]
    let outputName: String
    let manifestName: String?
    let quiet: Bool

    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        let parsed = try ParsedArguments(arguments, command: .assemble)
        guard !parsed.positionals.isEmpty else { throw .init("assemble needs at least one folder 'tabicon render' wrote") }
        guard let out = parsed.value(.emptyOut), !out.isEmpty else {
            throw .init("assemble needs -o DIR, an empty folder (or a new one) for the assembled tree")
        }
        try parsed.checkRefused()
        if parsed.value(.manifest)?.isEmpty == true { throw .init("--manifest needs a path, not an empty word") }
        folders = parsed.positionals
        outputName = out
        manifestName = parsed.value(.manifest)
        quiet = parsed.has(.quiet)
    }

    func run(console: Console) -> TabIconCommand.ExitStatus {
        let result: BatchResult
        let manifest: String
        do {
            let fragments = try FragmentAssembly.read(folders)
            manifest = try manifestName ?? NormalizeCommand.defaultManifest(out: outputName, layout: fragments.layout)
            result = try FragmentAssembly(
                outputRoot: URL(fileURLWithPath: outputName), manifestURL: URL(fileURLWithPath: manifest)
            )
            .run(fragments)
        } catch {
            console.err("tabicon: \(error)")
            return .usage
        }
        for entry in result.manifest.errors { console.err("tabicon: \(entry.input): \(entry.message)") }
        var status: TabIconCommand.ExitStatus = result.manifest.errors.isEmpty ? .success : .someInputsFailed
        if let error = result.manifestError {
            console.err("tabicon: cannot write the manifest \(TerminalText.quoted(manifest)): \(error.message)")
            status = .someInputsFailed
        }
        if !quiet {
            console.err(
                "assembled \(NormalizeCommand.count(result.manifest.icons.count, "icon")) into \(outputName): "
                    + "\(NormalizeCommand.count(result.counts.written, "file")) written; manifest: \(manifest)")
        }
        return status
    }
}
