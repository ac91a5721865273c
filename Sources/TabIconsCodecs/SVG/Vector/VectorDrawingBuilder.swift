import Foundation

/// Reads an `SVGElementTree` into a `VectorDrawing`'s groups and shapes: the cascade (presentation
/// attributes, then the style sheet's simple rules, then `style`), inheritance, `currentColor`,
/// `<use>` expanded, shapes as paths, gradients and clip paths resolved into the user space of
/// what they paint. Anything outside the file is dropped as librsvg (loading with no base file)
/// drops it: an external `href`, a `url()` that is not `#id`, scripts, `foreignObject`, event
/// attributes (never read: the drawing is rebuilt, not copied). What a vector file cannot hold
/// throws `VectorUnsupported`.
struct VectorDrawingBuilder {
    let tree: SVGElementTree
    let sheet: VectorStyleSheet
    /// The size percentages are of: the root's viewBox (or size).
    let viewport: (width: Double, height: Double)
    /// Elements drawn so far (with `<use>` copies): bounded, so `<use>` cannot multiply a file.
    private var budget: Int
    private var activeUses: Set<Int> = []

    static let maxDrawnElements = 20_000
    static let maxUseDepth = 16

    init(tree: SVGElementTree, viewport: (width: Double, height: Double)) throws(VectorUnsupported) {
        self.tree = tree
        self.sheet = try VectorStyleSheet(tree.styleSheet)
        self.viewport = viewport
        budget = Self.maxDrawnElements
    }

    /// What inherits from parent to child.
    struct Style {
        /// `unpainted` is `none` (named apart from Optional's `none`).
        enum PaintSpec {
            case unpainted
            case color(VectorColor)
            case current
            case url(String, fallback: VectorColor?)
        }
        var fill = PaintSpec.color(.black)
        var fillOpacity = 1.0
        var evenOdd = false
        var stroke = PaintSpec.unpainted
        var strokeOpacity = 1.0
        var strokeWidth = 1.0
        var cap = VectorStroke.Cap.butt
        var join = VectorStroke.Join.miter
        var miterLimit = 4.0
        var color = VectorColor.black
        var visible = true
        var clipEvenOdd = false
        var dashed = false
        var markers = false
    }

    /// The root element's content as a group.
    mutating func build() throws(VectorUnsupported) -> VectorGroup {
        guard let root = tree.root else { return VectorGroup() }
        var style = Style()
        let properties = self.properties(of: root)
        try apply(properties, to: &style)
        var group = VectorGroup()
        // The root's own group properties, as on any group.
        if let filter = properties["filter"]?.trimmingCSSSpace, filter != "none", !filter.isEmpty {
            throw VectorUnsupported(.filter)
        }
        if let mask = properties["mask"]?.trimmingCSSSpace, mask != "none", !mask.isEmpty { throw VectorUnsupported(.mask) }
        if let text = properties["opacity"] { group.opacity = try opacity(text.trimmingCSSSpace) }
        if let clip = properties["clip-path"]?.trimmingCSSSpace, clip != "none", !clip.isEmpty {
            group.clip = try clipPaths(clip, for: root)
            if group.clip.isEmpty { return VectorGroup() }
        }
        for child in tree[root].children {
            if let node = try node(child, inherited: style) { group.children.append(node) }
        }
        return group
    }

    // MARK: The cascade

    /// The properties the converter reads.
    static let propertyNames: Set<String> = [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-opacity", "stroke-width", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "color", "opacity", "display", "visibility",
        "clip-path", "clip-rule", "mask", "filter", "marker", "marker-start", "marker-mid", "marker-end",
        "stop-color", "stop-opacity"
    ]

    /// An element's specified properties: attributes, then the sheet, then `style`.
    func properties(of index: Int) -> [String: String] {
        let element = tree[index]
        var result: [String: String] = [:]
        for (name, value) in element.attributes where Self.propertyNames.contains(name) { result[name] = value }
        for (name, value) in sheet.declarations(
            tag: element.name, id: element.attributes["id"], classAttribute: element.attributes["class"])
        where Self.propertyNames.contains(name) { result[name] = value }
        if let style = element.attributes["style"] {
            for (name, value) in VectorStyleSheet.declarations(Substring(style)) where Self.propertyNames.contains(name) {
                result[name] = value
            }
        }
        return result
    }

