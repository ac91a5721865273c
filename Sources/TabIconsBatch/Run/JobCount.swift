import Foundation

/// How many inputs a batch works on at once when its caller does not say (`--jobs`' default):
/// one per core the process may use. Output is the same for any count (SPEC §3), so the default
/// is only about speed.
public enum JobCount {
    public static var allCores: Int { ProcessInfo.processInfo.activeProcessorCount }
}
