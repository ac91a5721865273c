import TabIconsCore
internal import CSVGRender

/// A parsed SVG document: one librsvg handle, parsed once and rendered at every size asked for
/// (each rendition is drawn at its own size, never resampled).
///
/// Thread safety: a librsvg handle must not be used by two threads at once, so each render holds
/// the document's lock (one handle, one thread at a time). Documents with text also hold one lock
/// shared by all documents: cairo's FreeType glyph path has crash reports under concurrent
/// rendering. Documents without text render in parallel, each on its own handle.
package final class SVGDocument: Sendable, Equatable {
    /// A part of the document to render, in fractions of its full extent (0…1 on each axis).
    package struct Region: Sendable, Equatable {
        package var x = 0.0, y = 0.0, width = 1.0, height = 1.0
        package static let whole = Region()
        package init(x: Double = 0, y: Double = 0, width: Double = 1, height: Double = 1) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// The wrapped handle, owned by the lock.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    package let size: SVGSize
    let screening: SVGScreening
    /// Whether it draws text (`text`, `tspan`, `textPath`, `tref`): with the fonts of the machine.
    package var drawsText: Bool { screening.hasText }
    private let handle: LockedState<Handle>
    /// The largest whole-document extent a drawing may imply (cairo's coordinates are 24.8 fixed
    /// point: 2²³ px).
    static let maxViewport = Double(1 << 23)
    /// Serializes rendering of documents with text, across all documents.
    private static let textRendering = LockedState(())

    /// Parses `bytes` (plain SVG, already screened) with `library`: no base file (nothing outside
    /// the bytes but `data:` URLs is loaded), 96 dpi. Load errors keep librsvg's (libxml2's) text.
    init(parsing bytes: UnsafeRawBufferPointer, screening: SVGScreening, library: SVGLibrary) throws(TabIconsError) {
        var message: UnsafeMutablePointer<CChar>?
        var status = TABICONS_SVG_FAILED
        let loaded = tabicons_svg_load(library.pointer, bytes.baseAddress, bytes.count, &status, &message)
        defer { tabicons_svg_free_message(message) }
        guard let loaded else {
            let reason = message.map { String(cString: $0) } ?? "librsvg could not load the document"
            throw Self.failure(status, reason)
        }
        var dimensions = tabicons_svg_dimensions()
        tabicons_svg_get_dimensions(loaded, &dimensions)
        do {
            size = try SVGSize(dimensions, written: (screening.rootWidth, screening.rootHeight))
        } catch {
            tabicons_svg_free(loaded)
            throw error
        }
        self.screening = screening
        handle = LockedState(Handle(pointer: loaded))
    }

    deinit {
        handle.withLock { tabicons_svg_free($0.pointer) }
    }

    package static func == (a: SVGDocument, b: SVGDocument) -> Bool { a === b }

    /// The user space's pixels per unit when the whole document is drawn `width` × `height`.
    private func pixelsPerUnit(width: Double, height: Double) -> Double {
        let userWidth = size.viewBox?.width ?? size.width, userHeight = size.viewBox?.height ?? size.height
        return min(width / userWidth, height / userHeight)
    }

    /// Whether drawing the whole document at `width` × `height` stays within `share` of the work a
    /// drawing may take (`SVGRenderWork`): how trim picks the size of its probe.
    package func fitsWork(width: Int, height: Int, share: Double) -> Bool {
        let work = screening.work.work(
            width: width, height: height,
            pixelsPerUnit: pixelsPerUnit(width: Double(width), height: Double(height)))
        return work <= SVGRenderWork.budget * share
    }

    /// `region` of the document drawn into `width` × `height` straight RGBA pixels (the region
    /// stretched to fill them; callers keep its aspect). The filter work is judged first.
    package func render(width: Int, height: Int, region: Region = .whole) throws(TabIconsError) -> Bitmap {
        precondition(width > 0 && height > 0 && region.width > 0 && region.height > 0, "empty SVG render")
        let viewportWidth = Double(width) / region.width, viewportHeight = Double(height) / region.height
        // A sliver of an extremely long drawing (the circle's square of a 1:10¹⁹ viewBox) scales
        // the whole document past any surface librsvg accepts; say so rather than its InvalidSize.
        guard viewportWidth <= Self.maxViewport, viewportHeight <= Self.maxViewport else {
            throw TabIconsError(
                .tooLarge,
                "drawing this part of the document at \(width)×\(height) px would scale the whole of it to \(NumberText.decimal(viewportWidth.rounded()))×\(NumberText.decimal(viewportHeight.rounded())) px, past \(Int(Self.maxViewport)) px a side",
                format: .svg)
        }
        try screening.work.check(
            width: width, height: height,
            pixelsPerUnit: pixelsPerUnit(width: viewportWidth, height: viewportHeight))
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let draw = { () -> (status: tabicons_svg_status, message: String?) in
            self.handle.withLock { handle in
                var message: UnsafeMutablePointer<CChar>?
                let status = pixels.withUnsafeMutableBytes { out in
                    tabicons_svg_render(
                        handle.pointer, out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        Int32(width), Int32(height),
                        -region.x * viewportWidth, -region.y * viewportHeight,
                        viewportWidth, viewportHeight, &message)
                }
                defer { tabicons_svg_free_message(message) }
                return (status, message.map { String(cString: $0) })
            }
        }
        let result = screening.hasText ? Self.textRendering.withLock { _ in draw() } : draw()
        guard result.status == TABICONS_SVG_DONE else {
            throw Self.failure(result.status, result.message ?? "librsvg could not render the document")
        }
        Premultiplication.straightenCairoARGB32(&pixels)
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}

extension SVGDocument {
    /// A failed load or render as an error: running out of memory is the document asking for too
    /// much (`tooLarge`), anything else a document librsvg cannot take (`corrupt`). The reason is
    /// librsvg's, with what GLib's log caught during the call (CSVGRender's svg_log.c).
    fileprivate static func failure(_ status: tabicons_svg_status, _ reason: String) -> TabIconsError {
        TabIconsError(status == TABICONS_SVG_OUT_OF_MEMORY ? .tooLarge : .corrupt, reason.trimmingTrailingNewlines, format: .svg)
    }
}

extension String {
    /// Without the newline librsvg ends some messages with.
    fileprivate var trimmingTrailingNewlines: String {
        var text = self
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}
