import Foundation
import TabIcons
import TabIconsBatch

/// The `decode` and `normalize` scenarios (SPEC §7): their own small command line, dispatched
/// from main.swift before the rebuild-every-frame arguments are parsed.
///
///     tabicon-bench decode    [--json] [--budget SECONDS] [DIR...]
///     tabicon-bench normalize [--json] [--budget SECONDS] [DIR...]
///
/// DIR defaults: decode reads `TestImages/` plus `bench/inputs/{icons,photos}` when
/// `bench/fetch-inputs.sh` has filled them; normalize reads `bench/inputs/icons` when present,
/// else `TestImages/`.
enum CodecScenarios {
    static let names = ["decode", "normalize"]

    static let usage = """
        usage: tabicon-bench decode    [--json] [--budget SECONDS] [DIR...]
               tabicon-bench normalize [--json] [--budget SECONDS] [DIR...]

          decode      per format: images/s, MB/s, and overhead over calling the C library directly
          normalize   icons/s for the 1×/2×/3× PNG set, on one core and on all cores
        """

    /// Runs the scenario named by `arguments[0]` and answers the exit status.
    static func main(_ arguments: [String]) -> Int32 {
        guard let scenario = arguments.first else { return 2 }
        var json = false, budget = 2.0, folders: [String] = []
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--budget":
                guard let value = rest.popFirst().flatMap(Double.init), value > 0 else {
                    return fail("--budget needs a positive number of seconds", usage: true)
                }
                budget = value
            case "-h", "--help":
                print(usage)
                return 0
            case let path where !path.hasPrefix("-"): folders.append(path)
            default: return fail("unknown option \(argument)", usage: true)
            }
        }
        if scenario == "normalize" && folders.isEmpty {
            let defaults = CodecInputs.defaultFolders()
            folders = defaults.filter { $0.hasSuffix("bench/inputs/icons") }
            if folders.isEmpty { folders = Array(defaults.prefix(1)) }
        }
        let inputs: CodecInputs
        do {
            inputs = try CodecInputs.load(folders)
        } catch {
            return fail(error.message, usage: false)
        }
        let machine = Machine.description
        let folderList = inputs.folders.joined(separator: ", ")
        if scenario == "decode" {
            let rows = DecodeBench(inputs: inputs, budget: budget).run()
            if json {
                print(
                    JSONValue.object([
                        ("scenario", .string("decode")), ("machine", .string(machine)),
                        ("inputs", .string(folderList)), ("results", DecodeBench.json(rows))
                    ]).text())
            } else {
                print("decode, full size, \(machine)\ninputs: \(folderList)\n\n" + DecodeBench.text(rows))
            }
        } else {
            let figures = NormalizeBench(inputs: inputs, budget: budget).run()
            if json {
                print(
                    JSONValue.object([
                        ("scenario", .string("normalize")), ("machine", .string(machine)),
                        ("inputs", .string(folderList)), ("results", NormalizeBench.json(figures))
                    ]).text())
            } else {
                print("normalize, \(machine)\ninputs: \(folderList)\n\n" + NormalizeBench.text(figures))
            }
        }
        return 0
    }

    private static func fail(_ message: String, usage: Bool) -> Int32 {
        FileHandle.standardError.write(Data("tabicon-bench: \(message)\n\(usage ? "\n" + Self.usage + "\n" : "")".utf8))
        return usage ? 2 : 1
    }
}
