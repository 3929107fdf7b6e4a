/* context.c — sc_ctx_new and its kin: a context made (core/ctx.c), and
 * the GPU started where the policy asks for it.  "cpu" never touches
 * CUDA; "auto" starts it only when a job or a call would pay for it (the
 * device policy, policy.c); "cuda" starts it here, so that a missing GPU
 * is an error before any work, or, in the background, on a thread of its
 * own while the caller reads its input (sc_ctx_settle checks it). */
#include <stdio.h>
#include <stdlib.h>
#include "cuda/cuda.h"
#include "ops/ops.h"

static sc_status ctx_open(sc_ctx **out, const char *spec, unsigned threads,
                          int background)
{
    if (!out) return SC_ERR_USAGE;
    *out = NULL;
    sc_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return SC_ERR_NOMEM;
    *out = ctx;
    int all = 0;
    sc_status st = sc_ctx_init(ctx, spec, threads, &all);
    if (st != SC_OK || ctx->policy != SC_POLICY_CUDA) return st;
    /* The others once the first is up: only then does CUDA say how many
     * there are. */
    background = background && !all;
    if ((st = sc_device_start(ctx, background)) != SC_OK) return st;
    if (all && (st = sc_device_start_others(ctx)) != SC_OK) return st;
    ctx->kind = SC_DEVICE_CUDA;
    if (background)
        snprintf(ctx->name, sizeof ctx->name, "cuda:%d", ctx->cuda_index);
    else
        snprintf(ctx->name, sizeof ctx->name, "%s", sc_device_name(ctx));
    return SC_OK;
}

sc_status sc_ctx_new(sc_ctx **out, const char *spec, unsigned threads)
{
    return ctx_open(out, spec, threads, 0);
}

sc_status sc_ctx_new_background(sc_ctx **out, const char *spec,
                                unsigned threads)
{
    return ctx_open(out, spec, threads, 1);
}

sc_status sc_ctx_settle(sc_ctx *ctx, sc_status st)
{
    if (st != SC_OK || ctx->policy != SC_POLICY_CUDA) return st;
    if ((st = sc_device_wait(ctx)) != SC_OK) return st;
    sc_ctx_name(ctx, sc_device_name(ctx));
    return SC_OK;
}

void sc_ctx_free(sc_ctx *ctx)
{
    if (!ctx) return;
    sc_device_close(ctx);
    sc_pool_free(ctx->pool);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}
