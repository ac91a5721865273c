#include "CSVGRender.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "svg_library.h"
#include "svg_log.h"

/* Every librsvg, GLib and cairo call goes through `lib`, the table svg_library.c filled. */
struct tabicons_svg {
    const tabicons_svg_library *lib;
    RsvgHandle *handle;
};

static char *copy_message(const char *text) {
    return strdup(text ? text : "unknown error");
}

/* GError's text, or `fallback`; frees the GError. */
static char *take_error(const tabicons_svg_library *lib, GError *error, const char *fallback) {
    char *message = copy_message(error && error->message && *error->message ? error->message : fallback);
    if (error) lib->g_error_free(error);
    return message;
}

/* `message` with what the log caught appended ("…; logged: …"); frees both. */
static char *with_log(char *message, char *logged) {
    if (!logged) return message;
    const char *separator = "; logged: ";
    char *joined = message ? malloc(strlen(message) + strlen(separator) + strlen(logged) + 1) : NULL;
    if (joined) {
        strcpy(joined, message);
        strcat(joined, separator);
        strcat(joined, logged);
        free(message);
        message = joined;
    }
    free(logged);
    return message;
}

/* Whether librsvg's message says memory ran out (its LoadingError / RenderingError wording, or
 * cairo's NoMemory status as librsvg prints it). */
static int says_out_of_memory(const char *message) {
    return message && (strstr(message, "out of memory") || strstr(message, "NoMemory"));
}

tabicons_svg *tabicons_svg_load(const tabicons_svg_library *lib, const void *bytes, size_t count,
                                tabicons_svg_status *status, char **message) {
    *message = NULL;
    *status = TABICONS_SVG_FAILED;
    tabicons_svg *svg = calloc(1, sizeof *svg);
    if (!svg) {
        *message = copy_message("out of memory");
        *status = TABICONS_SVG_OUT_OF_MEMORY;
        return NULL;
    }
    svg->lib = lib;
    /* The stream reads the caller's bytes in place (no destroy function: they outlive the
     * synchronous load), and no base file: librsvg then resolves no relative reference. */
    tabicons_svg_log_begin();
    GInputStream *stream = lib->g_memory_input_stream_new_from_data(bytes, (ssize_t)count, NULL);
    GError *error = NULL;
    svg->handle = lib->rsvg_handle_new_from_stream_sync(stream, NULL, RSVG_HANDLE_FLAGS_NONE, NULL, &error);
    lib->g_object_unref(stream);
    char *logged = tabicons_svg_log_end();
    if (!svg->handle) {
        *message = with_log(take_error(lib, error, "librsvg could not load the document"), logged);
        if (says_out_of_memory(*message)) *status = TABICONS_SVG_OUT_OF_MEMORY;
        free(svg);
        return NULL;
    }
    free(logged);
    if (error) lib->g_error_free(error);
    /* The handle's default is 90 dpi; CSS px are 96 to the inch. */
    lib->rsvg_handle_set_dpi(svg->handle, 96.0);
    *status = TABICONS_SVG_DONE;
    return svg;
}

static tabicons_svg_unit unit_of(RsvgUnit unit) {
    switch (unit) {
    case RSVG_UNIT_PERCENT: return TABICONS_SVG_UNIT_PERCENT;
    case RSVG_UNIT_PX: return TABICONS_SVG_UNIT_PX;
    case RSVG_UNIT_EM: return TABICONS_SVG_UNIT_EM;
    case RSVG_UNIT_EX: return TABICONS_SVG_UNIT_EX;
    case RSVG_UNIT_IN: return TABICONS_SVG_UNIT_IN;
    case RSVG_UNIT_CM: return TABICONS_SVG_UNIT_CM;
    case RSVG_UNIT_MM: return TABICONS_SVG_UNIT_MM;
    case RSVG_UNIT_PT: return TABICONS_SVG_UNIT_PT;
    case RSVG_UNIT_PC: return TABICONS_SVG_UNIT_PC;
    default: return TABICONS_SVG_UNIT_OTHER;
    }
}

void tabicons_svg_get_dimensions(tabicons_svg *svg, tabicons_svg_dimensions *out) {
    gboolean has_width = 0, has_height = 0, has_viewbox = 0;
    RsvgLength width = {1.0, RSVG_UNIT_PERCENT}, height = {1.0, RSVG_UNIT_PERCENT};
    RsvgRectangle viewbox = {0, 0, 0, 0};
    svg->lib->rsvg_handle_get_intrinsic_dimensions(svg->handle, &has_width, &width, &has_height, &height,
                                         &has_viewbox, &viewbox);
    out->width = has_width ? width.length : 1.0;
    out->width_unit = has_width ? unit_of(width.unit) : TABICONS_SVG_UNIT_PERCENT;
    out->height = has_height ? height.length : 1.0;
    out->height_unit = has_height ? unit_of(height.unit) : TABICONS_SVG_UNIT_PERCENT;
    out->has_viewbox = has_viewbox ? 1 : 0;
    out->viewbox_x = viewbox.x;
    out->viewbox_y = viewbox.y;
    out->viewbox_width = viewbox.width;
    out->viewbox_height = viewbox.height;
}

