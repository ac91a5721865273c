/// How a planned icon's paths are made from its stem (`OutputPlan.Icon`): the layout, the
/// scales, the files' extension. One for the run and one for each other format an input is
/// written in, shared by every icon of it.
final class PathRule: Sendable {
    let layout: OutputLayout
    let scales: [Double]
    let fileExtension: String
    /// The scales the layout has a place for, and what their paths end in.
    private let placedScales: [Double]
    private let endings: [OutputLayout.RenditionEnding]

    init(layout: OutputLayout, scales: [Double], fileExtension: String) {
        self.layout = layout
        self.scales = scales
        self.fileExtension = fileExtension
        let placed = scales.compactMap { scale in
            layout.renditionEnding(scale: scale, fileExtension: fileExtension).map { (scale, $0) }
        }
        placedScales = placed.map(\.0)
        endings = placed.map(\.1)
    }

    /// The rendition paths of the icon whose stem is `stem` (`OutputLayout.path` for each scale).
    func renditionPaths(stem: String) -> [(scale: Double, path: String)] {
        Array(zip(placedScales, layout.paths(stem: stem, endings: endings)))
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
