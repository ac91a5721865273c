#include "CPNGDecode.h"
#include "png_inflated.h"

#include <png.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tabicons_png_rows {
    png_structp png;
    png_infop info;
    const unsigned char *memory;   /* what is left of the input */
    size_t size;
    jmp_buf jump;
    char message[64];              /* as png_image's: 63 characters and a NUL */
    size_t held;                   /* libpng's live bytes, and their peak */
    size_t peak;
    int started;
    int failed;
    tabicons_png_inflated *inflated; /* the fast path's rows, when it took the image */
};

/* Each block carries its size in front, so free can count it down. */
typedef union { size_t size; max_align_t align; } block_header;

static png_voidp counting_malloc(png_structp png, png_alloc_size_t size) {
    tabicons_png_rows *reader = png_get_mem_ptr(png);
    block_header *block = malloc(sizeof(block_header) + size);
    if (block == NULL) return NULL;
    block->size = size;
    reader->held += size;
    if (reader->held > reader->peak) reader->peak = reader->held;
    return block + 1;
}

static void counting_free(png_structp png, png_voidp pointer) {
    if (pointer == NULL) return;
    tabicons_png_rows *reader = png_get_mem_ptr(png);
    block_header *block = (block_header *)pointer - 1;
    reader->held -= block->size;
    free(block);
}

/* png_safe_error's behaviour: keep the words (cut to the buffer), then jump back. */
static void on_error(png_structp png, png_const_charp message) {
    tabicons_png_rows *reader = png_get_error_ptr(png);
    strncpy(reader->message, message ? message : "libpng failed", sizeof reader->message - 1);
    reader->message[sizeof reader->message - 1] = '\0';
    longjmp(reader->jump, 1);
}

/* png_safe_warning's: warnings (benign errors included) are ignored. */
static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/* png_image_memory_read's behaviour and words. */
static void read_memory(png_structp png, png_bytep out, size_t need) {
    tabicons_png_rows *reader = png_get_io_ptr(png);
    if (reader->memory == NULL || reader->size < need) png_error(png, "read beyond end of data");
    memcpy(out, reader->memory, need);
    reader->memory += need;
    reader->size -= need;
}

/* png_image_skip_unused_chunks (PNG_SKIP_CHUNKS): every ancillary chunk but these is discarded
 * unread. The simplified API sets this only after png_read_info, so the text chunks before the
 * image data were each inflated (up to libpng's 8 MB per-chunk cap) and all kept: 250 zTXt chunks
 * of 8 KB held 2 GB. Set here before png_read_info, nothing but these few small chunks is kept. */
static void skip_unused_chunks(png_structp png) {
    static const png_byte chunks_to_process[] = {
        98, 75, 71, 68, '\0',    /* bKGD */
        99, 72, 82, 77, '\0',    /* cHRM */
        103, 65, 77, 65, '\0',   /* gAMA */
        105, 67, 67, 80, '\0',   /* iCCP */
        115, 66, 73, 84, '\0',   /* sBIT */
        115, 82, 71, 66, '\0',   /* sRGB */
    };
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, chunks_to_process,
                                (int)(sizeof chunks_to_process) / 5);
}

tabicons_png_rows *tabicons_png_rows_begin(const unsigned char *data, size_t size,
                                           tabicons_png_rows_header *header,
                                           char *message, size_t message_size) {
    tabicons_png_rows *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        snprintf(message, message_size, "png_image_read: out of memory");
        return NULL;
    }
    reader->memory = data;
    reader->size = size;
    reader->png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning,
                                           reader, counting_malloc, counting_free);
    if (reader->png != NULL) reader->info = png_create_info_struct(reader->png);
    if (reader->png == NULL || reader->info == NULL) {
        snprintf(message, message_size, "png_image_read: out of memory");
        tabicons_png_rows_free(reader);
        return NULL;
    }
    if (setjmp(reader->jump)) {
        snprintf(message, message_size, "%s", reader->message);
        tabicons_png_rows_free(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, read_memory);
    png_set_benign_errors(reader->png, 1);   /* png_image_read_header: warn */
    skip_unused_chunks(reader->png);
    png_read_info(reader->png, reader->info);

    int color_type = png_get_color_type(reader->png, reader->info);
    png_bytep trans_alpha = NULL;
    int num_trans = 0;
    png_color_16p trans_color = NULL;
    if (png_get_valid(reader->png, reader->info, PNG_INFO_tRNS))
        png_get_tRNS(reader->png, reader->info, &trans_alpha, &num_trans, &trans_color);
    header->width = png_get_image_width(reader->png, reader->info);
    header->height = png_get_image_height(reader->png, reader->info);
    header->bit_depth = png_get_bit_depth(reader->png, reader->info);
    header->color_type = color_type;
    header->interlaced = png_get_interlace_type(reader->png, reader->info) != PNG_INTERLACE_NONE;
    /* png_image_format: an alpha channel, or tRNS entries */
    header->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || num_trans > 0;
    return reader;
}

/* The fast path (png_inflated.h) for an image whose RGBA rows libpng would make without a colour
 * conversion: 8 bits or less, not interlaced, a gamma of none or sRGB's (an sRGB chunk sets it),
 * no ICC profile, and transparency only from a palette's tRNS (a colour key is libpng's). Called
 * once libpng has read up to the first IDAT's header, which is the 8 bytes before `memory`, and
 * before png_read_update_info (the info then still says what the file holds). */
