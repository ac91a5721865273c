#ifndef TABICONS_CWEBP_SHIM_H
#define TABICONS_CWEBP_SHIM_H
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>
#endif
