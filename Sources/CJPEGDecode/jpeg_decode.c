/*
 * libjpeg(-turbo) decoding behind a setjmp/longjmp error manager. See CJPEGDecode.h for the
 * call order; this file holds every libjpeg call TabIcons makes.
 *
 * Error policy (the README records it):
 *  - libjpeg's errors (error_exit) end the call: CORRUPT, or UNSUPPORTED for a valid file this
 *    build cannot decode (12-bit, lossless SOFn, unknown colour space), or TOO_LARGE.
 *  - Warnings (emit_message level -1) are sorted by what they mean for the pixels:
 *      * JWRN_JPEG_EOF "Premature end of JPEG file": libjpeg then inserts a fake EOI and fills the
 *        rest grey. It is remembered, not fatal by itself, because a file that lacks only its
 *        final EOI marker has all of its pixels (the Huffman decoder reads ahead past the last
 *        code and meets the end). It becomes TRUNCATED as soon as pixels would be invented: a
 *        later JWRN_HIT_MARKER, any error, or a multi-scan file whose scans are incomplete.
 *        Arithmetic-coded data is the exception: libjpeg's arithmetic decoder feeds zeros past
 *        the end without any further warning, so there an early end cannot be told from a
 *        missing EOI and every JWRN_JPEG_EOF counts as TRUNCATED.
 *      * JWRN_HIT_MARKER "premature end of data segment", JWRN_MUST_RESYNC "found marker ...
 *        instead of RSTn", JWRN_HUFF_BAD_CODE, JWRN_ARITH_BAD_CODE: the entropy data is damaged
 *        and libjpeg would zero-fill or skip blocks, so CORRUPT (TRUNCATED after an EOF).
 *      * Every other warning leaves the coded data intact and is tolerated:
 *        JWRN_EXTRANEOUS_DATA (junk bytes before a marker, common in camera files),
 *        JWRN_NOT_SEQUENTIAL, JWRN_BOGUS_PROGRESSION, JWRN_JFIF_MAJOR, JWRN_ADOBE_XFORM,
 *        JWRN_BOGUS_ICC.
 */
#include "CJPEGDecode.h"
#include "jpeg_dc_only.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

enum stage { STAGE_OPEN, STAGE_HEADER, STAGE_SCALED, STAGE_DONE, STAGE_FAILED };

struct tabicons_jpeg_session {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    const unsigned char *data;
    size_t size;
    enum stage stage;
    tabicons_jpeg_status failure;
    /* A JWRN_JPEG_EOF was seen; eof_message holds its text. */
    int saw_eof;
    /* The first scan does not carry every component, or the file is progressive: libjpeg then
     * reads the whole file in jpeg_start_decompress. */
    int multi_scan;
    /* set_scale's decision: the decode reads the DC scans alone (can_stop_after_dc). */
    int dc_only;
    tabicons_jpeg_color color;
    int adobe_inverted;
    /* The first EXIF APP1 payload (after "Exif\0\0"), pointing into `data`; NULL if none. */
    const unsigned char *exif;
    size_t exif_length;
    char message[JMSG_LENGTH_MAX + 64];
    char eof_message[JMSG_LENGTH_MAX];
};

static struct tabicons_jpeg_session *session_of(j_common_ptr cinfo) {
    return (struct tabicons_jpeg_session *)cinfo->client_data;
}

/* Ends the current call with `status`; the message must already be in s->message. */
static void fail(struct tabicons_jpeg_session *s, tabicons_jpeg_status status) {
    s->failure = status;
    s->stage = STAGE_FAILED;
    longjmp(s->jump, 1);
}

/* Ends the current call with `status` and the library's text for the current message code. */
static void fail_with_library_message(struct tabicons_jpeg_session *s, tabicons_jpeg_status status) {
    char text[JMSG_LENGTH_MAX];
    (*s->error.format_message)((j_common_ptr)&s->cinfo, text);
    if (s->saw_eof) {
        /* Whatever went wrong after the data ran out is a consequence of it. */
        if (strcmp(text, s->eof_message) == 0)
            snprintf(s->message, sizeof s->message, "%s", s->eof_message);
        else
            snprintf(s->message, sizeof s->message, "%s (then: %s)", s->eof_message, text);
        fail(s, TABICONS_JPEG_TRUNCATED);
    }
    snprintf(s->message, sizeof s->message, "%s", text);
    fail(s, status);
}

