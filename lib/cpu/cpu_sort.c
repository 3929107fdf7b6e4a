/* cpu_sort.c — LSD radix sort; each pass is an instance of the three
 * phases: count = digit histogram per sequence, prefix = digit-major
 * offsets over all sequences, move = stable scatter by digit. */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "phases.h"

/* Measured on 256M keys, 2 threads: 11-bit digits (3 passes) 2.3 s,
 * 8-bit digits (4 passes) 2.7 s; the line buffers keep 2048 streams fast. */
#define DIGIT_BITS 11
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

/* A sequence's scatter state: 160 KiB at 11-bit digits, so it lives on
 * the heap rather than on a thread's stack. */
typedef struct scatter {
    uint32_t line[RADIX][LINE_KEYS];
    uint64_t pos[RADIX];
    unsigned fill[RADIX], start[RADIX];
} scatter;

static void move_direct(const sort_pass *p, uint64_t b, uint64_t e,
                        uint64_t *pos)
{
    for (uint64_t i = b; i < e; i++) {
        uint32_t k = p->src[i];
        p->dst[pos[digit(p, k)]++] = k;
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
        uint32_t k = p->src[i], d = digit(p, k);
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

static void pass_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
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
        move_direct(p, b, e, pos);
        return;
    }
    memcpy(sc->pos, off, sizeof sc->pos);
    move_by_lines(p, b, e, sc);
    free(sc);
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