    private func apply(_ p: [String: String], to style: inout Style) throws(VectorUnsupported) {
        func value(_ name: String) -> Substring? {
            guard let v = p[name]?.trimmingCSSSpace, !v.isEmpty, v != "inherit" else { return nil }
            return v
        }
        // A value that does not parse is ignored, as CSS ignores an invalid declaration (librsvg
        // too: Papirus's folder templates ship `fill:#value_dark`, drawn with the inherited fill).
        if let v = value("color"), let c = VectorColor(css: v) { style.color = c }
        if let v = value("fill"), let paint = paint(v) { style.fill = paint }
        if let v = value("stroke"), let paint = paint(v) { style.stroke = paint }
        if let v = value("fill-opacity") { style.fillOpacity = try opacity(v) }
        if let v = value("stroke-opacity") { style.strokeOpacity = try opacity(v) }
        if let v = value("fill-rule") { style.evenOdd = v == "evenodd" }
        if let v = value("clip-rule") { style.clipEvenOdd = v == "evenodd" }
        if let v = value("stroke-width") { style.strokeWidth = max(0, try length(v, .diagonal, invalid: style.strokeWidth)) }
        if let v = value("stroke-linecap") { style.cap = VectorStroke.Cap(rawValue: String(v)) ?? style.cap }
        if let v = value("stroke-linejoin") {
            style.join =
                VectorStroke.Join(rawValue: String(v)) ?? (v == "miter-clip" ? .miter : v == "arcs" ? .miter : style.join)
        }
        if let v = value("stroke-miterlimit"), let n = Double(v), n >= 1 { style.miterLimit = n }
        if let v = value("stroke-dasharray") {
            let numbers = VectorNumbers.list(Substring(v.replacingOccurrences(of: "px", with: ""))) ?? []
            style.dashed = v != "none" && numbers.contains { $0 > 0 }
        }
        if let v = value("visibility") { style.visible = v == "visible" }
        for name in ["marker", "marker-start", "marker-mid", "marker-end"] {
            if let v = value(name) { style.markers = v != "none" }
        }
    }

    /// A paint; nil for one that does not parse.
    private func paint(_ v: Substring) -> Style.PaintSpec? {
        if v == "none" { return .unpainted }
        if v == "currentColor" || v == "currentcolor" { return .current }
        if v.hasPrefix("url(") {
            guard let close = v.firstIndex(of: ")") else { return nil }
            var target = v[v.index(v.startIndex, offsetBy: 4)..<close].trimmingCSSSpace
            if target.first == "\"" || target.first == "'" { target = target.dropFirst().dropLast() }
            let rest = v[v.index(after: close)...].trimmingCSSSpace
            let fallback = rest.isEmpty || rest == "none" ? nil : VectorColor(css: rest)
            // Only a fragment of this file: anything else would be fetched from outside.
            guard target.hasPrefix("#") else { return fallback.map { .color($0) } ?? .unpainted }
            return .url(String(target.dropFirst()), fallback: fallback)
        }
        return VectorColor(css: v).map { .color($0) }
    }

    private func opacity(_ v: Substring) throws(VectorUnsupported) -> Double {
        if v.hasSuffix("%"), let n = Double(v.dropLast()), n.isFinite { return min(1, max(0, n / 100)) }
        guard let n = Double(v), n.isFinite else { throw VectorUnsupported(.value("opacity " + String(v.prefix(40)))) }
        return min(1, max(0, n))
    }

    enum Axis { case x, y, diagonal }

    /// A length in user units: a number, px or an absolute unit; a percentage of the viewport.
    /// A value that is no length at all (`inf`, `12q`) counts as `invalid` (the caller's default,
    /// as librsvg ignores it); `em` and `ex`, lengths of a font there is none of, are unsupported.
    func length(_ raw: Substring, _ axis: Axis, invalid: Double? = nil) throws(VectorUnsupported) -> Double {
        let v = raw.trimmingCSSSpace
        let digits = v.prefix { "0123456789.+-eE".contains($0) }
        var unit = v.dropFirst(digits.count).lowercased()
        // `1e` is no exponent: let the unit keep the `e` of `em` / `ex`.
        var numberText = digits
        if numberText.last == "e" || numberText.last == "E" { numberText = numberText.dropLast(); unit = "e" + unit }
        guard let number = Double(numberText), number.isFinite else {
            if let invalid { return invalid }
            throw VectorUnsupported(.value("length " + String(v.prefix(40))))
        }
        switch unit {
        case "", "px": return number
        case "%":
            switch axis {
            case .x: return number / 100 * viewport.width
            case .y: return number / 100 * viewport.height
            case .diagonal:
                return number / 100 * ((viewport.width * viewport.width + viewport.height * viewport.height) / 2).squareRoot()
            }
        case "in": return number * 96
        case "cm": return number * 96 / 2.54
        case "mm": return number * 96 / 25.4
        case "pt": return number * 96 / 72
        case "pc": return number * 16
        case "em", "ex", "rem", "ch": throw VectorUnsupported(.value("length " + String(v.prefix(40))))
        default:
            if let invalid { return invalid }
            throw VectorUnsupported(.value("length " + String(v.prefix(40))))
        }
    }

