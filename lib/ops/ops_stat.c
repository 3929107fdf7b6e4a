/* ops_stat.c — sc_stat() on host arrays.  The reduction runs on the
 * device the context picks for it (sc_stat_add() in ops.c), the GPU's
 * kernel or the host threads: the running state, and so the figures
 * (core/stat_acc.c), are the same either way. */
#include <stdlib.h>
#include "cpu/cpu.h"
#include "ops/ops.h"

sc_status sc_stat_add_type(sc_ctx *ctx, sc_phase_times *times, uint32_t *x,
                           uint64_t n, uint64_t first, sc_stat_typed *t,
                           sc_stat_acc *acc)
{
    double t0 = sc_now();
    /* Both zeros of a float are zeros. */
    uint32_t bits = t->type == SC_F32 ? 0x7fffffffu : UINT32_MAX;
    uint64_t zeros = 0;
    for (uint64_t i = 0; i < n; i++) zeros += (x[i] & bits) == 0;
    t->zeros += zeros;
    if (t->type == SC_F32) sc_cpu_fsum(x, n, first, 1, 1, NULL, &t->fsum);
    sc_keys_rank(ctx->pool, ctx->phase_threads, sc_key_of((uint32_t)t->type),
                 x, n, 0);
    sc_phase_add(times, SC_PH_COUNT, sc_now() - t0);
    return sc_stat_add(ctx, times, x, n, acc);
}

sc_status sc_stat(sc_ctx *ctx, const uint32_t *in, uint64_t n, sc_stats *out)
{
    if (!ctx) return SC_ERR_USAGE;
    if (!out || (n && !in))
        return sc_fail(ctx, SC_ERR_USAGE, "sc_stat: invalid argument");
    sc_stat_acc *acc = malloc(sizeof *acc);
    if (!acc) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_stat_acc_init(acc);
    sc_status st = sc_stat_add(ctx, NULL, in, n, acc);
    if (st == SC_OK) sc_stat_acc_result(acc, out);
    free(acc);
    return st;
}
