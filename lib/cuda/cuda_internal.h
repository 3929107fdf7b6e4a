/* cuda_internal.h — what the files of lib/cuda share: the device's state
 * in a context and the checks around CUDA calls. */
#ifndef SC_CUDA_INTERNAL_H
#define SC_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>
#include "cuda/cuda.h"
#include "core/core.h"
#include "sc_kernels.h"

enum { DEV_STARTING, DEV_READY, DEV_FAILED };
/* An operation's device buffers: the elements in, the results out, a
 * split's rejected (a device sort's second buffer of keys), the kernels'
 * scratch.  The array operations keep one set per GPU (cuda_ops.c), each
 * lane its own (lane.c). */
enum { BUF_IN, BUF_OUT, BUF_AUX, BUF_SCRATCH, BUF_COUNT_OF };
#define STAGES 2

struct sc_cuda {
    int device;
    /* The start, possibly on a thread of its own (gpu.c). */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int state, abandoned;
    int cuda_done;              /* the start's CUDA calls are over */
    double started_at, start_seconds;   /* the latter once ready */
    sc_fault fail;              /* why the start failed */
    char name[300];
    size_t dev_bytes;           /* device memory libsc holds, for the cap */
    /* Array operations on host arrays (cuda_ops.c, staging.c). */
    cudaStream_t stream;
    void *buf[BUF_COUNT_OF];
    size_t cap[BUF_COUNT_OF];
    uint64_t *d_small;          /* counters and carries on the device */
    uint64_t *h_small;          /* their pinned host mirror */
    void *dev_temp;             /* stream-ordered calls' scratch, where */
    size_t dev_temp_cap;        /* the caller gives none (cuda_dev.c) */
    void *stage[STAGES];        /* pinned, for transfers of host arrays */
    cudaEvent_t stage_done[STAGES];
    size_t stage_bytes;
    /* What this GPU ran, for -v with several GPUs: streaming chunks (a
     * sort's parts count as chunks) and their elements. */
    uint64_t chunks, elems;
};

/* The calls on the caller's device arrays (cuda_dev.c), as the table's
 * dev_* entries (backend.h). */
sc_status sc_cuda_dev_queue(sc_ctx *ctx, const sc_dev_call *c,
                            const sc_dev_queue *q);
sc_status sc_cuda_dev_block(sc_ctx *ctx, const sc_dev_call *c,
                            void *result);
sc_status sc_cuda_dev_sync(sc_ctx *ctx, void *stream);
size_t sc_cuda_dev_temp(const sc_dev_call *c);

/* Records a failed CUDA call on ctx: SC_ERR_NOMEM for a full device (the
 * device stays usable), SC_ERR_DEVICE otherwise. */
sc_status sc_cuda_fail(sc_ctx *ctx, cudaError_t err, const char *what);

#define CK(call, what)                                                  \
    do {                                                                \
        cudaError_t e_ = (cudaError_t)(call);                           \
        if (e_ != cudaSuccess) return sc_cuda_fail(ctx, e_, what);      \
    } while (0)

/* Makes the calling thread's CUDA calls go to GPU c.  The calls without
 * _on are the same for the context's first GPU, ctx->cuda. */
sc_status sc_cuda_bind_on(sc_ctx *ctx, struct sc_cuda *c);
sc_status sc_cuda_bind(sc_ctx *ctx);
/* Device memory within SC_TEST_DEVICE_MEMORY's cap (per GPU); NOMEM past
 * it.  The caller has bound the GPU. */
sc_status sc_cuda_malloc_on(sc_ctx *ctx, struct sc_cuda *c, void **p,
                            size_t bytes);
sc_status sc_cuda_malloc(sc_ctx *ctx, void **p, size_t bytes);
void sc_cuda_free_on(struct sc_cuda *c, void *p, size_t bytes);
void sc_cuda_free(sc_ctx *ctx, void *p, size_t bytes);

/* One GPU's start (gpu.c): a new state, started in the background or
 * here; NULL when out of memory.  wait() blocks until the start ended
 * and binds the GPU; release() frees a GPU whose start has ended. */
struct sc_cuda *sc_cuda_start(int device, int background);
sc_status sc_cuda_wait(sc_ctx *ctx, struct sc_cuda *c);
void sc_cuda_release(struct sc_cuda *c);
/* Releases the GPUs after the first of -d cuda:all (gpus.c). */
void sc_gpus_close(sc_ctx *ctx);

/* The GPUs work runs on: those of cuda:all, else the one of ctx->cuda. */
static inline unsigned sc_gpu_count(const sc_ctx *ctx)
{
    return ctx->n_gpus > 1 ? ctx->n_gpus : 1;
}
static inline struct sc_cuda *sc_gpu(const sc_ctx *ctx, unsigned k)
{
    return k == 0 ? ctx->cuda : ctx->gpus[k];
}

