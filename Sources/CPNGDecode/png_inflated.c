#include "png_inflated.h"
#include "png_unfilter.h"

#include <libdeflate.h>
#include <stdlib.h>
#include <string.h>

static uint32_t read32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static int is_idat(const unsigned char *type) { return memcmp(type, "IDAT", 4) == 0; }

/* Sample x of a row of samples of `depth` bits (1, 2, 4 or 8), most significant bits first. */
static inline unsigned sample(const unsigned char *samples, uint32_t x, int depth) {
    if (depth == 8) return samples[x];
    size_t bit = (size_t)x * (size_t)depth;
    return (samples[bit >> 3] >> (8 - depth - (int)(bit & 7))) & ((1u << depth) - 1);
}

static int channels_of(int color_type) {
    switch (color_type) {
    case 0: return 1;
    case 2: return 3;
    case 3: return 1;
    case 4: return 2;
    case 6: return 4;
    default: return 0;
    }
}

tabicons_png_inflated *tabicons_png_inflated_make(const unsigned char *chunk, size_t available,
                                                  uint32_t width, uint32_t height, int bit_depth,
                                                  int color_type, const unsigned char *palette,
                                                  int palette_count, const unsigned char *alpha,
                                                  int alpha_count) {
    int channels = channels_of(color_type);
    if (channels == 0 || bit_depth > 8 || width == 0 || height == 0) return NULL;
    if (color_type == 3 && (palette == NULL || palette_count < 1 || palette_count > 256)) return NULL;
    uint64_t row_bytes = ((uint64_t)width * (uint64_t)channels * (uint64_t)bit_depth + 7) / 8;
    uint64_t filtered = (uint64_t)height * (row_bytes + 1);
    if (filtered > TABICONS_PNG_INFLATED_MAX_BYTES) return NULL;

    /* The IDAT chunks in a row, each wholly in the input with its CRC right. */
    size_t offset = 0, compressed = 0, chunks = 0;
    /* Deflate's worst case is stored blocks (5 bytes a 65,535) and zlib's 6; a stream longer than
     * this is not one this path takes. */
    size_t most = (size_t)filtered + (size_t)filtered / 16 + 4096;
    while (available - offset >= 8 && is_idat(chunk + offset + 4)) {
        uint32_t length = read32(chunk + offset);
        if (length > 0x7FFFFFFFu || (size_t)length + 12 > available - offset) return NULL;
        uint32_t crc = libdeflate_crc32(0, chunk + offset + 4, (size_t)length + 4);
        if (crc != read32(chunk + offset + 8 + length)) return NULL;
        compressed += length;
        if (compressed > most) return NULL;
        chunks++;
        offset += (size_t)length + 12;
    }
    if (chunks == 0 || compressed < 2) return NULL;

    tabicons_png_inflated *image = calloc(1, sizeof *image);
    unsigned char *joined = NULL;
    const unsigned char *stream = chunk + 8;
    if (image == NULL) return NULL;
    image->rows = malloc((size_t)filtered);
    if (chunks > 1) {
        joined = malloc(compressed);
        if (joined != NULL) {
            size_t at = 0, end = 0;
            for (size_t k = 0; k < chunks; k++) {
                uint32_t length = read32(chunk + at);
                memcpy(joined + end, chunk + at + 8, length);
                end += length;
                at += (size_t)length + 12;
            }
        }
        stream = joined;
    }
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    int ok = image->rows != NULL && stream != NULL && inflater != NULL;
    /* A window of 32 KiB (CINFO 7), as libdeflate assumes: zlib would refuse a distance past a
     * smaller declared window, so such a stream is libpng's to judge. */
    ok = ok && (stream[0] & 0x0F) == 8 && (stream[0] >> 4) == 7;
    size_t consumed = 0;
    ok = ok
        && libdeflate_zlib_decompress_ex(inflater, stream, compressed, image->rows, (size_t)filtered, &consumed,
                                         NULL) == LIBDEFLATE_SUCCESS
        && consumed == compressed;
    if (inflater != NULL) libdeflate_free_decompressor(inflater);
    free(joined);

    size_t bpp = bit_depth < 8 ? 1 : (size_t)channels;
    size_t stride = (size_t)row_bytes + 1;
    unsigned char *zeros = ok ? calloc(1, (size_t)row_bytes + 1) : NULL;
    ok = ok && zeros != NULL;
    for (uint32_t y = 0; ok && y < height; y++) {
        unsigned char *row = image->rows + (size_t)y * stride;
        const unsigned char *prior = y == 0 ? zeros : row - stride + 1;
        ok = tabicons_png_unfilter(row[0], row + 1, prior, (size_t)row_bytes, bpp);
    }
    free(zeros);
    if (ok && color_type == 3) {
        /* libpng expands an index past the palette to black, and names it only at the end of
         * the image: such a file is libpng's. */
        for (uint32_t y = 0; ok && y < height; y++) {
            const unsigned char *samples = image->rows + (size_t)y * stride + 1;
            for (uint32_t x = 0; x < width; x++) {
                if ((int)sample(samples, x, bit_depth) >= palette_count) {
                    ok = 0;
                    break;
                }
            }
        }
        for (int i = 0; ok && i < palette_count; i++) {
            memcpy(image->palette + 4 * i, palette + 3 * i, 3);
            image->palette[4 * i + 3] = i < alpha_count && alpha != NULL ? alpha[i] : 255;
        }
    }
    if (!ok) {
        tabicons_png_inflated_free(image);
        return NULL;
    }
    image->row_bytes = (size_t)row_bytes;
    image->width = width;
    image->height = height;
    image->bit_depth = bit_depth;
    image->color_type = color_type;
    return image;
}

int tabicons_png_inflated_row(tabicons_png_inflated *image, unsigned char *rgba) {
    if (image->next >= image->height) return 0;
    const unsigned char *s = image->rows + (size_t)image->next * (image->row_bytes + 1) + 1;
    uint32_t width = image->width;
    int depth = image->bit_depth;
    image->next++;
    switch (image->color_type) {
    case 6:
        memcpy(rgba, s, (size_t)width * 4);
        break;
    case 2:
        for (uint32_t x = 0; x < width; x++, s += 3, rgba += 4) {
            rgba[0] = s[0];
            rgba[1] = s[1];
            rgba[2] = s[2];
            rgba[3] = 255;
        }
        break;
    case 4:
        for (uint32_t x = 0; x < width; x++, s += 2, rgba += 4) {
            rgba[0] = rgba[1] = rgba[2] = s[0];
            rgba[3] = s[1];
        }
        break;
    case 0: {
        /* png_do_expand: a sample of d bits becomes d-bit copies of itself side by side. */
        unsigned scale = depth == 1 ? 255 : depth == 2 ? 0x55 : depth == 4 ? 0x11 : 1;
        for (uint32_t x = 0; x < width; x++, rgba += 4) {
            rgba[0] = rgba[1] = rgba[2] = (unsigned char)(sample(s, x, depth) * scale);
            rgba[3] = 255;
        }
        break;
    }
    case 3:
        for (uint32_t x = 0; x < width; x++, rgba += 4) memcpy(rgba, image->palette + 4 * sample(s, x, depth), 4);
        break;
    default: return 0;
    }
    return 1;
}

void tabicons_png_inflated_free(tabicons_png_inflated *image) {
    if (image == NULL) return;
    free(image->rows);
    free(image);
}
