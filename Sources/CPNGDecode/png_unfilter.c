#include "png_unfilter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

static inline unsigned char paeth(unsigned char a, unsigned char b, unsigned char c) {
    int p = (int)a + (int)b - (int)c;
    int pa = abs(p - (int)a), pb = abs(p - (int)b), pc = abs(p - (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

#if defined(__x86_64__)
/* One pixel of `bpp` (3 or 4) bytes, widened to 16-bit lanes, and back. Everything below is
 * inlined with `bpp` a constant (the callers' two cases), so each copy is a plain load or store. */
#define PIXELS static inline __attribute__((always_inline))
static inline __attribute__((always_inline)) __m128i load_pixel(const unsigned char *p, size_t bpp) {
    uint32_t v = 0;
    memcpy(&v, p, bpp);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)v), _mm_setzero_si128());
}

static inline __attribute__((always_inline)) void store_pixel(unsigned char *p, __m128i v, size_t bpp) {
    uint32_t out = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(v, v));
    memcpy(p, &out, bpp);
}

static inline __m128i abs16(__m128i v) { return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v)); }

static inline __m128i select16(__m128i mask, __m128i yes, __m128i no) {
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
}

/* a: the pixel to the left, b: above, c: above left; x: the filtered pixel. Each sum wraps at
 * 8 bits: done in 16-bit lanes and masked, as the byte loop's unsigned char does. */
PIXELS void paeth_pixels(unsigned char *row, const unsigned char *prior, size_t count, size_t bpp) {
    const __m128i low = _mm_set1_epi16(0xFF);
    __m128i a = _mm_setzero_si128(), c = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= count; i += bpp) {
        __m128i b = load_pixel(prior + i, bpp), x = load_pixel(row + i, bpp);
        __m128i pa = _mm_sub_epi16(b, c);      /* p - a = b - c */
        __m128i pb = _mm_sub_epi16(a, c);      /* p - b = a - c */
        __m128i pc = _mm_add_epi16(pa, pb);    /* p - c */
        pa = abs16(pa);
        pb = abs16(pb);
        pc = abs16(pc);
        __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
        /* Ties go to a, then b, then c. */
        __m128i nearest = select16(_mm_cmpeq_epi16(smallest, pa), a, select16(_mm_cmpeq_epi16(smallest, pb), b, c));
        a = _mm_and_si128(_mm_add_epi16(x, nearest), low);
        store_pixel(row + i, a, bpp);
        c = b;
    }
}

PIXELS void average_pixels(unsigned char *row, const unsigned char *prior, size_t count, size_t bpp) {
    const __m128i low = _mm_set1_epi16(0xFF);
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= count; i += bpp) {
        __m128i b = load_pixel(prior + i, bpp), x = load_pixel(row + i, bpp);
        a = _mm_and_si128(_mm_add_epi16(x, _mm_srli_epi16(_mm_add_epi16(a, b), 1)), low);
        store_pixel(row + i, a, bpp);
    }
}

PIXELS void sub_pixels(unsigned char *row, size_t count, size_t bpp) {
    const __m128i low = _mm_set1_epi16(0xFF);
    __m128i a = _mm_setzero_si128();
    for (size_t i = 0; i + bpp <= count; i += bpp) {
        a = _mm_and_si128(_mm_add_epi16(load_pixel(row + i, bpp), a), low);
        store_pixel(row + i, a, bpp);
    }
}
#endif

int tabicons_png_unfilter(int filter, unsigned char *row, const unsigned char *prior, size_t count, size_t bpp) {
    size_t i;
#if defined(__x86_64__)
    /* Whole pixels only: a row of 3- or 4-byte pixels is a multiple of its pixel size. */
    int pixels = (bpp == 3 || bpp == 4) && count % bpp == 0;
#else
    int pixels = 0;
#endif
    switch (filter) {
    case 0: return 1;
    case 1:
#if defined(__x86_64__)
        if (pixels) { bpp == 4 ? sub_pixels(row, count, 4) : sub_pixels(row, count, 3); return 1; }
#endif
        for (i = bpp; i < count; i++) row[i] = (unsigned char)(row[i] + row[i - bpp]);
        return 1;
    case 2:
        for (i = 0; i < count; i++) row[i] = (unsigned char)(row[i] + prior[i]);
        return 1;
    case 3:
#if defined(__x86_64__)
        if (pixels) { bpp == 4 ? average_pixels(row, prior, count, 4) : average_pixels(row, prior, count, 3); return 1; }
#endif
        for (i = 0; i < bpp && i < count; i++) row[i] = (unsigned char)(row[i] + (prior[i] >> 1));
        for (; i < count; i++) row[i] = (unsigned char)(row[i] + ((row[i - bpp] + prior[i]) >> 1));
        return 1;
    case 4:
#if defined(__x86_64__)
        if (pixels) { bpp == 4 ? paeth_pixels(row, prior, count, 4) : paeth_pixels(row, prior, count, 3); return 1; }
#endif
        for (i = 0; i < bpp && i < count; i++) row[i] = (unsigned char)(row[i] + prior[i]);
        for (; i < count; i++) row[i] = (unsigned char)(row[i] + paeth(row[i - bpp], prior[i], prior[i - bpp]));
        return 1;
    default: return 0;
    }
}
