/*
 * The PNG writer (see CPNGEncode.h): rows filtered (png_filters.c), one libdeflate call, the chunks.
 */
#include "CPNGEncode.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- libdeflate compressors: one per thread and level, reused across images ----
 * Allocating one costs more than compressing an icon (hash tables of a few hundred KB), and a
 * compressor may not be shared between threads; each thread keeps its own, freed when the thread
 * ends. */

#define LEVELS 13

static pthread_key_t compressors_key;
static int compressors_key_ok;
static pthread_once_t compressors_once = PTHREAD_ONCE_INIT;

static void free_compressors(void *value) {
    struct libdeflate_compressor **compressors = value;
    for (int level = 0; level < LEVELS; level++) libdeflate_free_compressor(compressors[level]);
    free(compressors);
}

static void make_compressors_key(void) {
    compressors_key_ok = pthread_key_create(&compressors_key, free_compressors) == 0;
}

/* The calling thread's compressor for `level`, or NULL when out of memory. `owned` is set when
 * the caller must free it (no thread-specific storage: one per call). */
static struct libdeflate_compressor *thread_compressor(int level, int *owned) {
    pthread_once(&compressors_once, make_compressors_key);
    *owned = 0;
    if (!compressors_key_ok) {
        *owned = 1;
        return libdeflate_alloc_compressor(level);
    }
    struct libdeflate_compressor **compressors = pthread_getspecific(compressors_key);
    if (compressors == NULL) {
        compressors = calloc(LEVELS, sizeof *compressors);
        if (compressors == NULL || pthread_setspecific(compressors_key, compressors) != 0) {
            free(compressors);
            *owned = 1;
            return libdeflate_alloc_compressor(level);
        }
    }
    if (compressors[level] == NULL) compressors[level] = libdeflate_alloc_compressor(level);
    return compressors[level];
}

/* ---- Chunks ---- */

static unsigned char *put32(unsigned char *out, uint32_t value) {
    out[0] = (unsigned char)(value >> 24);
    out[1] = (unsigned char)(value >> 16);
    out[2] = (unsigned char)(value >> 8);
    out[3] = (unsigned char)value;
    return out + 4;
}

/* Writes length, type and CRC around `length` data bytes already at out + 8. */
static unsigned char *close_chunk(unsigned char *out, const char type[4], size_t length) {
    put32(out, (uint32_t)length);
    memcpy(out + 4, type, 4);
    uint32_t crc = libdeflate_crc32(0, out + 4, length + 4);
    return put32(out + 8 + length, crc);
}

static int fail(char *message, size_t message_size, const char *text) {
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", text);
    return 0;
}

