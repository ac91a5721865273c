import Foundation

/// One item of a tab bar: a title and its icon, with the selected-state icon when the icon has
/// a selected twin (`house` / `house-fill`).
public struct TabBarItem: Sendable, Equatable {
    public let title: String
    let icon: TabIconAsset

    /// The icon's resource name, and the selected state's (the icon's own when it has no twin).
    public var iconName: String { icon.name }
    public var selectedIconName: String { (icon.selected ?? icon).name }

    /// The rendition for a screen of `scale` (1, 2 or 3), as PNG bytes from `Bundle.module`.
    public func iconData(scale: Double, selected: Bool = false) -> Data? {
        (selected ? icon.selected ?? icon : icon).data(scale: scale)
    }
}

/// The app's tab bar. Each icon is named through the generated `TabIconAssets`: an icon
/// removed from Icons/ or misspelt here is a compile error, not a blank tab at run time.
public enum TabBar {
    public static let items: [TabBarItem] = [
        TabBarItem(title: "Home", icon: TabIconAssets.house),
        TabBarItem(title: "Search", icon: TabIconAssets.search),
        TabBarItem(title: "Alerts", icon: TabIconAssets.bell),
        TabBarItem(title: "Settings", icon: TabIconAssets.gear)
    ]
}
