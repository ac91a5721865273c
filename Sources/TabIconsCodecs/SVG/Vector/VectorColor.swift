/// A straight-alpha sRGB colour, as SVG paints are written (`#rgb`, `#rrggbbaa`, `rgb()`,
/// `rgba()`, the CSS named colours, `transparent`).
struct VectorColor: Sendable, Equatable, Hashable {
    var red: UInt8, green: UInt8, blue: UInt8
    /// 0…1.
    var alpha: Double

    static let black = VectorColor(red: 0, green: 0, blue: 0, alpha: 1)

    func withAlpha(_ factor: Double) -> VectorColor {
        VectorColor(red: red, green: green, blue: blue, alpha: min(1, max(0, alpha * factor)))
    }

    /// `#RRGGBB`, the form both writers use for an opaque colour.
    var hexRGB: String {
        "#"
            + [red, green, blue].map { byte in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
            }.joined()
    }

    /// `#AARRGGBB` (Android's order), the alpha rounded to a byte.
    var hexARGB: String {
        let a = UInt8((alpha * 255).rounded())
        let digits = Array("0123456789abcdef")
        return "#" + String([digits[Int(a >> 4)], digits[Int(a & 15)]]) + hexRGB.dropFirst()
    }

    /// Parses a colour; nil for what is not one (`currentColor`, `none` and `url()` are the
    /// caller's).
    init?(css text: Substring) {
        let value = text.trimmingCSSSpace.lowercased()
        if value.hasPrefix("#") {
            let digits = value.dropFirst()
            guard digits.allSatisfy(\.isHexDigit), let number = UInt32(digits, radix: 16) else { return nil }
            switch digits.count {
            case 3, 4:
                let n = digits.count
                func nibble(_ i: Int) -> UInt8 { UInt8((number >> UInt32(4 * (n - 1 - i))) & 15) * 17 }
                self.init(red: nibble(0), green: nibble(1), blue: nibble(2), alpha: n == 4 ? Double(nibble(3)) / 255 : 1)
            case 6, 8:
                let n = digits.count / 2
                func byte(_ i: Int) -> UInt8 { UInt8((number >> UInt32(8 * (n - 1 - i))) & 255) }
                self.init(red: byte(0), green: byte(1), blue: byte(2), alpha: n == 4 ? Double(byte(3)) / 255 : 1)
            default:
                return nil
            }
            return
        }
        if value.hasPrefix("rgb(") || value.hasPrefix("rgba("), value.hasSuffix(")") {
            let parts = Self.arguments(value)
            guard parts.count == 3 || parts.count == 4 else { return nil }
            func channel(_ p: Substring) -> UInt8? {
                if p.hasSuffix("%"), let v = Double(p.dropLast()), v.isFinite {
                    return UInt8(max(0, min(255, (v * 2.55).rounded())))
                }
                guard let v = Double(p), v.isFinite else { return nil }
                return UInt8(max(0, min(255, v.rounded())))
            }
            guard let r = channel(parts[0]), let g = channel(parts[1]), let b = channel(parts[2]) else { return nil }
            guard let a = Self.alpha(parts) else { return nil }
            self.init(red: r, green: g, blue: b, alpha: a)
            return
        }
        if value.hasPrefix("hsl(") || value.hasPrefix("hsla("), value.hasSuffix(")") {
            let parts = Self.arguments(value)
            guard parts.count == 3 || parts.count == 4,
                let hue = Double(parts[0].hasSuffix("deg") ? parts[0].dropLast(3) : parts[0]), hue.isFinite,
                parts[1].hasSuffix("%"), parts[2].hasSuffix("%"),
                let s = Double(parts[1].dropLast()), let l = Double(parts[2].dropLast()), s.isFinite, l.isFinite
            else { return nil }
            // CSS Color 3's HSL to RGB.
            let saturation = max(0, min(1, s / 100)), lightness = max(0, min(1, l / 100))
            let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
            let m2 = lightness <= 0.5 ? lightness * (saturation + 1) : lightness + saturation - lightness * saturation
            let m1 = lightness * 2 - m2
            func channel(_ t: Double) -> UInt8 {
                var t = t
                if t < 0 { t += 1 }
                if t > 1 { t -= 1 }
                let v: Double
                if t * 6 < 1 {
                    v = m1 + (m2 - m1) * t * 6
                } else if t * 2 < 1 {
                    v = m2
                } else if t * 3 < 2 {
                    v = m1 + (m2 - m1) * (2.0 / 3 - t) * 6
                } else {
                    v = m1
                }
                return UInt8(max(0, min(255, (v * 255).rounded())))
            }
            guard let a = Self.alpha(parts) else { return nil }
            self.init(red: channel(h + 1.0 / 3), green: channel(h), blue: channel(h - 1.0 / 3), alpha: a)
            return
        }
        if value == "transparent" { self.init(red: 0, green: 0, blue: 0, alpha: 0); return }
        guard let rgb = Self.named[value] else { return nil }
        self.init(red: UInt8(rgb >> 16), green: UInt8((rgb >> 8) & 255), blue: UInt8(rgb & 255), alpha: 1)
    }

    /// The arguments of a colour function (`rgb(…)`, `hsla(…)`): what is inside its parentheses,
    /// split at commas, spaces and the slash before an alpha.
    private static func arguments(_ value: String) -> [Substring] {
        let inside = value[value.index(after: value.firstIndex(of: "(")!)..<value.index(before: value.endIndex)]
        return inside.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).map { $0.trimmingCSSSpace }
    }

    /// A colour function's alpha: its fourth argument (a number or a percentage, clamped to 0…1),
    /// 1 without one, nil when it does not parse (the colour is then invalid).
    private static func alpha(_ parts: [Substring]) -> Double? {
        guard parts.count == 4 else { return 1 }
        let p = parts[3]
        guard let v = p.hasSuffix("%") ? Double(p.dropLast()).map({ $0 / 100 }) : Double(p), v.isFinite else { return nil }
        return max(0, min(1, v))
    }

    init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// The CSS Color Module's named colours.
    static let named: [String: UInt32] = {
        let table = """
            aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4 \
            black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 \
            chartreuse 7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff \
            darkblue 00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 \
            darkkhaki bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 \
            darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f \
            darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 \
            dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc \
            ghostwhite f8f8ff gold ffd700 goldenrod daa520 gray 808080 grey 808080 green 008000 greenyellow adff2f \
            honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa \
            lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080 lightcyan e0ffff \
            lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey d3d3d3 lightpink ffb6c1 \
            lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899 lightslategrey 778899 \
            lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff maroon 800000 \
            mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db mediumseagreen 3cb371 \
            mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585 \
            midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead navy 000080 \
            oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa \
            palegreen 98fb98 paleturquoise afeeee palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f \
            pink ffc0cb plum dda0dd powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f \
            royalblue 4169e1 saddlebrown 8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee \
            sienna a0522d silver c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa \
            springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347 turquoise 40e0d0 \
            violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00 yellowgreen 9acd32
            """
        let words = table.split(separator: " ")
        var result: [String: UInt32] = [:]
        for i in stride(from: 0, to: words.count - 1, by: 2) { result[String(words[i])] = UInt32(words[i + 1], radix: 16) }
        return result
    }()
}
