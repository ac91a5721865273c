import Foundation
import Testing
@testable import TabIconsBatch
import TabIconsTestSupport

/// Temporaries (`TemporaryName`): created with `O_EXCL`, so a name another process holds is never
/// reused, the next one tried instead; every name one of tabicon's own pattern.
@Suite("temporary names")
struct TemporaryNameTests {
    @Test("a name that exists is passed over for the next; another failure is answered as it came")
    func takenNames() throws {
        let dir = try TemporaryDirectory()
        var tried: [String] = []
        let (fd, name) = TemporaryName.create { name in
            tried.append(name)
            if tried.count < 3 {
                // Another process's temporary of that very name.
                let other = open(dir.path(name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
                close(other)
            }
            return open(dir.path(name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        defer { close(fd) }
        #expect(fd >= 0 && tried.count == 3 && Set(tried).count == 3 && name == tried.last)
        #expect(tried.allSatisfy(TemporaryName.matches))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("")).count == 3)

        var calls = 0
        let (failed, _) = TemporaryName.create { name in
            calls += 1
            return open(dir.path("missing/" + name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        #expect(failed < 0 && errno == ENOENT && calls == 1)
    }
}