    private func attributeLength(_ element: SVGElementTree.Element, _ name: String, _ axis: Axis, default value: Double = 0)
        throws(VectorUnsupported) -> Double
    {
        guard let text = element.attributes[name] else { return value }
        return try length(Substring(text), axis, invalid: value)
    }

    // MARK: Elements

    /// Elements that are never drawn where they stand, or are ignored by librsvg.
    static let undrawn: Set<String> = [
        "defs", "symbol", "clipPath", "mask", "marker", "pattern", "linearGradient", "radialGradient", "filter",
        "style", "title", "desc", "metadata", "script", "foreignObject", "animate", "animateMotion",
        "animateTransform", "animateColor", "set", "view", "cursor", "font", "font-face", "hkern", "vkern"
    ]
    static let shapes: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"]
    static let containers: Set<String> = ["g", "a"]
    /// Drawn by librsvg, not by a vector file of ours.
    static let unsupportedElements: Set<String> = ["text", "image", "svg", "switch", "textPath", "tspan", "tref"]

    private mutating func node(_ index: Int, inherited: Style, transformOverride: VectorTransform? = nil)
        throws(VectorUnsupported) -> VectorNode?
    {
        let element = tree[index]
        if Self.undrawn.contains(element.name) { return nil }
        let isShape = Self.shapes.contains(element.name)
        let isUse = element.name == "use"
        guard isShape || isUse || Self.containers.contains(element.name) else {
            if Self.unsupportedElements.contains(element.name) { throw VectorUnsupported(.element(element.name)) }
            return nil  // an unknown element (another namespace's, a typo): librsvg draws nothing of it
        }
        budget -= 1
        guard budget >= 0 else { throw VectorUnsupported(.value("more than \(Self.maxDrawnElements) drawn elements")) }
        let p = properties(of: index)
        if p["display"]?.trimmingCSSSpace == "none" { return nil }
        var style = inherited
        try apply(p, to: &style)
        if let filter = p["filter"]?.trimmingCSSSpace, filter != "none", !filter.isEmpty { throw VectorUnsupported(.filter) }
        if let mask = p["mask"]?.trimmingCSSSpace, mask != "none", !mask.isEmpty { throw VectorUnsupported(.mask) }
        var group = VectorGroup()
        if let text = element.attributes["transform"] {
            // A transform that does not parse is ignored by librsvg, and so here.
            group.transform = VectorTransform(svg: text) ?? .identity
        }
        if let text = p["opacity"] { group.opacity = try opacity(text.trimmingCSSSpace) }
        if let clip = p["clip-path"]?.trimmingCSSSpace, clip != "none", !clip.isEmpty {
            group.clip = try clipPaths(clip, for: index)
            // An empty clip draws nothing.
            if group.clip.isEmpty { return nil }
        }
        if isUse {
            guard let child = try useContent(element, style: style) else { return nil }
            group.children = [child]
        } else if isShape {
            guard style.visible else { return nil }
            guard let shape = try shape(element, style: style) else { return nil }
            if group.transform.isIdentity, group.clip.isEmpty {
                var shape = shape
                shape.opacity = group.opacity
                return .shape(shape)
            }
            group.children = [.shape(shape)]
        } else {
            for child in element.children {
                if let node = try node(child, inherited: style) { group.children.append(node) }
            }
            if group.children.isEmpty { return nil }
        }
        return .group(group)
    }

