import Foundation
import TabIcons

/// What the preview shows of a set (SPEC §3a): each set's tabs side by side in one bar, the line
/// under it naming the icons the set's lints flag, and, behind a toggle (a checkbox and CSS: the
/// page has no script), each icon's measures drawn over it: the circle of its optical size (the
/// disc of the area the size stands for, on the ink's centre), that centre and the box's, and a bar
/// as thick as its measured stroke.
enum PreviewMeasures {
    /// The toggle's id: the checkbox heads the body, so `#measures:checked~…` reaches every overlay.
    static let toggle = "measures"

    /// The most tabs a set's bar shows (a tab bar holds five; a larger set gets the line alone).
    static let mostTabsInABar = 8

    static let css = """
        .toggle{position:absolute;opacity:0;pointer-events:none}
        .toggle-label{display:inline-block;margin:14px 0 0;padding:4px 12px;border-radius:999px;border:1px solid #c7c9d1;font-size:12px;cursor:pointer;user-select:none}
        #measures:checked~.top .toggle-label{background:#1c1c1e;color:#fff;border-color:#1c1c1e}
        .ov{display:none;position:absolute;left:0;top:0;width:100%;height:100%;overflow:visible;pointer-events:none}
        #measures:checked~.grid .ov,#measures:checked~#set .ov{display:block}
        .px,.box,.pill{position:relative}
        .ov .size{fill:none;stroke:#d81b60}
        .ov .ink{stroke:#d81b60}
        .ov .mid{stroke:#00897b}
        .ov .weight{fill:#1e88e5cc}
        .setbar{display:flex;flex-wrap:wrap;gap:10px 20px;margin:6px 0 4px}
        .setbar .bar{width:auto}
        .setbar .bar .it{width:80px;flex:none}
        .setlints{font-size:13px;margin:4px 0 14px}
        .setlints b{font-weight:600}
        .k-stroke-mismatch{background:#1e88e5}.k-optical-size-mismatch{background:#d81b60}.k-off-centre{background:#6d4c41}
        .k-stroke-width-not-applied{background:#5f6368}

        """

    /// The checkbox (first in the body) and its label (in the header).
    static let checkbox = "<input type=\"checkbox\" id=\"\(toggle)\" class=\"toggle\">\n"
    static let label =
        "<label class=\"toggle-label\" for=\"\(toggle)\">Measures: optical size circle, centre, stroke</label>"

    /// An SVG over a glyph of `entry`'s point size, in its points: nothing without measures.
    static func overlay(_ entry: Manifest.Icon, style: String? = nil) -> String {
        guard let m = entry.measures, m.opticalSize > 0 else { return "" }
        let (w, h) = (entry.pointWidth, entry.pointHeight)
        func n(_ value: Double) -> String { NumberText.decimal((value * 100).rounded() / 100) }
        let (cx, cy) = (w / 2 + m.centre[0], h / 2 + m.centre[1])
        let radius = m.opticalSize / Double.pi.squareRoot()
        let arm = 1.5
        var svg =
            "<svg class=\"ov\"" + (style.map { " style=\"\($0)\"" } ?? "")
            + " viewBox=\"0 0 \(n(w)) \(n(h))\" aria-hidden=\"true\" data-weight=\"\(n(m.strokeWeight))\" "
            + "data-size=\"\(n(m.opticalSize))\" data-centre=\"\(n(m.centre[0])),\(n(m.centre[1]))\">"
        svg += "<circle class=\"size\" cx=\"\(n(cx))\" cy=\"\(n(cy))\" r=\"\(n(radius))\" stroke-width=\"0.3\"/>"
        svg +=
            "<path class=\"mid\" d=\"M\(n(w / 2 - arm)) \(n(h / 2))H\(n(w / 2 + arm))M\(n(w / 2)) \(n(h / 2 - arm))V\(n(h / 2 + arm))\" stroke-width=\"0.2\"/>"
        svg +=
            "<path class=\"ink\" d=\"M\(n(cx - arm)) \(n(cy))H\(n(cx + arm))M\(n(cx)) \(n(cy - arm))V\(n(cy + arm))\" stroke-width=\"0.3\"/>"
        if m.strokeWeight > 0 {
            svg += "<rect class=\"weight\" x=\"0\" y=\"\(n(h - m.strokeWeight))\" width=\"3\" height=\"\(n(m.strokeWeight))\"/>"
        }
        return svg + "</svg>"
    }

