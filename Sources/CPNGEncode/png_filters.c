/*
 * PNG row filters (PNG specification, section 9) and libpng's heuristic for choosing one.
 *
 * Encoding reads only unfiltered bytes, so every filtered byte is independent of the others and
 * a row is filtered 16 bytes at a time with SSE2 (x86-64's baseline, so no run-time choice is
 * needed); the first pixel of a row (no left neighbour) and the last few bytes go byte by byte,
 * as does every byte on other machines. Both give the same bytes.
 */
#include "CPNGEncode.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#define VECTOR 16
#else
#define VECTOR 0
#endif

enum { NONE = 0, SUB = 1, UP = 2, AVG = 3, PAETH = 4 };

static inline uint8_t paeth(uint8_t a, uint8_t b, uint8_t c) {
    int pa = abs((int)b - (int)c), pb = abs((int)a - (int)c), pc = abs((int)a + (int)b - 2 * (int)c);
    if (pa <= pb && pa <= pc) return a;
    return pb <= pc ? b : c;
}

/* Byte i under `filter`, from the left neighbour a, the byte above b and above-left c. */
static inline uint8_t filter_byte(int filter, uint8_t x, uint8_t a, uint8_t b, uint8_t c) {
    switch (filter) {
    case SUB: return (uint8_t)(x - a);
    case UP: return (uint8_t)(x - b);
    case AVG: return (uint8_t)(x - ((a + b) >> 1));
    case PAETH: return (uint8_t)(x - paeth(a, b, c));
    default: return x;
    }
}

#if VECTOR
static inline __m128i abs16(__m128i x) { return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x)); }

/* Paeth's predictor on eight 16-bit lanes: a where |p-a| is smallest, then b, then c. */
static inline __m128i paeth16(__m128i a, __m128i b, __m128i c) {
    __m128i pa = abs16(_mm_sub_epi16(b, c)), pb = abs16(_mm_sub_epi16(a, c));
    __m128i pc = abs16(_mm_add_epi16(_mm_sub_epi16(a, c), _mm_sub_epi16(b, c)));
    __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i take_c = _mm_cmpgt_epi16(pb, pc);
    __m128i bc = _mm_or_si128(_mm_andnot_si128(take_c, b), _mm_and_si128(take_c, c));
    return _mm_or_si128(_mm_andnot_si128(not_a, a), _mm_and_si128(not_a, bc));
}

/* 16 filtered bytes at x with left neighbours a, above b, above-left c. */
static inline __m128i filter16(int filter, __m128i x, __m128i a, __m128i b, __m128i c) {
    switch (filter) {
    case SUB: return _mm_sub_epi8(x, a);
    case UP: return _mm_sub_epi8(x, b);
    case AVG: {
        /* (a + b) >> 1: pavgb rounds up, so take off the low bit it added. */
        __m128i up = _mm_avg_epu8(a, b);
        __m128i odd = _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1));
        return _mm_sub_epi8(x, _mm_sub_epi8(up, odd));
    }
    case PAETH: {
        __m128i zero = _mm_setzero_si128();
        __m128i low = paeth16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, zero), _mm_unpacklo_epi8(c, zero));
        __m128i high = paeth16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, zero), _mm_unpackhi_epi8(c, zero));
        return _mm_sub_epi8(x, _mm_packus_epi16(low, high));
    }
    default: return x;
    }
}
#endif

static inline __attribute__((always_inline))
void filter_into(int filter, const uint8_t *row, const uint8_t *prior, size_t count, size_t bpp, uint8_t *out) {
    size_t head = bpp < count ? bpp : count, i = 0;
    for (; i < head; i++) out[i] = filter_byte(filter, row[i], 0, prior[i], 0);
#if VECTOR
    for (; i + VECTOR <= count; i += VECTOR) {
        __m128i x = _mm_loadu_si128((const __m128i *)(row + i));
        __m128i a = _mm_loadu_si128((const __m128i *)(row + i - bpp));
        __m128i b = _mm_loadu_si128((const __m128i *)(prior + i));
        __m128i c = _mm_loadu_si128((const __m128i *)(prior + i - bpp));
        _mm_storeu_si128((__m128i *)(out + i), filter16(filter, x, a, b, c));
    }
#endif
    for (; i < count; i++) out[i] = filter_byte(filter, row[i], row[i - bpp], prior[i], prior[i - bpp]);
}

