#ifndef TABICONS_CRSVG_SHIM_H
#define TABICONS_CRSVG_SHIM_H
/* librsvg 2.5x and cairo, for the benchmark's direct-call baseline (bench/DirectDecoders.swift)
 * only. TabIcons does not link librsvg: CSVGRender opens it with dlopen on the first SVG and
 * declares the few types it needs itself. */
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <gio/gio.h>
#include <zlib.h>
#endif
