import Foundation

/// The command line: `tabicon-bench [scenario] [options]`.
struct Arguments {
    var scenario = "rebuild-every-frame"
    var json = false
    /// The folder of icons; found from the current directory when not given.
    var images: String?
    /// Steady-state frames measured per configuration (fewer if `budget` runs out first).
    var frames = 2_000
    /// Seconds of steady-state frames per configuration at most; slow strategies stop early.
    var budget = 1.0
    var bars = [1, 16, 256]
    /// Frames of mounting and tearing down bars at random before live sizes are read.
    var churnFrames = 300
    var seed: UInt64 = 0x7AB1_C0DE
    var strategies: [String]?
    var flavours = ["same", "fresh"]

    static let usage = """
        usage: tabicon-bench [rebuild-every-frame] [options]

        scenarios:
          rebuild-every-frame   bars of 5 items republished every frame (SPEC §7), four strategies
          decode, normalize     codec speed (tabicon-bench decode --help)

        options:
          --json                print JSON instead of a table
          --images DIR          icons to publish (default: TestImages/ of the package)
          --frames N            steady frames per configuration (default 2000)
          --budget SECONDS      time cap per configuration's steady frames (default 1)
          --bars 1,16,256       bar counts
          --churn N             churn frames (default 300)
          --seed N              random seed for churn
          --strategies LIST     e.g. IconTable,byteCompare (default: all four)
          --flavours LIST       same,fresh (default: both)
          -h, --help
        """

    /// Parses `arguments` (without the program name); throws a message for a usage error.
    init(_ arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        func value(_ option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError("\(option) needs a value") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help": throw UsageError(nil)
            case "--json": json = true
            case "--images": images = try value(argument)
            case "--frames": frames = try Self.positive(try value(argument), argument)
            case "--churn": churnFrames = try Self.count(try value(argument), argument)
            case "--budget":
                guard let seconds = Double(try value(argument)), seconds > 0 else {
                    throw UsageError("--budget needs a positive number of seconds")
                }
                budget = seconds
            case "--bars":
                let list = try value(argument).split(separator: ",")
                bars = try list.map { (item) throws(UsageError) -> Int in try Self.positive(String(item), argument) }
            case "--seed":
                guard let seed = UInt64(try value(argument)) else { throw UsageError("--seed needs an integer") }
                self.seed = seed
            case "--strategies":
                let names = try value(argument).split(separator: ",").map(String.init)
                for name in names where !StrategyKind.allCases.map(\.rawValue).contains(name) {
                    throw UsageError(
                        "unknown strategy \(name); known: "
                            + StrategyKind.allCases.map(\.rawValue).joined(separator: ", "))
                }
                strategies = names
            case "--flavours":
                let names = try value(argument).split(separator: ",").map(String.init)
                for name in names where !["same", "fresh"].contains(name) {
                    throw UsageError("unknown flavour \(name); known: same, fresh")
                }
                flavours = names
            case let name where !name.hasPrefix("-"):
                scenario = name
            default:
                throw UsageError("unknown option \(argument)")
            }
        }
        guard scenario == "rebuild-every-frame" else {
            throw UsageError("unknown scenario \(scenario) (this build has: rebuild-every-frame)")
        }
    }

    var strategyKinds: [StrategyKind] {
        guard let strategies else { return StrategyKind.allCases }
        return StrategyKind.allCases.filter { strategies.contains($0.rawValue) }
    }

    private static func positive(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let number = Int(text), number > 0 else { throw UsageError("\(option) needs a positive integer") }
        return number
    }

    private static func count(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let number = Int(text), number >= 0 else { throw UsageError("\(option) needs a count") }
        return number
    }
}

/// A usage error; a nil message asks for the help text alone.
struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}
