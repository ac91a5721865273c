/// How a planned icon's paths are made from its stem (`OutputPlan.Icon`): the layout, the
/// scales, the files' extension. One for the run and one for each other format an input is
/// written in, shared by every icon of it.
final class PathRule: Sendable {
    let layout: OutputLayout
    let scales: [Double]
    let fileExtension: String

    init(layout: OutputLayout, scales: [Double], fileExtension: String) {
        self.layout = layout
        self.scales = scales
        self.fileExtension = fileExtension
    }

    /// The rules of a run, made once a file extension.
    struct Cache {
        let layout: OutputLayout
        let scales: [Double]
        private var rules: [String: PathRule] = [:]

        init(layout: OutputLayout, scales: [Double]) {
            self.layout = layout
            self.scales = scales
        }

        mutating func rule(_ fileExtension: String) -> PathRule {
            if let rule = rules[fileExtension] { return rule }
            let rule = PathRule(layout: layout, scales: scales, fileExtension: fileExtension)
            rules[fileExtension] = rule
            return rule
        }
    }
}