/* Which status a libjpeg error code stands for. */
static tabicons_jpeg_status classify_error(int code) {
    switch (code) {
    case JERR_BAD_PRECISION:       /* 12- or 16-bit samples in an 8-bit build */
    case JERR_SOF_UNSUPPORTED:     /* lossless or hierarchical process */
    case JERR_CONVERSION_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_ARITH_NOTIMPL:
        return TABICONS_JPEG_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
    case JERR_IMAGE_TOO_BIG:       /* more than 65500 px a side */
    case JERR_WIDTH_OVERFLOW:
        return TABICONS_JPEG_TOO_LARGE;
    case JERR_BAD_STATE:
    case JERR_BAD_LIB_VERSION:
    case JERR_BAD_STRUCT_SIZE:
        return TABICONS_JPEG_MISUSE;
    default:
        return TABICONS_JPEG_CORRUPT;
    }
}

/* libjpeg's fatal errors: must not return. */
static void on_error_exit(j_common_ptr cinfo) {
    struct tabicons_jpeg_session *s = session_of(cinfo);
    tabicons_jpeg_status status = classify_error(cinfo->err->msg_code);
    /* 12-bit (and 16-bit lossless) JPEG exists; any other precision is a damaged header. */
    if (cinfo->err->msg_code == JERR_BAD_PRECISION) {
        int precision = cinfo->err->msg_parm.i[0];
        if (precision != 12 && precision != 16) status = TABICONS_JPEG_CORRUPT;
    }
    fail_with_library_message(s, status);
}

/* Warnings (level -1) and trace messages (level >= 0, ignored); see the policy at the top. */
static void on_emit_message(j_common_ptr cinfo, int level) {
    struct tabicons_jpeg_session *s = session_of(cinfo);
    if (level >= 0) return;
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
        if (!s->saw_eof) {
            (*cinfo->err->format_message)(cinfo, s->eof_message);
            s->saw_eof = 1;
        }
        return;
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
        fail_with_library_message(s, TABICONS_JPEG_CORRUPT);
        return;
    default:
        return;
    }
}

/* Nothing is printed: messages travel to Swift as text. */
static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

/* Called between units of work; refuses files with an absurd number of scans. */
static void on_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
    if (dinfo->input_scan_number > TABICONS_JPEG_MAX_SCANS) {
        struct tabicons_jpeg_session *s = session_of(cinfo);
        snprintf(s->message, sizeof s->message,
                 "Corrupt JPEG data: more than %d scans", TABICONS_JPEG_MAX_SCANS);
        fail(s, TABICONS_JPEG_CORRUPT);
    }
}

static tabicons_jpeg_color color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return TABICONS_JPEG_COLOR_GRAY;
    case JCS_YCbCr: return TABICONS_JPEG_COLOR_YCBCR;
    case JCS_RGB: return TABICONS_JPEG_COLOR_RGB;
    case JCS_CMYK: return TABICONS_JPEG_COLOR_CMYK;
    case JCS_YCCK: return TABICONS_JPEG_COLOR_YCCK;
    default: return TABICONS_JPEG_COLOR_UNKNOWN;
    }
}

/* One byte from the source, refilling as libjpeg's own marker readers do; -1 if it suspends
 * (the memory source never does: at the end it inserts a fake EOI and warns). */
static int next_byte(j_decompress_ptr cinfo) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (src->bytes_in_buffer == 0 && !(*src->fill_input_buffer)(cinfo)) return -1;
    src->bytes_in_buffer--;
    return *src->next_input_byte++;
}

/* APP1 markers: the first one that starts "Exif\0" is noted in place (the memory source holds the
 * whole file, so its payload stays readable for the session's life), every APP1 is skipped as
 * libjpeg skips markers nobody asked for. Not jpeg_save_markers: that copies every APP1, and a
 * photo with a large XMP packet split over 114 APP1 segments (bench/inputs/photos/rhythm.jpg)
 * then held 7.3 MB of copies through the whole decode. */
static boolean on_app1(j_decompress_ptr cinfo) {
    struct tabicons_jpeg_session *s = session_of((j_common_ptr)cinfo);
    int high = next_byte(cinfo);
    if (high < 0) return FALSE;
    int low = next_byte(cinfo);
    if (low < 0) return FALSE;
    long length = ((long)high << 8 | low) - 2;
    if (length <= 0) return TRUE;
    struct jpeg_source_mgr *src = cinfo->src;
    if (s->exif == NULL && length >= 6 && src->bytes_in_buffer >= 6 && memcmp(src->next_input_byte, "Exif\0", 5) == 0) {
        size_t available = src->bytes_in_buffer < (size_t)length ? src->bytes_in_buffer : (size_t)length;
        s->exif = src->next_input_byte + 6;
        s->exif_length = available - 6;
    }
    (*src->skip_input_data)(cinfo, length);
    return TRUE;
}

