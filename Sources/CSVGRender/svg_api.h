/*
 * The part of librsvg's, GIO's, GObject's, GLib's and cairo's C API that TabIcons calls, declared
 * once, here, rather than taken from their headers (whose pkg-config flags bring GLib's `-pthread`,
 * which SwiftPM refuses with a warning on every build):
 *  - CSVGRender (svg_library.h) turns TABICONS_SVG_FUNCTIONS into a table of function pointers
 *    that svg_library.c fills with dlsym: nothing links librsvg;
 *  - CRSVG (tabicon-bench's direct-call baseline, which links librsvg) turns both lists into
 *    prototypes (Sources/CRSVG/shim.h).
 *
 * The declarations follow librsvg 2.46+ (rsvg.h), GLib 2 and cairo 1.x; every type that crosses
 * a call is either opaque here or a plain struct whose layout those libraries fix as ABI.
 */
#ifndef TABICONS_SVG_API_H
#define TABICONS_SVG_API_H

#include <stdint.h>
#include <sys/types.h>

typedef struct _RsvgHandle RsvgHandle;
typedef struct _GInputStream GInputStream;
typedef struct _GFile GFile;
typedef struct _GCancellable GCancellable;
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;

typedef int gboolean;                         /* GLib's gint */
typedef ssize_t gssize;                       /* GLib's signed size */
typedef struct {
    uint32_t domain;                          /* GQuark */
    int code;
    char *message;
} GError;

typedef enum {
    RSVG_UNIT_PERCENT, RSVG_UNIT_PX, RSVG_UNIT_EM, RSVG_UNIT_EX, RSVG_UNIT_IN,
    RSVG_UNIT_CM, RSVG_UNIT_MM, RSVG_UNIT_PT, RSVG_UNIT_PC
    /* librsvg 2.54 adds RSVG_UNIT_CH; svg_render.c maps any value past PC to "other". */
} RsvgUnit;
typedef struct { double length; RsvgUnit unit; } RsvgLength;
typedef struct { double x, y, width, height; } RsvgRectangle;
typedef enum { RSVG_HANDLE_FLAGS_NONE = 0 } RsvgHandleFlags;

typedef enum { CAIRO_FORMAT_ARGB32 = 0 } cairo_format_t;
typedef enum { CAIRO_STATUS_SUCCESS = 0, CAIRO_STATUS_NO_MEMORY = 1 } cairo_status_t;   /* others: cairo_status_to_string */

typedef int GLogLevelFlags;                   /* GLib's flags enum, an int in its ABI */
typedef void (*GLogFunc)(const char *domain, GLogLevelFlags level, const char *message, void *data);
typedef struct { const char *key; const void *value; ssize_t length; } GLogField;
typedef enum { G_LOG_WRITER_UNHANDLED = 0, G_LOG_WRITER_HANDLED = 1 } GLogWriterOutput;
typedef GLogWriterOutput (*GLogWriterFunc)(GLogLevelFlags level, const GLogField *fields, size_t count, void *data);

/* Every function svg_render.c calls: (return type, name, parameter list). */
#define TABICONS_SVG_FUNCTIONS(X)                                                                  \
    X(RsvgHandle *, rsvg_handle_new_from_stream_sync,                                              \
      (GInputStream *, GFile *, RsvgHandleFlags, GCancellable *, GError **))                       \
    X(void, rsvg_handle_set_dpi, (RsvgHandle *, double))                                           \
    X(void, rsvg_handle_get_intrinsic_dimensions,                                                  \
      (RsvgHandle *, gboolean *, RsvgLength *, gboolean *, RsvgLength *, gboolean *, RsvgRectangle *)) \
    X(gboolean, rsvg_handle_render_document, (RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **)) \
    X(GInputStream *, g_memory_input_stream_new_from_data, (const void *, gssize, void (*)(void *)))  \
    X(void, g_object_unref, (void *))                                                              \
    X(void, g_error_free, (GError *))                                                              \
    X(cairo_surface_t *, cairo_image_surface_create_for_data,                                      \
      (unsigned char *, cairo_format_t, int, int, int))                                            \
    X(cairo_t *, cairo_create, (cairo_surface_t *))                                                \
    X(void, cairo_destroy, (cairo_t *))                                                            \
    X(cairo_status_t, cairo_status, (cairo_t *))                                                   \
    X(const char *, cairo_status_to_string, (cairo_status_t))                                      \
    X(void, cairo_surface_destroy, (cairo_surface_t *))                                            \
    X(void, cairo_surface_finish, (cairo_surface_t *))                                             \
    X(void, cairo_surface_flush, (cairo_surface_t *))                                              \
    X(cairo_status_t, cairo_surface_status, (cairo_surface_t *))                                   \
    X(int, cairo_format_stride_for_width, (cairo_format_t, int))                                   \
    X(GLogFunc, g_log_set_default_handler, (GLogFunc, void *))                                     \
    X(void, g_log_set_writer_func, (GLogWriterFunc, void *, void (*)(void *)))                      \
    X(GLogWriterOutput, g_log_writer_default, (GLogLevelFlags, const GLogField *, size_t, void *))

/* What only the benchmark's baseline calls besides those (a caller linking librsvg itself). */
#define TABICONS_SVG_BASELINE_FUNCTIONS(X)                                                         \
    X(gboolean, rsvg_handle_get_intrinsic_size_in_pixels, (RsvgHandle *, double *, double *))      \
    X(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t, int, int))

#endif
