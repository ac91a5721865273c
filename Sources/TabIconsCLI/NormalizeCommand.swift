// PLACEHOLDER: `tabicon normalize` arrives with the normalizer (issue 3).
struct NormalizeCommand {
    init(arguments: [String]) throws(ParsedArguments.UsageError) {
        throw .init("normalize is not built yet")
    }
    func run(console: Console) -> TabIconCommand.ExitStatus { .usage }
}