    /// A `<use>`: its target (a fragment of this file only) drawn as a child of the use, moved by `x`, `y`.
    private mutating func useContent(_ element: SVGElementTree.Element, style: Style) throws(VectorUnsupported) -> VectorNode? {
        guard let href = element.attributes["href"], href.hasPrefix("#"), let target = tree.byID[String(href.dropFirst())] else {
            return nil
        }
        guard !activeUses.contains(target), activeUses.count < Self.maxUseDepth else { return nil }  // a cycle draws nothing
        activeUses.insert(target)
        defer { activeUses.remove(target) }
        let x = try attributeLength(element, "x", .x), y = try attributeLength(element, "y", .y)
        var content: VectorNode?
        if tree[target].name == "symbol" {
            if tree[target].attributes["viewBox"] != nil { throw VectorUnsupported(.element("symbol with a viewBox")) }
            let symbolProperties = properties(of: target)
            if symbolProperties["display"]?.trimmingCSSSpace == "none" { return nil }
            var symbolStyle = style
            try apply(symbolProperties, to: &symbolStyle)
            var group = VectorGroup()
            for child in tree[target].children {
                if let node = try node(child, inherited: symbolStyle) { group.children.append(node) }
            }
            content = group.children.isEmpty ? nil : .group(group)
        } else {
            content = try node(target, inherited: style)
        }
        guard let content else { return nil }
        if x == 0 && y == 0 { return content }
        return .group(VectorGroup(transform: .translate(x, y), children: [content]))
    }

    private func shapePath(_ element: SVGElementTree.Element) throws(VectorUnsupported) -> VectorPath {
        let a = element.attributes
        switch element.name {
        case "path":
            return VectorPath(svg: a["d"] ?? "")
        case "rect":
            let w = try attributeLength(element, "width", .x), h = try attributeLength(element, "height", .y)
            var rx = a["rx"].flatMap { $0 == "auto" ? nil : $0 }.map { Substring($0) }
            var ry = a["ry"].flatMap { $0 == "auto" ? nil : $0 }.map { Substring($0) }
            if rx == nil { rx = ry }
            if ry == nil { ry = rx }
            let rxValue = try rx.map { (text) throws(VectorUnsupported) in try length(text, .x) } ?? 0
            let ryValue = try ry.map { (text) throws(VectorUnsupported) in try length(text, .y) } ?? 0
            return .rect(
                x: try attributeLength(element, "x", .x), y: try attributeLength(element, "y", .y),
                width: w, height: h, rx: max(0, rxValue), ry: max(0, ryValue))
        case "circle":
            let r = try attributeLength(element, "r", .diagonal)
            return .ellipse(cx: try attributeLength(element, "cx", .x), cy: try attributeLength(element, "cy", .y), rx: r, ry: r)
        case "ellipse":
            var rx = a["rx"].map { Substring($0) }, ry = a["ry"].map { Substring($0) }
            if rx == nil || rx == "auto" { rx = ry }
            if ry == nil || ry == "auto" { ry = rx }
            let rxValue = try rx.map { (text) throws(VectorUnsupported) in try length(text, .x) } ?? 0
            let ryValue = try ry.map { (text) throws(VectorUnsupported) in try length(text, .y) } ?? 0
            return .ellipse(
                cx: try attributeLength(element, "cx", .x), cy: try attributeLength(element, "cy", .y), rx: rxValue, ry: ryValue)
        case "line":
            return .polyline(
                [
                    try attributeLength(element, "x1", .x), try attributeLength(element, "y1", .y),
                    try attributeLength(element, "x2", .x), try attributeLength(element, "y2", .y)
                ], closed: false)
        case "polyline", "polygon":
            // Up to the first error, an odd last number dropped (SVG's rule).
            var scanner = VectorNumbers.Scanner(Substring(a["points"] ?? "").utf8)
            var numbers: [Double] = []
            while true {
                scanner.skipSeparators()
                guard let n = scanner.number() else { break }
                numbers.append(n)
            }
            if numbers.count % 2 == 1 { numbers.removeLast() }
            return .polyline(numbers, closed: element.name == "polygon")
        default:
            return VectorPath()
        }
    }

