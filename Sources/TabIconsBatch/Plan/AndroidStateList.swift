/// Android's state list drawable for an icon with a selected twin (SPEC §6 "Twins as outputs"),
/// `drawable/NAME_selector.xml`: checked (what `BottomNavigationView` and `NavigationBarView` set
/// on the selected item) draws the twin, any other state the icon. Names are resource names
/// (`OutputLayout.androidResourceName`: lowercase letters, digits, `_`), so nothing in them
/// needs escaping in XML.
enum AndroidStateList {
    static func xml(icon: String, selected: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <selector xmlns:android="http://schemas.android.com/apk/res/android">
            <item android:state_checked="true" android:drawable="@drawable/\(selected)"/>
            <item android:drawable="@drawable/\(icon)"/>
        </selector>

        """
    }
}
