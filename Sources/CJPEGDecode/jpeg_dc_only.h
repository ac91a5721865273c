#ifndef TABICONS_JPEG_DC_ONLY_H
#define TABICONS_JPEG_DC_ONLY_H
/*
 * Decoding a progressive JPEG at 1/8 from its DC scans alone, in memory proportional to its
 * blocks rather than its coefficients (internal to CJPEGDecode; jpeg_dc_only.c says how).
 */
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

/* Hands libjpeg only the DC scans of `data` from here on, and keeps one DC coefficient a block.
 * Call after jpeg_read_header (the source positioned after the first SOS header) and before
 * jpeg_start_decompress, and only when every component's IDCT is 1×1 (the output at 1/8 with no
 * subsampled component): that IDCT reads the DC coefficient alone, so the pixels are those of a
 * full decode. Returns 0, changing nothing, when the data is not laid out as JPEG markers and
 * scans from here to an EOI (libjpeg then reads the file as it is, and reports what it finds).
 * Everything it allocates is in libjpeg's pools, freed with the decompressor. */
int tabicons_jpeg_dc_only_begin(j_decompress_ptr cinfo, const unsigned char *data, size_t size);

#endif
