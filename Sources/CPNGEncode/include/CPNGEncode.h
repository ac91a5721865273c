#ifndef TABICONS_CPNGENCODE_H
#define TABICONS_CPNGENCODE_H
/*
 * PNG writing through libpng's classic API, behind a setjmp/longjmp error handler (libpng's
 * error callback must not return, which Swift cannot do). The classic API is used instead of the
 * simplified one for one reason: it lets the encoder choose zlib's level, strategy and the row
 * filters, which the simplified writer fixes (see PNGEncoder.swift for the settings chosen).
 */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tabicons_png_output {
    unsigned char *data;   /* malloc'ed; free with tabicons_png_output_free */
    size_t size;
    size_t capacity;
} tabicons_png_output;

typedef struct tabicons_png_settings {
    int color_type;        /* PNG colour type: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA */
    int bit_depth;         /* 8, or 1/2/4/8 for palette (indices are one a byte; libpng packs) */
    const unsigned char *palette;  /* RGB triples, palette_count of them (colour type 3) */
    int palette_count;
    const unsigned char *trns;     /* alpha per palette entry, trns_count of them (may be 0) */
    int trns_count;
    int level;             /* zlib level 0–9 */
    int strategy;          /* zlib strategy (Z_DEFAULT_STRATEGY 0, Z_FILTERED 1, Z_RLE 3 ...) */
    int filters;           /* PNG_FILTER_* mask, e.g. PNG_ALL_FILTERS (0xF8) or PNG_FILTER_NONE (0x08) */
} tabicons_png_settings;

/* Encodes width × height rows of `pixels` (row stride `stride` bytes) with an sRGB chunk and
 * nothing time-dependent. Returns 1 on success; 0 with `message` (size message_size) set. */
int tabicons_png_encode(const unsigned char *pixels, int width, int height, size_t stride,
                        const tabicons_png_settings *settings, tabicons_png_output *output,
                        char *message, size_t message_size);

void tabicons_png_output_free(tabicons_png_output *output);

#ifdef __cplusplus
}
#endif
#endif
