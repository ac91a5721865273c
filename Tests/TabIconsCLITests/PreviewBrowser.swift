import Foundation
import TabIconsTestSupport

/// Headless Chromium for the preview tests: opens a page from disk with the network off, and
/// answers the DOM it rendered, its screenshot, and the URLs it asked the network for.
///
/// Chromium is Debian's `chromium` (`.ci/run` installs it when missing); the tests that need it
/// skip with a message when it is not on PATH (or at `TABICONS_CHROMIUM`).
struct PreviewBrowser {
    let executable: String

    static let found: PreviewBrowser? = {
        if let path = ProcessInfo.processInfo.environment["TABICONS_CHROMIUM"],
            FileManager.default.isExecutableFile(atPath: path)
        {
            return PreviewBrowser(executable: path)
        }
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return PreviewBrowser(executable: "\(folder)/\(name)")
            }
        }
        return nil
    }()

    static var isInstalled: Bool { found != nil }

    /// What one page load gave back.
    struct Load {
        var dom: String
        /// Every URL the network stack was asked for (Chromium's net log), the browser's own
        /// background services excluded.
        var requestedURLs: [String]
    }

    /// Loads `page` and dumps its DOM after layout, recording the network log.
    func dumpDOM(_ page: URL, in scratch: TemporaryDirectory) throws -> Load {
        let log = scratch.url.appendingPathComponent("net-log.json")
        let dom = try run(["--dump-dom", "--log-net-log=\(log.path)", page.absoluteString], scratch: scratch)
        return Load(dom: dom, requestedURLs: try Self.requestedURLs(inNetLog: log))
    }

    /// A screenshot of the top `width`×`height` CSS px of `page`, at device scale factor 1.
    func screenshot(_ page: URL, width: Int, height: Int, in scratch: TemporaryDirectory) throws -> Data {
        let shot = scratch.url.appendingPathComponent("shot.png")
        _ = try run(["--screenshot=\(shot.path)", "--window-size=\(width),\(height)", page.absoluteString], scratch: scratch)
        return try Data(contentsOf: shot)
    }

    private func run(_ arguments: [String], scratch: TemporaryDirectory) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                // The network off: every host name resolves to nothing.
                "--host-resolver-rules=MAP * ~NOTFOUND",
                // No background traffic of the browser's own, and a fresh profile per run.
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-default-apps", "--disable-extensions",
                "--user-data-dir=\(scratch.url.appendingPathComponent("profile").path)"
            ] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BrowserError(description: "chromium exited with status \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    struct BrowserError: Error, CustomStringConvertible { let description: String }

    /// Hosts Chromium itself talks to (updates, time, account checks) even with background
    /// networking disabled; they are not the page's requests.
    static let browserHosts = [".google.com", ".googleapis.com", ".gvt1.com"]

    static func requestedURLs(inNetLog log: URL) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: log)) as? [String: Any]
        let events = json?["events"] as? [[String: Any]] ?? []
        var urls = Set<String>()
        for event in events {
            guard let url = (event["params"] as? [String: Any])?["url"] as? String else { continue }
            let host = URL(string: url)?.host ?? ""
            if browserHosts.contains(where: { host.hasSuffix($0) }) { continue }
            urls.insert(url)
        }
        return urls.sorted()
    }
}
