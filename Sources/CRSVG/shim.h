#ifndef TABICONS_CRSVG_SHIM_H
#define TABICONS_CRSVG_SHIM_H
/* librsvg 2.52+, GIO and cairo, for the benchmark's direct-call baseline (bench/DirectDecoders.swift)
 * only. TabIcons does not link librsvg: CSVGRender opens it with dlopen on the first SVG.
 *
 * The few functions the baseline calls are declared here, as CSVGRender's svg_library.h declares
 * them, rather than taken from <librsvg/rsvg.h>: those headers sit behind librsvg-2.0's pkg-config
 * flags, whose `-pthread` (from glib-2.0's Cflags) SwiftPM refuses with a "prohibited flag(s)"
 * warning on every build of the package, `make demo`'s included. Without pkg-config the module
 * needs no include path; module.modulemap names the libraries to link. Every type that crosses a
 * call is opaque here or a plain struct whose layout those libraries fix as ABI. */
#include <stdint.h>
#include <sys/types.h>

typedef struct _RsvgHandle RsvgHandle;
typedef struct _GInputStream GInputStream;
typedef struct _GFile GFile;
typedef struct _GCancellable GCancellable;
typedef struct _GError GError;
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;

typedef int gboolean;
typedef ssize_t gssize;

typedef enum {
    RSVG_UNIT_PERCENT, RSVG_UNIT_PX, RSVG_UNIT_EM, RSVG_UNIT_EX, RSVG_UNIT_IN,
    RSVG_UNIT_CM, RSVG_UNIT_MM, RSVG_UNIT_PT, RSVG_UNIT_PC
} RsvgUnit;
typedef struct { double length; RsvgUnit unit; } RsvgLength;
typedef struct { double x, y, width, height; } RsvgRectangle;
typedef enum { RSVG_HANDLE_FLAGS_NONE = 0 } RsvgHandleFlags;
typedef enum { CAIRO_FORMAT_ARGB32 = 0 } cairo_format_t;

GInputStream *g_memory_input_stream_new_from_data(const void *data, gssize length, void (*destroy)(void *));
void g_object_unref(void *object);

RsvgHandle *rsvg_handle_new_from_stream_sync(GInputStream *stream, GFile *base, RsvgHandleFlags flags,
                                             GCancellable *cancellable, GError **error);
void rsvg_handle_set_dpi(RsvgHandle *handle, double dpi);
gboolean rsvg_handle_get_intrinsic_size_in_pixels(RsvgHandle *handle, double *width, double *height);
void rsvg_handle_get_intrinsic_dimensions(RsvgHandle *handle, gboolean *has_width, RsvgLength *width,
                                          gboolean *has_height, RsvgLength *height,
                                          gboolean *has_viewbox, RsvgRectangle *viewbox);
gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport, GError **error);

cairo_surface_t *cairo_image_surface_create(cairo_format_t format, int width, int height);
cairo_t *cairo_create(cairo_surface_t *target);
void cairo_destroy(cairo_t *cr);
void cairo_surface_destroy(cairo_surface_t *surface);
void cairo_surface_flush(cairo_surface_t *surface);
#endif
