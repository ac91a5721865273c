/// The package version, as `tabicon --version` and the manifest's `tool` key report it.
public enum TabIconsVersion {
    public static let current = "0.4.0"
}
