/* ops.c — the array layer: each operation on the device the context
 * picks for it (backend.h).
 *
 * When the GPU finds itself out of memory the work runs on the CPU
 * instead (SC_ERR_NOMEM from the CUDA table means exactly that), so a
 * result is never lost or wrong because the GPU was full.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend.h"
#include "cost.h"
#include "device.h"

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

void sc_backend_used(sc_ctx *ctx, const sc_backend *b)
{
    pthread_mutex_lock(&ctx->lock);
    if (b == &sc_cpu_backend) {
        if (ctx->kind != SC_DEVICE_CUDA)
            snprintf(ctx->name, sizeof ctx->name, "%s", ctx->cpu_name);
    } else {
        ctx->kind = SC_DEVICE_CUDA;
        snprintf(ctx->name, sizeof ctx->name, "%s", sc_device_name(ctx));
    }
    pthread_mutex_unlock(&ctx->lock);
}

#ifdef SC_HAVE_CUDA
static const sc_backend *pick_auto(sc_ctx *ctx, sc_work w, uint64_t bytes)
{
    int ready = sc_device_ready(ctx);
    if (ready < 0 && ctx->cuda) {
        /* A start in the background failed: -v says why, as when it
         * fails here. */
        snprintf(ctx->fallback, sizeof ctx->fallback,
                 "device auto: using the CPU (%.900s)", sc_device_failure(ctx));
        return &sc_cpu_backend;
    }
    double eta = ready == 1 ? 0 : sc_device_eta(ctx);
    char why[200];
    if (!sc_cost_gpu_pays(ctx, w, (int64_t)bytes, eta, 0, why, sizeof why)) {
        snprintf(ctx->choice, sizeof ctx->choice, "auto chose the CPU: %s",
                 why);
        return &sc_cpu_backend;
    }
    snprintf(ctx->choice, sizeof ctx->choice, "auto chose the GPU: %s", why);
    if (sc_device_start(ctx, 0) == SC_OK) return &sc_cuda_backend;
    snprintf(ctx->fallback, sizeof ctx->fallback,
             "device auto: using the CPU (%.900s)", ctx->message);
    ctx->message[0] = '\0';
    return &sc_cpu_backend;
}
#endif

const sc_backend *sc_backend_pick(sc_ctx *ctx, sc_work w, uint64_t bytes)
{
#ifdef SC_HAVE_CUDA
    if (ctx->policy == SC_POLICY_CUDA)
        return sc_device_wait(ctx) == SC_OK ? &sc_cuda_backend : NULL;
    if (ctx->policy == SC_POLICY_AUTO) return pick_auto(ctx, w, bytes);
#else
    (void)w; (void)bytes;
    if (ctx->policy == SC_POLICY_CUDA) {
        sc_device_wait(ctx);
        return NULL;
    }
    if (ctx->policy == SC_POLICY_AUTO)
        snprintf(ctx->choice, sizeof ctx->choice, "auto chose the CPU: %s",
                 SC_NO_CUDA_BUILD);
#endif
    return &sc_cpu_backend;
}

int sc_backend_retry(sc_ctx *ctx, const sc_backend **b, sc_status st)
{
    if (*b == &sc_cpu_backend || st != SC_ERR_NOMEM) return 0;
    snprintf(ctx->fallback, sizeof ctx->fallback,
             "device memory exhausted; continued on the CPU");
    *b = &sc_cpu_backend;
    return 1;
}

/* Runs CALL on the table picked for it. */
#define ON_DEVICE(ctx, w, bytes, CALL)                                      \
    do {                                                                    \
        const sc_backend *b_ = sc_backend_pick((ctx), (w), (bytes));        \
        if (!b_) return SC_ERR_NODEVICE;                                    \
        sc_status st_;                                                      \
        do st_ = b_->CALL; while (sc_backend_retry((ctx), &b_, st_));       \
        sc_backend_used((ctx), b_);                                         \
        return st_;                                                         \
    } while (0)

sc_status sc_compact(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                     const sc_pred *pred, uint32_t *out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (bad) return bad;
    ON_DEVICE(ctx, SC_WORK_COMPACT, n * 4,
              compact(ctx, in, n, pred, SC_KIND_VALUES, 0, out, kept));
}

