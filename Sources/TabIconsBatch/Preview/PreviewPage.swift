import Foundation
import TabIcons

/// The preview page of SPEC §6: one self-contained HTML file showing every icon as a tab bar will.
///
/// Self-contained and inert: every image is a `data:` URL, the only style is inline, there is no
/// script, and a Content-Security-Policy (`default-src 'none'`) forbids the browser to fetch
/// anything else, so the page opens from disk with no network. Every name and message is escaped
/// (`PreviewHTML.escape`). The bytes depend only on the document (no date, no path of the run),
/// so the same inputs and options give the same file.
public enum PreviewPage {
    public static func html(_ document: PreviewDocument) -> String {
        let tabs = PreviewTab.pair(document.icons)
        var out = PreviewHTML()
        out.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        out.raw(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">"
        )
        out.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        out.raw("<title>Tab icons · \(PreviewHTML.escape(document.tool))</title>\n<style>\n")
        out.raw(PreviewStyle.css)
        out.raw(PreviewMeasures.css)
        for (index, icon) in document.icons.enumerated() { out.raw(iconVariables(index, icon)) }
        out.raw("</style></head>\n<body>\n")
        out.raw(PreviewMeasures.checkbox)
        summary(&out, document, tabs: tabs)
        failures(&out, document.errors)
        lintIndex(&out, document, tabs: tabs)
        PreviewMeasures.section(&out, document, tabs: tabs)
        out.raw("<main class=\"grid\">\n")
        for (number, tab) in tabs.enumerated() { card(&out, document, tab: tab, number: number) }
        if tabs.isEmpty { out.raw("<p class=\"empty\">No icon normalized.</p>") }
        out.raw("</main>\n</body></html>\n")
        return out.text
    }

    // MARK: the parts of the page

    /// `.iN{--s1:url(…);…;--m:image-set(var(--s1) 1x,…)}`: each rendition's data URL, once.
    private static func iconVariables(_ index: Int, _ icon: PreviewDocument.Icon) -> String {
        guard !icon.renditions.isEmpty else { return "" }
        var css = ".i\(index){"
        var set: [String] = []
        for (n, rendition) in icon.renditions.enumerated() {
            css += "--s\(n):url(\"\(PreviewHTML.dataURL(rendition.bytes))\");"
            set.append("var(--s\(n)) \(NumberText.decimal(rendition.scale))x")
        }
        return css + "--m:image-set(\(set.joined(separator: ",")))}\n"
    }

    private static func summary(_ out: inout PreviewHTML, _ document: PreviewDocument, tabs: [PreviewTab]) {
        let lints = document.icons.flatMap(\.entry.lints)
        out.raw("<header class=\"top\"><h1>Tab icons</h1><p class=\"sub\">")
        out.text(
            "\(document.tool) · box \(NumberText.decimal(document.box)) pt · scales "
                + document.scales.map { NumberText.decimal($0) + "×" }.joined(separator: ", ")
                + " · render \(document.render.rawValue)")
        out.raw("</p><dl class=\"stats\">")
        out.raw(stat("icons", document.icons.count, id: "icons"))
        out.raw(stat("tabs", tabs.count, id: "tabs"))
        out.raw(stat("lints", lints.count, id: "lints"))
        out.raw(stat("failed", document.errors.count, id: "failures", bad: !document.errors.isEmpty))
        out.raw("</dl><ul class=\"kinds\">")
        for code in Lint.Code.allCases {
            let count = lints.filter { $0.code == code }.count
            guard count > 0 else { continue }
            out.raw(
                "<li data-kind=\"\(code.rawValue)\" data-count=\"\(count)\"><a class=\"chip k-\(code.rawValue)\" href=\"#k-\(code.rawValue)\">\(code.rawValue) \(count)</a></li>"
            )
        }
        if lints.isEmpty { out.raw("<li class=\"empty\">no lints</li>") }
        out.raw("</ul><p class=\"legend\">Bars as the platforms draw them: iOS tints the selected tab")
        out.raw(
            swatch(PreviewPlatforms.iOSLight.selected) + "systemBlue" + swatch(PreviewPlatforms.iOSDark.selected)
                + "(dark), others" + swatch(PreviewPlatforms.iOSLight.unselected)
                + "systemGray; Material 3 draws the selected icon in")
        out.raw(
            swatch(PreviewPlatforms.materialLight.selected) + "onSecondaryContainer on"
                + swatch(PreviewPlatforms.materialLight.indicator!)
                + "secondaryContainer, others in" + swatch(PreviewPlatforms.materialLight.unselected) + "onSurfaceVariant.")
        out.raw(" Left item unselected, right item selected.</p>" + PreviewMeasures.label + "</header>\n")
    }