    private func shape(_ element: SVGElementTree.Element, style: Style) throws(VectorUnsupported) -> VectorShape? {
        let path = try shapePath(element)
        guard !path.isEmpty else { return nil }
        if style.markers, ["path", "line", "polyline", "polygon"].contains(element.name) { throw VectorUnsupported(.marker) }
        var shape = VectorShape(path: path)
        shape.fill = try resolve(style.fill, style: style, path: path)
        shape.fillOpacity = style.fillOpacity
        shape.evenOdd = style.evenOdd
        if style.strokeWidth > 0, let paint = try resolve(style.stroke, style: style, path: path) {
            if style.dashed { throw VectorUnsupported(.dashArray) }
            shape.stroke = VectorStroke(
                paint: paint, opacity: style.strokeOpacity, width: style.strokeWidth,
                cap: style.cap, join: style.join, miterLimit: style.miterLimit)
        }
        // A line has no fill.
        if element.name == "line" { shape.fill = nil }
        if shape.fill == nil && shape.stroke == nil { return nil }
        return shape
    }

    // MARK: Paint servers

    private func resolve(_ spec: Style.PaintSpec, style: Style, path: VectorPath) throws(VectorUnsupported) -> VectorPaint? {
        switch spec {
        case .unpainted: return nil
        case .color(let c): return .color(c)
        case .current: return .color(style.color)
        case .url(let id, let fallback):
            guard let target = tree.byID[id] else { return fallback.map { .color($0) } }
            switch tree[target].name {
            case "linearGradient", "radialGradient": return try gradient(target, style: style, path: path)
            case "pattern": throw VectorUnsupported(.element("pattern"))
            default: return fallback.map { .color($0) }
            }
        }
    }

    /// The gradient's attributes and stops through its `href` chain (the first that has one wins).
    private func gradient(_ index: Int, style: Style, path: VectorPath) throws(VectorUnsupported) -> VectorPaint? {
        var chain = [index]
        while chain.count < 8, let href = tree[chain.last!].attributes["href"], href.hasPrefix("#"),
            let next = tree.byID[String(href.dropFirst())], !chain.contains(next),
            ["linearGradient", "radialGradient"].contains(tree[next].name)
        {
            chain.append(next)
        }
        func attribute(_ name: String) -> String? {
            for i in chain { if let v = tree[i].attributes[name] { return v } }
            return nil
        }
        let stopsOwner = chain.first { i in tree[i].children.contains { tree[$0].name == "stop" } }
        var stops: [VectorGradientStop] = []
        if let stopsOwner {
            var last = 0.0
            for child in tree[stopsOwner].children where tree[child].name == "stop" {
                let p = properties(of: child)
                var offset = 0.0
                if let text = tree[child].attributes["offset"]?.trimmingCSSSpace {
                    offset = text.hasSuffix("%") ? (Double(text.dropLast()) ?? 0) / 100 : Double(text) ?? 0
                }
                if !offset.isFinite { offset = 0 }
                offset = max(last, min(1, max(0, offset)))
                last = offset
                var color = VectorColor.black
                if let text = p["stop-color"]?.trimmingCSSSpace, !text.isEmpty, text != "inherit" {
                    if text == "currentColor" || text == "currentcolor" {
                        color = style.color
                    } else if let c = VectorColor(css: text) {
                        color = c
                    }
                }
                if let text = p["stop-opacity"]?.trimmingCSSSpace, !text.isEmpty, text != "inherit" {
                    color = color.withAlpha(try opacity(text))
                }
                stops.append(VectorGradientStop(offset: offset, color: color))
            }
        }
        guard let first = stops.first else { return nil }
        if stops.count == 1 { return .color(first.color) }
        let spread = VectorSpread(rawValue: attribute("spreadMethod") ?? "pad") ?? .pad
        let userSpace = attribute("gradientUnits") == "userSpaceOnUse"
        var t = VectorTransform.identity
        if !userSpace {
            guard let b = path.bounds, b.maxX > b.minX, b.maxY > b.minY else { return nil }
            t = VectorTransform(a: b.maxX - b.minX, d: b.maxY - b.minY, e: b.minX, f: b.minY)
        }
        if let text = attribute("gradientTransform"), let g = VectorTransform(svg: text) { t = t.concatenating(g) }
        /// A coordinate: a fraction of the box (or of the viewport) in bounding-box units, user units otherwise.
        func coordinate(_ name: String, _ axis: Axis, _ fallback: Double) throws(VectorUnsupported) -> Double {
            guard let text = attribute(name)?.trimmingCSSSpace else {
                return userSpace ? try length(Substring("\(fallback * 100)%"), axis) : fallback
            }
            if !userSpace {
                if text.hasSuffix("%"), let n = Double(text.dropLast()), n.isFinite { return n / 100 }
                guard let n = Double(text), n.isFinite else {
                    throw VectorUnsupported(.value("gradient coordinate " + String(text.prefix(40))))
                }
                return n
            }
            return try length(text, axis)
        }
        if tree[index].name == "linearGradient" {
            let g = VectorLinearGradient(
                start: VectorPoint(x: try coordinate("x1", .x, 0), y: try coordinate("y1", .y, 0)),
                end: VectorPoint(x: try coordinate("x2", .x, 1), y: try coordinate("y2", .y, 0)),
                stops: stops, spread: spread)
            if g.start == g.end { return .color(stops.last!.color) }
            return g.transformed(by: t).map { .linear($0) } ?? .color(stops.last!.color)
        }
        let cx = try coordinate("cx", .x, 0.5), cy = try coordinate("cy", .y, 0.5), r = try coordinate("r", .diagonal, 0.5)
        let fx = attribute("fx") == nil ? cx : try coordinate("fx", .x, 0.5)
        let fy = attribute("fy") == nil ? cy : try coordinate("fy", .y, 0.5)
        if abs(fx - cx) > 1e-9 || abs(fy - cy) > 1e-9 { throw VectorUnsupported(.focalPoint) }
        guard r > 0 else { return .color(stops.last!.color) }
        return .radial(
            try VectorRadialGradient(center: VectorPoint(x: cx, y: cy), radius: r, stops: stops, spread: spread).transformed(
                by: t))
    }

