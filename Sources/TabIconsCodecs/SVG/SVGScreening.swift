import TabIconsCore
/// What stands between a hostile SVG and librsvg (SPEC §2): one linear pass over the markup
/// (`SVGMarkupScanner`) that refuses what would take librsvg past a second of CPU or 256 MiB, with
/// the reason. A Rust panic inside librsvg aborts the process, so refusing early is also what
/// keeps a batch alive.
///
/// Refused (measured on librsvg 2.54 where a figure is given):
/// - entity declarations (`<!ENTITY`: billion laughs; one 50 KB entity referenced 50,000 times
///   took 6 s and 2.4 GB) and any other DOCTYPE internal subset (an `<!ATTLIST` default could add
///   an `href` this pass never sees): `unsupported`;
/// - more elements than `limits.maxSVGElements`, counting every copy a `<use>` (or any `href="#id"`
///   pointing at an element) makes, so nested `<use>` bombs are counted at their expanded size
///   (1.1 M elements took 2.7 s and 1.8 GB): `tooLarge`; a `<use>` cycle: `unsupported`;
/// - nesting deeper than `maxDepth` (recursion in the parser and the renderer): `tooLarge`;
/// - embedded `data:` images past the limits (`SVGEmbeddedImages`);
/// - what makes librsvg 2.54 panic (abort): an `feConvolveMatrix` of more than
///   `maxConvolutionCells` (it parses at most 400 kernel numbers, then builds the order's matrix
///   from them: order 21 with 441 numbers aborts while loading, at any size); an `feTile` over a
///   primitive with its own subregion (`x`, `y`, or a zero `width`/`height`: when that region is
///   empty, as `x` past the filter region or `width="0"` make it, the tile aborts); style sheet
///   selectors nested past `maxStyleNesting` (`:not(` 3,000 deep overflows the stack):
///   `unsupported`; more than `maxStyleSheetBytes` of style sheet: `tooLarge`;
/// - text past `maxTextCharacters` (10,000 characters took 1.5 s a drawing, entity-escaped ones
///   2 s) or a cluster of more than `maxCombiningMarks` combining marks: `tooLarge`; dash arrays of
///   more than `maxDashEntries` numbers: `tooLarge`.
/// Drawing costs (elements, masks, translucent groups, filters) depend on the render size, so they
/// are collected here (`SVGRenderWork`) and judged at each drawing. Text is noted: cairo's FreeType path is not safe under concurrent
/// rendering, so documents with text render one at a time (`SVGDocument`).
struct SVGScreening: Sendable, Equatable {
    /// Elements deeper than this are refused; hand-made and exported icons nest a few levels.
    static let maxDepth = 128
    /// librsvg 2.54 reads at most 400 `kernelMatrix` numbers (20×20) and aborts on a larger order.
    static let maxConvolutionCells = 400.0
    /// Parentheses nested in a style sheet or `style` attribute (selectors like `:not(:not(…))`).
    static let maxStyleNesting = 32
    /// All of a document's `<style>` text together.
    static let maxStyleSheetBytes = 64 * 1024
    /// Characters of text (whitespace not counted, an entity reference one), and combining marks
    /// on one base character.
    static let maxTextCharacters = 2_000
    static let maxCombiningMarks = 16
    /// Numbers in one `stroke-dasharray`.
    static let maxDashEntries = 1_000

    /// Elements in the document, every `<use>` copy counted.
    var expandedElements = 0
    /// Whether the document holds text (`text`, `tspan`, `textPath`, `tref`).
    var hasText = false
    /// What drawing it will cost, judged per drawing size (`SVGRenderWork`).
    var work = SVGRenderWork()
    /// The root element's `width` and `height` as written: librsvg drops a negative size as
    /// invalid (it would then silently take the viewBox), so `SVGSize` judges these too.
    var rootWidth: String?
    var rootHeight: String?

