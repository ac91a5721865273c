/// The package version, as `tabicon --version` and the manifest's `tool` key report it.
public enum TabIconsVersion {
    public static let current = "0.4.0"
    /// How the tool names itself: `tabicon --version`, the manifest's `tool`, the preview page, the man page.
    public static let tool = "tabicon \(current)"
}