    // MARK: Clip paths

    /// The paths of `clip-path: url(#id)` in the referencing element's user space. An id that names
    /// no `<clipPath>` is no clip (librsvg's behaviour); a clip outside the file is none either.
    private func clipPaths(_ value: Substring, for index: Int) throws(VectorUnsupported) -> [VectorClipPath] {
        guard value.hasPrefix("url("), let close = value.firstIndex(of: ")") else { return [] }
        var target = value[value.index(value.startIndex, offsetBy: 4)..<close].trimmingCSSSpace
        if target.first == "\"" || target.first == "'" { target = target.dropFirst().dropLast() }
        guard target.hasPrefix("#"), let clip = tree.byID[String(target.dropFirst())], tree[clip].name == "clipPath" else {
            return [VectorClipPath(path: .rect(x: -1e7, y: -1e7, width: 2e7, height: 2e7, rx: 0, ry: 0), evenOdd: false)]
        }
        let clipElement = tree[clip]
        if clipElement.attributes["clipPathUnits"] == "objectBoundingBox" {
            throw VectorUnsupported(.value("clipPathUnits objectBoundingBox"))
        }
        if let nested = properties(of: clip)["clip-path"], nested.trimmingCSSSpace != "none" {
            throw VectorUnsupported(.value("a clip path with its own clip-path"))
        }
        let outer = clipElement.attributes["transform"].flatMap { VectorTransform(svg: $0) } ?? .identity
        var clipStyle = Style()
        try apply(properties(of: clip), to: &clipStyle)
        var result: [VectorClipPath] = []
        for child in clipElement.children {
            var element = tree[child]
            var t = outer.concatenating(element.attributes["transform"].flatMap { VectorTransform(svg: $0) } ?? .identity)
            if element.name == "use", let href = element.attributes["href"], href.hasPrefix("#"),
                let target = tree.byID[String(href.dropFirst())],
                Self.shapes.contains(tree[target].name)
            {
                t = t.concatenating(.translate(try attributeLength(element, "x", .x), try attributeLength(element, "y", .y)))
                    .concatenating(tree[target].attributes["transform"].flatMap { VectorTransform(svg: $0) } ?? .identity)
                element = tree[target]
            }
            guard Self.shapes.contains(element.name) else {
                if element.name == "text" { throw VectorUnsupported(.element("text")) }
                continue
            }
            var style = clipStyle
            try apply(properties(of: child), to: &style)
            if properties(of: child)["display"]?.trimmingCSSSpace == "none" || !style.visible { continue }
            let path = try shapePath(element).transformed(by: t)
            if !path.isEmpty { result.append(VectorClipPath(path: path, evenOdd: style.clipEvenOdd)) }
        }
        return result
    }
}
