import Foundation
@testable import TabIconsCodecs
@testable import TabIconsNormalize

/// The test's own way back from a VectorDrawable to SVG, written from Android's documentation of
/// the format (not from the converter): each `<group>` a `<g>` with Android's transform order
/// (translate · rotate · scale about the pivot), each `<clip-path>` clipping the siblings after
/// it, each `<path>` with its fill, stroke, alphas and `aapt:attr` gradients. Then any SVG
/// renderer can draw what an Android device would.
enum VectorDrawableReader {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static func svg(_ xml: [UInt8]) throws -> String {
        var out = ""
        var defs = ""
        var nextID = 0
        // Per open element: what closes it in the SVG (groups may have opened clip groups).
        var closers: [String] = []
        var pendingPath: [String: String]? = nil
        var gradientTarget: String? = nil
        var gradient: [String: String] = [:]
        var items: [(String, String)] = []
        var failure: String?
        func color(_ text: String) -> (rgb: String, alpha: Double) {
            let hex = text.dropFirst()
            if hex.count == 8 { return ("#" + hex.dropFirst(2), Double(Int(hex.prefix(2), radix: 16)!) / 255) }
            return ("#" + hex, 1)
        }
        func pathElement(_ a: [String: String], fillGradient: String?, strokeGradient: String?) -> String {
            var s = "<path d=\"\(a["pathData"] ?? "")\""
            if let g = fillGradient {
                s += " fill=\"url(#\(g))\" fill-opacity=\"\(a["fillAlpha"] ?? "1")\""
            } else if let f = a["fillColor"] {
                let c = color(f)
                s += " fill=\"\(c.rgb)\" fill-opacity=\"\(c.alpha * Double(a["fillAlpha"] ?? "1")!)\""
            } else {
                s += " fill=\"none\""
            }
            if a["fillType"] == "evenOdd" { s += " fill-rule=\"evenodd\"" }
            var strokePaint: String?
            var strokeAlpha = Double(a["strokeAlpha"] ?? "1")!
            if let g = strokeGradient {
                strokePaint = "url(#\(g))"
            } else if let f = a["strokeColor"] {
                let c = color(f); strokePaint = c.rgb; strokeAlpha *= c.alpha
            }
            if let strokePaint {
                s += " stroke=\"\(strokePaint)\" stroke-opacity=\"\(strokeAlpha)\" stroke-width=\"\(a["strokeWidth"] ?? "0")\""
                s += " stroke-linecap=\"\(a["strokeLineCap"] ?? "butt")\" stroke-linejoin=\"\(a["strokeLineJoin"] ?? "miter")\""
                s += " stroke-miterlimit=\"\(a["strokeMiterLimit"] ?? "4")\""
            }
            return s + "/>\n"
        }
        var fillGradient: String?, strokeGradient: String?
        var width = "", height = "", viewport = ""
        try xml.withUnsafeBufferPointer { b in
            try SVGMarkupScanner.scan(b, allAttributes: true) { event in
                switch event {
                case .start(let name, let attributes, let selfClosing):
                    var a: [String: String] = [:]
                    for attribute in attributes { a[attribute.name] = attribute.value }
                    switch name {
                    case "vector":
                        width = String(a["width"]!.dropLast(2)); height = String(a["height"]!.dropLast(2))
                        viewport = "0 0 \(a["viewportWidth"]!) \(a["viewportHeight"]!)"
                        closers.append("")
                    case "group":
                        let px = Double(a["pivotX"] ?? "0")!, py = Double(a["pivotY"] ?? "0")!
                        let tx = Double(a["translateX"] ?? "0")!, ty = Double(a["translateY"] ?? "0")!
                        out +=
                            "<g transform=\"translate(\(tx + px) \(ty + py)) rotate(\(a["rotation"] ?? "0")) scale(\(a["scaleX"] ?? "1") \(a["scaleY"] ?? "1")) translate(\(-px) \(-py))\">\n"
                        closers.append("</g>\n")
                    case "clip-path":
                        nextID += 1
                        defs += "<clipPath id=\"k\(nextID)\"><path d=\"\(a["pathData"]!)\"/></clipPath>\n"
                        out += "<g clip-path=\"url(#k\(nextID))\">\n"
                        closers[closers.count - 1] = "</g>\n" + closers[closers.count - 1]
                        if !selfClosing { closers.append("") }
                    case "path":
                        if selfClosing {
                            out += pathElement(a, fillGradient: nil, strokeGradient: nil)
                        } else {
                            pendingPath = a; fillGradient = nil; strokeGradient = nil; closers.append("path")
                        }
                    case "attr":
                        gradientTarget = a["name"]; closers.append("attr")
                    case "gradient":
                        gradient = a; items = []; closers.append("gradient")
                    case "item":
                        items.append((a["offset"]!, a["color"]!))
                        if !selfClosing { closers.append("") }
                    default:
                        failure = "unexpected element <\(name)>"
                        if !selfClosing { closers.append("") }
                    }
                case .end:
                    let closer = closers.popLast() ?? ""
                    switch closer {
                    case "path":
                        out += pathElement(pendingPath!, fillGradient: fillGradient, strokeGradient: strokeGradient)
                    case "gradient":
                        nextID += 1
                        let id = "q\(nextID)"
                        let spread = ["clamp": "pad", "mirror": "reflect", "repeat": "repeat"][gradient["tileMode"] ?? "clamp"]!
                        if gradient["type"] == "radial" {
                            defs +=
                                "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"\(gradient["centerX"]!)\" cy=\"\(gradient["centerY"]!)\" r=\"\(gradient["gradientRadius"]!)\" spreadMethod=\"\(spread)\">\n"
                        } else {
                            defs +=
                                "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(gradient["startX"]!)\" y1=\"\(gradient["startY"]!)\" x2=\"\(gradient["endX"]!)\" y2=\"\(gradient["endY"]!)\" spreadMethod=\"\(spread)\">\n"
                        }
                        for (offset, c) in items {
                            let parsed = color(c)
                            defs += "<stop offset=\"\(offset)\" stop-color=\"\(parsed.rgb)\" stop-opacity=\"\(parsed.alpha)\"/>\n"
                        }
                        defs += gradient["type"] == "radial" ? "</radialGradient>\n" : "</linearGradient>\n"
                        if gradientTarget == "android:fillColor" { fillGradient = id } else { strokeGradient = id }
                    case "attr": break
                    default: out += closer
                    }
                case .text, .doctype:
                    break
                }
            }
        }
        if let failure { throw Failure(description: failure) }
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" viewBox=\"\(viewport)\">\n<defs>\(defs)</defs>\n\(out)</svg>\n"
    }
}
