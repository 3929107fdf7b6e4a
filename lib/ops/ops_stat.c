/* ops_stat.c — sc_stat() on host arrays.  The reduction runs on the
 * device the context picks for it (sc_stat_add() in ops.c), the GPU's
 * kernel or the host threads: the running state, and so the figures
 * (core/stat_acc.c), are the same either way. */
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "ops/ops.h"

/* The zeros of x[0..n), elements of `size` bytes: those whose bits
 * under `bits` are all 0.  size is a constant where it is called, so
 * each width gets its own plain loop. */
static inline uint64_t count_zeros(const void *x, uint64_t n, unsigned size,
                                   uint64_t bits)
{
    uint64_t zeros = 0;
    for (uint64_t i = 0; i < n; i++)
        zeros += (sc_elem_bits(x, i, size) & bits) == 0;
    return zeros;
}

/* x[0..n) to their ranks in place (sc_key or sc_key64). */
static void rank(sc_ctx *ctx, void *x, uint64_t n, sc_type type)
{
    if (!sc_type_is_64bit(type))
        sc_keys_rank(ctx->pool, ctx->threads, sc_key_of(type), x, n, 0);
    else if (type != SC_U64)        /* an unsigned type is its own rank */
        sc_keys_rank64(ctx->pool, ctx->threads, sc_key64_of(type), x, n, 0);
}

sc_status sc_stat_add_type(sc_ctx *ctx, sc_phase_times *times, void *x,
                           uint64_t n, uint64_t first, sc_stat_typed *t,
                           sc_stat_acc *acc)
{
    double t0 = sc_now();
    int wide = sc_type_is_64bit(t->type);
    /* Both zeros of a float are zeros. */
    uint64_t bits = wide ? UINT64_MAX : UINT32_MAX;
    if (sc_type_is_float(t->type)) bits >>= 1;
    t->zeros += wide ? count_zeros(x, n, 8, bits) : count_zeros(x, n, 4, bits);
    if (sc_type_is_float(t->type))
        sc_cpu_fsum(x, t->type, n, first, 1, 1, NULL, &t->fsum);
    rank(ctx, x, n, t->type);
    sc_phase_add(times, SC_PH_COUNT, sc_now() - t0);
    return sc_stat_add(ctx, times, x, n, wide ? SC_U64 : SC_U32, acc);
}

sc_status sc_stat(sc_ctx *ctx, const uint32_t *in, uint64_t n, sc_stats *out)
{
    if (!ctx) return SC_ERR_USAGE;
    if (!out || (n && !in))
        return sc_fail(ctx, SC_ERR_USAGE, "sc_stat: invalid argument");
    sc_stat_acc *acc = malloc(sizeof *acc);
    if (!acc) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_stat_acc_init(acc);
    sc_status st = sc_stat_add(ctx, NULL, in, n, SC_U32, acc);
    if (st == SC_OK) sc_stat_acc_result(acc, out);
    free(acc);
    return st;
}

/* sc_stat_type's figures from the running state of ranks. */
static void typed_result(const sc_stat_acc *acc, const sc_stat_typed *t,
                         sc_stats_typed *out)
{
    memset(out, 0, sizeof *out);
    out->type = t->type;
    out->count = acc->count;
    out->zeros = t->zeros;
    out->distinct = sc_stat_acc_distinct(acc);
    if (!acc->count) return;
    out->min = sc_type_unrank(t->type, acc->min);
    out->max = sc_type_unrank(t->type, acc->max);
    if (sc_type_is_float(t->type)) {
        out->fsum = sc_fsum_total(&t->fsum);
        return;
    }
    unsigned __int128 sum = sc_stat_acc_sum(acc, t->type);
    out->sum = (uint64_t)sum;
    out->sum_hi = (uint64_t)(sum >> 64);
}

/* The caller's array stays as it is: pieces of it are copied and ranked
 * in a buffer of this many bytes. */
#define STAT_PIECE_BYTES ((size_t)4 << 20)

sc_status sc_stat_type(sc_ctx *ctx, const void *in, uint64_t n, sc_type type,
                       sc_stats_typed *out)
{
    if (!ctx) return SC_ERR_USAGE;
    unsigned size = sc_type_size(type);
    if (!out || (n && !in) || !size)
        return sc_fail(ctx, SC_ERR_USAGE, "sc_stat_type: invalid argument");
    sc_stat_typed t;
    memset(&t, 0, sizeof t);
    t.type = type;
    sc_stat_acc *acc = malloc(sizeof *acc);
    void *piece = malloc(STAT_PIECE_BYTES);
    sc_status st = acc && piece ? SC_OK
                                : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (st == SC_OK) sc_stat_acc_init(acc);
    for (uint64_t at = 0; st == SC_OK && at < n;) {
        uint64_t m = n - at < STAT_PIECE_BYTES / size ? n - at
                                                      : STAT_PIECE_BYTES / size;
        memcpy(piece, (const char *)in + at * size, m * size);
        st = sc_stat_add_type(ctx, NULL, piece, m, at, &t, acc);
        at += m;
    }
    if (st == SC_OK) typed_result(acc, &t, out);
    free(piece);
    free(acc);
    return st;
}
