/* device.c — the context's GPU as ops sees it (cuda.h's sc_device_*):
 * the first GPU started, waited for, named and closed with the others,
 * and host memory pinned for it.
 */
#include <stdlib.h>
#include "cuda/cuda_internal.h"

/* Under the context's lock: the first device calls of a library's user
 * may come from several threads at once. */
sc_status sc_device_start(sc_ctx *ctx, int background)
{
    pthread_mutex_lock(&ctx->lock);
    if (!ctx->cuda)
        ctx->cuda = sc_cuda_start(ctx->cuda_index < 0 ? 0 : ctx->cuda_index,
                                  background);
    int made = ctx->cuda != NULL;
    pthread_mutex_unlock(&ctx->lock);
    if (!made) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    return background ? SC_OK : sc_device_wait(ctx);
}

int sc_device_ready(sc_ctx *ctx)
{
    struct sc_cuda *c = ctx->cuda;
    if (!c) return -1;
    pthread_mutex_lock(&c->lock);
    int state = c->state;
    pthread_mutex_unlock(&c->lock);
    return state == DEV_READY ? 1 : state == DEV_STARTING ? 0 : -1;
}

sc_status sc_device_wait(sc_ctx *ctx)
{
    struct sc_cuda *c = ctx->cuda;
    if (!c) return sc_fail(ctx, SC_ERR_NODEVICE, "the GPU was not started");
    return sc_cuda_wait(ctx, c);
}

/* Measured on the H200 machine with one hardware queue (the tools'
 * CUDA_DEVICE_MAX_CONNECTIONS, bin/cli_run.c): the GPU is ready 0.145 to
 * 0.16 s after the first call (0.24 s the first time after the machine
 * was idle); a whole empty run with -d cuda takes 0.22 to 0.25 s.  With
 * CUDA's 8 queues it was 0.21 to 0.35 s. */
#define START_SECONDS 0.16

double sc_device_eta(const sc_ctx *ctx)
{
    struct sc_cuda *c = ctx->cuda;
    if (!c) return START_SECONDS;
    pthread_mutex_lock(&c->lock);
    int state = c->state;
    pthread_mutex_unlock(&c->lock);
    if (state != DEV_STARTING) return 0;
    double left = START_SECONDS - (sc_now() - c->started_at);
    return left > 0.02 ? left : 0.02;
}

void sc_device_close(sc_ctx *ctx)
{
    struct sc_cuda *c = ctx->cuda;
    sc_gpus_close(ctx);
    if (!c) return;
    ctx->cuda = NULL;
    pthread_mutex_lock(&c->lock);
    /* The start's CUDA calls end first (gpu.c says why); a start held
     * back after them (SC_TEST_DEVICE_DELAY_MS) is not waited for. */
    while (c->state == DEV_STARTING && !c->cuda_done)
        pthread_cond_wait(&c->changed, &c->lock);
    int starting = c->state == DEV_STARTING;
    if (starting) c->abandoned = 1;
    pthread_mutex_unlock(&c->lock);
    if (!starting) sc_cuda_release(c);
}

/* With several GPUs the memory is pinned for all of them (portable). */
int sc_device_pin(sc_ctx *ctx, void *p, size_t bytes)
{
    if (!p || sc_cuda_bind(ctx) != SC_OK) return -1;
    unsigned flags = ctx->n_gpus > 1 ? cudaHostRegisterPortable
                                     : cudaHostRegisterDefault;
    if (cudaHostRegister(p, bytes, flags) == cudaSuccess) return 0;
    cudaGetLastError();
    return -1;
}

void sc_device_unpin(sc_ctx *ctx, void *p)
{
    if (!p) return;
    /* The first GPU's context took it; another's may be current here. */
    if (ctx->n_gpus > 1 && sc_cuda_bind(ctx) != SC_OK) return;
    if (cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
}

const char *sc_device_name(const sc_ctx *ctx)
{
    if (ctx->n_gpus > 1) return ctx->gpus_name;
    return ctx->cuda ? ctx->cuda->name : "none";
}

double sc_device_start_seconds(const sc_ctx *ctx)
{
    struct sc_cuda *c = ctx->cuda;
    if (!c) return -1;
    pthread_mutex_lock(&c->lock);
    double s = c->state == DEV_READY ? c->start_seconds : -1;
    pthread_mutex_unlock(&c->lock);
    return s;
}

const char *sc_device_failure(const sc_ctx *ctx)
{
    return ctx->cuda && ctx->cuda->state == DEV_FAILED
        ? sc_fault_message(&ctx->cuda->fail) : "";
}
