// `import TabIcons` is the library's one front door (SPEC §5a): the layers below the side table
// are targets of their own so the compiler holds them to their order (ARCHITECTURE.md), and are
// re-exported here so that callers see one module.
@_exported import TabIconsCore
@_exported import TabIconsCodecs
@_exported import TabIconsNormalize
