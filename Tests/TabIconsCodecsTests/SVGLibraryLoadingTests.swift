import Foundation
import Testing
import TabIconsCore
@testable import TabIconsCodecs
import TabIconsTestSupport

/// librsvg opened with dlopen on the first SVG (`SVGLibrary`): real failing loads through the
/// package's seam (a name that does not exist, a library without librsvg's functions), the shared
/// system library, and the built `tabicon` run against a broken librsvg.
@Suite("SVG: loading librsvg")
struct SVGLibraryLoadingTests {
    static let absent = "libtabicons-absent-rsvg.so.2"

    static func star() throws -> Data { try Fixtures.data(Fixtures.testImage("star.svg")) }

    static func parse(_ data: Data, _ library: SVGLibrary.Location) throws(TabIconsError) -> SVGDocument {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(TabIconsError) -> SVGDocument in
                try SVGDecoder.parse(bytes, limits: DecodeOptions.Limits(), library: library)
            }
        }
        return try result.get()
    }

    @Test("a librsvg that cannot be opened makes an SVG unsupported, naming the library and dlerror's reason")
    func absentLibrary() throws {
        let star = try Self.star()
        let error = #expect(throws: TabIconsError.self) { try Self.parse(star, .named([Self.absent])) }
        #expect(error?.code == .unsupported)
        #expect(error?.format == .svg)
        #if os(Linux)
            #expect(
                error?.message
                    == "SVG needs librsvg 2 (\(Self.absent)), which could not be loaded: \(Self.absent): cannot open shared object file: No such file or directory"
            )
        #else
            #expect(error?.message.hasPrefix("SVG needs librsvg 2 (\(Self.absent)), which could not be loaded: ") == true)
        #endif
    }

    @Test("every candidate name is tried in order, and each one's reason is reported")
    func everyCandidateTried() throws {
        let star = try Self.star()
        let other = "libtabicons-absent-rsvg-too.so.2"
        let error = #expect(throws: TabIconsError.self) { try Self.parse(star, .named([Self.absent, other])) }
        #expect(error?.code == .unsupported)
        #if os(Linux)
            #expect(
                error?.message
                    == "SVG needs librsvg 2 (\(Self.absent) or \(other)), which could not be loaded: \(Self.absent): cannot open shared object file: No such file or directory; \(other): cannot open shared object file: No such file or directory"
            )
        #endif
    }

    #if os(Linux)
        @Test("a library that opens but lacks librsvg's functions is refused the same way (dlsym's reason)")
        func libraryWithoutRSVG() throws {
            let star = try Self.star()
            let error = #expect(throws: TabIconsError.self) { try Self.parse(star, .named(["libz.so.1"])) }
            #expect(error?.code == .unsupported)
            let message = error?.message ?? ""
            #expect(message.hasPrefix("SVG needs librsvg 2 (libz.so.1), which could not be loaded: "), "\(message)")
            #expect(message.hasSuffix("libz.so.1: undefined symbol: rsvg_handle_new_from_stream_sync"), "\(message)")
        }
    #endif

    @Test("what the screening refuses says why whether or not librsvg can be loaded")
    func screeningFirst() {
        let entity = Data(
            "<?xml version='1.0'?><!DOCTYPE svg [<!ENTITY a 'b'>]><svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/>"
                .utf8)
        let withSystem = #expect(throws: TabIconsError.self) { try Self.parse(entity, .system) }
        let withAbsent = #expect(throws: TabIconsError.self) { try Self.parse(entity, .named([Self.absent])) }
        #expect(withSystem?.code == .unsupported)
        #expect(withSystem?.message.contains("ENTITY") == true, "\(withSystem?.message ?? "")")
        #expect(withAbsent == withSystem)
    }

    @Test("the system librsvg is loaded once: every load gets the same library, and it draws")
    func systemLoadedOnce() throws {
        let first = try SVGLibrary(.system), second = try SVGLibrary(.system)
        #expect(first.pointer == second.pointer)
        let document = try Self.parse(try Self.star(), .system)
        let bitmap = try document.render(width: 16, height: 16)
        #expect(bitmap.pixels.contains { $0 != 0 })
    }

    #if os(Linux)
        /// The dynamic loader finds `librsvg-2.so.2` first in LD_LIBRARY_PATH: an empty file there is
        /// a librsvg that cannot be loaded. Were librsvg linked, `tabicon` would not even start.
        @Test(
            "tabicon with a broken librsvg still normalizes rasters; its SVG is unsupported, nothing written for it",
            .enabled(if: TabiconBinary.url != nil, "needs the built tabicon beside the test bundle (swift build)"))
        func tabiconWithoutLibrary() throws {
            let scratch = try TemporaryDirectory("svg-library")
            let libraries = scratch.url.appendingPathComponent("lib")
            try FileManager.default.createDirectory(at: libraries, withIntermediateDirectories: true)
            let broken = libraries.appendingPathComponent("librsvg-2.so.2")
            try Data().write(to: broken)
            let out = scratch.url.appendingPathComponent("out")

            let process = Process()
            process.executableURL = TabiconBinary.url
            process.arguments = [
                "normalize", "-q", "-o", out.path,
                Fixtures.testImage("bell.png").path, Fixtures.testImage("star.svg").path
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["LD_LIBRARY_PATH"] = libraries.path
            process.environment = environment
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()

            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 1)
            let written = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
            #expect(written == ["bell.png", "bell@2x.png", "bell@3x.png", "manifest.json", "manifest.json.stat-cache"])
            let manifest =
                try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json")))
                as? [String: Any]
            let errors = manifest?["errors"] as? [[String: Any]] ?? []
            #expect(errors.count == 1)
            #expect(errors.first?["code"] as? String == "unsupported")
            #expect(
                errors.first?["message"] as? String
                    == "SVG needs librsvg 2 (librsvg-2.so.2), which could not be loaded: \(broken.path): file too short")
        }
    #endif
}
