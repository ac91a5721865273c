#ifndef TABICONS_CXXH3_DISPATCH_H
#define TABICONS_CXXH3_DISPATCH_H
#include <stddef.h>
#include <stdint.h>

/// XXH3-128 of `len` bytes, as two 64-bit halves (the canonical hex is high then low).
typedef struct { uint64_t low64; uint64_t high64; } tabicons_xxh128;

tabicons_xxh128 tabicons_xxh3_128(const void *input, size_t len);
#endif
