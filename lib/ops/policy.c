/* policy.c — the device policy: the only code that decides whether the
 * CPU or the GPU runs a piece of work, that writes the context's choice
 * and fallback, and that words them for -v.  "cpu" never touches CUDA,
 * "cuda" insists on the GPU, and "auto" asks the cost model (cost.c)
 * whether the GPU, with what is left of its start, would finish sooner;
 * a GPU that fails or runs out of memory under "auto" hands its work to
 * the CPU, and -v's note says why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "cuda/cuda.h"
#include "ops/ops.h"

const sc_backend *sc_ops_cpu(void) { return &sc_cpu_backend; }

const sc_backend *sc_ops_gpu(void)
{
#ifdef SC_HAVE_CUDA
    return &sc_cuda_backend;
#else
    return NULL;
#endif
}

/* -v's note: auto went on with the CPU, and why. */
static void fall_back(sc_ctx *ctx, const char *why)
{
    pthread_mutex_lock(&ctx->lock);
    snprintf(ctx->fallback, sizeof ctx->fallback,
             "device auto: using the CPU (%.900s)", why);
    pthread_mutex_unlock(&ctx->lock);
}

static void chose(sc_ctx *ctx, const char *what, const char *why)
{
    pthread_mutex_lock(&ctx->lock);
    snprintf(ctx->choice, sizeof ctx->choice, "auto %s: %s", what, why);
    pthread_mutex_unlock(&ctx->lock);
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
static const sc_backend *pick_auto(sc_ctx *ctx, sc_job_kind w, uint64_t bytes)
{
    int ready = sc_device_ready(ctx);
    if (ready < 0 && ctx->cuda) {
        /* A start in the background failed: -v says why, as when it
         * fails here. */
        fall_back(ctx, sc_device_failure(ctx));
        return &sc_cpu_backend;
    }
    double eta = ready == 1 ? 0 : sc_device_eta(ctx);
    char why[200];
    if (!sc_cost_gpu_pays(ctx, w, (int64_t)bytes, eta, 0, why, sizeof why)) {
        chose(ctx, "chose the CPU", why);
        return &sc_cpu_backend;
    }
    chose(ctx, "chose the GPU", why);
    if (sc_device_start(ctx, 0) == SC_OK) return &sc_cuda_backend;
    fall_back(ctx, ctx->message);
    ctx->message[0] = '\0';
    return &sc_cpu_backend;
}
#endif

const sc_backend *sc_backend_pick(sc_ctx *ctx, sc_job_kind w, uint64_t bytes)
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
        chose(ctx, "chose the CPU", SC_NO_CUDA_BUILD);
#endif
    return &sc_cpu_backend;
}

int sc_backend_retry(sc_ctx *ctx, const sc_backend **b, sc_status st)
{
    if (*b == &sc_cpu_backend || st != SC_ERR_NOMEM) return 0;
    pthread_mutex_lock(&ctx->lock);
    snprintf(ctx->fallback, sizeof ctx->fallback,
             "device memory exhausted; continued on the CPU");
    pthread_mutex_unlock(&ctx->lock);
    *b = &sc_cpu_backend;
    return 1;
}

/* Device arrays need the GPU whatever the policy but "cpu". */
const sc_backend *sc_policy_device_arrays(sc_ctx *ctx)
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

/* A small input gets a chunk its size: pinned host memory and device
 * buffers cost time to set up, which short runs would otherwise pay for
 * a whole chunk; and a -c larger than the input would only waste memory. */
size_t sc_chunk_bytes(const sc_ctx *ctx, size_t asked, int64_t known,
                      sc_job_kind w)
{
    int gpu = ctx->policy == SC_POLICY_CUDA ||
              (ctx->policy == SC_POLICY_AUTO &&
               sc_cost_gpu_pays(ctx, w, known, sc_device_eta(ctx), 1, NULL, 0));
    size_t chunk = asked ? asked
                 : gpu ? SC_DEFAULT_CHUNK_GPU : SC_DEFAULT_CHUNK_CPU;
    if (known >= 0 && (uint64_t)known < chunk) {
        uint64_t fit = ((uint64_t)known + 4095) & ~(uint64_t)4095;
        chunk = fit ? (size_t)fit : SC_MIN_CHUNK_BYTES;
    }
    return chunk;
}

int sc_policy_stream_gpu(sc_ctx *ctx, sc_job_kind w, int64_t known)
{
    if (ctx->policy == SC_POLICY_CUDA) return 1;
    if (ctx->policy != SC_POLICY_AUTO) return 0;
#ifdef SC_HAVE_CUDA
    char why[200];
    int ready = sc_device_ready(ctx);
    double eta = ready == 1 ? 0 : sc_device_eta(ctx);
    int want = (ready >= 0 || !ctx->cuda) &&
               sc_cost_gpu_pays(ctx, w, known, eta, 1, why, sizeof why);
    chose(ctx, want ? "started the GPU" : "kept to the CPU", why);
    return want && sc_device_start(ctx, 1) == SC_OK;
#else
    (void)w; (void)known;
    chose(ctx, "kept to the CPU", SC_NO_CUDA_BUILD);
    return 0;
#endif
}

