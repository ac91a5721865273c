#ifndef TABICONS_CPNG_SHIM_H
#define TABICONS_CPNG_SHIM_H
#include <png.h>

/* libpng's simplified-API format and size macros are function-like or built from
 * other macros, so Swift's importer drops them; re-declare the ones TabIcons uses. */
static const png_uint_32 TABICONS_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
/* 16-bit linear RGBA with associated (premultiplied) alpha: how 16-bit sources are read. */
static const png_uint_32 TABICONS_PNG_FORMAT_LINEAR_RGB_ALPHA = PNG_FORMAT_LINEAR_RGB_ALPHA;
static const png_uint_32 TABICONS_PNG_FORMAT_FLAG_ALPHA = PNG_FORMAT_FLAG_ALPHA;
static const png_uint_32 TABICONS_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const png_uint_32 TABICONS_PNG_IMAGE_FLAG_16BIT_sRGB = PNG_IMAGE_FLAG_16BIT_sRGB;

static inline png_alloc_size_t tabicons_png_image_size(const png_image *image) {
    return PNG_IMAGE_SIZE(*image);
}
#endif
