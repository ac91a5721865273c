#ifndef TABICONS_CRSVG_SHIM_H
#define TABICONS_CRSVG_SHIM_H
/* librsvg 2.5x and cairo (and zlib, linked by CSVGRender), for the small C target CSVGRender (and the benchmark's direct-call
 * baseline). TabIcons itself never sees a GLib or cairo type: it calls CSVGRender. */
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <gio/gio.h>
#include <zlib.h>
#endif
