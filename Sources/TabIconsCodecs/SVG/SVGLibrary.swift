import TabIconsCore
import Foundation
internal import CSVGRender

/// librsvg, opened with `dlopen` when the first SVG is parsed rather than linked: a process that
/// decodes only rasters never maps it and the ~50 libraries under it (GLib, cairo, pango,
/// fontconfig, ICU…), which would otherwise cost every `tabicon` start about 10 MiB and 7 ms,
/// and a system without librsvg still decodes PNG, JPEG and WebP. Without it, parsing an SVG is
/// `unsupported` (this build cannot draw SVG), naming the library and the loader's reason.
package struct SVGLibrary: @unchecked Sendable {
    /// Where librsvg is looked for.
    package enum Location: Sendable, Equatable {
        /// The system's librsvg, loaded once for the process (`tabicons_svg_library_shared`).
        case system
        /// The first of these names `dlopen` can open, loaded for this call: how the tests load
        /// a library that is not there.
        case named([String])
    }

    /// The C table of librsvg's, GLib's and cairo's functions. Never unloaded, so never dangling.
    let pointer: OpaquePointer

    init(_ location: Location) throws(TabIconsError) {
        var message: UnsafeMutablePointer<CChar>?
        let loaded: OpaquePointer?
        switch location {
        case .system:
            loaded = tabicons_svg_library_shared(&message)
        case .named(let names):
            loaded = Self.load(names, &message)
        }
        defer { tabicons_svg_free_message(message) }
        guard let loaded else {
            let reason = message.map { String(cString: $0) } ?? "SVG needs librsvg 2, which could not be loaded"
            throw TabIconsError(.unsupported, reason, format: .svg)
        }
        pointer = loaded
    }

    private static func load(_ names: [String], _ message: inout UnsafeMutablePointer<CChar>?) -> OpaquePointer? {
        let copies = names.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let arguments: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        return arguments.withUnsafeBufferPointer { tabicons_svg_library_load($0.baseAddress, $0.count, &message) }
    }
}
