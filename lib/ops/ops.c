/* ops.c — the array layer: each operation on the context's device.
 *
 * On CUDA a call that finds the device out of memory runs on the CPU
 * instead (SC_ERR_NOMEM from the CUDA backend means exactly that), so a
 * result is never lost or wrong because the GPU was full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int use_gpu(sc_ctx *ctx) { return ctx->cuda != NULL; }

/* A call with a missing pointer (or a value out of its range) is the
 * caller's mistake: say so rather than crash. Buffers may be NULL when n
 * is 0. */
#define BAD_ARGS(ctx, cond)                                                   \
    (!(ctx) ? SC_ERR_USAGE                                                    \
     : (cond) ? sc_fail((ctx), SC_ERR_USAGE, "%s: invalid argument", __func__)\
     : SC_OK)

sc_status sc_gen_params_check(sc_ctx *ctx, const sc_gen_params *g)
{
    if (!g || (unsigned)g->dist > SC_DIST_CONSTANT)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid generator distribution");
    if (g->dist == SC_DIST_UNIFORM && g->min > g->max)
        return sc_fail(ctx, SC_ERR_USAGE, "generator min %u is above max %u",
                       g->min, g->max);
    if (!(g->density >= 0.0 && g->density <= 1.0))
        return sc_fail(ctx, SC_ERR_USAGE, "generator density must be 0 to 1");
    return SC_OK;
}

/* Keeps going on the CPU after the device ran out of memory. */
static int gpu_gave_up(sc_ctx *ctx, sc_status st)
{
    if (st != SC_ERR_NOMEM) return 0;
    snprintf(ctx->fallback, sizeof ctx->fallback,
             "device memory exhausted; continued on the CPU");
    return 1;
}

sc_status sc_compact(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                     const sc_pred *pred, uint32_t *out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (bad) return bad;
    if (use_gpu(ctx)) {
        sc_status st = sc_cuda_compact(ctx, in, n, pred, SC_KIND_VALUES, 0,
                                       out, kept);
        if (!gpu_gave_up(ctx, st)) return st;
    }
    *kept = sc_cpu_compact(ctx, in, n, pred, SC_KIND_VALUES, 0, out);
    return SC_OK;
}

sc_status sc_compact_indices(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                             const sc_pred *pred, uint64_t first_index,
                             uint64_t *out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (bad) return bad;
    if (use_gpu(ctx)) {
        sc_status st = sc_cuda_compact(ctx, in, n, pred, SC_KIND_IDX64,
                                       first_index, out, kept);
        if (!gpu_gave_up(ctx, st)) return st;
    }
    *kept = sc_cpu_compact(ctx, in, n, pred, SC_KIND_IDX64, first_index, out);
    return SC_OK;
}

/* Host split into separate selected and rejected buffers. */
sc_status sc_split_parts(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                         const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                         uint64_t *selected)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !selected || (n && (!in || !sel || !rej)));
    if (bad) return bad;
    if (use_gpu(ctx)) {
        sc_status st = sc_cuda_split(ctx, in, n, pred, sel, rej, selected);
        if (!gpu_gave_up(ctx, st)) return st;
    }
    *selected = sc_cpu_split(ctx, in, n, pred, sel, rej);
    return SC_OK;
}

sc_status sc_split(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                   const sc_pred *pred, uint32_t *out, uint64_t *selected)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !selected || (n && (!in || !out)));
    if (bad) return bad;
    uint32_t *rej = malloc((n ? n : 1) * sizeof *rej);
    if (!rej) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = sc_split_parts(ctx, in, n, pred, out, rej, selected);
    if (st == SC_OK)
        memcpy(out + *selected, rej, (n - *selected) * sizeof *rej);
    free(rej);
    return st;
}

sc_status sc_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n, sc_scan_op op,
                  int inclusive, int wide, void *out, uint64_t *carry)
{
    sc_status bad = BAD_ARGS(ctx, !carry || (n && (!in || !out)));
    if (bad) return bad;
    if ((unsigned)op > SC_OP_XOR)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid scan operator");
    if (use_gpu(ctx)) {
        sc_status st = sc_cuda_scan(ctx, in, n, op, inclusive, wide, out,
                                    carry);
        if (!gpu_gave_up(ctx, st)) return st;
    }
    sc_cpu_scan(ctx, in, n, op, inclusive, wide, out, carry);
    return SC_OK;
}

sc_status sc_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n, unsigned lo_bit,
                  unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !keys);
    if (bad) return bad;
    if (lo_bit >= hi_bit || hi_bit > 32)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u", lo_bit,
                       hi_bit);
    if (use_gpu(ctx)) {
        sc_status st = sc_cuda_sort(ctx, keys, n, lo_bit, hi_bit, descending);
        if (!gpu_gave_up(ctx, st)) return st;
    }
    return sc_cpu_sort(ctx, keys, n, lo_bit, hi_bit, descending);
}

sc_status sc_gen(sc_ctx *ctx, const sc_gen_params *g, uint64_t first_index,
                 uint32_t *out, uint64_t n)
{
    sc_status bad = BAD_ARGS(ctx, n && !out);
    if (bad) return bad;
    if ((bad = sc_gen_params_check(ctx, g))) return bad;
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    if (use_gpu(ctx)) {
        sc_status st = sc_cuda_gen(ctx, &plan, first_index, out, n);
        if (!gpu_gave_up(ctx, st)) return st;
    }
    sc_cpu_gen(ctx, &plan, first_index, out, n);
    return SC_OK;
}

static sc_status need_gpu(sc_ctx *ctx)
{
    return sc_fail(ctx, SC_ERR_NODEVICE,
                   "device pointers need a CUDA context (device is %s)",
                   ctx->name);
}

sc_status sc_dev_compact(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                         const sc_pred *pred, uint32_t *d_out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!d_in || !d_out)));
    if (bad) return bad;
    if (!use_gpu(ctx)) return need_gpu(ctx);
    return sc_cuda_dev_compact(ctx, d_in, n, pred, d_out, kept);
}

sc_status sc_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *d_out,
                      uint64_t *carry)
{
    sc_status bad = BAD_ARGS(ctx, !carry || (n && (!d_in || !d_out)));
    if (bad) return bad;
    if (!use_gpu(ctx)) return need_gpu(ctx);
    return sc_cuda_dev_scan(ctx, d_in, n, op, inclusive, wide, d_out, carry);
}

sc_status sc_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !d_keys);
    if (bad) return bad;
    if (!use_gpu(ctx)) return need_gpu(ctx);
    if (lo_bit >= hi_bit || hi_bit > 32)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u", lo_bit,
                       hi_bit);
    return sc_cuda_dev_sort(ctx, d_keys, n, lo_bit, hi_bit, descending);
}
