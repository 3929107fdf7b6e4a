/* ctx.c — a context's parts that need no device: -d's spec parsed into
 * a policy, the host threads, the names -v shows.  Starting the GPU the
 * policy asks for is the ops layer's (ops/context.c). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>
#include "core/core.h"

/* Parses "auto", "cpu", "cuda", "cuda:N", "cuda:all"; *index is -1 for
 * "cuda", and 0 with *all set for "cuda:all". */
static int parse_device(const char *spec, int *want_cuda, int *is_auto,
                        int *index, int *all)
{
    *want_cuda = 0; *is_auto = 0; *index = -1; *all = 0;
    if (strcmp(spec, "auto") == 0) { *is_auto = 1; return 0; }
    if (strcmp(spec, "cpu") == 0) return 0;
    if (strncmp(spec, "cuda", 4) != 0) return -1;
    *want_cuda = 1;
    if (spec[4] == '\0') return 0;
    if (strcmp(spec + 4, ":all") == 0) { *index = 0; *all = 1; return 0; }
    if (spec[4] != ':' || spec[5] < '0' || spec[5] > '9') return -1;
    char *end;
    errno = 0;
    long v = strtol(spec + 5, &end, 10);
    if (*end != '\0' || errno || v < 0) return -1;
    /* A well-formed index of a GPU that is not there is the device's
     * failure (exit 1), not the user's syntax. */
    if (v > INT_MAX) v = INT_MAX;
    *index = (int)v;
    return 0;
}

static unsigned online_cpus(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1u;
}

void sc_ctx_name_cpu(sc_ctx *ctx)
{
    ctx->kind = SC_DEVICE_CPU;
    snprintf(ctx->cpu_name, sizeof ctx->cpu_name, "cpu (%u thread%s)",
             ctx->threads, ctx->threads == 1 ? "" : "s");
    snprintf(ctx->name, sizeof ctx->name, "%s", ctx->cpu_name);
}

void sc_ctx_name(sc_ctx *ctx, const char *name)
{
    pthread_mutex_lock(&ctx->lock);
    snprintf(ctx->name, sizeof ctx->name, "%s", name);
    pthread_mutex_unlock(&ctx->lock);
}

sc_status sc_ctx_init(sc_ctx *ctx, const char *spec, unsigned threads,
                      int *all_gpus)
{
    pthread_mutex_init(&ctx->lock, NULL);
    /* An empty SC_DEVICE is as good as unset; an empty -d is a mistake.
     * A bad value is named by where it came from: the user may not know
     * the environment sets it. */
    const char *from = "device";
    if (!spec && (spec = getenv("SC_DEVICE"))) from = "SC_DEVICE";
    if (spec && !*spec && spec == getenv("SC_DEVICE")) spec = NULL;
    if (!spec) spec = "auto";
    ctx->cuda_index = -1;
    if (threads > SC_THREADS_MAX)
        return sc_fail(ctx, SC_ERR_USAGE, "%u host threads asked for; at "
                       "most %d", threads, SC_THREADS_MAX);
    unsigned online = online_cpus();
    ctx->threads = threads ? threads
                 : online < SC_THREADS_MAX ? online : SC_THREADS_MAX;
    sc_ctx_name_cpu(ctx);
    int want_cuda, is_auto, index;
    if (parse_device(spec, &want_cuda, &is_auto, &index, all_gpus) != 0)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid %s '%s' (auto, cpu, "
                       "cuda, cuda:N, cuda:all)", from, spec);
    sc_status st = sc_pool_new(&ctx->pool, ctx->threads);
    if (st != SC_OK)
        return sc_fail(ctx, st, "cannot start %u host threads: %s",
                       ctx->threads, strerror(errno));
    ctx->policy = want_cuda ? SC_POLICY_CUDA
                : is_auto ? SC_POLICY_AUTO : SC_POLICY_CPU;
    ctx->cuda_index = index < 0 ? 0 : index;
    ctx->all_gpus = *all_gpus;
    return SC_OK;
}

sc_device_kind sc_ctx_device(const sc_ctx *ctx) { return ctx->kind; }
const char *sc_ctx_device_name(const sc_ctx *ctx) { return ctx->name; }
unsigned sc_ctx_threads(const sc_ctx *ctx) { return ctx->threads; }
/* Why the GPU was not used: it failed or ran out of memory, else what
 * the cost model of "auto" said. */
const char *sc_ctx_fallback_reason(const sc_ctx *ctx)
{
    if (ctx->fallback[0] || ctx->kind == SC_DEVICE_CUDA) return ctx->fallback;
    return ctx->choice;
}

