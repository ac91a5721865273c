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
 * Every bit depth and interlace: a 16-bit source as png_image_finish_read's
 * PNG_FORMAT_LINEAR_RGB_ALPHA, one row at a time; an Adam7 image pass by pass, each row of a pass
 * at its reduced width, for the caller to place. Every ancillary chunk the simplified API would
 * not use is discarded unread from the start (text chunks are never held). Every libpng
 * allocation goes through a counting allocator, so a caller can hold the decoder to its memory
 * estimate.
 */
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tabicons_png_rows tabicons_png_rows;

/* The largest image data (filtered rows, filter bytes included) inflated whole: 1 MiB and 4 KiB,
 * a 512 × 512 RGBA icon. A larger image is read by libpng row by row, as streaming wants. */
#define TABICONS_PNG_INFLATED_MAX_BYTES 1052672

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

/* Sets the RGBA transformations: 8-bit sRGB RGBA (linear 0, for sources of 8 bits or less), or
 * 16-bit linear RGBA with associated alpha in native byte order (linear 1, for 16-bit sources;
 * sixteen_bit_srgb as PNG_IMAGE_FLAG_16BIT_sRGB). With `inflate_small`, an image of at most
 * TABICONS_PNG_INFLATED_MAX_BYTES of image data that needs no colour conversion is inflated whole
 * by libdeflate and unfiltered here (the same rows, faster; anything unusual is left to libpng).
 * Returns 1; 0 with the reader's message set on failure (also when `linear` does not match the
 * source's depth). */
int tabicons_png_rows_start(tabicons_png_rows *reader, int linear, int sixteen_bit_srgb, int inflate_small);

/* Reads the next `count` rows (of the current pass, for an Adam7 image), `stride` bytes apart
 * from `rows`. Returns 1;
 * 0 with the reader's message set when libpng fails (the reader is then finished). */
int tabicons_png_rows_read(tabicons_png_rows *reader, unsigned char *rows, unsigned int count,
                           size_t stride);

/* The reader's last error message (libpng's words, at most 63 characters). */
const char *tabicons_png_rows_message(const tabicons_png_rows *reader);

/* The most bytes libpng held at once for this reader so far (its own allocations). */
size_t tabicons_png_rows_peak_bytes(const tabicons_png_rows *reader);

/* 1 when the rows come from the whole-image inflate rather than libpng's. */
int tabicons_png_rows_inflated_whole(const tabicons_png_rows *reader);

void tabicons_png_rows_free(tabicons_png_rows *reader);

#ifdef __cplusplus
}
#endif
#endif
