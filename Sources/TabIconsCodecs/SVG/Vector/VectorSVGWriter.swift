/// A `VectorDrawing` as a new SVG document: `width`/`height` the icon's point size, `viewBox`
/// the normalized user space, groups and paths with presentation attributes only (no CSS, no
/// `<use>`, no ids but the clips' and gradients' it made), so CoreSVG, librsvg and browsers all
/// read it alike. Deterministic: the same drawing gives the same bytes.
enum VectorSVGWriter {
    static func document(_ drawing: VectorDrawing) -> [UInt8] {
        var writer = State(decimals: drawing.decimals)
        var body = ""
        writer.group(drawing.root, into: &body, indent: "  ")
        let v = drawing.viewBox
        var out =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(VectorNumberText.format(drawing.width, decimals: 4))\" height=\"\(VectorNumberText.format(drawing.height, decimals: 4))\""
        out += " viewBox=\"\(writer.n(v.x)) \(writer.n(v.y)) \(writer.n(v.width)) \(writer.n(v.height))\">\n"
        if !writer.definitions.isEmpty { out += "  <defs>\n" + writer.definitions + "  </defs>\n" }
        out += body + "</svg>\n"
        return Array(out.utf8)
    }

    private struct State {
        let decimals: Int
        var definitions = ""
        var nextID = 1

        func n(_ value: Double) -> String { VectorNumberText.format(value, decimals: decimals) }
        /// Opacities and offsets: four decimals whatever the scale.
        func unit(_ value: Double) -> String { VectorNumberText.format(value, decimals: 4) }

        mutating func group(_ group: VectorGroup, into out: inout String, indent: String) {
            var attributes = ""
            let t = group.transform
            if !t.isIdentity {
                attributes +=
                    " transform=\"matrix(\(unitless(t.a)) \(unitless(t.b)) \(unitless(t.c)) \(unitless(t.d)) \(n(t.e)) \(n(t.f)))\""
            }
            if group.opacity < 1 { attributes += " opacity=\"\(unit(group.opacity))\"" }
            if !group.clip.isEmpty {
                let id = "c\(nextID)"
                nextID += 1
                definitions += "    <clipPath id=\"\(id)\">\n"
                for clip in group.clip {
                    definitions +=
                        "      <path d=\"\(clip.path.data(decimals: decimals))\"" + (clip.evenOdd ? " clip-rule=\"evenodd\"" : "")
                        + "/>\n"
                }
                definitions += "    </clipPath>\n"
                attributes += " clip-path=\"url(#\(id))\""
            }
            let flat = attributes.isEmpty
            let inner = flat ? indent : indent + "  "
            if !flat { out += indent + "<g" + attributes + ">\n" }
            for child in group.children {
                switch child {
                case .group(let g): self.group(g, into: &out, indent: inner)
                case .shape(let s): shape(s, into: &out, indent: inner)
                }
            }
            if !flat { out += indent + "</g>\n" }
        }

        /// A matrix's linear part: six decimals (it multiplies coordinates).
        func unitless(_ value: Double) -> String { VectorNumberText.format(value, decimals: 6) }

        mutating func paint(_ paint: VectorPaint, opacity: Double, name: String) -> String {
            switch paint {
            case .color(let c):
                let alpha = c.alpha * opacity
                return " \(name)=\"\(c.hexRGB)\"" + (alpha < 1 ? " \(name)-opacity=\"\(unit(alpha))\"" : "")
            case .linear(let g):
                let id = "g\(nextID)"
                nextID += 1
                definitions +=
                    "    <linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(n(g.start.x))\" y1=\"\(n(g.start.y))\" x2=\"\(n(g.end.x))\" y2=\"\(n(g.end.y))\""
                    + spread(g.spread) + ">\n"
                stops(g.stops)
                definitions += "    </linearGradient>\n"
                return " \(name)=\"url(#\(id))\"" + (opacity < 1 ? " \(name)-opacity=\"\(unit(opacity))\"" : "")
            case .radial(let g):
                let id = "g\(nextID)"
                nextID += 1
                definitions +=
                    "    <radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(n(g.center.x))\" cy=\"\(n(g.center.y))\" r=\"\(n(g.radius))\""
                    + spread(g.spread) + ">\n"
                stops(g.stops)
                definitions += "    </radialGradient>\n"
                return " \(name)=\"url(#\(id))\"" + (opacity < 1 ? " \(name)-opacity=\"\(unit(opacity))\"" : "")
            }
        }

        func spread(_ s: VectorSpread) -> String { s == .pad ? "" : " spreadMethod=\"\(s.rawValue)\"" }

        mutating func stops(_ stops: [VectorGradientStop]) {
            for stop in stops {
                definitions +=
                    "      <stop offset=\"\(unit(stop.offset))\" stop-color=\"\(stop.color.hexRGB)\""
                    + (stop.color.alpha < 1 ? " stop-opacity=\"\(unit(stop.color.alpha))\"" : "") + "/>\n"
            }
        }

        mutating func shape(_ s: VectorShape, into out: inout String, indent: String) {
            var line = indent + "<path d=\"\(s.path.data(decimals: decimals))\""
            if let fill = s.fill {
                line += paint(fill, opacity: s.fillOpacity, name: "fill")
                if s.evenOdd { line += " fill-rule=\"evenodd\"" }
            } else {
                line += " fill=\"none\""
            }
            if let stroke = s.stroke {
                line += paint(stroke.paint, opacity: stroke.opacity, name: "stroke")
                if stroke.width != 1 { line += " stroke-width=\"\(n(stroke.width))\"" }
                if stroke.cap != .butt { line += " stroke-linecap=\"\(stroke.cap.rawValue)\"" }
                if stroke.join != .miter { line += " stroke-linejoin=\"\(stroke.join.rawValue)\"" }
                if stroke.miterLimit != 4 { line += " stroke-miterlimit=\"\(unit(stroke.miterLimit))\"" }
            }
            if s.opacity < 1 { line += " opacity=\"\(unit(s.opacity))\"" }
            out += line + "/>\n"
        }
    }
}
