/*
 * CSVGRender: the few librsvg and cairo calls TabIcons makes, behind plain C types, so no GLib,
 * GObject or cairo type reaches Swift. librsvg is not linked: it is opened with dlopen when the
 * first SVG is parsed, so a process that decodes only rasters never maps it or the libraries
 * under it (GLib, cairo, pango, fontconfig…), and one without librsvg installed still runs.
 *
 * Use, in this order:
 *   lib = tabicons_svg_library_shared(&message)       // NULL when librsvg cannot be loaded
 *   svg = tabicons_svg_load(lib, bytes, count, &message)   // NULL on failure, message says why
 *   tabicons_svg_get_dimensions(svg, &dimensions)     // the root's width, height, viewBox
 *   tabicons_svg_render(svg, pixels, w, h, viewport, &message)   // as often as needed
 *   tabicons_svg_free(svg)                            // always
 * A handle is not safe to use from two threads at once: the caller serializes its use.
 * Every message is malloc'd and freed by the caller with tabicons_svg_free_message.
 */
#ifndef TABICONS_CSVG_RENDER_H
#define TABICONS_CSVG_RENDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tabicons_svg tabicons_svg;
typedef struct tabicons_svg_library tabicons_svg_library;

/* Opens librsvg with dlopen(RTLD_NOW | RTLD_LOCAL) under the first of `count` names that loads,
 * and resolves every function CSVGRender calls. NULL when none loads or a function is missing,
 * with a message naming the library and dlerror's reasons ("SVG needs librsvg 2 (librsvg-2.so.2),
 * which could not be loaded: …"). A library loaded is never unloaded: GLib's type system cannot
 * be. Callers other than the tests want tabicons_svg_library_shared. */
const tabicons_svg_library *tabicons_svg_library_load(const char *const *names, size_t count,
                                                      char **message);

/* The system's librsvg (librsvg-2.so.2; librsvg-2.2.dylib on macOS), loaded by the first call
 * from whichever thread, once: every call gets the same library, or the same message. */
const tabicons_svg_library *tabicons_svg_library_shared(char **message);

/* The unit of a root width or height, as librsvg's RsvgUnit but owned here. */
typedef enum {
    TABICONS_SVG_UNIT_PERCENT = 0, /* length 1.0 means 100% (also what a missing size is) */
    TABICONS_SVG_UNIT_PX,
    TABICONS_SVG_UNIT_EM,
    TABICONS_SVG_UNIT_EX,
    TABICONS_SVG_UNIT_IN,
    TABICONS_SVG_UNIT_CM,
    TABICONS_SVG_UNIT_MM,
    TABICONS_SVG_UNIT_PT,
    TABICONS_SVG_UNIT_PC,
    TABICONS_SVG_UNIT_OTHER        /* a unit newer than this shim (e.g. ch) */
} tabicons_svg_unit;

/* What rsvg_handle_get_intrinsic_dimensions answers, unconverted. */
typedef struct {
    double width;
    tabicons_svg_unit width_unit;
    double height;
    tabicons_svg_unit height_unit;
    int has_viewbox;
    double viewbox_x, viewbox_y, viewbox_width, viewbox_height;
} tabicons_svg_dimensions;

/* Parses `count` bytes of SVG (uncompressed) with no base file, so nothing outside the bytes
 * but data: URLs is ever loaded, and sets 96 dpi. NULL on failure with librsvg's message. */
/* How a load or a render ended. Out of memory (cairo's NO_MEMORY, librsvg's "out of memory",
 * "rendering error: NoMemory") is told apart: the document asked for more than there is, which
 * is a size problem, not a damaged file. */
typedef enum {
    TABICONS_SVG_FAILED = 0,
    TABICONS_SVG_DONE = 1,
    TABICONS_SVG_OUT_OF_MEMORY = 2
} tabicons_svg_status;

/* Every message of a load or a render that failed ends with what GLib's log caught during the
 * call, if anything ("…; logged: Pango: …"): those lines never go to stderr (svg_log.h). */
tabicons_svg *tabicons_svg_load(const tabicons_svg_library *library, const void *bytes,
                               size_t count, tabicons_svg_status *status, char **message);

void tabicons_svg_get_dimensions(tabicons_svg *svg, tabicons_svg_dimensions *out);

/* Renders the whole document fitted into the viewport (x, y, width, height, in pixels of the
 * target; it may extend past the target, which clips) onto `pixels`: width × height cairo ARGB32
 * pixels (premultiplied, native-endian 32-bit words, rows of width × 4 bytes), which the caller
 * has zeroed. Returns TABICONS_SVG_DONE, or another status with a message. */
tabicons_svg_status tabicons_svg_render(tabicons_svg *svg, unsigned char *pixels, int width, int height,
                        double viewport_x, double viewport_y, double viewport_width,
                        double viewport_height, char **message);

void tabicons_svg_free(tabicons_svg *svg);

/* What tabicons_gunzip reports. */
typedef enum {
    TABICONS_GZIP_DONE = 0,         /* the whole stream inflated into the buffer */
    TABICONS_GZIP_OUTPUT_FULL = 1,  /* the buffer filled before the stream ended */
    TABICONS_GZIP_TRUNCATED = 2,    /* the input ended before the stream did */
    TABICONS_GZIP_CORRUPT = 3       /* zlib's message says why */
} tabicons_gzip_status;

/* Inflates one gzip stream from `input` into `output` (at most `capacity` bytes), never more:
 * a bomb stops at the buffer's end. `*written` is the bytes produced on every status. */
tabicons_gzip_status tabicons_gunzip(const void *input, size_t input_count, void *output,
                                     size_t capacity, size_t *written, char **message);
void tabicons_svg_free_message(char *message);

#ifdef __cplusplus
}
#endif
#endif
