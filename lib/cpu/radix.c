/* radix.c — LSD radix passes; each is an instance of the three
 * phases: count = digit histogram per sequence, prefix = digit-major
 * offsets over all sequences, move = stable scatter by digit. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "cpu/phases.h"
#include "cpu/radix.h"

sort_pass sc_radix_pass(const uint32_t *src, uint32_t *dst, uint64_t n,
                        unsigned lo, unsigned bits, int descending)
{
    sort_pass p = { src, dst, { 0, 0, 0, { 0, 0 } }, n, 0, NULL };
    sc_order_init(&p.digit, lo, lo + bits, descending);
    return p;
}

void sc_radix_count(void *arg, uint64_t b, uint64_t e, uint64_t *hist)
{
    sort_pass *p = arg;
    for (uint64_t i = b; i < e; i++) hist[sc_order_digit(&p->digit, p->src[i])]++;
}

int sc_radix_prefix(void *arg, uint64_t *res, unsigned seqs)
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
    for (unsigned d = 0; d < RADIX; d++) {
        if (p->bounds) p->bounds[d] = run;
        for (unsigned s = 0; s < seqs; s++) {
            uint64_t c = res[s * RADIX + d];
            res[s * RADIX + d] = run;
            run += c;
        }
    }
    if (p->bounds) p->bounds[RADIX] = run;
    return 0;
}

/* Keys wait in a cache line per digit and go out a whole line at a time,
 * with streaming stores where the line is aligned: RADIX (2048) streams of
 * single key stores into a large array would read every line before
 * writing it. */
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

/* A sequence's scatter state: 160 KiB at 11-bit digits, so it lives on
 * the heap rather than on a thread's stack. */
typedef struct scatter {
    uint32_t line[RADIX][LINE_KEYS];
    uint64_t pos[RADIX];
    unsigned fill[RADIX], start[RADIX];
} scatter;

void sc_radix_scatter(const sort_pass *p, uint64_t b, uint64_t e,
                      uint64_t *pos)
{
    for (uint64_t i = b; i < e; i++) {
        uint32_t k = p->src[i];
        p->dst[pos[sc_order_digit(&p->digit, k)]++] = k;
    }
}

static void move_by_lines(const sort_pass *p, uint64_t b, uint64_t e,
                          scatter *sc)
{
    /* A digit's first line is short, so that the later ones end on line
     * boundaries of the destination. */
    for (unsigned d = 0; d < RADIX; d++) {
        uintptr_t at = (uintptr_t)(p->dst + sc->pos[d]);
        sc->fill[d] = sc->start[d] = (unsigned)((at & 63) / 4);
    }
    for (uint64_t i = b; i < e; i++) {
        uint32_t k = p->src[i], d = sc_order_digit(&p->digit, k);
        sc->line[d][sc->fill[d]++] = k;
        if (sc->fill[d] == LINE_KEYS) {
            unsigned from = sc->start[d];
            if (from) memcpy(p->dst + sc->pos[d], sc->line[d] + from,
                             (LINE_KEYS - from) * sizeof (uint32_t));
            else put_line(p->dst + sc->pos[d], sc->line[d]);
            sc->pos[d] += LINE_KEYS - from;
            sc->fill[d] = sc->start[d] = 0;
        }
    }
    for (unsigned d = 0; d < RADIX; d++)
        memcpy(p->dst + sc->pos[d], sc->line[d] + sc->start[d],
               (sc->fill[d] - sc->start[d]) * sizeof (uint32_t));
#ifdef __SSE2__
    _mm_sfence();
#endif
}

void sc_radix_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                   const uint64_t *off)
{
    const sort_pass *p = arg;
    (void)seq;
    /* Short sequences gain nothing from lines; and without memory for
     * them the keys still go straight to their places. */
    scatter *sc = e - b >= (uint64_t)RADIX * LINE_KEYS
                ? aligned_alloc(64, sizeof *sc) : NULL;
    if (!sc) {
        uint64_t pos[RADIX];
        memcpy(pos, off, sizeof pos);
        sc_radix_scatter(p, b, e, pos);
        return;
    }
    memcpy(sc->pos, off, sizeof sc->pos);
    move_by_lines(p, b, e, sc);
    free(sc);
}

sc_status sc_radix_lsd(sc_ctx *ctx, sc_phase_times *times, uint32_t *src,
                       uint32_t *dst, uint64_t n, unsigned lo, unsigned hi,
                       int descending, uint32_t **result)
{
    for (; lo < hi; lo += DIGIT_BITS) {
        unsigned bits = hi - lo < DIGIT_BITS ? hi - lo : DIGIT_BITS;
        sort_pass p = sc_radix_pass(src, dst, n, lo, bits, descending);
        sc_phases ph = { n, RADIX, 0, sc_radix_count, sc_radix_prefix,
                         sc_radix_move, &p };
        sc_status st = sc_phases_run(ctx, times, &ph);
        if (st != SC_OK) return st;
        if (!p.skipped) { uint32_t *t = src; src = dst; dst = t; }
    }
    *result = src;
    return SC_OK;
}
