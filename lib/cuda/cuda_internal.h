/* cuda_internal.h — what the files of lib/cuda share: the device's state
 * in a context and the checks around CUDA calls. */
#ifndef SC_CUDA_INTERNAL_H
#define SC_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>
#include "device.h"
#include "fault.h"
#include "sc_kernels.h"

enum { DEV_STARTING, DEV_READY, DEV_FAILED };
/* The synchronous array operations' device buffers (cuda_ops.c). */
enum { BUF_IN, BUF_OUT, BUF_AUX, BUF_SCRATCH, BUF_COUNT_OF };
#define STAGES 2

struct sc_cuda {
    int device;
    /* The start, possibly on a thread of its own (device.c). */
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int state, abandoned;
    double started_at;
    sc_fault fail;              /* why the start failed */
    char name[300];
    size_t dev_bytes;           /* device memory libsc holds, for the cap */
    /* Array operations on host arrays (cuda_ops.c, staging.c). */
    cudaStream_t stream;
    void *buf[BUF_COUNT_OF];
    size_t cap[BUF_COUNT_OF];
    uint64_t *d_small;          /* counters and carries on the device */
    uint64_t *h_small;          /* their pinned host mirror */
    void *stage[STAGES];        /* pinned, for transfers of host arrays */
    cudaEvent_t stage_done[STAGES];
    size_t stage_bytes;
};

/* Records a failed CUDA call on ctx: SC_ERR_NOMEM for a full device (the
 * device stays usable), SC_ERR_DEVICE otherwise. */
sc_status sc_cuda_fail(sc_ctx *ctx, cudaError_t err, const char *what);

#define CK(call, what)                                                  \
    do {                                                                \
        cudaError_t e_ = (cudaError_t)(call);                           \
        if (e_ != cudaSuccess) return sc_cuda_fail(ctx, e_, what);      \
    } while (0)

/* Makes the calling thread's CUDA calls go to the context's GPU. */
sc_status sc_cuda_bind(sc_ctx *ctx);
/* Device memory within SC_TEST_DEVICE_MEMORY's cap; NOMEM past it. */
sc_status sc_cuda_malloc(sc_ctx *ctx, void **p, size_t bytes);
void sc_cuda_free(sc_ctx *ctx, void *p, size_t bytes);

/* Host arrays to and from the device through the pinned stages, the
 * copies into them spread over the thread pool (staging.c). */
sc_status sc_cuda_upload(sc_ctx *ctx, void *d_dst, const void *src,
                         size_t bytes);
sc_status sc_cuda_download(sc_ctx *ctx, void *dst, const void *d_src,
                           size_t bytes);
void sc_cuda_stages_free(struct sc_cuda *c);

/* The device's stat figures of n elements as the host's running state
 * (cuda_ops.c): what sc_stat_acc_merge() then adds in. */
void sc_cuda_stat_figures(sc_stat_acc *out, const scg_stat_acc *d,
                          uint64_t n);

#endif