/* One specialised copy per filter, so the switch is decided outside the loops. */
static void filter_none(const uint8_t *r, const uint8_t *p, size_t n, size_t bpp, uint8_t *o) { (void)p; (void)bpp; memcpy(o, r, n); }
static void filter_sub(const uint8_t *r, const uint8_t *p, size_t n, size_t bpp, uint8_t *o) { filter_into(SUB, r, p, n, bpp, o); }
static void filter_up(const uint8_t *r, const uint8_t *p, size_t n, size_t bpp, uint8_t *o) { filter_into(UP, r, p, n, bpp, o); }
static void filter_avg(const uint8_t *r, const uint8_t *p, size_t n, size_t bpp, uint8_t *o) { filter_into(AVG, r, p, n, bpp, o); }
static void filter_paeth(const uint8_t *r, const uint8_t *p, size_t n, size_t bpp, uint8_t *o) { filter_into(PAETH, r, p, n, bpp, o); }

typedef void (*row_filter)(const uint8_t *, const uint8_t *, size_t, size_t, uint8_t *);
static const row_filter filters[5] = {filter_none, filter_sub, filter_up, filter_avg, filter_paeth};

/* libpng's measure: the sum over the bytes of min(v, 256 - v), i.e. |v| read as a signed byte. */
static size_t magnitude_sum(const uint8_t *bytes, size_t count) {
    size_t sum = 0, i = 0;
#if VECTOR
    __m128i zero = _mm_setzero_si128(), total = zero;
    for (; i + VECTOR <= count; i += VECTOR) {
        __m128i v = _mm_loadu_si128((const __m128i *)(bytes + i));
        __m128i magnitude = _mm_min_epu8(v, _mm_sub_epi8(zero, v));
        total = _mm_add_epi64(total, _mm_sad_epu8(magnitude, zero));
    }
    sum = (size_t)_mm_cvtsi128_si64(total) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(total, total));
#endif
    for (; i < count; i++) sum += bytes[i] < 128 ? bytes[i] : 256u - bytes[i];
    return sum;
}

void tabicons_png_filter_row(int mask, const uint8_t *row, const uint8_t *prior, size_t count, size_t bpp,
                             uint8_t *out, uint8_t *scratch) {
    int best = -1, allowed = 0;
    for (int filter = NONE; filter <= PAETH; filter++) allowed += (mask & (TABICONS_PNG_FILTER_NONE << filter)) != 0;
    uint8_t *best_bytes = scratch, *trial = scratch + count;
    size_t best_sum = 0;
    for (int filter = NONE; filter <= PAETH; filter++) {
        if ((mask & (TABICONS_PNG_FILTER_NONE << filter)) == 0) continue;
        if (allowed == 1) {
            out[0] = (uint8_t)filter;
            filters[filter](row, prior, count, bpp, out + 1);
            return;
        }
        filters[filter](row, prior, count, bpp, trial);
        size_t sum = magnitude_sum(trial, count);
        if (best < 0 || sum < best_sum) {
            best = filter;
            best_sum = sum;
            uint8_t *swap = best_bytes;
            best_bytes = trial;
            trial = swap;
        }
    }
    if (best < 0) {   /* no filter allowed: None */
        out[0] = NONE;
        memcpy(out + 1, row, count);
        return;
    }
    out[0] = (uint8_t)best;
    memcpy(out + 1, best_bytes, count);
}
