/// The page's one stylesheet (inline: the page loads nothing). Bar colours come from
/// `PreviewPlatforms`; metrics are the platforms' (1 pt = 1 dp = 1 CSS px).
///
/// Glyphs are drawn from CSS variables each icon's class defines once (`--m`, an `image-set()` of
/// its renditions, so the browser picks the 1×, 2× or 3× file for its screen as the app does), so
/// each rendition's `data:` URL appears once in the file however many bars show it. Template
/// glyphs are a `mask-image` filled with `currentColor` (the tint); original ones a background.
/// Cards use `content-visibility: auto`, so a page of 500 icons lays out only what is on screen.
enum PreviewStyle {
    static var css: String {
        var css = base
        for bar in PreviewPlatforms.bars {
            let c = bar.colours
            css += ".\(bar.id){background:\(c.background);color:\(c.unselected)}"
            css += ".\(bar.id) .on{color:\(c.selected)}"
            css += ".\(bar.id) .on span{color:\(c.selectedLabel)}"
            if let indicator = c.indicator { css += ".\(bar.id) .on .pill{background:\(indicator)}" }
        }
        return css
    }

    private static let base = """
        *{box-sizing:border-box}
        html{background:#eceef2;color:#1c1c1e;font:14px/1.45 -apple-system,system-ui,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        body{margin:0;padding:28px 32px 48px}
        h1{font-size:26px;font-weight:700;letter-spacing:-.02em;margin:0}
        h2{font-size:15px;font-weight:600;margin:0;word-break:break-all}
        h3{font-size:13px;font-weight:600;margin:0 0 6px}
        a{color:#0060df;text-decoration:none}
        a:hover{text-decoration:underline}
        .sub{color:#6b6b73;margin:4px 0 18px;word-break:break-all}
        .top{background:#fff;border-radius:18px;padding:22px 26px;box-shadow:0 1px 2px #0000000f,0 8px 24px #0000000a;margin-bottom:22px}
        .stats{display:flex;flex-wrap:wrap;gap:28px;margin:0 0 14px}
        .stats div{min-width:64px}
        .stats dt{color:#6b6b73;font-size:12px;text-transform:uppercase;letter-spacing:.06em}
        .stats dd{margin:0;font-size:28px;font-weight:650;font-variant-numeric:tabular-nums}
        .stats .bad dd{color:#c5221f}
        .kinds{display:flex;flex-wrap:wrap;gap:8px;list-style:none;margin:0;padding:0}
        .chip{display:inline-block;border-radius:999px;padding:2px 10px;font-size:12px;font-weight:600;color:#fff}
        .k-opaque{background:#c5221f}.k-undersized{background:#b06000}.k-not-square{background:#7a4fc9}
        .k-padding{background:#00796b}.k-animated{background:#5f6368}
        .legend{color:#6b6b73;font-size:12px;margin:14px 0 0}
        .sw{display:inline-block;width:10px;height:10px;border-radius:3px;vertical-align:-1px;margin:0 3px 0 8px}
        .panel{background:#fff;border-radius:18px;padding:18px 26px;margin-bottom:22px;box-shadow:0 1px 2px #0000000f}
        .panel ul{margin:0 0 10px;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:4px 14px}
        table{border-collapse:collapse;width:100%;font-size:13px}
        th{text-align:left;color:#6b6b73;font-weight:600;padding:4px 12px 4px 0;border-bottom:1px solid #e3e4e8}
        td{padding:6px 12px 6px 0;border-bottom:1px solid #f0f1f4;vertical-align:top;word-break:break-all}
        td code{color:#c5221f;font-weight:600}
        .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(468px,1fr));gap:22px}
        .tab{background:#fff;border-radius:18px;padding:18px 20px 20px;box-shadow:0 1px 2px #0000000f,0 8px 24px #0000000a;content-visibility:auto;contain-intrinsic-size:auto 620px}
        .tab>header{margin-bottom:14px}
        .inputs{color:#6b6b73;font-size:12px;margin:2px 0 0;word-break:break-all}
        .bars{display:grid;grid-template-columns:200px 200px;gap:10px 20px;margin-bottom:16px}
        .cap{font-size:11px;color:#6b6b73;margin:0 0 3px;text-transform:uppercase;letter-spacing:.05em}
        .bar{display:flex;width:200px;border-radius:10px;overflow:hidden}
        .bar .it{flex:1;display:flex;flex-direction:column;align-items:center;min-width:0}
        .ios{height:49px;box-shadow:inset 0 1px #0000004d}
        .ios.ios-dark{box-shadow:inset 0 1px #ffffff26}
        .ios .it{padding-top:4px}
        .ios .box{width:25px;height:25px;display:flex;align-items:center;justify-content:center;margin-bottom:2px}
        .ios span{font-size:10px;font-weight:500;line-height:12px}
        .md{height:80px}
        .md .it{padding-top:12px}
        .md .pill{width:64px;height:32px;border-radius:16px;display:flex;align-items:center;justify-content:center;margin-bottom:4px}
        .md span{font-size:12px;font-weight:500;line-height:16px}
        .md .on span{font-weight:700}
        .it span{max-width:92px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
        .g{display:block;flex:none}
        .g.t{background-color:currentColor;-webkit-mask-image:var(--m);mask-image:var(--m);-webkit-mask-size:100% 100%;mask-size:100% 100%;-webkit-mask-repeat:no-repeat;mask-repeat:no-repeat}
        .g.o{background-image:var(--m);background-size:100% 100%;background-repeat:no-repeat}
        .icon{margin:14px 0 0;padding-top:14px;border-top:1px solid #f0f1f4}
        .icon h3 span{color:#6b6b73;font-weight:400}
        .strip{position:relative;display:flex;flex-wrap:wrap;gap:12px;align-items:flex-end}
        .r{margin:0;text-align:center;font-size:11px;color:#6b6b73}
        .frame{display:flex;align-items:center;justify-content:center;width:150px;height:150px;border-radius:8px;background:repeating-conic-gradient(#e7e8ec 0 25%,#fafafb 0 50%) 0 0/10px 10px}
        .flag .frame{box-shadow:0 0 0 2px #f29900}
        .flag.f-opaque .frame{box-shadow:0 0 0 2px #c5221f}
        .frame.skip{background:none;border:2px dashed #d5d7dc;box-shadow:none;color:#9a9aa2}
        .px{display:block;image-rendering:pixelated;background-size:100% 100%;background-repeat:no-repeat}
        .marks{position:absolute;top:6px;left:6px;display:flex;gap:4px;pointer-events:none}
        .facts{color:#3c3c43;font-size:12px;margin:8px 0 0}
        .facts b{font-weight:600}
        .lints{margin:8px 0 0;padding:0;list-style:none;font-size:13px}
        .lints li{margin:4px 0}
        .lints em{font-style:normal;color:#3c3c43}
        .note{font-size:12px;color:#8a5a00;background:#fff6e0;border-radius:8px;padding:6px 10px;margin:8px 0 0}
        .note[data-note]{display:flex;gap:10px;align-items:center}
        .note p{margin:0}
        .note .box{flex:none;width:33px;height:33px;border-radius:6px;background:#fff;display:flex;align-items:center;justify-content:center}
        .empty{color:#6b6b73}

        """
}