/* SC_TEST_CPU_CHUNKS=N: under auto the first N chunks go to the CPU as
 * if the GPU were still starting, and then the worker waits for it, so
 * that tests hand a stream from one device to the other at a known
 * place on any machine; -1 when unset. */
static int test_cpu_chunks(void)
{
    const char *v = getenv("SC_TEST_CPU_CHUNKS");
    return v && *v ? atoi(v) : -1;
}

sc_gpu_turn sc_policy_gpu_turn(sc_ctx *ctx, uint64_t chunks_on_cpu,
                               sc_status *st)
{
    int is_auto = ctx->policy == SC_POLICY_AUTO;
    int ready = sc_device_ready(ctx);
    int forced = is_auto ? test_cpu_chunks() : -1;
    *st = SC_OK;
    if (forced >= 0) {
        if (chunks_on_cpu < (uint64_t)forced) return SC_GPU_NOT_YET;
        if (ready == 0 && sc_device_wait(ctx) == SC_OK) ready = 1;
    }
    if (ready == 0 && is_auto) return SC_GPU_NOT_YET;
    if (ready < 0 && is_auto) {
        fall_back(ctx, sc_device_failure(ctx));
        return SC_GPU_NEVER;
    }
    if (ready != 1 && (*st = sc_device_wait(ctx)) != SC_OK)
        return SC_GPU_NEVER;
    return SC_GPU_TAKE;
}

void sc_policy_new_run(sc_ctx *ctx)
{
    pthread_mutex_lock(&ctx->lock);
    ctx->fallback[0] = '\0';
    ctx->choice[0] = '\0';
    pthread_mutex_unlock(&ctx->lock);
}

#define SC_CPU_ONLY_WHY "no GPU kernel takes this job yet: the host's " \
                        "threads took every chunk"

sc_status sc_policy_cpu_only(sc_ctx *ctx)
{
    if (ctx->policy == SC_POLICY_AUTO) chose(ctx, "kept to the CPU",
                                             SC_CPU_ONLY_WHY);
    if (ctx->policy != SC_POLICY_CUDA) return SC_OK;
    sc_status st = sc_ctx_settle(ctx, SC_OK);
    if (st != SC_OK) return st;
    pthread_mutex_lock(&ctx->lock);
    snprintf(ctx->fallback, sizeof ctx->fallback, "%s", SC_CPU_ONLY_WHY);
    pthread_mutex_unlock(&ctx->lock);
    return SC_OK;
}

sc_status sc_policy_gpu_lost(sc_ctx *ctx, sc_status st)
{
    if (st == SC_OK || ctx->policy != SC_POLICY_AUTO) return st;
    fall_back(ctx, ctx->message);
    return SC_OK;
}

int sc_policy_sort_early(sc_ctx *ctx, sc_job_kind w, int64_t bytes,
                         double share)
{
    if (ctx->policy != SC_POLICY_AUTO || bytes < 0 ||
        !sc_cost_gpu_pays(ctx, w, bytes, share * sc_device_eta(ctx), 0, NULL,
                          0))
        return 0;
    /* Only a build without CUDA fails here; the sort then says why the
     * CPU ran it, so no error is kept. */
    if (sc_device_start(ctx, 1) != SC_OK) ctx->message[0] = '\0';
    return 1;
}

/* Why auto ran on the CPU where no GPU could: its start failed, or, not
 * started, plainly none can start.  Estimates of what a GPU would cost
 * are then beside the point. */
static const char *no_gpu(const sc_ctx *ctx)
{
    if (ctx->policy != SC_POLICY_AUTO || ctx->kind == SC_DEVICE_CUDA)
        return NULL;
    if (ctx->cuda) return *sc_device_failure(ctx) ? sc_device_failure(ctx) : NULL;
    return ctx->choice[0] ? sc_device_absent() : NULL;
}

void sc_policy_report(const sc_ctx *ctx, const char *prog, FILE *f)
{
    double start = ctx->kind == SC_DEVICE_CUDA ? sc_device_start_seconds(ctx)
                                               : -1;
    if (start >= 0)
        fprintf(f, "%s: device: %s, started in %.3f s\n", prog, ctx->name,
                start);
    else
        fprintf(f, "%s: device: %s\n", prog, ctx->name);
    char gpus[512];
    if (sc_device_usage(ctx, gpus, sizeof gpus))
        fprintf(f, "%s: gpus: %s\n", prog, gpus);
    const char *none = no_gpu(ctx);
    if (none)
        fprintf(f, "%s: why: auto kept to the CPU: %s\n", prog, none);
    else if (ctx->choice[0])
        fprintf(f, "%s: why: %s\n", prog, ctx->choice);
    if (ctx->fallback[0] && !none)
        fprintf(f, "%s: note: %s\n", prog, ctx->fallback);
}
