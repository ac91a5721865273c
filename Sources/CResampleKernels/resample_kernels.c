#include "CResampleKernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TABICONS_X86 1
#endif

/* Wrapping 32-bit arithmetic in unsigned, so C has no signed overflow to object to; the values
 * never wrap (Resampler.descale), and the shift is arithmetic as in Swift's &>>. */
static inline int32_t descale(uint32_t sum, int bits) {
    return (int32_t)(sum + (1u << (bits - 1))) >> bits;
}

static void row_portable(const int32_t *row, const int32_t *coefficients, const intptr_t *starts,
                         int taps, int out_size, int bits, int32_t *out) {
    for (int x = 0; x < out_size; x++) {
        const int32_t *p = row + 4 * starts[x];
        const int32_t *c = coefficients + (size_t)x * taps;
        uint32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (int k = 0; k < taps; k++) {
            uint32_t w = (uint32_t)c[k];
            s0 += (uint32_t)p[4 * k] * w;
            s1 += (uint32_t)p[4 * k + 1] * w;
            s2 += (uint32_t)p[4 * k + 2] * w;
            s3 += (uint32_t)p[4 * k + 3] * w;
        }
        out[4 * x] = descale(s0, bits);
        out[4 * x + 1] = descale(s1, bits);
        out[4 * x + 2] = descale(s2, bits);
        out[4 * x + 3] = descale(s3, bits);
    }
}

static void columns_portable(const int32_t *first, size_t stride, const int32_t *weights, int count,
                             size_t length, int32_t *acc) {
    for (size_t i = 0; i < length; i++) acc[i] = (int32_t)((uint32_t)first[i] * (uint32_t)weights[0]);
    for (int k = 1; k < count; k++) {
        const int32_t *line = first + (size_t)k * stride;
        uint32_t w = (uint32_t)weights[k];
        for (size_t i = 0; i < length; i++) acc[i] = (int32_t)((uint32_t)acc[i] + (uint32_t)line[i] * w);
    }
}

#if TABICONS_X86
/* Two taps a step: two pixels (eight samples) times their weights spread over four lanes each. */
__attribute__((target("avx2")))
static void row_avx2(const int32_t *row, const int32_t *coefficients, const intptr_t *starts,
                     int taps, int out_size, int bits, int32_t *out) {
    const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    const __m128i half = _mm_set1_epi32(1 << (bits - 1));
    for (int x = 0; x < out_size; x++) {
        const int32_t *p = row + 4 * starts[x];
        const int32_t *c = coefficients + (size_t)x * taps;
        __m256i acc = _mm256_setzero_si256();
        int k = 0;
        for (; k + 2 <= taps; k += 2) {
            __m256i pixels = _mm256_loadu_si256((const __m256i *)(p + 4 * k));
            __m256i w = _mm256_permutevar8x32_epi32(
                _mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(c + k))), spread);
            acc = _mm256_add_epi32(acc, _mm256_mullo_epi32(pixels, w));
        }
        __m128i sum = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
        if (k < taps) {
            __m128i pixel = _mm_loadu_si128((const __m128i *)(p + 4 * k));
            sum = _mm_add_epi32(sum, _mm_mullo_epi32(pixel, _mm_set1_epi32(c[k])));
        }
        _mm_storeu_si128((__m128i *)(out + 4 * x), _mm_srai_epi32(_mm_add_epi32(sum, half), bits));
    }
}

__attribute__((target("avx2")))
static void columns_avx2(const int32_t *first, size_t stride, const int32_t *weights, int count,
                         size_t length, int32_t *acc) {
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        __m256i sum = _mm256_mullo_epi32(_mm256_loadu_si256((const __m256i *)(first + i)),
                                         _mm256_set1_epi32(weights[0]));
        for (int k = 1; k < count; k++) {
            __m256i line = _mm256_loadu_si256((const __m256i *)(first + (size_t)k * stride + i));
            sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(line, _mm256_set1_epi32(weights[k])));
        }
        _mm256_storeu_si256((__m256i *)(acc + i), sum);
    }
    if (i < length) columns_portable(first + i, stride, weights, count, length - i, acc + i);
}

static int has_avx2(void) {
    static int answer = -1;   /* every thread computes the same value; atomics keep TSan content */
    int known = __atomic_load_n(&answer, __ATOMIC_RELAXED);
    if (known < 0) {
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&answer, known, __ATOMIC_RELAXED);
    }
    return known;
}
#endif

void tabicons_resample_row(const int32_t *row, const int32_t *coefficients, const intptr_t *starts,
                           int taps, int out_size, int precision_bits, int32_t *out) {
#if TABICONS_X86
    if (has_avx2()) {
        row_avx2(row, coefficients, starts, taps, out_size, precision_bits, out);
        return;
    }
#endif
    row_portable(row, coefficients, starts, taps, out_size, precision_bits, out);
}

void tabicons_resample_columns(const int32_t *first, size_t stride, const int32_t *weights, int count,
                               size_t length, int32_t *acc) {
#if TABICONS_X86
    if (has_avx2()) {
        columns_avx2(first, stride, weights, count, length, acc);
        return;
    }
#endif
    columns_portable(first, stride, weights, count, length, acc);
}

void tabicons_resample_row_portable(const int32_t *row, const int32_t *coefficients, const intptr_t *starts,
                                    int taps, int out_size, int precision_bits, int32_t *out) {
    row_portable(row, coefficients, starts, taps, out_size, precision_bits, out);
}

void tabicons_resample_columns_portable(const int32_t *first, size_t stride, const int32_t *weights,
                                        int count, size_t length, int32_t *acc) {
    columns_portable(first, stride, weights, count, length, acc);
}
