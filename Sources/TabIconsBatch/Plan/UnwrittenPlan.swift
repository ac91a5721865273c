import TabIcons

extension OutputPlan {
    /// The plan of a run that writes nothing (`preview`): names and twins placed as `make` places
    /// them, nothing checked on disk.
    static func unwritten(
        _ inputs: [BatchInput], layout: OutputLayout, fileExtension: String, scales: [Double], vector: Bool
    ) -> OutputPlan {
        let (icons, twins) = placeTwins(
            inputs, naming(inputs, layout: layout, fileExtension: fileExtension, scales: scales, vector: vector),
            layout: layout, fileExtension: fileExtension)
        return OutputPlan(icons: icons, folders: [], spared: [], twins: twins)
    }

    /// The plan of `inspect`: each input alone, named by its stem, with no files and no twins (the
    /// document links twins over all its rows at the end).
    static func unplaced(_ inputs: [BatchInput]) -> OutputPlan {
        OutputPlan(
            icons: inputs.map { .success(Icon(stem: $0.outputStem, renditionPaths: [], contentsPath: nil)) }, folders: [],
            spared: [], twins: Array(repeating: (nil, nil), count: inputs.count))
    }
}
