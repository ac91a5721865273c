/* XXH3-128 through libxxhash's runtime dispatcher, which picks the AVX2 kernel where the CPU has it
 * (about 4x the scalar/SSE2 speed on this project's machines).
 *
 * Debian's libxxhash builds that kernel without clearing the upper halves of the YMM registers on
 * return. Until something executes vzeroupper, every later legacy-SSE instruction on the thread
 * pays a state-transition penalty (measured: other SSE code on the thread ran ~4x slower). So the
 * dispatched call is wrapped here, and vzeroupper is issued right after it. */
#define XXH_DISPATCH_DISABLE_REPLACE 1
#include <xxhash.h>
#include "CXXH3Dispatch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xxh_x86dispatch.h>
#define TABICONS_HAS_DISPATCH 1
#endif

tabicons_xxh128 tabicons_xxh3_128(const void *input, size_t len) {
    XXH128_hash_t h;
#if TABICONS_HAS_DISPATCH
    h = XXH3_128bits_dispatch(input, len);
    /* vzeroupper is an AVX instruction: issue it only where the CPU has AVX (where the
     * dispatcher may have left the upper state dirty); elsewhere it would be illegal. */
    if (__builtin_cpu_supports("avx")) {
        __asm__ __volatile__("vzeroupper" ::: "memory");
    }
#else
    h = XXH3_128bits(input, len);
#endif
    tabicons_xxh128 out = { h.low64, h.high64 };
    return out;
}
