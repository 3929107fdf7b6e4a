/* cpu_sort.c — LSD radix sort; each pass is an instance of the three
 * phases: count = digit histogram per sequence, prefix = digit-major
 * offsets over all sequences, move = stable scatter by digit. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "phases.h"

#define DIGIT_BITS 8
#define RADIX (1u << DIGIT_BITS)

typedef struct sort_pass {
    const uint32_t *src;
    uint32_t *dst;
    unsigned shift;
    uint32_t mask;          /* digit mask after the shift */
    uint32_t flip;          /* mask for descending order, else 0 */
    uint64_t n;
    int skipped;            /* set by the prefix when no key moves */
} sort_pass;

static inline uint32_t digit(const sort_pass *p, uint32_t key)
{
    return ((key >> p->shift) & p->mask) ^ p->flip;
}

static void pass_count(void *arg, uint64_t b, uint64_t e, uint64_t *hist)
{
    sort_pass *p = arg;
    for (uint64_t i = b; i < e; i++) hist[digit(p, p->src[i])]++;
}

static int pass_prefix(void *arg, uint64_t *res, unsigned seqs)
{
    sort_pass *p = arg;
    /* A digit every key shares moves nothing: skip the pass. */
    for (unsigned d = 0; d < RADIX; d++) {
        uint64_t total = 0;
        for (unsigned s = 0; s < seqs; s++) total += res[s * RADIX + d];
        if (total == p->n) return p->skipped = 1;
        if (total) break;
    }
    uint64_t run = 0;
    for (unsigned d = 0; d < RADIX; d++)
        for (unsigned s = 0; s < seqs; s++) {
            uint64_t c = res[s * RADIX + d];
            res[s * RADIX + d] = run;
            run += c;
        }
    return 0;
}

/* Keys wait in a cache line per digit and go out a whole line at a time,
 * with streaming stores where the line is aligned: 256 streams of single
 * key stores into a large array would read every line before writing it. */
#define LINE_KEYS 16

static inline void put_line(uint32_t *dst, const uint32_t *line)
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
    memcpy(dst, line, LINE_KEYS * sizeof *line);
}

static void pass_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                      const uint64_t *off)
{
    sort_pass *p = arg;
    uint64_t pos[RADIX];
    uint32_t line[RADIX][LINE_KEYS] __attribute__((aligned(64)));
    unsigned fill[RADIX], start[RADIX];
    (void)seq;
    memcpy(pos, off, sizeof pos);
    /* A digit's first line is short, so that the later ones end on line
     * boundaries of the destination. */
    for (unsigned d = 0; d < RADIX; d++) {
        unsigned mis = (unsigned)(((uintptr_t)(p->dst + pos[d]) & 63) / 4);
        fill[d] = start[d] = mis;
    }
    for (uint64_t i = b; i < e; i++) {
        uint32_t k = p->src[i], d = digit(p, k);
        line[d][fill[d]++] = k;
        if (fill[d] == LINE_KEYS) {
            unsigned from = start[d];
            if (from) memcpy(p->dst + pos[d], line[d] + from,
                             (LINE_KEYS - from) * sizeof line[d][0]);
            else put_line(p->dst + pos[d], line[d]);
            pos[d] += LINE_KEYS - from;
            fill[d] = start[d] = 0;
        }
    }
    for (unsigned d = 0; d < RADIX; d++)
        memcpy(p->dst + pos[d], line[d] + start[d],
               (fill[d] - start[d]) * sizeof line[d][0]);
#ifdef __SSE2__
    _mm_sfence();
#endif
}

sc_status sc_cpu_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending)
{
    if (n < 2 || lo_bit >= hi_bit) return SC_OK;
    uint32_t *alt = sc_big_alloc(n * sizeof *alt);
    if (!alt) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory sorting %llu "
                             "elements", (unsigned long long)n);
    uint32_t *src = keys, *dst = alt;
    for (unsigned lo = lo_bit; lo < hi_bit; lo += DIGIT_BITS) {
        unsigned bits = hi_bit - lo < DIGIT_BITS ? hi_bit - lo : DIGIT_BITS;
        uint32_t mask = (1u << bits) - 1;
        sort_pass p = { src, dst, lo, mask, descending ? mask : 0, n, 0 };
        sc_phases ph = { n, RADIX, 0, pass_count, pass_prefix, pass_move, &p };
        sc_status st = sc_phases_run(ctx, &ph);
        if (st != SC_OK) { free(alt); return st; }
        if (!p.skipped) { uint32_t *t = src; src = dst; dst = t; }
    }
    if (src != keys) memcpy(keys, src, n * sizeof *keys);
    free(alt);
    return SC_OK;
}
