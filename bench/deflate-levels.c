/*
 * What the PNG encoder's two settings cost and save, measured on PNGs tabicon wrote: each file's
 * IDAT is inflated and unfiltered back to its rows, the rows filtered again by a row heuristic,
 * and the filtered images compressed with libdeflate at levels 4 to 7 (best of 5 timings of the
 * whole set). "minsum" is tabicon's own choice (libpng's smallest sum of signed magnitudes), so
 * its level-6 line must give back exactly the bytes of the IDATs read: a check on the harness.
 * Indexed images keep filter None under every heuristic, as the encoder writes them.
 *
 *     gcc -O2 bench/deflate-levels.c -o /tmp/deflate-levels -ldeflate -lm
 *     tabicon normalize -q bench/inputs/icons -o /dev/shm/icons
 *     /tmp/deflate-levels $(find /dev/shm/icons -name '*.png')
 */
#include <libdeflate.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int width, height, bpp, indexed;
    size_t row_bytes;
    unsigned char *rows;   /* unfiltered, row_bytes each */
} image;

static uint32_t be32(const unsigned char *p) { return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/* Byte x of filter f from the left neighbour a, the byte above b and above-left c; `sign` 1
 * filters, -1 undoes a filter (x is then the filtered byte and a, b, c are unfiltered). */
static unsigned char apply(int f, int x, int a, int b, int c, int sign) {
    int predicted = f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) >> 1 : f == 4 ? paeth(a, b, c) : 0;
    return (unsigned char)(x - sign * predicted);
}

static void filter_row(int f, const unsigned char *row, const unsigned char *prior, size_t n, int bpp, unsigned char *out) {
    for (size_t i = 0; i < n; i++) {
        int a = i >= (size_t)bpp ? row[i - bpp] : 0, c = i >= (size_t)bpp ? prior[i - bpp] : 0;
        out[i] = apply(f, row[i], a, prior[i], c, 1);
    }
}

/* Lower is better. 0: libpng's sum of |byte| read as signed; 1: the bytes' Shannon entropy. */
static double score(int heuristic, const unsigned char *bytes, size_t n) {
    if (heuristic == 0) {
        size_t sum = 0;
        for (size_t i = 0; i < n; i++) sum += bytes[i] < 128 ? bytes[i] : 256 - bytes[i];
        return (double)sum;
    }
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++) count[bytes[i]]++;
    double bits = 0;
    for (int v = 0; v < 256; v++)
        if (count[v]) bits -= count[v] * log2((double)count[v] / n);
    return bits;
}

static int read_image(const char *path, struct libdeflate_decompressor *inflater, image *im, size_t *idat_bytes) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return 0;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    unsigned char *png = malloc(size), *zlib = malloc(size);
    size_t zlib_size = 0, at = 8;
    int ok = fread(png, 1, size, file) == (size_t)size, color = 0, depth = 8;
    fclose(file);
    while (ok && at + 12 <= (size_t)size) {
        uint32_t length = be32(png + at);
        if (length > (size_t)size - at - 12) {   /* a chunk past the file's end: not one of ours */
            ok = 0;
            break;
        }
        if (!memcmp(png + at + 4, "IHDR", 4) && length >= 13) {
            im->width = (int)be32(png + at + 8), im->height = (int)be32(png + at + 12);
            depth = png[at + 16], color = png[at + 17];
        } else if (!memcmp(png + at + 4, "IDAT", 4)) {
            memcpy(zlib + zlib_size, png + at + 8, length);
            zlib_size += length;
        }
        at += 12 + (size_t)length;
    }
    ok = ok && im->width > 0 && im->height > 0;
    int channels = color == 2 ? 3 : color == 4 ? 2 : color == 6 ? 4 : 1;
    im->indexed = color == 3;
    im->row_bytes = ((size_t)im->width * channels * depth + 7) / 8;
    im->bpp = depth < 8 ? 1 : channels;
    size_t filtered_size = (im->row_bytes + 1) * (size_t)im->height, got = 0;
    unsigned char *filtered = malloc(filtered_size);
    ok = ok && libdeflate_zlib_decompress(inflater, zlib, zlib_size, filtered, filtered_size, &got) == 0 && got == filtered_size;
    im->rows = calloc(im->height + 1, im->row_bytes);   /* row -1 of zeros first */
    for (int y = 0; ok && y < im->height; y++) {
        const unsigned char *in = filtered + (size_t)y * (im->row_bytes + 1);
        unsigned char *row = im->rows + (size_t)(y + 1) * im->row_bytes, *prior = row - im->row_bytes;
        for (size_t i = 0; i < im->row_bytes; i++) {
            int a = i >= (size_t)im->bpp ? row[i - im->bpp] : 0, c = i >= (size_t)im->bpp ? prior[i - im->bpp] : 0;
            row[i] = apply(in[0], in[1 + i], a, prior[i], c, -1);
        }
    }
    *idat_bytes += zlib_size;
    free(png), free(zlib), free(filtered);
    return ok;
}

int main(int argc, char **argv) {
    int count = argc - 1;
    image *images = calloc(count, sizeof *images);
    size_t idat_bytes = 0;
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    for (int i = 0; i < count; i++) {
        if (!read_image(argv[i + 1], inflater, &images[i], &idat_bytes)) {
            fprintf(stderr, "cannot read %s\n", argv[i + 1]);
            return 1;
        }
    }
    printf("%d PNGs, %zu bytes of IDAT\n", count, idat_bytes);
    const char *names[] = {"minsum", "entropy"};
    unsigned char *out = malloc(1 << 24);
    for (int heuristic = 0; heuristic < 2; heuristic++) {
        unsigned char **filtered = calloc(count, sizeof *filtered);
        for (int i = 0; i < count; i++) {
            image *im = &images[i];
            size_t n = im->row_bytes;
            unsigned char *trial = malloc(n);
            filtered[i] = malloc((n + 1) * im->height);
            for (int y = 0; y < im->height; y++) {
                const unsigned char *row = im->rows + (size_t)(y + 1) * n, *prior = row - n;
                unsigned char *target = filtered[i] + (size_t)y * (n + 1);
                int best = 0;
                double best_score = INFINITY;
                for (int f = 0; f <= (im->indexed ? 0 : 4); f++) {
                    filter_row(f, row, prior, n, im->bpp, trial);
                    double s = im->indexed ? 0 : score(heuristic, trial, n);
                    if (s < best_score) best_score = s, best = f;
                }
                target[0] = (unsigned char)best;
                filter_row(best, row, prior, n, im->bpp, target + 1);
            }
            free(trial);
        }
        for (int level = 4; level <= 7; level++) {
            struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
            size_t total = 0;
            double best = INFINITY;
            for (int run = 0; run < 5; run++) {
                double start = seconds();
                total = 0;
                for (int i = 0; i < count; i++)
                    total += libdeflate_zlib_compress(compressor, filtered[i], (images[i].row_bytes + 1) * images[i].height, out, 1 << 24);
                double took = seconds() - start;
                if (took < best) best = took;
            }
            printf("%-8s level %d: %9zu bytes (%+.2f %%), deflate %.1f ms\n", names[heuristic], level, total,
                   100.0 * ((double)total / idat_bytes - 1), best * 1e3);
            libdeflate_free_compressor(compressor);
        }
        for (int i = 0; i < count; i++) free(filtered[i]);
        free(filtered);
    }
    return 0;
}