    private static func stat(_ title: String, _ value: Int, id: String, bad: Bool = false) -> String {
        "<div data-stat=\"\(id)\"\(bad ? " class=\"bad\"" : "")><dt>\(title)</dt><dd>\(value)</dd></div>"
    }

    private static func swatch(_ colour: String) -> String {
        "<i class=\"sw\" style=\"background:\(colour)\"></i>"
    }

    private static func failures(_ out: inout PreviewHTML, _ errors: [Manifest.ErrorEntry]) {
        guard !errors.isEmpty else { return }
        out.raw(
            "<section class=\"panel\" id=\"failures\"><h3>Failed inputs · \(errors.count)</h3><table><tr><th>input</th><th>code</th><th>reason</th></tr>"
        )
        for error in errors {
            let (input, code) = (PreviewHTML.escape(error.input), PreviewHTML.escape(error.code))
            out.raw(
                "<tr data-failure=\"\(input)\" data-code=\"\(code)\"><td>\(input)</td><td><code>\(code)</code></td><td>\(PreviewHTML.escape(error.message))</td></tr>"
            )
        }
        out.raw("</table></section>\n")
    }

    /// Per lint kind, the tabs whose icons have it: the way into a page of 500 icons.
    private static func lintIndex(_ out: inout PreviewHTML, _ document: PreviewDocument, tabs: [PreviewTab]) {
        let tabOf = Dictionary(
            tabs.enumerated().flatMap { number, tab in tab.members.map { ($0, number) } },
            uniquingKeysWith: { first, _ in first })
        var sections: [String] = []
        for code in Lint.Code.allCases {
            let icons = document.icons.indices.filter { document.icons[$0].entry.lints.contains { $0.code == code } }
            guard !icons.isEmpty else { continue }
            var html =
                "<div id=\"k-\(code.rawValue)\"><h3><span class=\"chip k-\(code.rawValue)\">\(code.rawValue)</span> "
                + PreviewHTML.escape(PreviewPlatforms.consequence(code)) + "</h3><ul>"
            for index in icons {
                html +=
                    "<li><a href=\"#t\(tabOf[index] ?? 0)\">" + PreviewHTML.escape(document.icons[index].entry.input)
                    + "</a></li>"
            }
            sections.append(html + "</ul></div>")
        }
        guard !sections.isEmpty else { return }
        out.raw("<section class=\"panel\" id=\"lint-index\">" + sections.joined() + "</section>\n")
    }

    private static func card(_ out: inout PreviewHTML, _ document: PreviewDocument, tab: PreviewTab, number: Int) {
        let icon = document.icons[tab.icon]
        let selectedIndex = tab.selected ?? tab.icon
        let selected = document.icons[selectedIndex]
        out.raw("<article class=\"tab\" id=\"t\(number)\" data-tab=\"\(PreviewHTML.escape(icon.entry.name))\"")
        if let twin = tab.selected { out.raw(" data-selected-twin=\"\(PreviewHTML.escape(document.icons[twin].entry.name))\"") }
        if let twin = tab.dark { out.raw(" data-dark-twin=\"\(PreviewHTML.escape(document.icons[twin].entry.name))\"") }
        out.raw("><header><h2>")
        out.text(icon.entry.name)
        if tab.selected != nil { out.raw(" <span class=\"inputs\">+ "); out.text(selected.entry.name); out.raw("</span>") }
        out.raw("</h2><p class=\"inputs\">")
        out.text(
            icon.entry.input + (tab.selected == nil ? "" : " · selected: " + selected.entry.input)
                + (tab.dark.map { " · dark: " + document.icons[$0].entry.input } ?? "")
                + (tab.selectedDark.map { " · selected, dark: " + document.icons[$0].entry.input } ?? ""))
        out.raw("</p></header><div class=\"bars\">")
        for bar in PreviewPlatforms.bars {
            out.raw(
                "<div><p class=\"cap\">\(bar.title)</p><div class=\"bar \(bar.isMaterial ? "md" : "ios") \(bar.id)\" data-bar=\"\(bar.id)\">"
            )
            // The dark bars show the dark twins, as the platform does in dark appearance.
            let dark = bar.id.hasSuffix("-dark")
            for isSelected in [false, true] {
                let index = tab.image(selected: isSelected, dark: dark)
                item(&out, document, index: index, selected: isSelected, material: bar.isMaterial, title: icon.entry.name)
            }
            out.raw("</div></div>")
        }
        out.raw("</div>")
        for (index, role) in [
            (tab.icon, "icon"), (tab.selected, "selected"), (tab.dark, "dark"), (tab.selectedDark, "selected-dark")
        ] {
            guard let index else { continue }
            figure(&out, document, index: index, role: role)
        }
        out.raw("</article>\n")
    }

    /// One tab item: the glyph at its point size in the platform's box, and the title.
    static func item(
        _ out: inout PreviewHTML, _ document: PreviewDocument, index: Int, selected: Bool, material: Bool, title: String
    ) {
        let (entry, tint) = (document.icons[index].entry, document.icons[index].intent)
        let factor = material ? PreviewPlatforms.materialIconBox / document.box : 1
        let width = NumberText.decimal((entry.pointWidth * factor * 100).rounded() / 100)
        let height = NumberText.decimal((entry.pointHeight * factor * 100).rounded() / 100)
        out.raw(
            "<div class=\"it\(selected ? " on" : "")\" data-state=\"\(selected ? "selected" : "unselected")\" data-shows=\"\(PreviewHTML.escape(entry.name))\">"
        )
        out.raw(material ? "<div class=\"pill\">" : "<div class=\"box\">")
        if !document.icons[index].renditions.isEmpty {
            out.raw(
                "<i class=\"g \(tint == .template ? "t" : "o") i\(index)\" style=\"width:\(width)px;height:\(height)px\"></i>")
            out.raw(
                PreviewMeasures.overlay(
                    entry, style: "left:50%;top:50%;width:\(width)px;height:\(height)px;transform:translate(-50%,-50%)"))
        }
        out.raw("</div><span>\(PreviewHTML.escape(title))</span></div>")
    }

    /// One icon's renditions side by side, magnified, with its facts and every lint marked on it.
    private static func figure(_ out: inout PreviewHTML, _ document: PreviewDocument, index: Int, role: String) {
        let icon = document.icons[index]
        let (entry, tint) = (icon.entry, icon.intent)
        let codes = entry.lints.map(\.code.rawValue)
        let classes = (codes.isEmpty ? [] : ["flag"]) + codes.map { "f-" + $0 }
        out.raw(
            "<figure class=\"icon \(classes.joined(separator: " "))\" data-icon=\"\(PreviewHTML.escape(entry.name))\" data-role=\"\(role)\" data-tint=\"\(tint.rawValue)\" data-lints=\"\(codes.joined(separator: " "))\">"
        )
        out.raw("<h3>\(PreviewHTML.escape(entry.name)) <span>\(PreviewHTML.escape(entry.input))</span></h3><div class=\"strip\">")
        for scale in document.scales {
            if let n = icon.renditions.firstIndex(where: { $0.scale == scale }) {
                let rendition = icon.renditions[n]
                let longest = max(rendition.pixelWidth, rendition.pixelHeight)
                let zoom = max(1, 150 / longest)
                // The measures over the largest rendition, the one they were taken from.
                let overlay = scale == icon.renditions.map(\.scale).max() ? PreviewMeasures.overlay(entry) : ""
                out.raw(
                    "<figure class=\"r\" data-scale=\"\(NumberText.decimal(scale))\"><div class=\"frame\"><span class=\"px i\(index)\" style=\"width:\(rendition.pixelWidth * zoom)px;height:\(rendition.pixelHeight * zoom)px;background-image:var(--s\(n))\">\(overlay)</span></div>"
                )
                out.raw(
                    "<figcaption>\(NumberText.decimal(scale))× · \(rendition.pixelWidth)×\(rendition.pixelHeight) px · shown ×\(zoom)</figcaption></figure>"
                )
            } else {
                out.raw(
                    "<figure class=\"r\" data-scale=\"\(NumberText.decimal(scale))\" data-skipped=\"\"><div class=\"frame skip\">not written</div><figcaption>\(NumberText.decimal(scale))× · skipped</figcaption></figure>"
                )
            }
        }
        if !codes.isEmpty {
            out.raw("<div class=\"marks\">" + codes.map { "<span class=\"chip k-\($0)\">\($0)</span>" }.joined() + "</div>")
        }
        out.raw("</div><p class=\"facts\"><b>decode scale \(NumberText.decimal(entry.decodeScale))</b> · ")
        out.raw("<b>\(NumberText.decimal(entry.pointWidth))×\(NumberText.decimal(entry.pointHeight)) pt</b> · ")
        out.text(
            "source \(entry.format) \(entry.pixelWidth)×\(entry.pixelHeight) px"
                + (entry.orientation != 1 ? ", EXIF orientation \(entry.orientation)" : "")
                + (entry.hasAlpha ? ", alpha" : ", no alpha")
                + (tint == .template ? " · tinted as a template" : " · drawn as it is")
                + (PreviewMeasures.facts(entry).map { " · " + $0 } ?? ""))
        out.raw("</p>")
        if let vectorDrawable = icon.vectorDrawable {
            out.raw(
                "<p class=\"note\" data-note=\"vector-drawable\">Shown by the SVG form of the same drawing; Android draws the VectorDrawable written at <code>\(PreviewHTML.escape(vectorDrawable))</code>.</p>"
            )
        }
        if tint == .original {
            // What a default tab bar would make of it: the same glyph as a template, in systemBlue.
            let sample =
                icon.renditions.isEmpty
                ? ""
                : "<i class=\"g t i\(index)\" style=\"width:\(NumberText.decimal(entry.pointWidth))px;height:\(NumberText.decimal(entry.pointHeight))px;color:\(PreviewPlatforms.iOSLight.selected)\"></i>"
            out.raw(
                "<div class=\"note\" data-note=\"original\"><div class=\"box\">\(sample)</div><p>Full colour: its image set is marked <code>original</code>, so a tab bar draws it as it is. Loaded any other way it needs <code>.alwaysOriginal</code> (Android: <code>itemIconTintList = null</code>), or it is tinted by its alpha, like this.</p></div>"
            )
        }
        if !entry.lints.isEmpty {
            out.raw("<ul class=\"lints\">")
            for lint in entry.lints {
                let code = lint.code.rawValue
                out.raw("<li data-lint=\"\(code)\"><span class=\"chip k-\(code)\">\(code)</span> ")
                out.text(lint.message)
                out.raw(". <em>\(PreviewHTML.escape(PreviewPlatforms.consequence(lint.code)))</em></li>")
            }
            out.raw("</ul>")
        }
        for reason in icon.unreadable { out.raw("<p class=\"note\">rendition not readable: \(PreviewHTML.escape(reason))</p>") }
        out.raw("</figure>")
    }
}
