/* stat_acc.c — sc-stat's running state (core.h): made, merged in any
 * order, and turned into the figures, whichever device reduced it. */
#include <math.h>
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

/* Ertl's improved raw estimator ("New cardinality estimation algorithms
 * for HyperLogLog sketches", 2017): one formula from empty to full, with
 * no bias tables and no switch to linear counting. */
static double sigma(double x)
{
    if (x == 1.0) return INFINITY;
    double y = 1.0, z = x, prev;
    do {
        x *= x;
        prev = z;
        z += x * y;
        y += y;
    } while (z != prev);
    return z;
}

static double tau(double x)
{
    if (x == 0.0 || x == 1.0) return 0.0;
    double y = 1.0, z = 1.0 - x, prev;
    do {
        x = sqrt(x);
        prev = z;
        y *= 0.5;
        z -= (1.0 - x) * (1.0 - x) * y;
    } while (z != prev);
    return z / 3.0;
}

static double hll_estimate(const uint8_t *reg)
{
    enum { Q = 64 - SC_HLL_BITS };
    double m = SC_HLL_REGS, c[Q + 2] = { 0 };
    for (unsigned k = 0; k < SC_HLL_REGS; k++) c[reg[k]] += 1.0;
    double z = m * tau(1.0 - c[Q + 1] / m);
    for (int k = Q; k >= 1; k--) z = 0.5 * (z + c[k]);
    z += m * sigma(c[0] / m);
    return m * m / (2.0 * log(2.0)) / z;
}

uint64_t sc_stat_acc_distinct(const sc_stat_acc *a)
{
    if (a->count == 0) return 0;
    double e = floor(hll_estimate(a->reg) + 0.5);
    /* An estimate never claims more values than there are elements or
     * than fit between min and max; a nonempty input has at least one. */
    double most = (double)(a->max - a->min) + 1.0;
    if ((double)a->count < most) most = (double)a->count;
    return e < 1.0 ? 1 : e > most ? (uint64_t)most : (uint64_t)e;
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

/* A signed type's ranks are x + 2^(width - 1): their sum is count times
 * that more than the elements'. */
unsigned __int128 sc_stat_acc_sum(const sc_stat_acc *a, sc_type t)
{
    unsigned __int128 sum = (unsigned __int128)a->sum_hi << 64 | a->sum;
    if (sc_type_is_signed(t))
        sum -= (unsigned __int128)a->count << (8 * sc_type_size(t) - 1);
    return sum;
}
