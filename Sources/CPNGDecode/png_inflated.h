#ifndef TABICONS_PNG_INFLATED_H
#define TABICONS_PNG_INFLATED_H
/*
 * A small PNG's image data inflated in one libdeflate call and unfiltered at once, then handed out
 * as the RGBA rows libpng's transformations would make of it (png_decode_rows.c's fast path).
 * libpng inflates with zlib a few kilobytes at a time and transforms row by row; for an icon that
 * is most of the decode's time (bench/README.md has the profile).
 *
 * Only what gives libpng's bytes exactly is taken: 8 bits or less, not interlaced, no colour
 * conversion to do, and image data that is whole and sound (every IDAT CRC right, one zlib stream
 * with a 32 KiB window ending exactly at the last IDAT's end, exactly the rows' bytes, known filter
 * types, palette indices inside the palette). Anything else is refused with nothing changed, and
 * the caller reads with libpng, which then gives its own rows or its own error.
 */
#include "CPNGDecode.h"

#include <stddef.h>
#include <stdint.h>

typedef struct tabicons_png_inflated {
    unsigned char *rows;            /* height rows of 1 + row_bytes: the filter byte, then samples */
    size_t row_bytes;
    uint32_t width;
    uint32_t height;
    uint32_t next;                  /* the next row to hand out */
    int bit_depth;
    int color_type;
    unsigned char palette[256 * 4]; /* RGBA, for colour type 3 */
} tabicons_png_inflated;

/* Inflates and unfilters the image data whose first IDAT chunk starts (at its length field) at
 * `chunk`, with `available` bytes from there to the end of the input. `palette` (`palette_count`
 * RGB entries) and `alpha` (`alpha_count` entries) are libpng's PLTE and tRNS for colour type 3.
 * Returns the image, or NULL when it is not one this path takes (nothing is then held). */
tabicons_png_inflated *tabicons_png_inflated_make(const unsigned char *chunk, size_t available,
                                                  uint32_t width, uint32_t height, int bit_depth,
                                                  int color_type, const unsigned char *palette,
                                                  int palette_count, const unsigned char *alpha,
                                                  int alpha_count);

/* The next row as 8-bit RGBA (width × 4 bytes) into `rgba`; 0 when every row was handed out. */
int tabicons_png_inflated_row(tabicons_png_inflated *image, unsigned char *rgba);

void tabicons_png_inflated_free(tabicons_png_inflated *image);

#endif
