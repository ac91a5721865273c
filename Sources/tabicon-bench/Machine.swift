import Foundation

/// What the figures were measured on: CPU model, cores, OS — read from /proc and /etc where they
/// exist, so the README can say which machine a row comes from.
enum Machine {
    static var description: String {
        var parts: [String] = []
        parts.append(cpuModel ?? "unknown CPU")
        parts.append("\(ProcessInfo.processInfo.activeProcessorCount) cores")
        parts.append(operatingSystem)
        return parts.joined(separator: ", ")
    }

    private static var cpuModel: String? {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        for line in info.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    private static var operatingSystem: String {
        var name = "unknown OS"
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            for line in release.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
                name = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        var system = utsname()
        guard uname(&system) == 0 else { return name }
        let field = { (value: Any) -> String in
            String(
                Mirror(reflecting: value).children.compactMap { child -> Character? in
                    guard let byte = child.value as? CChar, byte != 0 else { return nil }
                    return Character(Unicode.Scalar(UInt8(bitPattern: byte)))
                })
        }
        return "\(name), \(field(system.sysname)) \(field(system.release)) \(field(system.machine))"
    }
}
