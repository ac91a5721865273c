#ifndef TABICONS_CPNG_SHIM_H
#define TABICONS_CPNG_SHIM_H
#include <png.h>

/* libpng's simplified-API format and size macros are function-like or built from
 * other macros, so Swift's importer drops them; re-declare the ones TabIcons uses. */
static const png_uint_32 TABICONS_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
static const png_uint_32 TABICONS_PNG_FORMAT_GRAY = PNG_FORMAT_GRAY;
static const png_uint_32 TABICONS_PNG_FORMAT_GA = PNG_FORMAT_GA;
static const png_uint_32 TABICONS_PNG_FORMAT_RGB = PNG_FORMAT_RGB;
/* 16-bit linear RGBA with associated (premultiplied) alpha: how 16-bit sources are read. */
static const png_uint_32 TABICONS_PNG_FORMAT_LINEAR_RGB_ALPHA = PNG_FORMAT_LINEAR_RGB_ALPHA;
/* 8-bit RGBA colour map + 8-bit indices: the encoder's palette candidate. */
static const png_uint_32 TABICONS_PNG_FORMAT_RGBA_COLORMAP = PNG_FORMAT_RGBA_COLORMAP;
static const png_uint_32 TABICONS_PNG_FORMAT_FLAG_ALPHA = PNG_FORMAT_FLAG_ALPHA;
static const png_uint_32 TABICONS_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const png_uint_32 TABICONS_PNG_IMAGE_FLAG_16BIT_sRGB = PNG_IMAGE_FLAG_16BIT_sRGB;
static const png_uint_32 TABICONS_PNG_IMAGE_FLAG_FAST = PNG_IMAGE_FLAG_FAST;

static inline png_alloc_size_t tabicons_png_image_row_stride(const png_image *image) {
    return PNG_IMAGE_ROW_STRIDE(*image);
}
static inline png_alloc_size_t tabicons_png_image_size(const png_image *image) {
    return PNG_IMAGE_SIZE(*image);
}
/* An upper bound on the bytes png_image_write_to_memory produces for `image` (no colormap
 * beyond 256 entries), so the encoder can compress once into a buffer that is large enough. */
static inline png_alloc_size_t tabicons_png_image_png_size_max(const png_image *image) {
    return PNG_IMAGE_PNG_SIZE_MAX(*image);
}
#endif
