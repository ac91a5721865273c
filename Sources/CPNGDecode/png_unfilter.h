#ifndef TABICONS_PNG_UNFILTER_H
#define TABICONS_PNG_UNFILTER_H
/*
 * Undoing a row's filter (PNG specification, section 9) for the whole-image path (png_inflated.c).
 * Paeth, Average and Sub carry a dependency from pixel to pixel, so a byte loop is slow; with 3 or
 * 4 bytes a pixel (RGB and RGBA at 8 bits, most icons) a pixel's channels are done side by side in
 * SSE2's 16-bit lanes, as libpng's own SSE2 filters do (x86-64, where SSE2 is always there).
 */
#include <stddef.h>

/* Undoes filter type `filter` of the `count` bytes at `row` in place; `prior` is the row above,
 * already unfiltered (zeros above the first), `bpp` the bytes a pixel (1 below 8 bits). 0 for a
 * filter type PNG does not define. */
int tabicons_png_unfilter(int filter, unsigned char *row, const unsigned char *prior, size_t count, size_t bpp);

#endif