tabicons_svg_status tabicons_svg_render(tabicons_svg *svg, unsigned char *pixels, int width, int height,
                                        double viewport_x, double viewport_y, double viewport_width,
                                        double viewport_height, char **message) {
    *message = NULL;
    const tabicons_svg_library *lib = svg->lib;
    int stride = lib->cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width);
    if (stride != width * 4) {
        *message = copy_message("cairo cannot render at this width");
        return TABICONS_SVG_FAILED;
    }
    cairo_surface_t *surface = lib->cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32,
                                                                        width, height, stride);
    cairo_status_t surface_status = lib->cairo_surface_status(surface);
    if (surface_status != CAIRO_STATUS_SUCCESS) {
        *message = copy_message(lib->cairo_status_to_string(surface_status));
        lib->cairo_surface_destroy(surface);
        return surface_status == CAIRO_STATUS_NO_MEMORY ? TABICONS_SVG_OUT_OF_MEMORY : TABICONS_SVG_FAILED;
    }
    cairo_t *cr = lib->cairo_create(surface);
    RsvgRectangle viewport = {viewport_x, viewport_y, viewport_width, viewport_height};
    GError *error = NULL;
    tabicons_svg_log_begin();
    gboolean ok = lib->rsvg_handle_render_document(svg->handle, cr, &viewport, &error);
    char *logged = tabicons_svg_log_end();
    cairo_status_t status = lib->cairo_status(cr);
    lib->cairo_destroy(cr);
    lib->cairo_surface_flush(surface);
    lib->cairo_surface_finish(surface);
    lib->cairo_surface_destroy(surface);
    if (!ok) {
        *message = with_log(take_error(lib, error, "librsvg could not render the document"), logged);
        return status == CAIRO_STATUS_NO_MEMORY || says_out_of_memory(*message)
            ? TABICONS_SVG_OUT_OF_MEMORY : TABICONS_SVG_FAILED;
    }
    if (error) lib->g_error_free(error);
    if (status != CAIRO_STATUS_SUCCESS) {
        *message = with_log(copy_message(lib->cairo_status_to_string(status)), logged);
        return status == CAIRO_STATUS_NO_MEMORY ? TABICONS_SVG_OUT_OF_MEMORY : TABICONS_SVG_FAILED;
    }
    /* Drawn: what was logged on the way (a font FreeType could not scale) is not a failure. */
    free(logged);
    return TABICONS_SVG_DONE;
}

void tabicons_svg_free(tabicons_svg *svg) {
    if (!svg) return;
    if (svg->handle) svg->lib->g_object_unref(svg->handle);
    free(svg);
}

void tabicons_svg_free_message(char *message) {
    free(message);
}

tabicons_gzip_status tabicons_gunzip(const void *input, size_t input_count, void *output,
                                     size_t capacity, size_t *written, char **message) {
    *message = NULL;
    *written = 0;
    z_stream z;
    memset(&z, 0, sizeof z);
    /* 16 + MAX_WBITS: a gzip header and trailer around the deflate data. */
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
        *message = copy_message("zlib could not start inflating");
        return TABICONS_GZIP_CORRUPT;
    }
    tabicons_gzip_status status = TABICONS_GZIP_TRUNCATED;
    const unsigned char *in = input;
    unsigned char *out = output;
    size_t in_left = input_count, out_left = capacity;
    for (;;) {
        /* zlib counts in uInt: feed at most 1 GiB at a time. */
        uInt in_chunk = in_left > (1u << 30) ? (1u << 30) : (uInt)in_left;
        uInt out_chunk = out_left > (1u << 30) ? (1u << 30) : (uInt)out_left;
        z.next_in = (Bytef *)in;
        z.avail_in = in_chunk;
        z.next_out = out;
        z.avail_out = out_chunk;
        int rc = inflate(&z, Z_NO_FLUSH);
        size_t consumed = in_chunk - z.avail_in, produced = out_chunk - z.avail_out;
        in += consumed; in_left -= consumed;
        out += produced; out_left -= produced;
        *written += produced;
        if (rc == Z_STREAM_END) { status = TABICONS_GZIP_DONE; break; }
        if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_MEM_ERROR) {
            *message = copy_message(z.msg ? z.msg : "invalid deflate data");
            status = TABICONS_GZIP_CORRUPT;
            break;
        }
        if (out_left == 0) { status = TABICONS_GZIP_OUTPUT_FULL; break; }
        if (in_left == 0 || rc == Z_BUF_ERROR) { status = TABICONS_GZIP_TRUNCATED; break; }
    }
    inflateEnd(&z);
    return status;
}
