/* radix.c — LSD radix passes; each is an instance of the three
 * phases: count = digit histogram per sequence, prefix = digit-major
 * offsets over all sequences, move = stable scatter by digit.  The
 * passes themselves are radix_impl.h's, once per key width. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "cpu/phases.h"
#include "cpu/radix.h"

/* Whether one digit holds all n keys (res: RADIX counts per sequence):
 * such a pass moves nothing, and is skipped. */
static int sc_radix_one_digit(const uint64_t *res, unsigned seqs, uint64_t n)
{
    for (unsigned d = 0; d < RADIX; d++) {
        uint64_t total = 0;
        for (unsigned s = 0; s < seqs; s++) total += res[s * RADIX + d];
        if (total == n) return 1;
        if (total) return 0;
    }
    return 0;
}

/* The counts to digit-major offsets in place; bounds (if set) gets each
 * digit's first position, and the total at [RADIX]. */
static void sc_radix_offsets(uint64_t *res, unsigned seqs, uint64_t *bounds)
{
    uint64_t run = 0;
    for (unsigned d = 0; d < RADIX; d++) {
        if (bounds) bounds[d] = run;
        for (unsigned s = 0; s < seqs; s++) {
            uint64_t c = res[s * RADIX + d];
            res[s * RADIX + d] = run;
            run += c;
        }
    }
    if (bounds) bounds[RADIX] = run;
}

/* Keys wait in a cache line per digit and go out a whole line at a time,
 * with streaming stores where the line is aligned: RADIX (2048) streams of
 * single key stores into a large array would read every line before
 * writing it.  A line is 64 bytes, whatever the keys' width. */
static inline void put_line(void *dst, const void *line)
{
#ifdef __SSE2__
    if (((uintptr_t)dst & 63) == 0) {
        __m128i *d = (__m128i *)dst;
        const __m128i *l = (const __m128i *)line;
        _mm_stream_si128(d, _mm_load_si128(l));
        _mm_stream_si128(d + 1, _mm_load_si128(l + 1));
        _mm_stream_si128(d + 2, _mm_load_si128(l + 2));
        _mm_stream_si128(d + 3, _mm_load_si128(l + 3));
        return;
    }
#endif
    memcpy(dst, line, 64);
}

static void rank32(sc_pool *pool, unsigned threads, sc_type type, void *keys,
                   uint64_t n, int unrank)
{
    sc_keys_rank(pool, threads, sc_key_of((uint32_t)type), keys, n, unrank);
}

static void rank64(sc_pool *pool, unsigned threads, sc_type type, void *keys,
                   uint64_t n, int unrank)
{
    sc_keys_rank64(pool, threads, sc_key64_of((uint32_t)type), keys, n,
                   unrank);
}

#define W_(name, bits) name##bits
#define W__(name, bits) W_(name, bits)

#define KEY_T uint32_t
#define ORDER_T sc_order
#define ORDER_INIT(o, lo, hi, desc) sc_order_init((o), (lo), (hi), (desc))
#define ORDER_DIGIT(o, k) sc_order_digit((o), (k))
#define W(name) W__(name, 32)
#define RANK_FN rank32
#include "cpu/radix_impl.h"
#undef RANK_FN
#undef KEY_T
#undef ORDER_T
#undef ORDER_INIT
#undef ORDER_DIGIT
#undef W

#define KEY_T uint64_t
#define ORDER_T sc_order64
#define ORDER_INIT(o, lo, hi, desc) sc_order64_init((o), (lo), (hi), (desc), \
                                                    SC_U64)
#define ORDER_DIGIT(o, k) sc_order64_digit((o), (k))
#define W(name) W__(name, 64)
#define RANK_FN rank64
#include "cpu/radix_impl.h"
#undef RANK_FN
#undef KEY_T
#undef ORDER_T
#undef ORDER_INIT
#undef ORDER_DIGIT
#undef W