sc_status sc_compact_indices(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                             const sc_pred *pred, uint64_t first_index,
                             uint64_t *out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (bad) return bad;
    ON_DEVICE(ctx, SC_WORK_COMPACT, n * 4,
              compact(ctx, in, n, pred, SC_KIND_IDX64, first_index, out, kept));
}

sc_status sc_split_parts(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                         const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                         uint64_t *selected)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !selected ||
                                  (n && (!in || !sel || !rej)));
    if (bad) return bad;
    ON_DEVICE(ctx, SC_WORK_SPLIT, n * 4,
              split(ctx, in, n, pred, sel, rej, selected));
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
    ON_DEVICE(ctx, SC_WORK_SCAN, n * 4,
              scan(ctx, in, n, op, inclusive, wide, out, carry));
}

sc_status sc_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n, unsigned lo_bit,
                  unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !keys);
    if (bad) return bad;
    return sc_sort_ready(ctx, keys, n, lo_bit, hi_bit, descending, NULL,
                         NULL);
}

sc_status sc_sort_ready(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                        unsigned lo_bit, unsigned hi_bit, int descending,
                        sc_ready_fn ready, void *arg)
{
    if (lo_bit >= hi_bit || hi_bit > 32)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u", lo_bit,
                       hi_bit);
    const sc_backend *b = sc_backend_pick(ctx, SC_WORK_SORT, n * 4);
    if (!b) return SC_ERR_NODEVICE;
    sc_status st;
    /* A retry moves a GPU's whole sort to the CPU: nothing was handed on
     * yet. */
    do st = b->sort_ready
            ? b->sort_ready(ctx, keys, n, lo_bit, hi_bit, descending, ready,
                            arg)
            : b->sort(ctx, keys, n, lo_bit, hi_bit, descending);
    while (sc_backend_retry(ctx, &b, st));
    sc_backend_used(ctx, b);
    if (st == SC_OK && !b->sort_ready && ready && n) st = ready(arg, keys, n);
    return st;
}

sc_status sc_gen(sc_ctx *ctx, const sc_gen_params *g, uint64_t first_index,
                 uint32_t *out, uint64_t n)
{
    sc_status bad = BAD_ARGS(ctx, n && !out);
    if (bad) return bad;
    if ((bad = sc_gen_params_check(ctx, g))) return bad;
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    ON_DEVICE(ctx, SC_WORK_GEN, n * 4, gen(ctx, &plan, first_index, out, n));
}

/* sc_stat()'s reduction (ops_stat.c makes the figures of it). */
sc_status sc_stat_add(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                      sc_stat_acc *acc)
{
    ON_DEVICE(ctx, SC_WORK_STAT, n * 4, stat(ctx, in, n, acc));
}

/* Device arrays need the GPU whatever the policy but "cpu". */
static const sc_backend *gpu_for_device_arrays(sc_ctx *ctx)
{
    if (ctx->policy != SC_POLICY_CPU && sc_device_start(ctx, 0) == SC_OK) {
#ifdef SC_HAVE_CUDA
        sc_backend_used(ctx, &sc_cuda_backend);
        return &sc_cuda_backend;
#endif
    }
    sc_fail(ctx, SC_ERR_NODEVICE,
            "device pointers need a CUDA context (device is %s)", ctx->name);
    return NULL;
}

sc_status sc_dev_compact(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                         const sc_pred *pred, uint32_t *d_out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!d_in || !d_out)));
    if (bad) return bad;
    const sc_backend *b = gpu_for_device_arrays(ctx);
    return b ? b->dev_compact(ctx, d_in, n, pred, d_out, kept)
             : SC_ERR_NODEVICE;
}

sc_status sc_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *d_out,
                      uint64_t *carry)
{
    sc_status bad = BAD_ARGS(ctx, !carry || (n && (!d_in || !d_out)));
    if (bad) return bad;
    const sc_backend *b = gpu_for_device_arrays(ctx);
    return b ? b->dev_scan(ctx, d_in, n, op, inclusive, wide, d_out, carry)
             : SC_ERR_NODEVICE;
}

sc_status sc_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !d_keys);
    if (bad) return bad;
    if (lo_bit >= hi_bit || hi_bit > 32)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u", lo_bit,
                       hi_bit);
    const sc_backend *b = gpu_for_device_arrays(ctx);
    return b ? b->dev_sort(ctx, d_keys, n, lo_bit, hi_bit, descending)
             : SC_ERR_NODEVICE;
}