int tabicons_png_encode(const unsigned char *pixels, int width, int height, size_t stride,
                        const tabicons_png_settings *settings, tabicons_png_output *output,
                        char *message, size_t message_size) {
    output->data = NULL;
    output->size = 0;
    int channels;
    switch (settings->color_type) {
    case 0: case 3: channels = 1; break;
    case 4: channels = 2; break;
    case 2: channels = 3; break;
    case 6: channels = 4; break;
    default: return fail(message, message_size, "no such PNG colour type");
    }
    int depth = settings->bit_depth;
    if (!(depth == 8 || (settings->color_type == 3 && (depth == 1 || depth == 2 || depth == 4))))
        return fail(message, message_size, "no such PNG bit depth for the colour type");
    if (width <= 0 || height <= 0 || settings->level < 1 || settings->level >= LEVELS)
        return fail(message, message_size, "invalid PNG size or compression level");
    if (settings->color_type == 3 && (settings->palette_count < 1 || settings->palette_count > 256 ||
                                      settings->trns_count < 0 || settings->trns_count > settings->palette_count))
        return fail(message, message_size, "invalid PNG palette");

    size_t row_bytes = ((size_t)width * (size_t)channels * (size_t)depth + 7) / 8;
    size_t bpp = depth < 8 ? 1 : (size_t)channels;   /* bytes a pixel, for the filters */
    if ((size_t)height > SIZE_MAX / (row_bytes + 1))
        return fail(message, message_size, "out of memory for the PNG rows");
    size_t filtered_size = (size_t)height * (row_bytes + 1);

    /* The filters see the previous row unfiltered, zeros before the first (PNG specification
     * 9.2). Rows of indices under 8 bits are packed into `packed` first, and the previous packed
     * row kept in `previous`. */
    unsigned char *image = malloc(filtered_size);
    unsigned char *scratch = calloc(4, row_bytes);   /* previous, packed, and the filters' two */
    if (image == NULL || scratch == NULL) {
        free(image);
        free(scratch);
        return fail(message, message_size, "out of memory for the PNG rows");
    }
    unsigned char *previous = scratch, *packed = scratch + row_bytes;
    const unsigned char *prior = previous;
    unsigned char *target = image;
    for (int y = 0; y < height; y++) {
        const unsigned char *row = pixels + (size_t)y * stride;
        if (depth < 8) {
            /* Indices one a byte → `depth` bits each, the leftmost pixel in the high bits. */
            memset(packed, 0, row_bytes);
            int per_byte = 8 / depth;
            for (int x = 0; x < width; x++) {
                int shift = 8 - depth * (x % per_byte + 1);
                packed[x / per_byte] |= (unsigned char)((row[x] & ((1 << depth) - 1)) << shift);
            }
            row = packed;
        }
        tabicons_png_filter_row(settings->filters, row, prior, row_bytes, bpp, target, scratch + 2 * row_bytes);
        if (depth < 8) {
            memcpy(previous, packed, row_bytes);
            prior = previous;
        } else {
            prior = row;
        }
        target += row_bytes + 1;
    }
    free(scratch);

    int owned = 0;
    struct libdeflate_compressor *compressor = thread_compressor(settings->level, &owned);
    if (compressor == NULL) {
        free(image);
        return fail(message, message_size, "out of memory for the PNG compressor");
    }
    size_t bound = libdeflate_zlib_compress_bound(compressor, filtered_size);
    int palette_count = settings->color_type == 3 ? settings->palette_count : 0;
    int trns_count = settings->color_type == 3 ? settings->trns_count : 0;
    size_t fixed = 8 + (12 + 13) + (12 + 1) + (palette_count ? 12 + 3 * (size_t)palette_count : 0) +
                   (trns_count ? 12 + (size_t)trns_count : 0) + 12 + 12;
    unsigned char *png = bound <= SIZE_MAX - fixed ? malloc(fixed + bound) : NULL;
    if (png == NULL) {
        if (owned) libdeflate_free_compressor(compressor);
        free(image);
        return fail(message, message_size, "out of memory for the PNG output");
    }

    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char *out = png;
    memcpy(out, signature, 8);
    out += 8;
    unsigned char *data = out + 8;
    data = put32(data, (uint32_t)width);
    data = put32(data, (uint32_t)height);
    data[0] = (unsigned char)depth;
    data[1] = (unsigned char)settings->color_type;
    data[2] = 0;   /* deflate */
    data[3] = 0;   /* adaptive filtering */
    data[4] = 0;   /* not interlaced */
    out = close_chunk(out, "IHDR", 13);
    out[8] = 0;    /* rendering intent: perceptual */
    out = close_chunk(out, "sRGB", 1);
    if (palette_count) {
        memcpy(out + 8, settings->palette, 3 * (size_t)palette_count);
        out = close_chunk(out, "PLTE", 3 * (size_t)palette_count);
    }
    if (trns_count) {
        memcpy(out + 8, settings->trns, (size_t)trns_count);
        out = close_chunk(out, "tRNS", (size_t)trns_count);
    }
    size_t compressed = libdeflate_zlib_compress(compressor, image, filtered_size, out + 8, bound);
    if (owned) libdeflate_free_compressor(compressor);
    free(image);
    if (compressed == 0 || compressed > 0x7FFFFFFF) {   /* a chunk holds at most 2^31 - 1 bytes */
        free(png);
        return fail(message, message_size, "image data too large for one PNG chunk");
    }
    out = close_chunk(out, "IDAT", compressed);
    out = close_chunk(out, "IEND", 0);
    output->data = png;
    output->size = (size_t)(out - png);
    return 1;
}

void tabicons_png_output_free(tabicons_png_output *output) {
    if (output == NULL) return;
    free(output->data);
    output->data = NULL;
    output->size = 0;
}
