import Foundation
import Testing
@testable import TabIconsBatch

@Suite("RelativePath.isPlain")
struct RelativePathPassTests {
    /// The rule, spelled out: not empty, not absolute, no NUL, no empty, `.` or `..` component.
    static func reference(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.utf8.contains(0) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false)
            .allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    @Test("every path of up to seven of '.', '/', 'a', NUL answers as the rule")
    func exhaustive() {
        let alphabet: [Character] = [".", "/", "a", "\u{0}"]
        var paths = [""]
        var checked = 0
        for _ in 0...7 {
            for path in paths {
                #expect(RelativePath.isPlain(path) == Self.reference(path), "\(path.debugDescription)")
                checked += 1
            }
            paths = paths.flatMap { path in alphabet.map { path + String($0) } }
        }
        #expect(checked == (0...7).reduce(0) { $0 + Int(pow(4.0, Double($1))) })
        for path in ["icons/home@2x.png", "a/.../b", ".hidden/x", "x/..y", "é/ü.png"] { #expect(RelativePath.isPlain(path)) }
        for path in ["../v", "a/../b", "a/./b", "a//b", "a/", "/a", ".", "..", "a/.."] { #expect(!RelativePath.isPlain(path)) }
    }
}
