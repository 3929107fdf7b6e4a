/* cpu_stat.c — sc-stat's figures as the first of the three phases alone:
 * each sequence reduces its part (sum, zeros, min, max, a HyperLogLog
 * sketch); the prefix step merges the sequences' results and ends the
 * run, as nothing is moved. */
#include <string.h>
#include "cpu/phases.h"

/* Inner sums stay below 2^64 over this many elements, whatever they are. */
#define SUM_BLOCK ((uint64_t)1 << 31)
/* res[] of one sequence: sum lo, sum hi, zeros, min | max << 32, then
 * the sketch's registers as bytes. */
#define RES_FIXED 4
#define RES_WIDTH (RES_FIXED + SC_HLL_REGS / 8)

/* The sketch's rule is sc_hd.h's, which the GPU's kernel shares. */
static void sketch(const uint32_t *in, uint64_t b, uint64_t e, uint8_t *reg)
{
    for (uint64_t i = b; i < e; i++) {
        uint64_t h = sc_hll_hash(in[i]);
        uint32_t idx = sc_hll_reg(h), rank = sc_hll_rank(h);
        if (rank > reg[idx]) reg[idx] = (uint8_t)rank;
    }
}

typedef struct stat_op {
    const uint32_t *in;
    sc_stat_acc *acc;
} stat_op;

static void stat_count(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    const uint32_t *in = ((stat_op *)arg)->in;
    uint64_t lo = 0, hi = 0, zeros = 0;
    uint32_t mn = UINT32_MAX, mx = 0;
    for (uint64_t i = b; i < e;) {
        uint64_t stop = e - i > SUM_BLOCK ? i + SUM_BLOCK : e, s = 0;
        /* One plain loop the compiler vectorises; the sketch is apart. */
        for (; i < stop; i++) {
            uint32_t x = in[i];
            s += x;
            zeros += x == 0;
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
        }
        sc_add128(&lo, &hi, s, 0);
    }
    res[0] = lo;
    res[1] = hi;
    res[2] = zeros;
    res[3] = mn | (uint64_t)mx << 32;
    sketch(in, b, e, (uint8_t *)(res + RES_FIXED));
}

static int stat_merge(void *arg, uint64_t *res, unsigned seqs)
{
    sc_stat_acc *acc = ((stat_op *)arg)->acc;
    sc_stat_acc part;
    for (unsigned q = 0; q < seqs; q++) {
        const uint64_t *r = res + (size_t)q * RES_WIDTH;
        sc_stat_acc_init(&part);
        part.sum = r[0];
        part.sum_hi = r[1];
        part.zeros = r[2];
        part.min = (uint32_t)r[3];
        part.max = (uint32_t)(r[3] >> 32);
        memcpy(part.reg, r + RES_FIXED, SC_HLL_REGS);
        sc_stat_acc_merge(acc, &part);
    }
    return 1;       /* no move phase */
}

sc_status sc_cpu_stat(sc_ctx *ctx, sc_phase_times *times, const uint32_t *in,
                      uint64_t n, sc_stat_acc *acc)
{
    if (n == 0) return SC_OK;
    stat_op op = { in, acc };
    sc_phases ph = { n, RES_WIDTH, 0, stat_count, stat_merge, NULL, &op };
    sc_status st = sc_phases_run(ctx, times, &ph);
    if (st == SC_OK) acc->count += n;
    return st;
}
