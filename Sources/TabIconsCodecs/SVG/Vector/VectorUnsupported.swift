/// What a vector format cannot hold: the reason an SVG is kept as PNG renditions with the
/// `vector-fallback` lint (SPEC §3, §6). Each case names a feature a user can look for in the file.
package enum VectorFeature: Sendable, Equatable, CustomStringConvertible {
    case element(String)  // text, image, pattern used as paint, nested svg, switch, …
    case filter
    case mask
    case marker
    case dashArray
    case styleSheet(String)  // a CSS construct beyond simple selectors
    case value(String)  // a length it cannot resolve (em, ex), more drawn elements than the budget
    case focalPoint  // a radial gradient's focus away from its centre
    case stretchedGradient  // a radial gradient under a non-uniform scale or skew
    case groupOpacity  // VectorDrawable: opacity on a group of overlapping drawings
    case evenOddClip  // VectorDrawable: clip-rule evenodd
    case renderIntent(String)  // an intent a vector cannot express (template-luminance)
    case gradientPaint  // symbol: one template colour, no gradients
    case translucency  // symbol: opacity below 1 on a shape, group, fill or stroke
    case clipCutsInk  // symbol: a clip that cuts into the ink (no curve booleans)
    case incompatibleWeights  // symbol: weights whose outlines differ in structure
    case symbolSize(Int)  // symbol: outlines beyond this many commands
    case noInk  // symbol: nothing drawn

    package var description: String {
        switch self {
        case .element(let name): return "<\(name)>"
        case .filter: return "filters"
        case .mask: return "masks"
        case .marker: return "markers"
        case .dashArray: return "dashed strokes (stroke-dasharray)"
        case .styleSheet(let what): return "CSS beyond simple selectors (\(what))"
        case .value(let what): return "the value \(what)"
        case .focalPoint: return "a radial gradient with a focal point (fx, fy)"
        case .stretchedGradient: return "a radial gradient stretched by a transform"
        case .groupOpacity: return "opacity on a group of several shapes"
        case .evenOddClip: return "clip-rule evenodd"
        case .renderIntent(let intent): return "the render intent \(intent)"
        case .gradientPaint: return "a gradient paint (a symbol has one template colour)"
        case .translucency: return "opacity below 1 (a symbol's ink is opaque)"
        case .clipCutsInk: return "a clip path that cuts into the drawing"
        case .incompatibleWeights: return "outlines that cannot be made compatible across weights"
        case .symbolSize(let limit): return "outlines of more than \(limit) commands"
        case .noInk: return "no ink (nothing is drawn)"
        }
    }
}

/// The error that carries a `VectorFeature` out of the converter.
package struct VectorUnsupported: Error, Sendable, Equatable {
    package let feature: VectorFeature
    package init(_ feature: VectorFeature) { self.feature = feature }
}
