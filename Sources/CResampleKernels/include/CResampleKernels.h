#ifndef TABICONS_CRESAMPLEKERNELS_H
#define TABICONS_CRESAMPLEKERNELS_H
/*
 * The resampler's two inner loops (Resampler.swift), in C so they can use SSE4.1/AVX2's 32-bit
 * multiply: Swift builds for baseline x86-64, where a SIMD4<Int32> multiply is emulated with
 * SSE2's pmuludq and shuffles, several instructions a lane. The CPU is asked once at run time
 * (__builtin_cpu_supports); elsewhere a portable loop runs. Both compute the same exact integer
 * sums (products and sums fit in 32 bits: see Resampler.descale), so the bytes never depend on
 * the path taken.
 *
 * A pixel is four int32 samples (R, G, B, A premultiplied, 0...65025 scale).
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One row filtered horizontally: for each output x, the sum over its `taps` weights
 * coefficients[x * taps + k] of row pixel starts[x] + k, rounded and shifted right by
 * `precision_bits`. `row` must be readable for starts[x] + taps pixels for every x (the
 * resampler pads it with zero pixels; padded taps have weight 0). */
void tabicons_resample_row(const int32_t *row, const int32_t *coefficients, const intptr_t *starts,
                           int taps, int out_size, int precision_bits, int32_t *out);

/* The vertical pass's sums for one output row: acc[i] = sum over k < count of
 * first[k * stride + i] * weights[k], for i < length (int32 samples, not pixels; count >= 1). */
void tabicons_resample_columns(const int32_t *first, size_t stride, const int32_t *weights, int count,
                               size_t length, int32_t *acc);

/* The portable loops alone, whatever the CPU: for the tests that hold both paths to one result. */
void tabicons_resample_row_portable(const int32_t *row, const int32_t *coefficients, const intptr_t *starts,
                                    int taps, int out_size, int precision_bits, int32_t *out);
void tabicons_resample_columns_portable(const int32_t *first, size_t stride, const int32_t *weights,
                                        int count, size_t length, int32_t *acc);

#ifdef __cplusplus
}
#endif
#endif
