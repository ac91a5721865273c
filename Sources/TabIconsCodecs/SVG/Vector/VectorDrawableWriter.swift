/// A `VectorDrawing` as an Android VectorDrawable (`res/drawable/NAME.xml`): `android:width` and
/// `height` in dp (the icon's point size), the viewport the normalized viewBox, groups for
/// transforms a group can hold (translate, rotate, scale: no skew — a skewed group's content is
/// flattened into its coordinates), `<clip-path>`, fills and strokes, gradients as `aapt:attr`
/// (API 24). A VectorDrawable group has no alpha: a group's opacity goes to its shapes' alphas,
/// exact only when they do not overlap, so overlapping ones are refused (`groupOpacity`).
enum VectorDrawableWriter {
    static func document(_ drawing: VectorDrawing) throws(VectorUnsupported) -> [UInt8] {
        var state = State(decimals: drawing.decimals)
        var body = ""
        var root = drawing.root
        let v = drawing.viewBox
        if v.x != 0 || v.y != 0 {
            root = VectorGroup(transform: .translate(-v.x, -v.y), children: [.group(root)])
        }
        try state.group(root, alpha: 1, into: &body, indent: "    ")
        var out = "<vector xmlns:android=\"http://schemas.android.com/apk/res/android\""
        if state.usesAapt { out += "\n    xmlns:aapt=\"http://schemas.android.com/aapt\"" }
        out += "\n    android:width=\"\(VectorNumberText.format(drawing.width, decimals: 4))dp\""
        out += "\n    android:height=\"\(VectorNumberText.format(drawing.height, decimals: 4))dp\""
        out += "\n    android:viewportWidth=\"\(state.n(v.width))\""
        out += "\n    android:viewportHeight=\"\(state.n(v.height))\">\n"
        out += body + "</vector>\n"
        return Array(out.utf8)
    }

    private struct State {
        let decimals: Int
        var usesAapt = false

        func n(_ value: Double) -> String { VectorNumberText.format(value, decimals: decimals) }
        func unit(_ value: Double) -> String { VectorNumberText.format(value, decimals: 4) }

        mutating func group(_ input: VectorGroup, alpha: Double, into out: inout String, indent: String) throws(VectorUnsupported)
        {
            var group = input
            var attributes: [String] = []
            if !group.transform.isIdentity {
                if let parts = group.transform.decomposed {
                    if parts.rotation != 0 { attributes.append("android:rotation=\"\(unit(parts.rotation))\"") }
                    if parts.scaleX != 1 {
                        attributes.append("android:scaleX=\"\(VectorNumberText.format(parts.scaleX, decimals: 6))\"")
                    }
                    if parts.scaleY != 1 {
                        attributes.append("android:scaleY=\"\(VectorNumberText.format(parts.scaleY, decimals: 6))\"")
                    }
                    if parts.translateX != 0 { attributes.append("android:translateX=\"\(n(parts.translateX))\"") }
                    if parts.translateY != 0 { attributes.append("android:translateY=\"\(n(parts.translateY))\"") }
                } else {
                    group = try group.flattened(by: .identity)
                }
            }
            if group.opacity < 1, group.shapeCount > 1, Self.overlaps(group) { throw VectorUnsupported(.groupOpacity) }
            let alpha = alpha * group.opacity
            let needsElement = !attributes.isEmpty || !group.clip.isEmpty
            let inner = needsElement ? indent + "    " : indent
            if needsElement {
                out += indent + "<group" + (attributes.isEmpty ? "" : " " + attributes.joined(separator: " ")) + ">\n"
            }
            if !group.clip.isEmpty {
                if group.clip.contains(where: \.evenOdd) { throw VectorUnsupported(.evenOddClip) }
                let data = group.clip.map { $0.path.data(decimals: decimals) }.joined(separator: " ")
                out += inner + "<clip-path android:pathData=\"\(data)\"/>\n"
            }
            for child in group.children {
                switch child {
                case .group(let g): try self.group(g, alpha: alpha, into: &out, indent: inner)
                case .shape(let s): try shape(s, alpha: alpha, into: &out, indent: inner)
                }
            }
            if needsElement { out += indent + "</group>\n" }
        }