    init(_ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits) throws(TabIconsError) {
        var graph = ElementGraph()
        var stack: [Int] = []
        var depth = 0
        var inStyle = false
        var styleMayAddWork = false
        var filterUnits: [Bool] = []  // per open <filter>: primitiveUnits="objectBoundingBox"
        var embeddedPixels = 0
        var filteredElements = 0, maskedElements = 0, groupedElements = 0
        let b = bytes.bindMemory(to: UInt8.self)
        // What an element inherits from its ancestors, one entry per open element.
        var inherited: [Inherited] = [Inherited()]
        var textDepth = 0
        var styleSheetBytes = 0
        var sheet = Inherited.SheetValues()
        var tileUnsafe: [Bool] = []  // per open <filter>: a primitive so far set its own subregion
        var textCharacters = 0, combiningRun = 0

        try SVGMarkupScanner.scan(b) { (event) throws(TabIconsError) in
            switch event {
            case .doctype(let internalSubset, let declaresEntity):
                if declaresEntity {
                    throw Self.refused(
                        .unsupported, "entity declarations (<!ENTITY) are refused: entity expansion is how XML is made to explode"
                    )
                }
                if internalSubset {
                    throw Self.refused(
                        .unsupported, "a DOCTYPE internal subset is refused: its declarations could add what screening cannot see"
                    )
                }
            case .text(let range):
                if inStyle {
                    styleSheetBytes += range.count
                    guard styleSheetBytes <= Self.maxStyleSheetBytes else {
                        throw Self.refused(.tooLarge, "more than \(Self.maxStyleSheetBytes) bytes of style sheet")
                    }
                    let css = String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
                    try Self.checkNesting(css, what: "style sheet selectors")
                    if !styleMayAddWork {
                        styleMayAddWork = css.containsASCII("filter") || css.containsASCII("mask") || css.containsASCII("opacity")
                    }
                    sheet.read(SVGStyleValues.styleSheetDeclarations(css))
                } else if textDepth > 0 {
                    let text = SVGMarkupScanner.decodeReferences(b, range)
                    for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
                        textCharacters += 1
                        let category = scalar.properties.generalCategory
                        combiningRun = category == .nonspacingMark || category == .enclosingMark ? combiningRun + 1 : 0
                        guard combiningRun <= Self.maxCombiningMarks else {
                            throw Self.refused(
                                .tooLarge, "text with more than \(Self.maxCombiningMarks) combining marks on one character")
                        }
                    }
                    guard textCharacters <= Self.maxTextCharacters else {
                        throw Self.refused(.tooLarge, "more than \(Self.maxTextCharacters) characters of text")
                    }
                }
            case .end:
                if let open = stack.popLast() {
                    depth -= 1
                    if inherited.count > 1 { inherited.removeLast() }
                    let name = graph.names[open]
                    if name == "style" { inStyle = false }
                    if name == "filter" { _ = filterUnits.popLast(); _ = tileUnsafe.popLast() }
                    if Self.textElements.contains(name) { textDepth -= 1 }
                }
            case .start(let name, let attributes, let selfClosing):
                let index = graph.add(name: name, parent: stack.last)
                if index == 0 {
                    rootWidth = attributes.first { $0.name == "width" }?.value
                    rootHeight = attributes.first { $0.name == "height" }?.value
                }
                guard graph.count <= limits.maxSVGElements else {
                    throw Self.refused(.tooLarge, "more than \(limits.maxSVGElements) elements (the SVG element limit)")
                }
                guard depth + 1 <= Self.maxDepth else {
                    throw Self.refused(.tooLarge, "elements nested deeper than \(Self.maxDepth) levels")
                }
                let isText = Self.textElements.contains(name)
                if isText { hasText = true }
                var own = inherited.last ?? Inherited()
                own.apply(attributes, sheet: sheet)
                let objectBoundingBox = filterUnits.last ?? false
                for attribute in attributes {
                    // Paint servers, masks, clip paths, filters and markers are drawn again for
                    // every element that points at them (nested patterns multiply like <use>).
                    if attribute.value.containsASCII("url(") {
                        graph.references[index, default: []].append(contentsOf: Self.urlTargets(attribute.value))
                    }
                    switch attribute.name {
                    case "id": graph.ids[attribute.value] = index
                    case "href":
                        let value = Self.trimmed(attribute.value)
                        if value.prefix(5).lowercased() == "data:" {
                            embeddedPixels += try SVGEmbeddedImages.check(
                                String(value), limits: limits, pixelsSoFar: embeddedPixels)
                        } else if value.hasPrefix("#") {
                            graph.references[index, default: []].append(String(value.dropFirst()))
                        }
                    case "filter" where name != "feImage":
                        if attribute.value.containsASCII("url(") { filteredElements += 1 }
                    case "mask" where name != "mask":
                        if attribute.value.containsASCII("url(") { maskedElements += 1 }
                    case "clip-path" where name != "clipPath":
                        if attribute.value.containsASCII("url(") { groupedElements += 1 }
                    case "opacity":
                        if let opacity = Double(Self.trimmed(attribute.value)), opacity >= 1 { break }
                        groupedElements += 1
                    case "style":
                        try Self.checkNesting(attribute.value, what: "a style attribute")
                        if attribute.value.containsASCII("filter") { filteredElements += 1 }
                        if attribute.value.containsASCII("mask") { maskedElements += 1 }
                        if attribute.value.containsASCII("opacity") || attribute.value.containsASCII("clip-path") {
                            groupedElements += 1
                        }
                    case "transform", "patternTransform", "gradientTransform":
                        if attribute.value.containsASCII("scale") || attribute.value.containsASCII("matrix") {
                            work.userSpaceMayScale = true
                        }
                    default: break
                    }
                }
                if !attributes.isEmpty || name.utf8.first == UInt8(ascii: "f") {
                    try Self.collectFilterPrimitive(name, attributes, objectBoundingBox: objectBoundingBox, into: &work)
                    try Self.checkTile(name, attributes, unsafe: &tileUnsafe)
                }
                if isText { work.largestFontSize = max(work.largestFontSize, own.fontSize * own.scale) }
                try Self.collectPath(name, attributes, own, into: &work)
                if !selfClosing {
                    stack.append(index)
                    depth += 1
                    inherited.append(own)
                    if isText { textDepth += 1 }
                    if name == "style" { inStyle = true }
                    if name == "filter" {
                        filterUnits.append(attributes.contains { $0.name == "primitiveUnits" && $0.value == "objectBoundingBox" })
                        tileUnsafe.append(false)
                    }
                }
            }
        }