/* Host arrays to and from GPU c through its pinned stages, the copies
 * into them spread over the thread pool (staging.c), each timed as its
 * phase in times (NULL: not); the caller has bound c.  Without _on: the
 * first GPU. */
sc_status sc_cuda_upload_on(sc_ctx *ctx, sc_phase_times *times,
                            struct sc_cuda *c, void *d_dst, const void *src,
                            size_t bytes);
sc_status sc_cuda_download_on(sc_ctx *ctx, sc_phase_times *times,
                              struct sc_cuda *c, void *dst, const void *d_src,
                              size_t bytes);
sc_status sc_cuda_upload(sc_ctx *ctx, sc_phase_times *times, void *d_dst,
                         const void *src, size_t bytes);
sc_status sc_cuda_download(sc_ctx *ctx, sc_phase_times *times, void *dst,
                           const void *d_src, size_t bytes);
void sc_cuda_stages_free(struct sc_cuda *c);

/* The device's stat figures of n elements of type as the host's running
 * state (work.c): what sc_stat_acc_merge() then adds in. */
void sc_cuda_stat_figures(sc_stat_acc *out, const scg_stat_acc *d,
                          uint64_t n, sc_type type);
/* What one operation needs on the GPU and the kernels it runs (work.c),
 * the same for the array operations and the lanes. */
/* Bytes of each of w's results in out: 0 for STAT, which writes none. */
size_t sc_cuda_out_bytes(const sc_chunk_work *w);
/* Bytes of each element w's kernels read: the record's or else the
 * predicate's type's for COMPACT and SPLIT, w's type's for SCAN and STAT,
 * else 4. */
size_t sc_cuda_in_bytes(const sc_chunk_work *w);
/* Bytes of scratch that work's kernels need on n elements (0: none). */
size_t sc_cuda_scratch(sc_job_kind work, uint64_t n);
/* The scratch of a sort of n elements of type (work.c). */
size_t sc_cuda_sort_scratch(uint64_t n, sc_type type);
/* Bytes of each buffer (BUF_*) that w's kernels use on n elements, 0 for
 * those they do not use.  Not for SORT, whose buffers of keys cuda_sort.c
 * and cuda_ops.c size themselves. */
void sc_cuda_needs(const sc_chunk_work *w, uint64_t n,
                   size_t need[BUF_COUNT_OF]);
/* Where one operation's kernels read and write on the device. */
typedef struct sc_cuda_bufs {
    const uint32_t *in;
    void *out;
    uint32_t *aux;              /* SPLIT: the rejected */
    void *scratch;              /* STAT: the accumulator */
    uint64_t *count;            /* COMPACT, SPLIT: how many kept, selected */
    const uint64_t *carry_in;   /* SCAN */
    uint64_t *carry_out;
} sc_cuda_bufs;
/* Queues on s the kernels of w over n elements, the first of which is
 * element `first` of the stream (COMPACT's positions and GEN's values
 * count from it).  STAT adds into the accumulator in the scratch, which
 * the caller has reset.  A cudaError_t, or -1 for work that has no
 * kernels here (SORT). */
int sc_cuda_queue(const sc_chunk_work *w, uint64_t n, uint64_t first,
                  const sc_cuda_bufs *b, cudaStream_t s);
/* Grows GPU c's array-operation buffer `which` to at least `bytes`
 * (work.c). */
sc_status sc_cuda_ensure(sc_ctx *ctx, struct sc_cuda *c, int which,
                         size_t bytes);
/* Sorts host keys on GPU c (bound by the call): src[0..n) in, sorted into
 * dst (may be src).  The whole array must fit (cuda_sort.c). */
sc_status sc_cuda_sort_on(sc_ctx *ctx, sc_phase_times *times,
                          struct sc_cuda *c, const void *src, void *dst,
                          uint64_t n, sc_type type, unsigned lo_bit,
                          unsigned hi_bit, int descending);
/* The CUDA table's sort: on the first GPU, or with -d cuda:all one part
 * per GPU, sorted at once and merged on the host (cuda_sort.c). */
sc_status sc_cuda_sort(sc_ctx *ctx, sc_phase_times *times, void *keys,
                       uint64_t n, sc_type type, unsigned lo_bit,
                       unsigned hi_bit, int descending);
/* The CUDA table's sort of records and argsort, on the first GPU
 * (cuda_rsort.c). */
sc_status sc_cuda_sort_records(sc_ctx *ctx, sc_phase_times *times,
                               const void *in, uint64_t n,
                               const sc_elem_order *o, int keypos,
                               uint64_t base, sc_ready_fn ready, void *arg);

#endif
