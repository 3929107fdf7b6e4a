/* ops_stat.c — sc_stat() on host arrays.  The reduction runs on the
 * device the context picks for it (sc_stat_add() in ops.c), the GPU's
 * kernel or the host threads: the running state, and so the figures
 * (core/stat_acc.c), are the same either way. */
#include <stdlib.h>
#include "ops/ops.h"

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