        expandedElements = try graph.expandedCount(limit: limits.maxSVGElements)
        if expandedElements > limits.maxSVGElements {
            throw Self.refused(
                .tooLarge,
                "more than \(limits.maxSVGElements) elements counting every <use> copy and every pattern, mask or marker drawn again (the SVG element limit)"
            )
        }
        // Each <use> copy of a filtered element runs its filter again: scale by the expansion.
        let expansion = Double(expandedElements) / Double(max(graph.count, 1))
        let applications = styleMayAddWork ? graph.count : filteredElements
        work.applications = Int((Double(applications) * expansion).rounded(.up))
        work.elements = expandedElements
        work.masks = Int((Double(styleMayAddWork ? graph.count : maskedElements) * expansion).rounded(.up))
        work.groups = Int((Double(styleMayAddWork ? graph.count : groupedElements) * expansion).rounded(.up))
    }

    /// Children of filter primitives, which are not primitives themselves.
    private static let primitiveChildren: Set<String> = [
        "feFuncR", "feFuncG", "feFuncB", "feFuncA", "feMergeNode", "feDistantLight", "fePointLight", "feSpotLight"
    ]

    /// The ids of every `url(#id)` in an attribute or style value.
    private static func urlTargets(_ value: String) -> [String] {
        var targets: [String] = []
        var rest = Substring(value)
        while let start = rest.range(of: "url(") {
            rest = rest[start.upperBound...]
            let inside = rest.prefix { $0 != ")" }
            let id = inside.filter { $0 != "\"" && $0 != "'" && !$0.isWhitespace }
            if id.hasPrefix("#") { targets.append(String(id.dropFirst())) }
            rest = rest[inside.endIndex...]
        }
        return targets
    }

    /// `text` without leading and trailing XML whitespace.
    private static func trimmed(_ text: String) -> Substring {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return Substring() }
        return text[first...last]
    }

    static func refused(_ code: TabIconsError.Code, _ reason: String) -> TabIconsError {
        TabIconsError(code, reason, format: .svg)
    }

    /// Records a filter primitive whose cost grows with a parameter.
    private static func collectFilterPrimitive(
        _ name: String, _ attributes: [SVGMarkupScanner.Attribute],
        objectBoundingBox: Bool, into work: inout SVGRenderWork
    ) throws(TabIconsError) {
        func numbers(_ attribute: String) -> [Double]? {
            guard let value = attributes.first(where: { $0.name == attribute })?.value else { return nil }
            return value.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }
                .map { Double($0).map(abs) ?? 0 }
        }
        func extent(_ values: [Double]?) -> SVGRenderWork.Extent? {
            guard let values, let x = values.first else { return nil }
            return SVGRenderWork.Extent(x: x, y: values.count > 1 ? values[1] : x, ofBoundingBox: objectBoundingBox)
        }
        guard name.utf8.starts(with: [UInt8(ascii: "f"), UInt8(ascii: "e")]) else { return }
        if !primitiveChildren.contains(name) { work.primitives += 1 }
        switch name {
        case "feMorphology":
            if let radius = extent(numbers("radius")) { work.morphology.append(radius) }
        case "feGaussianBlur", "feDropShadow":
            if let deviation = extent(numbers("stdDeviation")) { work.blurs.append(deviation) }
        case "feTurbulence":
            work.turbulenceOctaves += numbers("numOctaves")?.first ?? 1
        case "feConvolveMatrix":
            let order = numbers("order") ?? [3]
            let x = order.first ?? 3, y = order.count > 1 ? order[1] : x
            guard x * y <= maxConvolutionCells else {
                throw refused(
                    .unsupported,
                    "feConvolveMatrix order \(NumberText.decimal(x))×\(NumberText.decimal(y)) has \(NumberText.decimal(x * y)) kernel cells, past the \(Int(maxConvolutionCells)) librsvg 2.54 handles (it aborts)"
                )
            }
            work.convolutionCells += x * y
            if let unit = extent(numbers("kernelUnitLength")) { work.kernelUnits.append(.init(length: unit, perPixel: x * y)) }
        case "feDiffuseLighting", "feSpecularLighting":
            if let unit = extent(numbers("kernelUnitLength")) {
                work.kernelUnits.append(.init(length: unit, perPixel: SVGRenderWork.lightingUnits))
            }
        default: break
        }
    }

    /// The elements whose character data is drawn as text.
    static let textElements: Set<String> = ["text", "tspan", "textPath", "tref"]

    /// Refuses `text` whose parentheses nest past `maxStyleNesting`.
    private static func checkNesting(_ text: String, what: String) throws(TabIconsError) {
        var depth = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "(") {
                depth += 1
                if depth > maxStyleNesting {
                    throw refused(
                        .unsupported,
                        "\(what) nested more than \(maxStyleNesting) parentheses deep (librsvg's CSS parser recurses on each)")
                }
            } else if byte == UInt8(ascii: ")") {
                depth = max(0, depth - 1)
            }
        }
    }

    /// Refuses an `feTile` after a primitive of its filter set its own subregion (`unsafe`, per
    /// open filter): librsvg 2.54 aborts tiling an empty one, and whether `x`/`y` leave it empty
    /// depends on the element's box, which screening does not know.
    private static func checkTile(_ name: String, _ attributes: [SVGMarkupScanner.Attribute], unsafe: inout [Bool])
        throws(TabIconsError)
    {
        guard !unsafe.isEmpty, name.hasPrefix("fe"), !primitiveChildren.contains(name) else { return }
        if name == "feTile" {
            if unsafe[unsafe.count - 1] {
                throw refused(
                    .unsupported,
                    "feTile over a primitive with its own subregion (x, y, or a zero width or height): librsvg 2.54 aborts when that subregion is empty"
                )
            }
            return
        }
        for attribute in attributes {
            switch attribute.name {
            case "x", "y": unsafe[unsafe.count - 1] = true
            case "width", "height":
                let size = SVGStyleValues.numberAndUnit(Substring(attribute.value))?.number ?? 0
                if !(size > 0) { unsafe[unsafe.count - 1] = true }
            default: break
            }
        }
    }

    /// Records what a path-like element costs to draw: its crossings, its dashes, its markers.
    private static func collectPath(
        _ name: String, _ attributes: [SVGMarkupScanner.Attribute], _ own: Inherited,
        into work: inout SVGRenderWork
    ) throws(TabIconsError) {
        let measure: SVGPathMeasure
        switch name {
        case "path": measure = SVGPathMeasure(pathData: attributes.first { $0.name == "d" }?.value ?? "")
        case "polyline", "polygon": measure = SVGPathMeasure(points: attributes.first { $0.name == "points" }?.value ?? "")
        default: return
        }
        work.pathCrossings += measure.weightedSegments * measure.weightedSegments
        if own.dashEntries > maxDashEntries {
            throw refused(.tooLarge, "a stroke-dasharray of \(own.dashEntries) numbers, past \(maxDashEntries)")
        }
        if own.dashPeriod > 0 {
            work.dashes += measure.length / own.dashPeriod  // both in the element's units
        }
        if own.markers { work.markers += measure.vertices }
    }
}

