import TabIconsCore
import Foundation

/// An SVG input kept as a vector (SPEC §6 `--vector`): the document screened and parsed again
/// (it is untrusted; this runs in the jailed worker like the decode), read into a `VectorDrawing`,
/// placed as the normalizer placed its PNGs (`VectorPlacement`), and written as a sanitized SVG
/// or a VectorDrawable. What the target cannot hold comes back as the feature that stops it
/// (the `vector-fallback` lint); a document the decoder would refuse is that error.
package enum VectorConversion {
    package enum Target: Sendable, Equatable {
        /// A new SVG document: the asset catalog's and the flat layout's.
        case svg
        /// An Android VectorDrawable.
        case vectorDrawable
        /// A custom symbol's template (`--symbols`, `SymbolTemplate`), its weights made with these factors.
        case symbol(SymbolWeights)
    }

    /// `document` is the decoder's parse of the same bytes (its size and viewBox are librsvg's).
    /// `strokeWidth` (`--stroke-width`): the strokes redrawn so the drawing weighs that many points.
    package static func convert(
        _ data: Data, document: SVGDocument, placement: VectorPlacement, target: Target,
        limits: DecodeOptions.Limits, strokeWidth: Double? = nil
    ) throws(TabIconsError) -> Result<[UInt8], VectorUnsupported> {
        // Base64 and `data:` URLs as the decoder unwraps them.
        let data = ImageFormat.sniff(data) == .svg ? data : InputEncoding.unwrap(data) ?? data
        let parsed = data.withUnsafeBytes { raw in
            Result { () throws(TabIconsError) -> SVGElementTree in try plainDocument(raw, limits: limits) }
        }
        let tree = try parsed.get()
        return Result { () throws(VectorUnsupported) -> [UInt8] in
            var drawing = try drawing(tree, size: document.size, placement: placement)
            if let strokeWidth, let weight = drawing.strokeWeight { drawing = drawing.restroked(by: strokeWidth / weight) }
            switch target {
            case .svg: return VectorSVGWriter.document(drawing)
            case .vectorDrawable: return try VectorDrawableWriter.document(drawing)
            case .symbol(let weights):
                let outlines = try SymbolOutlines.make(drawing, weights: weights)
                guard !outlines.regular.isEmpty else { throw VectorUnsupported(.noInk) }
                return SymbolTemplate.document(outlines, width: drawing.width, height: drawing.height)
            }
        }
    }

    /// The placed drawing of an SVG (what `convert` writes), for symbols (`SymbolOutlines.make`).
    static func placedDrawing(
        _ data: Data, document: SVGDocument, placement: VectorPlacement, limits: DecodeOptions.Limits
    ) throws(TabIconsError) -> Result<VectorDrawing, VectorUnsupported> {
        let data = ImageFormat.sniff(data) == .svg ? data : InputEncoding.unwrap(data) ?? data
        let parsed = data.withUnsafeBytes { raw in
            Result { () throws(TabIconsError) -> SVGElementTree in try plainDocument(raw, limits: limits) }
        }
        let tree = try parsed.get()
        return Result { () throws(VectorUnsupported) -> VectorDrawing in
            try drawing(tree, size: document.size, placement: placement)
        }
    }

    /// The element tree of screened plain SVG (gunzipped first when compressed), under the same
    /// limits and screening as the decoder.
    static func plainDocument(_ bytes: UnsafeRawBufferPointer, limits: DecodeOptions.Limits) throws(TabIconsError)
        -> SVGElementTree
    {
        if SVGSniff.isGzip(bytes) {
            let inflated = try SVGCompression.inflate(bytes, limit: limits.maxSVGBytes)
            let result = inflated.withUnsafeBytes { plain in
                Result { () throws(TabIconsError) -> SVGElementTree in try plainDocument(plain, limits: limits) }
            }
            return try result.get()
        }
        guard bytes.count <= limits.maxSVGBytes else {
            throw TabIconsError(
                .tooLarge, "an SVG of \(bytes.count) bytes exceeds the SVG limit of \(limits.maxSVGBytes) bytes", format: .svg)
        }
        _ = try SVGScreening(bytes, limits: limits)
        return try SVGElementTree(bytes)
    }

    /// The drawing placed: the document's user space mapped onto the canvas so that the region
    /// lands on the glyph's rectangle. A uniform map becomes the viewBox (the paths keep their
    /// numbers); any other wraps the drawing in a group with the map.
    static func drawing(_ tree: SVGElementTree, size: SVGSize, placement: VectorPlacement) throws(VectorUnsupported)
        -> VectorDrawing
    {
        let viewBox = size.viewBox ?? (0, 0, size.width, size.height)
        var builder = try VectorDrawingBuilder(tree: tree, viewport: (viewBox.width, viewBox.height))
        var content = try builder.build()
        // User space → the document's viewport (its intrinsic size), by viewBox and preserveAspectRatio.
        let toViewport = viewportTransform(
            viewBox: viewBox, width: size.width, height: size.height,
            preserveAspectRatio: tree.root.flatMap { tree[$0].attributes["preserveAspectRatio"] })
        // The viewport → the canvas: the region onto the glyph's rectangle.
        let r = placement.region
        let sx = placement.glyphWidth / (r.width * size.width), sy = placement.glyphHeight / (r.height * size.height)
        let toCanvas = VectorTransform(
            a: sx, d: sy, e: placement.glyphX - sx * r.x * size.width, f: placement.glyphY - sy * r.y * size.height)
        let map = toCanvas.concatenating(toViewport)
        var written: (x: Double, y: Double, width: Double, height: Double)
        /// Canvas points → the written user space.
        var fromCanvas = VectorTransform.identity
        let uniform = map.b == 0 && map.c == 0 && map.a > 0 && abs(map.a - map.d) <= 1e-9 * map.a
        if uniform {
            let k = map.a
            written = (-map.e / k, -map.f / k, placement.canvasWidth / k, placement.canvasHeight / k)
            fromCanvas = VectorTransform(a: 1 / k, d: 1 / k, e: written.x, f: written.y)
        } else {
            written = (0, 0, placement.canvasWidth, placement.canvasHeight)
            content = VectorGroup(transform: map, children: [.group(content)])
        }
        var root = content
        if placement.circle {
            let radius = min(placement.glyphWidth, placement.glyphHeight) / 2
            let circle = VectorPath.ellipse(
                cx: placement.glyphX + placement.glyphWidth / 2, cy: placement.glyphY + placement.glyphHeight / 2,
                rx: radius, ry: radius)
            root = VectorGroup(
                clip: [VectorClipPath(path: circle.transformed(by: fromCanvas), evenOdd: false)], children: [.group(content)])
        } else if placement.glyphIsSmallerThanCanvas {
            let rect = VectorPath.rect(
                x: placement.glyphX, y: placement.glyphY, width: placement.glyphWidth, height: placement.glyphHeight, rx: 0, ry: 0
            )
            root = VectorGroup(
                clip: [VectorClipPath(path: rect.transformed(by: fromCanvas), evenOdd: false)], children: [.group(content)])
        }
        return VectorDrawing(
            viewBox: written, width: placement.canvasWidth, height: placement.canvasHeight, root: root.simplified)
    }

    /// SVG's viewBox transform (`preserveAspectRatio`, default `xMidYMid meet`).
    static func viewportTransform(
        viewBox: (x: Double, y: Double, width: Double, height: Double), width: Double, height: Double,
        preserveAspectRatio: String?
    ) -> VectorTransform {
        var sx = width / viewBox.width, sy = height / viewBox.height
        let words = (preserveAspectRatio ?? "").split(separator: " ").filter { $0 != "defer" }
        let align = words.first.map(String.init) ?? "xMidYMid"
        let slice = words.count > 1 && words[1] == "slice"
        var tx = -viewBox.x * sx, ty = -viewBox.y * sy
        if align != "none" {
            let s = slice ? max(sx, sy) : min(sx, sy)
            (sx, sy) = (s, s)
            let extraX = width - viewBox.width * s, extraY = height - viewBox.height * s
            let fx = align.hasPrefix("xMid") ? 0.5 : align.hasPrefix("xMax") ? 1 : 0
            let fy = align.hasSuffix("YMid") ? 0.5 : align.hasSuffix("YMax") ? 1 : 0
            tx = -viewBox.x * s + extraX * fx
            ty = -viewBox.y * s + extraY * fy
        }
        return VectorTransform(a: sx, d: sy, e: tx, f: ty)
    }
}

extension VectorGroup {
    /// Groups that do nothing (no transform, opacity or clip) merged into their parent.
    var simplified: VectorGroup {
        var result = self
        result.children = []
        for child in children {
            switch child {
            case .shape: result.children.append(child)
            case .group(let g):
                let inner = g.simplified
                if inner.transform.isIdentity && inner.opacity == 1 && inner.clip.isEmpty {
                    result.children += inner.children
                } else {
                    result.children.append(.group(inner))
                }
            }
        }
        return result
    }
}