/* Whatever the SOF told us; also called on failure so a 12-bit file reports its precision. */
static void fill_header(const struct tabicons_jpeg_session *s, tabicons_jpeg_header *header) {
    const struct jpeg_decompress_struct *c = &s->cinfo;
    header->width = (int)c->image_width;
    header->height = (int)c->image_height;
    header->components = c->num_components;
    header->color = color_of(c->jpeg_color_space);
    header->adobe_inverted = c->saw_Adobe_marker ? 1 : 0;
    header->data_precision = c->data_precision;
    header->progressive = c->progressive_mode ? 1 : 0;
    header->arithmetic = c->arith_code ? 1 : 0;
}

tabicons_jpeg_session *tabicons_jpeg_open(const void *data, size_t size) {
    struct tabicons_jpeg_session *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->data = data;
    s->size = size;
    s->stage = STAGE_OPEN;
    s->cinfo.err = jpeg_std_error(&s->error);
    s->error.error_exit = on_error_exit;
    s->error.emit_message = on_emit_message;
    s->error.output_message = on_output_message;
    /* jpeg_create_decompress keeps err and client_data when it clears the struct. */
    s->cinfo.client_data = s;
    return s;
}

/* Refuses a call made out of order without touching libjpeg. */
static tabicons_jpeg_status misuse(struct tabicons_jpeg_session *s, const char *what) {
    if (s->stage == STAGE_FAILED) return s->failure;
    snprintf(s->message, sizeof s->message, "%s", what);
    s->failure = TABICONS_JPEG_MISUSE;
    s->stage = STAGE_FAILED;
    return TABICONS_JPEG_MISUSE;
}

tabicons_jpeg_status tabicons_jpeg_read_header(tabicons_jpeg_session *s, tabicons_jpeg_header *header) {
    if (s == NULL || header == NULL) return TABICONS_JPEG_MISUSE;
    if (s->stage != STAGE_OPEN) return misuse(s, "tabicons_jpeg_read_header called out of order");
    memset(header, 0, sizeof *header);
    if (setjmp(s->jump)) {
        fill_header(s, header);
        return s->failure;
    }
    /* A zeroed struct is safe to destroy, so close works whatever happens from here on. */
    jpeg_create_decompress(&s->cinfo);
    s->progress.progress_monitor = on_progress;
    s->cinfo.progress = &s->progress;
    jpeg_mem_src(&s->cinfo, s->data, (unsigned long)s->size);
    jpeg_set_marker_processor(&s->cinfo, JPEG_APP0 + 1, on_app1);
    jpeg_read_header(&s->cinfo, TRUE);

    fill_header(s, header);
    header->exif = s->exif;
    header->exif_length = s->exif_length;
    s->color = header->color;
    s->adobe_inverted = header->adobe_inverted;
    s->multi_scan = s->cinfo.progressive_mode || s->cinfo.comps_in_scan < s->cinfo.num_components;
    s->stage = STAGE_HEADER;
    return TABICONS_JPEG_OK;
}

/* Shrink on load at 1/8 for a progressive file: every component then goes through libjpeg's
 * 1x1 IDCT, which reads the DC coefficient and nothing else, so the AC scans (most of the file)
 * cannot change a pixel: libjpeg is given the DC scans alone and keeps one coefficient a block
 * (jpeg_dc_only.c), and the output is byte for byte what reading every scan gives
 * (bench/README.md: a 3840x2400 progressive photo in under half the time, in 2 MB instead of
 * 55 MB of coefficients). Only for a file that ends with its EOI marker, so a file cut short is
 * still read to the end and reported truncated; damage confined to AC scans a 1/8 decode never
 * uses goes unnoticed there, as it cannot show in the pixels. A subsampled 4:2:0 component
 * is scaled by a 2x2 IDCT that reads AC terms too: such files take the ordinary path. */
static int can_stop_after_dc(const struct tabicons_jpeg_session *s) {
    const struct jpeg_decompress_struct *c = &s->cinfo;
    if (!c->progressive_mode || s->size < 2) return 0;
    if (s->data[s->size - 2] != 0xFF || s->data[s->size - 1] != 0xD9) return 0;
    for (int ci = 0; ci < c->num_components; ci++)
        if (c->comp_info[ci].DCT_scaled_size != 1) return 0;
    return 1;
}

