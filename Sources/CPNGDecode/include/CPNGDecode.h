#ifndef TABICONS_CPNGDECODE_H
#define TABICONS_CPNGDECODE_H
/*
 * PNG reading row by row through libpng's sequential API, behind a setjmp/longjmp error handler
 * (libpng's error callback must not return, which Swift cannot do). Why not the simplified API:
 * png_image_finish_read wants a buffer for the whole image, and streamed normalization must never
 * hold one. The transformations set here are exactly the ones png_image_finish_read sets for
 * PNG_FORMAT_RGBA (libpng 1.6 pngread.c, png_image_read_direct), in the same order, with the same
 * benign-error setting, the same memory reader and its message, and error messages cut to the
 * same 63 characters: so every row is byte for byte what the simplified API writes, and every
 * failure has the same words.
 *
 * Only for sources of bit depth 8 or less, not interlaced (an Adam7 image needs all its passes
 * before any row is final). Every libpng allocation goes through a counting allocator, so a
 * caller can hold the decoder to its memory estimate.
 */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tabicons_png_rows tabicons_png_rows;

typedef struct tabicons_png_rows_header {
    unsigned int width;
    unsigned int height;
    int bit_depth;
    int color_type;
    int interlaced;        /* 1 for Adam7 */
    int has_alpha;         /* an alpha channel or tRNS: png_image's PNG_FORMAT_FLAG_ALPHA */
} tabicons_png_rows_header;

/* Reads the signature and every chunk up to the image data of `size` bytes at `data` (which must
 * stay valid until tabicons_png_rows_free). Returns NULL with `message` set on failure (and on
 * out of memory); the reader otherwise, with `header` filled. */
tabicons_png_rows *tabicons_png_rows_begin(const unsigned char *data, size_t size,
                                           tabicons_png_rows_header *header,
                                           char *message, size_t message_size);

/* Sets the RGBA transformations. Returns 1; 0 with the reader's message set on failure (also for
 * a 16-bit or interlaced source, which this reader does not take). */
int tabicons_png_rows_start(tabicons_png_rows *reader);

/* Reads the next `count` rows as 8-bit sRGB RGBA, `stride` bytes apart from `rows`. Returns 1;
 * 0 with the reader's message set when libpng fails (the reader is then finished). */
int tabicons_png_rows_read(tabicons_png_rows *reader, unsigned char *rows, unsigned int count,
                           size_t stride);

/* The reader's last error message (libpng's words, at most 63 characters). */
const char *tabicons_png_rows_message(const tabicons_png_rows *reader);

/* The most bytes libpng held at once for this reader so far (its own allocations). */
size_t tabicons_png_rows_peak_bytes(const tabicons_png_rows *reader);

void tabicons_png_rows_free(tabicons_png_rows *reader);

#ifdef __cplusplus
}
#endif
#endif
