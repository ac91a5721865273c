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

    /// The bounds of the pixels at least half covered, as edges in the bitmap's coordinates.
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for y in 0..<height {
            for x in 0..<width where alpha[y * width + x] >= 0.5 {
                minX = min(minX, x - 1)
                maxX = max(maxX, x - 1)
                minY = min(minY, y - 1)
                maxY = max(maxY, y - 1)
            }
        }
        guard minX <= maxX else { return nil }
        return (Double(minX), Double(minY), Double(maxX + 1), Double(maxY + 1))
    }

    /// The ink's outline: the half-coverage contour through the pixel centres, by marching squares
    /// with linear interpolation along each cell edge; its length, and the points where it
    /// crosses the cell edges (in the field's coordinates, the margin included).
    func contour() -> (length: Double, points: [(x: Double, y: Double)]) {
        var length = 0.0
        var points: [(x: Double, y: Double)] = []
        let level: Float = 0.5
        let corners: [(Double, Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
        for y in 0..<(height - 1) {
            for x in 0..<(width - 1) {
                // Corners clockwise from the top left, and where the contour crosses each edge.
                let c = [
                    alpha[y * width + x], alpha[y * width + x + 1], alpha[(y + 1) * width + x + 1], alpha[(y + 1) * width + x]
                ]
                let inside = c.map { $0 >= level }
                guard inside.contains(true), inside.contains(false) else { continue }
                var crossings: [(x: Double, y: Double)] = []
                for edge in 0..<4 where inside[edge] != inside[(edge + 1) % 4] {
                    let (a, b) = (c[edge], c[(edge + 1) % 4])
                    let t = Double((level - a) / (b - a))
                    let (p, q) = (corners[edge], corners[(edge + 1) % 4])
                    crossings.append((Double(x) + p.0 + (q.0 - p.0) * t, Double(y) + p.1 + (q.1 - p.1) * t))
                }
                points += crossings
                func segment(_ i: Int, _ j: Int) -> Double {
                    let (dx, dy) = (crossings[i].x - crossings[j].x, crossings[i].y - crossings[j].y)
                    return (dx * dx + dy * dy).squareRoot()
                }
                if crossings.count == 2 {
                    length += segment(0, 1)
                } else {
                    // A saddle: the two diagonal corners in, two out; pair the crossings so the
                    // centre's side (the mean of the corners) stays connected.
                    let centreInside = c.reduce(0, +) / 4 >= level
                    length += centreInside == inside[0] ? segment(0, 3) + segment(1, 2) : segment(0, 1) + segment(2, 3)
                }
            }
        }
        return (length, points)
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