/* The coefficient buffers libjpeg's coefficient controller will request (jdcoefct.c): for a
 * multi-scan file one whole-image array a component, its blocks padded to whole MCUs (a multiple
 * of its sampling factors), 128 bytes a block; none for a single scan, decoded an MCU row at a
 * time. On the DC-only path jpeg_dc_only.c keeps one coefficient a block instead, and a window of
 * the rows libjpeg accesses at once: 5 x v block rows (v block rows, times 5 for progressive block
 * smoothing's neighbours). */
static size_t coefficient_bytes(const struct tabicons_jpeg_session *s) {
    const struct jpeg_decompress_struct *c = &s->cinfo;
    if (!s->multi_scan && !s->dc_only) return 0;
    size_t total = 0;
    for (int ci = 0; ci < c->num_components; ci++) {
        const jpeg_component_info *comp = &c->comp_info[ci];
        size_t h = (size_t)comp->h_samp_factor, v = (size_t)comp->v_samp_factor;
        size_t across = ((size_t)comp->width_in_blocks + h - 1) / h * h;
        size_t down = ((size_t)comp->height_in_blocks + v - 1) / v * v;
        total += s->dc_only ? across * down * sizeof(JCOEF) + 5 * v * across * sizeof(JBLOCK)
                            : across * down * sizeof(JBLOCK);
    }
    return total;
}

tabicons_jpeg_status tabicons_jpeg_set_scale(tabicons_jpeg_session *s, int scale_num,
                                             tabicons_jpeg_output *output) {
    if (s == NULL || output == NULL) return TABICONS_JPEG_MISUSE;
    if (s->stage != STAGE_HEADER && s->stage != STAGE_SCALED)
        return misuse(s, "tabicons_jpeg_set_scale called out of order");
    if (scale_num < 1 || scale_num > 8) return misuse(s, "DCT scale must be 1/8 ... 8/8");
    if (setjmp(s->jump)) return s->failure;

    switch (s->color) {
    case TABICONS_JPEG_COLOR_GRAY:
    case TABICONS_JPEG_COLOR_YCBCR:
    case TABICONS_JPEG_COLOR_RGB:
        /* libjpeg-turbo writes RGBA with alpha 255 directly, grey included. */
        s->cinfo.out_color_space = JCS_EXT_RGBA;
        break;
    case TABICONS_JPEG_COLOR_CMYK:
    case TABICONS_JPEG_COLOR_YCCK:
        /* libjpeg turns YCCK into CMYK; CMYK becomes RGB in read_rgba. */
        s->cinfo.out_color_space = JCS_CMYK;
        break;
    default:
        snprintf(s->message, sizeof s->message,
                 "JPEG with %d components in an unknown colour space", s->cinfo.num_components);
        fail(s, TABICONS_JPEG_UNSUPPORTED);
    }
    /* libjpeg-turbo's defaults stay: accurate integer IDCT (JDCT_ISLOW), fancy upsampling. */
    s->cinfo.scale_num = (unsigned int)scale_num;
    s->cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&s->cinfo);
    if (s->cinfo.out_color_components != 4) {
        snprintf(s->message, sizeof s->message, "unexpected %d output components",
                 s->cinfo.out_color_components);
        fail(s, TABICONS_JPEG_MISUSE);
    }
    s->dc_only = can_stop_after_dc(s);
    output->width = (int)s->cinfo.output_width;
    output->height = (int)s->cinfo.output_height;
    output->dc_only = s->dc_only;
    output->coefficient_bytes = coefficient_bytes(s);
    s->stage = STAGE_SCALED;
    return TABICONS_JPEG_OK;
}

/* Whether a multi-scan file that met the end of its data still got all of its scans: every
 * coefficient of every component refined down to Al = 0 (progressive files only; a sequential
 * file split by component cannot tell, so an early end there always counts as truncation). */
static int scans_complete(const struct jpeg_decompress_struct *c) {
    if (!c->progressive_mode || c->coef_bits == NULL) return 0;
    for (int ci = 0; ci < c->num_components; ci++)
        for (int k = 0; k < DCTSIZE2; k++)
            if (c->coef_bits[ci][k] != 0) return 0;
    return 1;
}

/* Ends the call with TRUNCATED when the data ran out and that may have cost pixels: always for
 * arithmetic coding (its decoder zero-fills silently), and for a multi-scan Huffman file whose
 * scans are incomplete. (A single-scan Huffman file that ran short has already failed through
 * JWRN_HIT_MARKER.) */
