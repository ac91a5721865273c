import Foundation

/// Even-odd fills as non-zero ones (a symbol's paths are non-zero): each contour turned so that
/// one nested inside an even number of others runs clockwise on screen and one inside an odd
/// number runs the other way, so that under non-zero the same regions are ink. Exact for contours
/// that do not cross one another (what icons draw); crossing contours keep their order's result.
enum Winding {
    static func nonZero(_ contours: [CubicContour]) -> [CubicContour] {
        let polygons = contours.map { $0.flattened() }
        return contours.indices.map { i in
            guard let probe = polygons[i].first else { return contours[i] }
            var depth = 0
            for j in contours.indices where j != i && polygons[j].count > 2 {
                if Polygon.winding(polygons[j], around: probe) != 0 { depth += 1 }
            }
            let clockwise = Polygon.signedArea(polygons[i]) > 0
            return clockwise == depth.isMultiple(of: 2) ? contours[i] : contours[i].reversed
        }
    }
}
