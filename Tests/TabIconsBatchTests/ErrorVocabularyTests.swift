import Foundation
import Testing
import TabIcons
import TabIconsCore
import TabIconsCodecs
import TabIconsNormalize
@testable import TabIconsBatch
import TabIconsTestSupport

/// The error vocabulary is closed: over every file of the public corpus, whatever an entry point
/// throws carries one of the manifest's codes, and `invalidArgument` (a caller's argument out of
/// range) never reaches a manifest.
@Suite("Error vocabulary over the public corpus", .enabled(if: Fixtures.hasCorpus, Fixtures.needsCorpus))
struct ErrorVocabularyTests {
    /// The codes SPEC §6 allows in a manifest.
    static let manifestCodes: Set<TabIconsError.Code> = [.unsupportedFormat, .corrupt, .truncated, .tooLarge, .unsupported, .io]

    /// Every corpus file but the thousands of well-formed vector icons, which exercise no error
    /// path (their own suites render them).
    static let files: [URL] = {
        let root = Fixtures.corpusRoot.resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            if relative.hasPrefix("svg/bootstrap-icons") || relative.hasPrefix("svg/librsvg/reftests") { continue }
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { found.append(url) }
        }
        return found.sorted { $0.path < $1.path }
    }()

    @Test("decode, normalize and inspect throw only manifest codes, under every shape and intent")
    func entryPoints() throws {
        #expect(Self.files.count > 500)
        let normalizers = [
            Normalizer(),
            Normalizer(options: NormalizeOptions(shape: .circle, trim: true, render: .template)),
            Normalizer(options: NormalizeOptions(box: .material, scales: [1, 1.5, 4], shape: .square, render: .templateLuminance))
        ]
        // What `inspect` runs on each input (`RenderedIcon.make` with `.plan`).
        let inspector = Normalizer()
        for url in Self.files {
            // Read as the CLI reads (Foundation's `Data(contentsOf:)` leaks a buffer on some of
            // these files, which LeakSanitizer then reports against the test).
            let data = try InputReader.read(url)
            var thrown: [TabIconsError] = []
            do { _ = try ImageDecoder.decode(data) } catch { thrown.append(error) }
            for normalizer in normalizers {
                do { _ = try normalizer.normalize(data) } catch { thrown.append(error) }
            }
            do { _ = try inspector.planned(data) } catch { thrown.append(error) }
            for error in thrown {
                #expect(Self.manifestCodes.contains(error.code), "\(url.lastPathComponent): \(error)")
            }
        }
    }

    @Test("a batch over the corpus lists every input, with manifest codes only")
    func batch() throws {
        let out = try TemporaryDirectory("vocabulary")
        let inputs = Self.files.enumerated().map { index, url in
            BatchInput(
                name: url.path, outputStem: "f\(index)",
                load: { () throws(TabIconsError) -> Data in
                    try InputReader.read(url)
                })
        }
        let manifest = try BatchNormalizer(normalizer: Normalizer(), outputRoot: out.url, jobs: 2).run(inputs).manifest
        #expect(manifest.icons.count + manifest.errors.count == inputs.count)
        for entry in manifest.errors {
            #expect(Self.manifestCodes.contains { $0.rawValue == entry.code }, "\(entry.input): \(entry.code)")
        }
        #expect(!String(decoding: manifest.jsonData(), as: UTF8.self).contains("invalidArgument"))
    }
}