static void fail_if_truncated(struct tabicons_jpeg_session *s) {
    if (!s->saw_eof) return;
    if (s->cinfo.arith_code || (s->multi_scan && !scans_complete(&s->cinfo))) {
        snprintf(s->message, sizeof s->message, "%s", s->eof_message);
        fail(s, TABICONS_JPEG_TRUNCATED);
    }
}

/* Every component's DC coefficient refined to its last bit (Al = 0). */
static int dc_complete(const struct jpeg_decompress_struct *c) {
    if (c->coef_bits == NULL) return 0;
    for (int ci = 0; ci < c->num_components; ci++)
        if (c->coef_bits[ci][0] != 0) return 0;
    return 1;
}

/* round(a * b / 255) exactly, for 0...255 inputs. */
static inline unsigned char mul255(unsigned a, unsigned b) {
    unsigned t = a * b + 128;
    return (unsigned char)((t + (t >> 8)) >> 8);
}

/* CMYK (4 bytes a pixel) to RGBA in place. Adobe (Photoshop) files store 255 − ink, so with those
 * values R = C·K/255; files without the Adobe marker store ink and are inverted first. */
static void cmyk_to_rgba(unsigned char *p, size_t pixels, int inverted) {
    for (size_t i = 0; i < pixels; i++, p += 4) {
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        p[0] = mul255(c, k);
        p[1] = mul255(m, k);
        p[2] = mul255(y, k);
        p[3] = 255;
    }
}

tabicons_jpeg_status tabicons_jpeg_read_rgba(tabicons_jpeg_session *s, unsigned char *rgba, size_t size) {
    if (s == NULL || rgba == NULL) return TABICONS_JPEG_MISUSE;
    if (s->stage != STAGE_SCALED) return misuse(s, "tabicons_jpeg_read_rgba called out of order");
    size_t stride = (size_t)s->cinfo.output_width * 4;
    if (size != stride * (size_t)s->cinfo.output_height)
        return misuse(s, "the RGBA buffer does not match the output size");
    if (setjmp(s->jump)) return s->failure;

    if (s->dc_only) {
        s->cinfo.buffered_image = TRUE;
        s->cinfo.do_block_smoothing = FALSE;   /* it estimates AC terms only; DC is all we read */
        /* When the scans cannot be told apart, libjpeg reads them all, up to the last DC one. */
        (void)tabicons_jpeg_dc_only_begin(&s->cinfo, s->data, s->size);
        jpeg_start_decompress(&s->cinfo);
        while (!dc_complete(&s->cinfo)) {
            /* What jpeg_start_decompress does before each step of its own input loop: the
             * scan limit holds here too. */
            on_progress((j_common_ptr)&s->cinfo);
            int status = jpeg_consume_input(&s->cinfo);
            if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
        }
        fail_if_truncated(s);
        jpeg_start_output(&s->cinfo, s->cinfo.input_scan_number);
    } else {
        jpeg_start_decompress(&s->cinfo);
        /* A multi-scan file has been read to its (possibly fake) EOI by now. */
        if (s->multi_scan) fail_if_truncated(s);
    }
    while (s->cinfo.output_scanline < s->cinfo.output_height) {
        JSAMPROW rows[16];
        JDIMENSION first = s->cinfo.output_scanline;
        JDIMENSION count = s->cinfo.output_height - first;
        if (count > 16) count = 16;
        for (JDIMENSION r = 0; r < count; r++) rows[r] = rgba + (size_t)(first + r) * stride;
        if (jpeg_read_scanlines(&s->cinfo, rows, count) == 0) {
            /* Only a suspending source returns no lines; the memory source never does. */
            snprintf(s->message, sizeof s->message, "libjpeg returned no scanlines");
            fail(s, TABICONS_JPEG_CORRUPT);
        }
    }
    fail_if_truncated(s);
    if (s->color == TABICONS_JPEG_COLOR_CMYK || s->color == TABICONS_JPEG_COLOR_YCCK)
        cmyk_to_rgba(rgba, (size_t)s->cinfo.output_width * s->cinfo.output_height, s->adobe_inverted);
    /* No jpeg_finish_decompress: every pixel is in hand, and reading on to the EOI would only
     * turn a missing EOI or trailing junk into a warning about data we do not use. */
    s->stage = STAGE_DONE;
    return TABICONS_JPEG_OK;
}

const char *tabicons_jpeg_message(const tabicons_jpeg_session *s) {
    return s == NULL ? "" : s->message;
}

void tabicons_jpeg_close(tabicons_jpeg_session *s) {
    if (s == NULL) return;
    jpeg_destroy_decompress(&s->cinfo);
    free(s);
}
