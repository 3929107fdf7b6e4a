/* gpus.c — -d cuda:all: every visible GPU of the host in one context.
 *
 * The first GPU is the context's, as for -d cuda; the others start once
 * it is ready (only then does CUDA say how many there are), all at once
 * on threads of their own, and the context waits for them: a GPU that
 * cannot start is an error, as it is for cuda:N.  Work then spreads over
 * them: the streaming tools' lanes take the GPUs in turn (lane.c), a sort
 * cuts its keys into one part per GPU (cuda_sort.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cuda/cuda_internal.h"

/* The model in a GPU's name, "cuda:1 (NVIDIA H200)": its length and
 * where it starts. */
static const char *model_of(const struct sc_cuda *c, int *len)
{
    const char *open = strchr(c->name, '(');
    size_t n = open ? strlen(open + 1) : 0;
    *len = n > 0 ? (int)n - 1 : 0;      /* without the ')' */
    return open ? open + 1 : "";
}

/* "cuda:0,1 (2x NVIDIA H200)"; the models one by one when they differ. */
static void name_gpus(sc_ctx *ctx)
{
    char ids[128] = "", models[160] = "";
    size_t i = 0, m = 0;
    int len0, same = 1;
    const char *model0 = model_of(ctx->gpus[0], &len0);
    for (unsigned k = 0; k < ctx->n_gpus; k++) {
        int len;
        const char *model = model_of(ctx->gpus[k], &len);
        same = same && len == len0 && strncmp(model, model0, (size_t)len) == 0;
        if (i < sizeof ids)
            i += (size_t)snprintf(ids + i, sizeof ids - i, "%s%d", k ? "," : "",
                                  ctx->gpus[k]->device);
        if (m < sizeof models)
            m += (size_t)snprintf(models + m, sizeof models - m, "%s%.*s",
                                  k ? ", " : "", len, model);
    }
    if (same)
        snprintf(ctx->gpus_name, sizeof ctx->gpus_name, "cuda:%s (%ux %.*s)",
                 ids, ctx->n_gpus, len0, model0);
    else
        snprintf(ctx->gpus_name, sizeof ctx->gpus_name, "cuda:%s (%s)", ids,
                 models);
}

static sc_status count_gpus(sc_ctx *ctx, int *count)
{
    CK(cudaGetDeviceCount(count), "counting the GPUs");
    if (*count > SC_MAX_GPUS) *count = SC_MAX_GPUS;
    return SC_OK;
}

sc_status sc_device_start_others(sc_ctx *ctx)
{
    if (!ctx->cuda)
        return sc_fail(ctx, SC_ERR_NODEVICE, "the GPU was not started");
    int count = 0;
    sc_status st = sc_cuda_wait(ctx, ctx->cuda);
    if (st == SC_OK) st = count_gpus(ctx, &count);
    if (st != SC_OK) return st;
    ctx->gpus[0] = ctx->cuda;
    ctx->n_gpus = 1;
    for (int d = 0; d < count && st == SC_OK; d++) {
        if (d == ctx->cuda->device) continue;
        struct sc_cuda *c = sc_cuda_start(d, 1);
        if (!c) st = sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
        else ctx->gpus[ctx->n_gpus++] = c;
    }
    /* All of them, even after a failure: none may be left starting. */
    for (unsigned k = 1; k < ctx->n_gpus; k++) {
        sc_status w = sc_cuda_wait(ctx, ctx->gpus[k]);
        if (st == SC_OK) st = w;
    }
    if (st != SC_OK) return st;
    if (ctx->n_gpus > 1) name_gpus(ctx);
    return sc_cuda_bind(ctx);
}

size_t sc_device_usage(const sc_ctx *ctx, char *buf, size_t len)
{
    size_t used = 0;
    if (len) buf[0] = '\0';
    if (ctx->n_gpus < 2 || len == 0) return 0;
    for (unsigned k = 0; k < ctx->n_gpus && used < len; k++) {
        const struct sc_cuda *c = ctx->gpus[k];
        int w = snprintf(buf + used, len - used, "%scuda:%d %" PRIu64
                         " chunk%s (%" PRIu64 " elements)", k ? ", " : "",
                         c->device, c->chunks, c->chunks == 1 ? "" : "s",
                         c->elems);
        if (w < 0) break;
        used += (size_t)w;
    }
    return used < len ? used : len - 1;
}

void sc_gpus_close(sc_ctx *ctx)
{
    for (unsigned k = 1; k < ctx->n_gpus; k++) sc_cuda_release(ctx->gpus[k]);
    ctx->n_gpus = 0;
    ctx->gpus[0] = NULL;
}
