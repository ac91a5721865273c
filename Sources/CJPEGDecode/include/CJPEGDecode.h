/*
 * CJPEGDecode: libjpeg(-turbo) behind a setjmp/longjmp error manager, for Swift.
 *
 * libjpeg reports a fatal error by calling error_exit, which must not return; the only safe way
 * out is longjmp, and Swift cannot call setjmp. So every libjpeg call lives in this file, each
 * public function sets its own jump point, and Swift only ever sees status codes and copied text.
 *
 * Use, in this order, on one thread:
 *   s = tabicons_jpeg_open(bytes, count)          // NULL only when malloc fails
 *   tabicons_jpeg_read_header(s, &header)         // nothing is decoded yet
 *   ... the caller checks its size limits against header.width/height ...
 *   tabicons_jpeg_set_scale(s, m, &output)        // decode at m/8: the real output size, and
 *                                                 // what the decode will hold (its estimate)
 *   tabicons_jpeg_read_rgba(s, buffer, w * h * 4) // 8-bit RGBA, alpha 255
 *   tabicons_jpeg_close(s)                        // always, on every path
 * After a call fails, the session only answers its message and can only be closed.
 */
#ifndef TABICONS_CJPEG_DECODE_H
#define TABICONS_CJPEG_DECODE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call reports; TabIcons maps each to one TabIconsError code. */
typedef enum {
    TABICONS_JPEG_OK = 0,
    /* The data is damaged: libjpeg's own error, or a warning that means invented pixels. */
    TABICONS_JPEG_CORRUPT = 1,
    /* The data ends before the image does ("Premature end of JPEG file"). */
    TABICONS_JPEG_TRUNCATED = 2,
    /* A valid JPEG of a kind this build cannot decode: 12-bit, lossless, unknown colour space. */
    TABICONS_JPEG_UNSUPPORTED = 3,
    /* libjpeg ran out of memory, or the header claims more than libjpeg's 65500 px a side. */
    TABICONS_JPEG_TOO_LARGE = 4,
    /* The caller broke the call order or passed a buffer of the wrong size. */
    TABICONS_JPEG_MISUSE = 5
} tabicons_jpeg_status;

/* The source colour space as the file declares it (libjpeg's jpeg_color_space). */
typedef enum {
    TABICONS_JPEG_COLOR_UNKNOWN = 0,
    TABICONS_JPEG_COLOR_GRAY = 1,
    TABICONS_JPEG_COLOR_YCBCR = 2,
    TABICONS_JPEG_COLOR_RGB = 3,
    TABICONS_JPEG_COLOR_CMYK = 4,
    TABICONS_JPEG_COLOR_YCCK = 5
} tabicons_jpeg_color;

/* What jpeg_read_header learned. Sizes are as stored, before EXIF orientation. */
typedef struct {
    int width;
    int height;
    int components;
    tabicons_jpeg_color color;
    /* An Adobe APP14 marker was present: CMYK/YCCK samples are stored inverted (Photoshop). */
    int adobe_inverted;
    int data_precision;
    int progressive;
    int arithmetic;
    /* The payload of the first APP1 "Exif\0" marker, after those six bytes (a TIFF header), or
     * NULL/0. It points into the session and is valid until tabicons_jpeg_close. */
    const unsigned char *exif;
    size_t exif_length;
} tabicons_jpeg_header;

/* What a decode at the chosen scale will be, as libjpeg has set it up (jpeg_calc_output_dimensions):
 * decided here, where libjpeg's own numbers are, so that Swift's memory estimate models nothing. */
typedef struct {
    /* The RGBA output's size. */
    int width;
    int height;
    /* The decode reads the DC scans alone (a progressive file ending in its EOI whose every
     * component goes through libjpeg's 1x1 IDCT at this scale): jpeg_dc_only.c. */
    int dc_only;
    /* The coefficient buffers libjpeg will hold: none for a single-scan file, every coefficient of
     * every block for a multi-scan one (progressive, or components in separate scans), and for
     * the DC-only path one coefficient a block plus libjpeg's window of whole blocks. */
    size_t coefficient_bytes;
} tabicons_jpeg_output;

typedef struct tabicons_jpeg_session tabicons_jpeg_session;

/* A session over `size` bytes at `data`, which must stay alive and unchanged until close.
 * NULL when the session itself cannot be allocated. */
tabicons_jpeg_session *tabicons_jpeg_open(const void *data, size_t size);

/* Reads the markers up to the first scan, saving APP1 for EXIF. On TABICONS_JPEG_UNSUPPORTED for
 * a 12-bit file, header->data_precision still says 12. */
tabicons_jpeg_status tabicons_jpeg_read_header(tabicons_jpeg_session *session, tabicons_jpeg_header *header);

/* Chooses DCT scaling scale_num/8 (1...8) and reports the output libjpeg will produce
 * (jpeg_calc_output_dimensions; the RGBA buffer must match its size), whether it comes from the
 * DC scans alone, and the coefficients it will hold. Nothing is decoded yet. */
tabicons_jpeg_status tabicons_jpeg_set_scale(tabicons_jpeg_session *session, int scale_num,
                                             tabicons_jpeg_output *output);

/* Decodes every scanline into `rgba` (output_width * output_height * 4 bytes, rows packed). */
tabicons_jpeg_status tabicons_jpeg_read_rgba(tabicons_jpeg_session *session, unsigned char *rgba, size_t size);

/* The reason for the last failure in libjpeg's words (format_message), or "" when none. */
const char *tabicons_jpeg_message(const tabicons_jpeg_session *session);

/* Destroys the libjpeg state and frees the session; NULL is fine. */
void tabicons_jpeg_close(tabicons_jpeg_session *session);

/* The most progressive scans a file may have; more is treated as corrupt. Real encoders write
 * about ten; a crafted file with thousands makes every decode pass over the whole image again
 * (the libjpeg-turbo documentation recommends such a limit for untrusted input). */
#define TABICONS_JPEG_MAX_SCANS 500

#ifdef __cplusplus
}
#endif

#endif
