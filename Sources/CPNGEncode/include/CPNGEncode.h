#ifndef TABICONS_CPNGENCODE_H
#define TABICONS_CPNGENCODE_H
/*
 * The PNG writer: row filters chosen as libpng chooses them, the filtered image compressed in one
 * call to libdeflate (which has no streaming API, and is faster than zlib and smaller at the same
 * settings), and the chunks written here. libpng cannot drive libdeflate, which is why the
 * writer is ours; decoding stays with libpng. See PNGEncoder.swift for the settings chosen.
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tabicons_png_output {
    unsigned char *data;   /* malloc'ed; free with tabicons_png_output_free */
    size_t size;
} tabicons_png_output;

/* PNG filter masks, as libpng spells them (PNG_FILTER_NONE ... PNG_ALL_FILTERS). */
enum {
    TABICONS_PNG_FILTER_NONE = 0x08,
    TABICONS_PNG_FILTER_SUB = 0x10,
    TABICONS_PNG_FILTER_UP = 0x20,
    TABICONS_PNG_FILTER_AVG = 0x40,
    TABICONS_PNG_FILTER_PAETH = 0x80,
    TABICONS_PNG_ALL_FILTERS = 0xF8
};

typedef struct tabicons_png_settings {
    int color_type;        /* PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    int bit_depth;         /* 8, or 1/2/4/8 for palette (indices are one a byte; packed here) */
    const unsigned char *palette;  /* RGB triples, palette_count of them (colour type 3) */
    int palette_count;
    const unsigned char *trns;     /* alpha per palette entry, trns_count of them (may be 0) */
    int trns_count;
    int level;             /* libdeflate compression level, 1–12 */
    int filters;           /* TABICONS_PNG_FILTER_* mask: one filter, or several to choose per row */
} tabicons_png_settings;

/* Encodes width × height rows of `pixels` (row stride `stride` bytes; one byte a sample, one
 * index a byte for colour type 3) as signature, IHDR, sRGB, (PLTE, tRNS,) one IDAT and IEND:
 * nothing time-dependent, the same bytes for the same input on every thread and run.
 * Returns 1 on success; 0 with `message` (size message_size) set: running out of memory, or
 * settings no PNG allows. */
int tabicons_png_encode(const unsigned char *pixels, int width, int height, size_t stride,
                        const tabicons_png_settings *settings, tabicons_png_output *output,
                        char *message, size_t message_size);

void tabicons_png_output_free(tabicons_png_output *output);

/* Filters `row` (`count` bytes, `bpp` bytes a pixel; `prior` the previous row unfiltered, zeros
 * before the first) with the filter `mask` allows, choosing among several as libpng does: the
 * smallest sum of the filtered bytes read as signed magnitudes, the earlier filter (None, Sub,
 * Up, Average, Paeth) on a tie. Writes the filter type byte and the filtered bytes to
 * out[0 ... count]. `scratch` holds 2 × count bytes. (png_filters.c; public for its tests.) */
void tabicons_png_filter_row(int mask, const uint8_t *row, const uint8_t *prior, size_t count, size_t bpp,
                             uint8_t *out, uint8_t *scratch);

#ifdef __cplusplus
}
#endif
#endif