static void inflate_whole(tabicons_png_rows *reader) {
    png_structp png = reader->png;
    png_infop info = reader->info;
    int color_type = png_get_color_type(png, info);
    png_fixed_point gamma = 0;
    png_colorp palette = NULL;
    int palette_count = 0;
    png_bytep alpha = NULL;
    int alpha_count = 0;
    png_color_16p key = NULL;
    if (png_get_bit_depth(png, info) > 8 || png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) return;
    if (png_get_gAMA_fixed(png, info, &gamma) && gamma != 45455) return;  /* libpng's PNG_GAMMA_sRGB_INVERSE */
    if (png_get_valid(png, info, PNG_INFO_iCCP)) return;
    if (png_get_valid(png, info, PNG_INFO_tRNS)) {
        if (color_type != PNG_COLOR_TYPE_PALETTE) return;
        png_get_tRNS(png, info, &alpha, &alpha_count, &key);
    }
    if (color_type == PNG_COLOR_TYPE_PALETTE && !png_get_PLTE(png, info, &palette, &palette_count)) return;
    const unsigned char *consumed = reader->memory;
    if (consumed == NULL || memcmp(consumed - 4, "IDAT", 4) != 0) return;
    reader->inflated = tabicons_png_inflated_make(
        consumed - 8, reader->size + 8, png_get_image_width(png, info), png_get_image_height(png, info),
        png_get_bit_depth(png, info), color_type, (const unsigned char *)palette, palette_count, alpha,
        alpha_count);
}

int tabicons_png_rows_start(tabicons_png_rows *reader, int linear, int sixteen_bit_srgb, int inflate_small) {
    if (reader->failed) return 0;
    if (setjmp(reader->jump)) {
        reader->failed = 1;
        return 0;
    }
    png_structp png = reader->png;
    png_infop info = reader->info;
    int bit_depth = png_get_bit_depth(png, info);
    /* Before png_read_update_info, which rewrites the info to what the transformations make. */
    if (inflate_small && !linear) inflate_whole(reader);
    if (linear != (bit_depth == 16))
        png_error(png, "tabicons_png_rows: linear output is for 16-bit sources only");
    int color_type = png_get_color_type(png, info);
    png_bytep trans_alpha = NULL;
    int num_trans = 0;
    png_color_16p trans_color = NULL;
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_get_tRNS(png, info, &trans_alpha, &num_trans, &trans_color);
    int has_colour = (color_type & PNG_COLOR_MASK_COLOR) != 0;
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || num_trans > 0;

    /* png_image_read_direct for PNG_FORMAT_RGBA from an 8-bit-or-less source, or for
     * PNG_FORMAT_LINEAR_RGB_ALPHA from a 16-bit one, step by step. */
    png_set_expand(png);
    if (!has_colour) png_set_gray_to_rgb(png);
    /* input gamma default: linear for 16-bit unless PNG_IMAGE_FLAG_16BIT_sRGB */
    png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG,
                             linear && !sixteen_bit_srgb ? PNG_GAMMA_LINEAR : PNG_DEFAULT_sRGB);
    if (!has_alpha) png_set_add_alpha(png, linear ? 65535 : 255, PNG_FILLER_AFTER);
    if (linear)
        png_set_alpha_mode_fixed(png, has_alpha ? PNG_ALPHA_STANDARD : PNG_ALPHA_PNG, PNG_GAMMA_LINEAR);
    else
        png_set_alpha_mode_fixed(png, PNG_ALPHA_PNG, PNG_DEFAULT_sRGB);  /* output mode and gamma */
    if (linear) {
        const png_uint_16 le = 0x0001;
        if (*(png_const_bytep)&le) png_set_swap(png);  /* native-endian 16-bit samples */
    }
    /* No png_set_interlace_handling: an Adam7 image comes pass by pass, each row of a pass its
     * reduced width; the caller places the pixels (the transformations are per pixel, so each is
     * what the simplified API's combined rows hold). */
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)png_get_image_width(png, info) * (linear ? 8 : 4))
        png_error(png, "png_read_image: invalid transformations");
    reader->started = 1;
    return 1;
}

int tabicons_png_rows_read(tabicons_png_rows *reader, unsigned char *rows, unsigned int count,
                           size_t stride) {
    if (reader->failed || !reader->started) return 0;
    if (setjmp(reader->jump)) {
        reader->failed = 1;
        return 0;
    }
    if (reader->inflated != NULL) {
        for (unsigned int i = 0; i < count; i++)
            if (!tabicons_png_inflated_row(reader->inflated, rows + i * stride))
                png_error(reader->png, "tabicons_png_rows: no rows left");
        return 1;
    }
    for (unsigned int i = 0; i < count; i++) png_read_row(reader->png, rows + i * stride, NULL);
    return 1;
}

const char *tabicons_png_rows_message(const tabicons_png_rows *reader) { return reader->message; }

size_t tabicons_png_rows_peak_bytes(const tabicons_png_rows *reader) { return reader->peak; }

int tabicons_png_rows_inflated_whole(const tabicons_png_rows *reader) { return reader->inflated != NULL; }

void tabicons_png_rows_free(tabicons_png_rows *reader) {
    if (reader == NULL) return;
    tabicons_png_inflated_free(reader->inflated);
    if (reader->png != NULL) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}
