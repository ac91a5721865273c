"""tabicon_icons: tab-bar icons as cacheable build actions (TabIcons, SPEC §9).

One `tabicon render` action per icon (its output a tree artifact holding the icon's files and its
fragment, NAME.tabicon.json) and one `tabicon assemble` action that merges them into the layout's
tree and a manifest, byte for byte what `tabicon normalize` writes for the same icons and options.
Every action reads only its declared inputs (the icon, the tabicon binary, the config when given)
and writes nothing else, so each is cached by content across checkouts, paths and machines: an
unchanged icon is never rendered again, and one changed icon costs one render and one assemble.
"""

def _tabicon_icons_impl(ctx):
    tool = ctx.executable.tabicon
    options = ["--layout", ctx.attr.layout]
    if ctx.attr.scales:
        options += ["--scales", ctx.attr.scales]
    if ctx.attr.render:
        options += ["--render", ctx.attr.render]
    if ctx.attr.vector:
        options.append("--vector")
    options += ctx.attr.options
    config_inputs = []
    if ctx.file.config:
        options += ["--config", ctx.file.config.path]
        config_inputs = [ctx.file.config]

    rendered = []
    for index, src in enumerate(ctx.files.srcs):
        # The index keeps two icons of one name (icons/a/home.png, icons/b/home.png) apart.
        out = ctx.actions.declare_directory("%s.render/%d-%s" % (ctx.label.name, index, src.basename))
        ctx.actions.run(
            executable = tool,
            arguments = ["render", "--quiet", "--jobs", "1"] + options + ["-o", out.path, src.path],
            inputs = [src] + config_inputs,
            outputs = [out],
            mnemonic = "TabiconRender",
            progress_message = "Rendering icon %s" % src.short_path,
        )
        rendered.append(out)

    tree = ctx.actions.declare_directory(ctx.label.name)
    manifest = ctx.actions.declare_file(ctx.label.name + ".manifest.json")
    ctx.actions.run(
        executable = tool,
        arguments = ["assemble", "--quiet", "-o", tree.path, "--manifest", manifest.path] + [r.path for r in rendered],
        inputs = rendered,
        outputs = [tree, manifest],
        mnemonic = "TabiconAssemble",
        progress_message = "Assembling icons %s" % ctx.label.name,
    )
    return [DefaultInfo(files = depset([tree, manifest]))]

tabicon_icons = rule(
    implementation = _tabicon_icons_impl,
    doc = "Tab-bar icons normalized by tabicon: a tree (an asset catalog's image sets, a res/ folder, " +
          "or flat PNGs) and its manifest, NAME.manifest.json.",
    attrs = {
        "srcs": attr.label_list(allow_files = [".png", ".jpg", ".jpeg", ".webp", ".svg", ".svgz"], mandatory = True),
        "layout": attr.string(default = "xcassets", values = ["flat", "xcassets", "android"]),
        "scales": attr.string(doc = "as --scales, e.g. \"1,2,3\"; the layout's default when empty"),
        "render": attr.string(doc = "as --render: auto, template or original"),
        "vector": attr.bool(default = False, doc = "as --vector"),
        "config": attr.label(allow_single_file = [".json"], doc = "as --config"),
        "options": attr.string_list(doc = "more of normalize's options, e.g. [\"--box\", \"compact\"]"),
        "tabicon": attr.label(
            default = "//tools:tabicon",
            executable = True,
            cfg = "exec",
            allow_single_file = True,
        ),
    },
)