/// The elements of a document as a tree, with the references that make copies of other elements
/// (`<use href="#id">`): enough to count what librsvg will instantiate without instantiating it.
private struct ElementGraph {
    var names: [String] = []
    var parents: [Int] = []
    var ids: [String: Int] = [:]
    /// Element index → the ids it draws again (`<use>`, `href`, `url(#…)`).
    var references: [Int: [String]] = [:]

    var count: Int { names.count }

    mutating func add(name: String, parent: Int?) -> Int {
        names.append(name)
        parents.append(parent ?? -1)
        return names.count - 1
    }

    /// Elements rendered, counting each copy of a referenced subtree, capped just past `limit`.
    /// Iterative (no recursion, whatever the depth of the copies); a reference cycle is refused.
    func expandedCount(limit: Int) throws(TabIconsError) -> Int {
        guard !references.isEmpty else { return count }
        var children = [[Int]](repeating: [], count: count)
        var roots: [Int] = []
        for (index, parent) in parents.enumerated() {
            if parent >= 0 { children[parent].append(index) } else { roots.append(index) }
        }
        let cap = limit + 1
        var weight = [Int](repeating: 0, count: count)
        var state = [UInt8](repeating: 0, count: count)  // 0 new, 1 open, 2 done
        var stack: [(node: Int, exiting: Bool)] = roots.reversed().map { ($0, false) }
        while let (node, exiting) = stack.popLast() {
            let targets = (references[node] ?? []).compactMap { ids[$0] }
            if exiting {
                var total = 1
                for child in children[node] { total = min(cap, total + weight[child]) }
                for target in targets { total = min(cap, total + weight[target]) }
                weight[node] = total
                state[node] = 2
                continue
            }
            guard state[node] == 0 else { continue }
            state[node] = 1
            stack.append((node, true))
            for dependency in children[node] + targets {
                if state[dependency] == 1 {
                    let id = (references[node] ?? []).first { ids[$0] == dependency } ?? names[dependency]
                    throw SVGScreening.refused(.unsupported, "a <\(names[node])> reference cycle through #\(id)")
                }
                if state[dependency] == 0 { stack.append((dependency, false)) }
            }
        }
        return roots.reduce(0) { min(cap, $0 + weight[$1]) }
    }
}