    /// The measures as text, for the icon's facts line.
    static func facts(_ entry: Manifest.Icon) -> String? {
        guard let m = entry.measures else { return nil }
        func n(_ value: Double) -> String { NumberText.decimal(value) }
        return
            "stroke \(n(m.strokeWeight)) pt · optical size \(n(m.opticalSize)) pt · centre \(n(m.centre[0])), \(n(m.centre[1])) pt"
    }

    /// Each set of three tabs or more: its bar (up to `mostTabsInABar` tabs) and the line naming
    /// what the set's lints flag in it.
    static func section(_ out: inout PreviewHTML, _ document: PreviewDocument, tabs: [PreviewTab]) {
        var groups: [(set: String?, tabs: [PreviewTab])] = []
        for tab in tabs {
            let set = document.icons[tab.icon].entry.set
            if let at = groups.firstIndex(where: { $0.set == set }) {
                groups[at].tabs.append(tab)
            } else {
                groups.append((set, [tab]))
            }
        }
        let shown = groups.filter { $0.tabs.count >= 3 }
        guard !shown.isEmpty else { return }
        out.raw("<section class=\"panel\" id=\"set\"><h3>The set, as one bar</h3>")
        for group in shown {
            let name = group.set.map { "set " + PreviewHTML.escape($0.debugDescription) } ?? "the run's icons"
            out.raw("<div data-set=\"\(PreviewHTML.escape(group.set ?? ""))\"><p class=\"cap\">\(name)</p>")
            if group.tabs.count <= mostTabsInABar {
                out.raw("<div class=\"setbar\">")
                for bar in PreviewPlatforms.bars where !bar.id.hasSuffix("-dark") {
                    out.raw("<div class=\"bar \(bar.isMaterial ? "md" : "ios") \(bar.id)\" data-set-bar=\"\(bar.id)\">")
                    for tab in group.tabs {
                        PreviewPage.item(
                            &out, document, index: tab.icon, selected: false, material: bar.isMaterial,
                            title: document.icons[tab.icon].entry.name)
                    }
                    out.raw("</div>")
                }
                out.raw("</div>")
            }
            out.raw(line(document, members: group.tabs.flatMap(\.members)))
            out.raw("</div>")
        }
        out.raw("</section>\n")
    }

    /// "stroke-mismatch: a.svg, b.svg · off-centre: c.svg", or that nothing is flagged.
    static func line(_ document: PreviewDocument, members: [Int]) -> String {
        var parts: [String] = []
        var found: [String] = []
        for code in Lint.Code.allCases where SetLints.codes.contains(code) {
            let flagged = members.filter { document.icons[$0].entry.lints.contains { $0.code == code } }
            guard !flagged.isEmpty else { continue }
            found.append(code.rawValue)
            parts.append(
                "<b>\(code.rawValue)</b>: "
                    + flagged.map { PreviewHTML.escape(document.icons[$0].entry.input) }.joined(separator: ", "))
        }
        let codes = Lint.Code.allCases.filter { SetLints.codes.contains($0) }.map(\.rawValue).joined(separator: " ")
        return parts.isEmpty
            ? "<p class=\"setlints\" data-set-lints=\"\">No icon flagged by the set's lints (\(codes)).</p>"
            : "<p class=\"setlints\" data-set-lints=\"\(found.joined(separator: " "))\">" + parts.joined(separator: " · ")
                + "</p>"
    }
}
