/* stat_acc.c — sc-stat's running state (core.h): made, merged in any
 * order, and turned into the figures, whichever device reduced it. */
#include <string.h>
#include "core/core.h"

void sc_stat_acc_init(sc_stat_acc *a)
{
    memset(a, 0, sizeof *a);
    a->min = UINT64_MAX;
}

void sc_stat_acc_merge(sc_stat_acc *a, const sc_stat_acc *b)
{
    a->count += b->count;
    a->zeros += b->zeros;
    sc_add128(&a->sum, &a->sum_hi, b->sum, b->sum_hi);
    if (b->min < a->min) a->min = b->min;
    if (b->max > a->max) a->max = b->max;
    for (unsigned k = 0; k < SC_HLL_REGS; k++)
        if (b->reg[k] > a->reg[k]) a->reg[k] = b->reg[k];
}

/* The estimate is sc_hd.h's, which a kernel shares (sc_dev_stat). */
uint64_t sc_stat_acc_distinct(const sc_stat_acc *a)
{
    double c[SC_HLL_Q + 2] = { 0 };
    for (unsigned k = 0; k < SC_HLL_REGS; k++) c[a->reg[k]] += 1.0;
    return sc_hll_distinct(c, a->count, a->min, a->max);
}

void sc_stat_acc_result(const sc_stat_acc *a, sc_stats *out)
{
    out->count = a->count;
    out->zeros = a->zeros;
    out->sum = a->sum;
    out->sum_hi = a->sum_hi;
    /* 32-bit elements: an empty input's min is UINT32_MAX, as it was. */
    out->min = (uint32_t)a->min;
    out->max = (uint32_t)a->max;
    out->distinct = sc_stat_acc_distinct(a);
}

/* The sum of the elements of type t whose ranks were added. */
unsigned __int128 sc_stat_acc_sum(const sc_stat_acc *a, sc_type t)
{
    uint64_t lo = a->sum, hi = a->sum_hi;
    sc_stat_unbias(t, a->count, &lo, &hi);
    return (unsigned __int128)hi << 64 | lo;
}
