import TabIconsCore

/// A bitmap's alpha as ink coverage (0...1 a pixel), with one transparent pixel of margin on every
/// side, and the sums `IconMeasures` is made of.
struct InkField {
    let width: Int  // with the margin
    let height: Int
    let alpha: [Float]

    init(_ bitmap: Bitmap) {
        let width = bitmap.width + 2
        self.width = width
        height = bitmap.height + 2
        var alpha = [Float](repeating: 0, count: width * height)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                alpha[(y + 1) * width + x + 1] = Float(bitmap.pixels[(y * bitmap.width + x) * 4 + 3]) / 255
            }
        }
        self.alpha = alpha
    }

    /// Ink area in pixels: every pixel's coverage summed.
    var area: Double { alpha.reduce(0.0) { $0 + Double($1) } }

    /// The alpha-weighted centre, in the bitmap's pixel coordinates (a pixel's centre at +0.5).
    var centroid: (x: Double, y: Double) {
        var sx = 0.0, sy = 0.0, total = 0.0
        for y in 0..<height {
            for x in 0..<width {
                let a = Double(alpha[y * width + x])
                guard a > 0 else { continue }
                sx += a * (Double(x - 1) + 0.5)
                sy += a * (Double(y - 1) + 0.5)
                total += a
            }
        }
        return total > 0 ? (sx / total, sy / total) : (0, 0)
    }

    /// The ink's outline: the half-coverage contour through the pixel centres, by marching squares
    /// with linear interpolation along each cell edge; its length, and the points where it
    /// crosses the cell edges (in the field's coordinates, the margin included).
    func contour() -> (length: Double, points: [(x: Double, y: Double)]) {
        var length = 0.0
        var points: [(x: Double, y: Double)] = []
        let level: Float = 0.5
        // The corner offsets clockwise from the top left; no allocation in the loop (it runs per cell).
        let cornerX: (Double, Double, Double, Double) = (0, 1, 1, 0)
        let cornerY: (Double, Double, Double, Double) = (0, 0, 1, 1)
        func component(_ t: (Double, Double, Double, Double), _ i: Int) -> Double {
            switch i {
            case 0: t.0
            case 1: t.1
            case 2: t.2
            default: t.3
            }
        }
        alpha.withUnsafeBufferPointer { a in
            for y in 0..<(height - 1) {
                for x in 0..<(width - 1) {
                    let c0 = a[y * width + x], c1 = a[y * width + x + 1]
                    let c2 = a[(y + 1) * width + x + 1], c3 = a[(y + 1) * width + x]
                    let mask = (c0 >= level ? 1 : 0) | (c1 >= level ? 2 : 0) | (c2 >= level ? 4 : 0) | (c3 >= level ? 8 : 0)
                    guard mask != 0, mask != 15 else { continue }
                    // Where the contour crosses each edge whose two corners differ.
                    var crossings:
                        (x: Double, y: Double, x1: Double, y1: Double, x2: Double, y2: Double, x3: Double, y3: Double) =
                            (0, 0, 0, 0, 0, 0, 0, 0)
                    var count = 0
                    for edge in 0..<4 {
                        let next = (edge + 1) % 4
                        guard (mask >> edge) & 1 != (mask >> next) & 1 else { continue }
                        let (va, vb) = (
                            edge == 0 ? c0 : edge == 1 ? c1 : edge == 2 ? c2 : c3,
                            next == 0 ? c0 : next == 1 ? c1 : next == 2 ? c2 : c3
                        )
                        let t = Double((level - va) / (vb - va))
                        let px = Double(x) + component(cornerX, edge) + (component(cornerX, next) - component(cornerX, edge)) * t
                        let py = Double(y) + component(cornerY, edge) + (component(cornerY, next) - component(cornerY, edge)) * t
                        switch count {
                        case 0: (crossings.x, crossings.y) = (px, py)
                        case 1: (crossings.x1, crossings.y1) = (px, py)
                        case 2: (crossings.x2, crossings.y2) = (px, py)
                        default: (crossings.x3, crossings.y3) = (px, py)
                        }
                        points.append((px, py))
                        count += 1
                    }
                    func distance(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
                        ((ax - bx) * (ax - bx) + (ay - by) * (ay - by)).squareRoot()
                    }
                    let k = crossings
                    if count == 2 {
                        length += distance(k.x, k.y, k.x1, k.y1)
                    } else {
                        // A saddle: the two diagonal corners in, two out; pair the crossings so the
                        // centre's side (the mean of the corners) stays connected.
                        let centreInside = (c0 + c1 + c2 + c3) / 4 >= level
                        length +=
                            centreInside == (mask & 1 != 0)
                            ? distance(k.x, k.y, k.x3, k.y3) + distance(k.x1, k.y1, k.x2, k.y2)
                            : distance(k.x, k.y, k.x1, k.y1) + distance(k.x2, k.y2, k.x3, k.y3)
                    }
                }
            }
        }
        return (length, points)
    }

    /// The extent of `points` (the contour's, in the field's coordinates) as edges in the bitmap's
    /// (the field's pixel centres are at whole numbers, the margin one pixel: less a half).
    static func bounds(_ points: [(x: Double, y: Double)]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard let first = points.first else { return nil }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points {
            (minX, maxX) = (min(minX, point.x), max(maxX, point.x))
            (minY, maxY) = (min(minY, point.y), max(maxY, point.y))
        }
        return (minX - 0.5, minY - 0.5, maxX - 0.5, maxY - 0.5)
    }

    /// The area of the convex hull of `points` (Andrew's monotone chain, then the shoelace).
    static func hullArea(_ points: [(x: Double, y: Double)]) -> Double {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        guard sorted.count >= 3 else { return 0 }
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var hull: [(x: Double, y: Double)] = []
        for pass in 0..<2 {
            let start = hull.count
            for point in pass == 0 ? sorted : sorted.reversed() {
                while hull.count >= start + 2, cross(hull[hull.count - 2], hull[hull.count - 1], point) <= 0 { hull.removeLast() }
                hull.append(point)
            }
            hull.removeLast()
        }
        var area = 0.0
        for i in hull.indices {
            let (a, b) = (hull[i], hull[(i + 1) % hull.count])
            area += a.x * b.y - b.x * a.y
        }
        return abs(area) / 2
    }
}
