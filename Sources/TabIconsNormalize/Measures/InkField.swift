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

    /// The length of the ink's outline: the half-coverage contour through the pixel centres, by
    /// marching squares with linear interpolation along each cell edge.
    func perimeter() -> Double {
        var length = 0.0
        let level: Float = 0.5
        for y in 0..<(height - 1) {
            for x in 0..<(width - 1) {
                // Corners clockwise from the top left, and where the contour crosses each edge.
                let c = [alpha[y * width + x], alpha[y * width + x + 1], alpha[(y + 1) * width + x + 1], alpha[(y + 1) * width + x]]
                let inside = c.map { $0 >= level }
                guard inside.contains(true), inside.contains(false) else { continue }
                let corners: [(Double, Double)] = [(0, 0), (1, 0), (1, 1), (0, 1)]
                var crossings: [(Double, Double)] = []
                for edge in 0..<4 where inside[edge] != inside[(edge + 1) % 4] {
                    let (a, b) = (c[edge], c[(edge + 1) % 4])
                    let t = Double((level - a) / (b - a))
                    let (p, q) = (corners[edge], corners[(edge + 1) % 4])
                    crossings.append((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t))
                }
                func segment(_ i: Int, _ j: Int) -> Double {
                    let (dx, dy) = (crossings[i].0 - crossings[j].0, crossings[i].1 - crossings[j].1)
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
        return length
    }

    /// The silhouette's area: the ink with every hole it encloses filled (what the margin's
    /// background cannot reach through pixels under half covered counts whole).
    func silhouetteArea() -> Double {
        var outside = [Bool](repeating: false, count: alpha.count)
        var pending = [0]
        outside[0] = true
        while let index = pending.popLast() {
            let (x, y) = (index % width, index / width)
            for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < width && ny < height {
                let next = ny * width + nx
                if !outside[next], alpha[next] < 0.5 {
                    outside[next] = true
                    pending.append(next)
                }
            }
        }
        // A hole: what the outside cannot reach through pixels under half covered. It counts whole,
        // and so do the partly covered pixels on its rim (the hole's side of them is filled too).
        func isHole(_ index: Int) -> Bool { !outside[index] && alpha[index] < 0.5 }
        var area = 0.0
        for index in alpha.indices {
            let (x, y) = (index % width, index / width)
            var rim = false
            if x > 0, isHole(index - 1) { rim = true }
            if x < width - 1, isHole(index + 1) { rim = true }
            if y > 0, isHole(index - width) { rim = true }
            if y < height - 1, isHole(index + width) { rim = true }
            area += isHole(index) || rim ? 1 : Double(alpha[index])
        }
        return area
    }
}
