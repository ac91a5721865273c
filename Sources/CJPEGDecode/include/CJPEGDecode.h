/* PLACEHOLDER: the libjpeg setjmp wrapper arrives with the JPEG decoder (issue 2). */
#ifndef TABICONS_CJPEG_DECODE_H
#define TABICONS_CJPEG_DECODE_H
int tabicons_jpeg_placeholder(void);
#endif
