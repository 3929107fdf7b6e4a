/* gpu.c — one GPU: starting it, in the background when asked, binding
 * a thread to it, its device memory, and freeing what it took.
 *
 * A process pays about 0.15 s before CUDA is ready (driver load, context
 * creation).  Started on a thread of its own, that time overlaps opening
 * and reading the input, and under "auto" the CPU takes the chunks that
 * arrive first.  A run that ends before the start waits only for CUDA's
 * own calls to end (a process that exits while CUDA initialises on
 * another thread may crash in CUDA's exit handlers); what is left of the
 * start is abandoned and its thread cleans up alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda/cuda_internal.h"

/* The device this thread's CUDA calls go to, as far as libsc set it:
 * every cudaSetDevice of libsc goes through set_device(), so that the
 * check below can skip the call. */
static _Thread_local int bound_device = -1;

static cudaError_t set_device(int dev)
{
    cudaError_t e = cudaSetDevice(dev);
    bound_device = e == cudaSuccess ? dev : -1;
    return e;
}

sc_status sc_cuda_bind_on(sc_ctx *ctx, struct sc_cuda *c)
{
    if (bound_device == c->device) return SC_OK;
    CK(set_device(c->device), "selecting the GPU");
    return SC_OK;
}

sc_status sc_cuda_bind(sc_ctx *ctx) { return sc_cuda_bind_on(ctx, ctx->cuda); }

/* SC_TEST_DEVICE_MEMORY=BYTES caps the device memory libsc takes, so that
 * tests can drive the out-of-memory paths on any GPU. */
static size_t device_memory_cap(void)
{
    const char *v = getenv("SC_TEST_DEVICE_MEMORY");
    return v && *v ? (size_t)strtoull(v, NULL, 0) : SIZE_MAX;
}

sc_status sc_cuda_malloc_on(sc_ctx *ctx, struct sc_cuda *c, void **p,
                            size_t bytes)
{
    *p = NULL;
    if (c->dev_bytes + bytes > device_memory_cap())
        return sc_fail(ctx, SC_ERR_NOMEM, "CUDA: test cap on device memory "
                       "reached");
    CK(cudaMalloc(p, bytes ? bytes : 1), "allocating device memory");
    c->dev_bytes += bytes;
    return SC_OK;
}

sc_status sc_cuda_malloc(sc_ctx *ctx, void **p, size_t bytes)
{
    return sc_cuda_malloc_on(ctx, ctx->cuda, p, bytes);
}

void sc_cuda_free_on(struct sc_cuda *c, void *p, size_t bytes)
{
    if (!p) return;
    cudaFree(p);
    c->dev_bytes -= bytes;
}

void sc_cuda_free(sc_ctx *ctx, void *p, size_t bytes)
{
    sc_cuda_free_on(ctx->cuda, p, bytes);
}

const char *sc_device_absent(void)
{
    int driver = 0;
    if (cudaDriverGetVersion(&driver) == cudaSuccess && driver == 0)
        return "no CUDA GPU: no CUDA driver is installed";
    return NULL;
}

/* Why cudaGetDeviceCount found no GPU, in a user's words: the runtime
 * says "CUDA driver version is insufficient" when there is no driver at
 * all, which reads as if there were a GPU to update it for. */
static void say_no_gpu(struct sc_cuda *c, cudaError_t e)
{
    int driver = 0, runtime = 0;
    if (e == cudaSuccess || e == cudaErrorNoDevice) {
        sc_fault_set(&c->fail, SC_ERR_NODEVICE, "no CUDA GPU: no device found");
    } else if (e == cudaErrorInsufficientDriver && sc_device_absent()) {
        sc_fault_set(&c->fail, SC_ERR_NODEVICE, "%s", sc_device_absent());
    } else if (e == cudaErrorInsufficientDriver &&
               cudaDriverGetVersion(&driver) == cudaSuccess &&
               cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
        sc_fault_set(&c->fail, SC_ERR_NODEVICE, "no CUDA GPU: the CUDA driver "
                     "(for CUDA %d.%d) is older than this build's CUDA %d.%d",
                     driver / 1000, driver % 1000 / 10, runtime / 1000,
                     runtime % 1000 / 10);
    } else {
        sc_fault_set(&c->fail, SC_ERR_NODEVICE, "no CUDA GPU: %s",
                     cudaGetErrorString(e));
    }
}

