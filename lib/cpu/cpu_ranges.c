/* cpu_ranges.c — sc-split --ranges on a chunk: a stable split into many
 * parts as the three phases.  Each sequence counts its elements per
 * part; the prefix gives each sequence its place in every part (parts
 * one after another, sequences in input order within a part); the move
 * writes each element there.  So every part keeps input order. */
#include <string.h>
#include "cpu/cpu.h"
#include "cpu/phases.h"

typedef struct ranges_op {
    const uint32_t *in;
    const uint32_t *bounds;     /* ranks (sc_key) */
    sc_key key;
    unsigned nb;
    uint32_t *out;
    uint64_t *counts;
} ranges_op;

/* The number of bounds at or below x, without branches to mispredict:
 * the parts of random data are a coin toss at every step. */
static inline unsigned part_of(const uint32_t *b, unsigned nb, uint32_t x)
{
    if (nb == 0) return 0;
    const uint32_t *base = b;
    unsigned len = nb;
    while (len > 1) {
        unsigned half = len / 2;
        base = base[half] <= x ? base + half : base;
        len -= half;
    }
    return (unsigned)(base - b) + (*base <= x);
}

static void ranges_count(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    const ranges_op *op = arg;
    for (uint64_t i = b; i < e; i++)
        res[part_of(op->bounds, op->nb, sc_key_rank(op->key, op->in[i]))]++;
}

/* res[q * parts + p]: sequence q's count in part p, then its offset. */
static int ranges_prefix(void *arg, uint64_t *res, unsigned seqs)
{
    ranges_op *op = arg;
    unsigned parts = op->nb + 1;
    uint64_t at = 0;
    for (unsigned p = 0; p < parts; p++) {
        uint64_t start = at;
        for (unsigned q = 0; q < seqs; q++) {
            uint64_t c = res[(size_t)q * parts + p];
            res[(size_t)q * parts + p] = at;
            at += c;
        }
        op->counts[p] = at - start;
    }
    return 0;
}

static void ranges_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                        const uint64_t *offsets)
{
    const ranges_op *op = arg;
    uint64_t at[SC_MAX_PARTS];
    (void)seq;
    memcpy(at, offsets, (op->nb + 1) * sizeof *at);
    for (uint64_t i = b; i < e; i++) {
        uint32_t x = op->in[i];
        op->out[at[part_of(op->bounds, op->nb, sc_key_rank(op->key, x))]++] = x;
    }
}

sc_status sc_cpu_ranges(sc_ctx *ctx, sc_phase_times *times,
                        const uint32_t *in, uint64_t n,
                        const uint32_t *bounds, sc_key key, unsigned nb,
                        uint32_t *out, uint64_t *counts)
{
    if (nb >= SC_MAX_PARTS)
        return sc_fail(ctx, SC_ERR_USAGE, "too many bounds");
    memset(counts, 0, (nb + 1) * sizeof *counts);
    if (n == 0) return SC_OK;
    ranges_op op = { in, bounds, key, nb, out, counts };
    sc_phases ph = { n, nb + 1, 0, ranges_count, ranges_prefix, ranges_move,
                     &op };
    return sc_phases_run(ctx, times, &ph);
}
