/* cpu_stat.c — sc-stat's figures as the first of the three phases alone:
 * each sequence reduces its part (sum, zeros, min, max, a HyperLogLog
 * sketch); the prefix step merges the sequences' results and ends the
 * run, as nothing is moved.  The count phase is cpu_stat_impl.h's, once
 * per element width. */
#include <string.h>
#include "cpu/phases.h"

/* Inner sums stay below 2^64 over this many elements, whatever they are. */
#define SUM_BLOCK ((uint64_t)1 << 31)
/* res[] of one sequence: sum lo, sum hi, zeros, min, max, then the
 * sketch's registers as bytes. */
#define RES_FIXED 5
#define RES_WIDTH (RES_FIXED + SC_HLL_REGS / 8)

typedef struct stat_op {
    const void *in;
    sc_stat_acc *acc;
} stat_op;

#define ELEM_T uint32_t
#define W(name) name##32
#include "cpu/cpu_stat_impl.h"
#undef ELEM_T
#undef W

#define ELEM_T uint64_t
#define W(name) name##64
#include "cpu/cpu_stat_impl.h"
#undef ELEM_T
#undef W

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
        part.min = r[3];
        part.max = r[4];
        memcpy(part.reg, r + RES_FIXED, SC_HLL_REGS);
        sc_stat_acc_merge(acc, &part);
    }
    return 1;       /* no move phase */
}

static sc_status stat_run(sc_ctx *ctx, sc_phase_times *times, const void *in,
                          uint64_t n, sc_stat_acc *acc,
                          void (*count)(void *, uint64_t, uint64_t,
                                        uint64_t *))
{
    if (n == 0) return SC_OK;
    stat_op op = { in, acc };
    sc_phases ph = { n, RES_WIDTH, 0, count, stat_merge, NULL, &op };
    sc_status st = sc_phases_run(ctx, times, &ph);
    if (st == SC_OK) acc->count += n;
    return st;
}

sc_status sc_cpu_stat(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_stat_acc *acc)
{
    return stat_run(ctx, times, in, n, acc,
                    sc_type_size(type) == 8 ? stat_count64 : stat_count32);
}
