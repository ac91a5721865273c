/*
 * libpng's classic write API behind setjmp/longjmp. Every libpng call TabIcons makes to write a
 * PNG is in this file; see CPNGEncode.h.
 */
#include "CPNGEncode.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct writer {
    tabicons_png_output *output;
    char *message;
    size_t message_size;
    int out_of_memory;
};

static void on_error(png_structp png, png_const_charp text) {
    struct writer *w = (struct writer *)png_get_error_ptr(png);
    if (w->message != NULL && w->message_size > 0) {
        strncpy(w->message, text != NULL ? text : "libpng error", w->message_size - 1);
        w->message[w->message_size - 1] = '\0';
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void on_write(png_structp png, png_bytep data, size_t length) {
    struct writer *w = (struct writer *)png_get_io_ptr(png);
    tabicons_png_output *out = w->output;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity < out->size + length) capacity *= 2;
        unsigned char *grown = realloc(out->data, capacity);
        if (grown == NULL) {
            w->out_of_memory = 1;
            png_error(png, "out of memory for the PNG output");
        }
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

static void on_flush(png_structp png) { (void)png; }

int tabicons_png_encode(const unsigned char *pixels, int width, int height, size_t stride,
                        const tabicons_png_settings *settings, tabicons_png_output *output,
                        char *message, size_t message_size) {
    struct writer w = {output, message, message_size, 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w, on_error, on_warning);
    if (png == NULL) {
        if (message_size > 0) snprintf(message, message_size, "out of memory for a PNG writer");
        return 0;
    }
    png_infop info = png_create_info_struct(png);
    /* volatile: read after a longjmp */
    png_bytep *volatile rows = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        free(rows);
        png_destroy_write_struct(&png, info != NULL ? &info : NULL);
        if (info == NULL && message_size > 0) snprintf(message, message_size, "out of memory for a PNG writer");
        return 0;
    }
    png_set_write_fn(png, &w, on_write, on_flush);
    png_set_compression_level(png, settings->level);
    png_set_compression_strategy(png, settings->strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, settings->filters);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, settings->bit_depth, settings->color_type,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (settings->color_type == PNG_COLOR_TYPE_PALETTE) {
        png_color palette[256];
        int count = settings->palette_count > 256 ? 256 : settings->palette_count;
        for (int i = 0; i < count; i++) {
            palette[i].red = settings->palette[i * 3];
            palette[i].green = settings->palette[i * 3 + 1];
            palette[i].blue = settings->palette[i * 3 + 2];
        }
        png_set_PLTE(png, info, palette, count);
        if (settings->trns_count > 0) {
            png_set_tRNS(png, info, (png_bytep)settings->trns, settings->trns_count, NULL);
        }
    }
    png_write_info(png, info);
    if (settings->bit_depth < 8) png_set_packing(png);
    rows = malloc(sizeof(png_bytep) * (size_t)(height > 0 ? height : 1));
    if (rows == NULL) png_error(png, "out of memory for the PNG rows");
    for (int y = 0; y < height; y++) rows[y] = (png_bytep)(pixels + (size_t)y * stride);
    png_write_image(png, rows);
    png_write_end(png, NULL);
    free(rows);
    png_destroy_write_struct(&png, &info);
    return 1;
}

void tabicons_png_output_free(tabicons_png_output *output) {
    if (output == NULL) return;
    free(output->data);
    output->data = NULL;
    output->size = output->capacity = 0;
}