static void mark_cuda_done(struct sc_cuda *c)
{
    pthread_mutex_lock(&c->lock);
    c->cuda_done = 1;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
}

/* The start itself; on failure c->fail says why.  Every call is the
 * runtime's first in this process or cheap. */
static void start_device(struct sc_cuda *c)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        say_no_gpu(c, e);
        return;
    }
    if (c->device >= count) {
        sc_fault_set(&c->fail, SC_ERR_NODEVICE,
                     "cuda:%d: no such GPU (%d found)", c->device, count);
        return;
    }
    struct cudaDeviceProp prop;
    if ((e = set_device(c->device)) != cudaSuccess ||
        (e = cudaFree(0)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, c->device)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking))
            != cudaSuccess ||
        (e = cudaMalloc((void **)&c->d_small, 8 * sizeof(uint64_t)))
            != cudaSuccess ||
        (e = cudaHostAlloc((void **)&c->h_small, 8 * sizeof(uint64_t),
                           cudaHostAllocDefault)) != cudaSuccess) {
        sc_fault_set(&c->fail, SC_ERR_NODEVICE, "cuda:%d: unusable: %s",
                     c->device, cudaGetErrorString(e));
        return;
    }
    snprintf(c->name, sizeof c->name, "cuda:%d (%s)", c->device, prop.name);
    mark_cuda_done(c);
    /* SC_TEST_DEVICE_DELAY_MS: a slow start, so that tests can make the
     * CPU take the first chunks and the GPU the rest. */
    const char *delay = getenv("SC_TEST_DEVICE_DELAY_MS");
    if (delay && *delay) {
        long ms = strtol(delay, NULL, 10);
        struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&ts, NULL);
    }
}

/* Frees what the start and the array operations took, on c's device
 * (a thread that used another GPU last must not free into it). */
void sc_cuda_release(struct sc_cuda *c)
{
    if (c->state == DEV_READY && set_device(c->device) != cudaSuccess)
        cudaGetLastError();
    for (int i = 0; i < BUF_COUNT_OF; i++) cudaFree(c->buf[i]);
    cudaFree(c->dev_temp);
    sc_cuda_stages_free(c);
    cudaFree(c->d_small);
    cudaFreeHost(c->h_small);
    if (c->stream) cudaStreamDestroy(c->stream);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->changed);
    free(c);
}

static void *start_main(void *arg)
{
    struct sc_cuda *c = arg;
    start_device(c);
    pthread_mutex_lock(&c->lock);
    c->start_seconds = sc_now() - c->started_at;
    c->state = sc_fault_status(&c->fail) == SC_OK ? DEV_READY : DEV_FAILED;
    int abandoned = c->abandoned;
    pthread_cond_broadcast(&c->changed);
    pthread_mutex_unlock(&c->lock);
    if (abandoned) sc_cuda_release(c);
    return NULL;
}

struct sc_cuda *sc_cuda_start(int device, int background)
{
    struct sc_cuda *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->device = device;
    c->state = DEV_STARTING;
    c->started_at = sc_now();
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->changed, NULL);
    pthread_t t;
    if (background && sc_thread_start(&t, start_main, c) == 0)
        pthread_detach(t);      /* nobody joins it: sc_cuda_wait() waits */
    else
        start_main(c);          /* no thread to spare: start it here */
    return c;
}

sc_status sc_cuda_wait(sc_ctx *ctx, struct sc_cuda *c)
{
    pthread_mutex_lock(&c->lock);
    while (c->state == DEV_STARTING) pthread_cond_wait(&c->changed, &c->lock);
    pthread_mutex_unlock(&c->lock);
    if (c->state != DEV_READY)
        return sc_fault_raise(&c->fail, ctx);
    return sc_cuda_bind_on(ctx, c);
}
