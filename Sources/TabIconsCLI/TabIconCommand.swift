// PLACEHOLDER: the CLI arrives with `tabicon inspect` (issue 2).
public enum TabIconCommand {
    public static func main(_ arguments: [String]) -> Int32 { 2 }
}
