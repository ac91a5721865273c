/*
 * librsvg and the libraries under it, reached through a table of function pointers that
 * svg_library.c fills with dlsym (the calls themselves are declared once, in svg_api.h). Nothing
 * links librsvg: a process maps it (and the ~50 libraries under it) only when it parses its
 * first SVG.
 */
#ifndef TABICONS_SVG_LIBRARY_H
#define TABICONS_SVG_LIBRARY_H

#include "svg_api.h"

/* The loaded library: dlopen's handle and one pointer per function above, named as the function. */
struct tabicons_svg_library {
    void *dl;
#define TABICONS_SVG_FIELD(result, name, parameters) result (*name) parameters;
    TABICONS_SVG_FUNCTIONS(TABICONS_SVG_FIELD)
#undef TABICONS_SVG_FIELD
};

#endif
