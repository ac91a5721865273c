#ifndef TABICONS_CRSVG_SHIM_H
#define TABICONS_CRSVG_SHIM_H
/* librsvg 2.52+, GIO and cairo, for the benchmark's direct-call baseline (bench/DirectDecoders.swift)
 * only. TabIcons does not link librsvg: CSVGRender opens it with dlopen on the first SVG.
 *
 * The calls are declared once, in CSVGRender's svg_api.h (types and signatures), made prototypes
 * here, rather than taken from <librsvg/rsvg.h>: those headers sit behind librsvg-2.0's pkg-config
 * flags, whose `-pthread` (from glib-2.0's Cflags) SwiftPM refuses with a "prohibited flag(s)"
 * warning on every build of the package, `make demo`'s included. Without pkg-config the module
 * needs no include path; module.modulemap names the libraries to link. */
#include "../CSVGRender/svg_api.h"

#define TABICONS_CRSVG_PROTOTYPE(result, name, parameters) result name parameters;
TABICONS_SVG_FUNCTIONS(TABICONS_CRSVG_PROTOTYPE)
TABICONS_SVG_BASELINE_FUNCTIONS(TABICONS_CRSVG_PROTOTYPE)
#undef TABICONS_CRSVG_PROTOTYPE
#endif