        mutating func shape(_ s: VectorShape, alpha groupAlpha: Double, into out: inout String, indent: String)
            throws(VectorUnsupported)
        {
            let alpha = groupAlpha * s.opacity
            if alpha < 1, s.fill != nil, s.stroke != nil { throw VectorUnsupported(.groupOpacity) }
            var attributes = ["android:pathData=\"\(s.path.data(decimals: decimals))\""]
            var children = ""
            let inner = indent + "    "
            if let fill = s.fill {
                paint(fill, name: "android:fillColor", into: &attributes, children: &children, indent: inner)
                let a = s.fillOpacity * alpha
                if a < 1 { attributes.append("android:fillAlpha=\"\(unit(a))\"") }
                if s.evenOdd { attributes.append("android:fillType=\"evenOdd\"") }
            }
            if let stroke = s.stroke {
                paint(stroke.paint, name: "android:strokeColor", into: &attributes, children: &children, indent: inner)
                let a = stroke.opacity * alpha
                if a < 1 { attributes.append("android:strokeAlpha=\"\(unit(a))\"") }
                attributes.append("android:strokeWidth=\"\(n(stroke.width))\"")
                if stroke.cap != .butt { attributes.append("android:strokeLineCap=\"\(stroke.cap.rawValue)\"") }
                if stroke.join != .miter { attributes.append("android:strokeLineJoin=\"\(stroke.join.rawValue)\"") }
                if stroke.miterLimit != 4 { attributes.append("android:strokeMiterLimit=\"\(unit(stroke.miterLimit))\"") }
            }
            let head = indent + "<path\n" + attributes.map { indent + "    " + $0 }.joined(separator: "\n")
            out += children.isEmpty ? head + "/>\n" : head + ">\n" + children + indent + "</path>\n"
        }

        mutating func paint(
            _ paint: VectorPaint, name: String, into attributes: inout [String], children: inout String, indent: String
        ) {
            switch paint {
            case .color(let c):
                attributes.append("\(name)=\"\(c.alpha < 1 ? c.hexARGB : c.hexRGB)\"")
            case .linear(let g):
                usesAapt = true
                children += indent + "<aapt:attr name=\"\(name)\">\n"
                children +=
                    indent
                    + "    <gradient android:type=\"linear\" android:startX=\"\(n(g.start.x))\" android:startY=\"\(n(g.start.y))\" android:endX=\"\(n(g.end.x))\" android:endY=\"\(n(g.end.y))\" android:tileMode=\"\(tileMode(g.spread))\">\n"
                items(g.stops, into: &children, indent: indent + "        ")
                children += indent + "    </gradient>\n" + indent + "</aapt:attr>\n"
            case .radial(let g):
                usesAapt = true
                children += indent + "<aapt:attr name=\"\(name)\">\n"
                children +=
                    indent
                    + "    <gradient android:type=\"radial\" android:centerX=\"\(n(g.center.x))\" android:centerY=\"\(n(g.center.y))\" android:gradientRadius=\"\(n(g.radius))\" android:tileMode=\"\(tileMode(g.spread))\">\n"
                items(g.stops, into: &children, indent: indent + "        ")
                children += indent + "    </gradient>\n" + indent + "</aapt:attr>\n"
            }
        }

        func tileMode(_ spread: VectorSpread) -> String {
            switch spread {
            case .pad: return "clamp"
            case .reflect: return "mirror"
            case .repeat: return "repeat"
            }
        }

        func items(_ stops: [VectorGradientStop], into out: inout String, indent: String) {
            for stop in stops {
                out += indent + "<item android:offset=\"\(unit(stop.offset))\" android:color=\"\(stop.color.hexARGB)\"/>\n"
            }
        }

        /// Whether two of the group's shapes' boxes (strokes included) overlap.
        static func overlaps(_ group: VectorGroup) -> Bool {
            var boxes: [(Double, Double, Double, Double)] = []
            func collect(_ g: VectorGroup, _ t: VectorTransform) {
                let t = t.concatenating(g.transform)
                for child in g.children {
                    switch child {
                    case .group(let inner): collect(inner, t)
                    case .shape(let s):
                        guard let b = s.path.transformed(by: t).bounds else { continue }
                        let grow =
                            (s.stroke?.width ?? 0) * t.meanScale / 2 * (s.stroke?.join == .miter ? s.stroke!.miterLimit : 1)
                        boxes.append((b.minX - grow, b.minY - grow, b.maxX + grow, b.maxY + grow))
                    }
                }
            }
            collect(VectorGroup(children: group.children), .identity)
            for i in boxes.indices {
                for j in boxes.indices where j > i {
                    let a = boxes[i], b = boxes[j]
                    if a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3 { return true }
                }
            }
            return false
        }
    }
}
