/* staging.c — host arrays to and from the GPU through two pinned stages.
 *
 * Copies from pageable memory run at about 9 GB/s; pinning the array
 * itself costs 0.4 ms per MiB, as much as the copy saves.  So the array
 * is copied piece by piece into a small buffer pinned once, by all the
 * pool's threads, while the other stage's piece is on the bus.  Each GPU
 * has stages of its own; with -d cuda:all one thread per GPU copies, and
 * the pool takes their copies one at a time (pool.c). */
#include <string.h>
#include "cuda_internal.h"

#define STAGE_BYTES ((size_t)16 << 20)
#define SMALL_COPY ((size_t)1 << 20)

typedef struct copy_task {
    char *dst;
    const char *src;
    size_t bytes;
    unsigned parts;
} copy_task;

static void copy_part(void *arg, unsigned i)
{
    copy_task *t = arg;
    size_t b = t->bytes * i / t->parts, e = t->bytes * (i + 1) / t->parts;
    memcpy(t->dst + b, t->src + b, e - b);
}

static void pool_copy(sc_ctx *ctx, void *dst, const void *src, size_t bytes)
{
    size_t parts = bytes / SMALL_COPY;
    if (parts > ctx->threads) parts = ctx->threads;
    copy_task t = { dst, src, bytes, parts ? (unsigned)parts : 1 };
    sc_pool_run(ctx->pool, t.parts, copy_part, &t);
}

static sc_status ensure_stages(sc_ctx *ctx, struct sc_cuda *c)
{
    if (c->stage_bytes) return SC_OK;
    for (int i = 0; i < STAGES; i++) {
        CK(cudaHostAlloc(&c->stage[i], STAGE_BYTES, cudaHostAllocDefault),
           "allocating pinned host memory");
        CK(cudaEventCreateWithFlags(&c->stage_done[i],
                                    cudaEventDisableTiming), "events");
    }
    c->stage_bytes = STAGE_BYTES;
    return SC_OK;
}

void sc_cuda_stages_free(struct sc_cuda *c)
{
    for (int i = 0; i < STAGES; i++) {
        if (c->stage[i]) cudaFreeHost(c->stage[i]);
        if (c->stage_done[i]) cudaEventDestroy(c->stage_done[i]);
        c->stage[i] = NULL;
        c->stage_done[i] = NULL;
    }
    c->stage_bytes = 0;
}

sc_status sc_cuda_upload_on(sc_ctx *ctx, struct sc_cuda *c, void *d_dst,
                            const void *src, size_t bytes)
{
    double t0 = sc_now();
    sc_status st = bytes > SMALL_COPY ? ensure_stages(ctx, c) : SC_OK;
    if (st) return st;
    if (bytes <= SMALL_COPY) {
        CK(cudaMemcpyAsync(d_dst, src, bytes, cudaMemcpyHostToDevice,
                           c->stream), "upload");
    }
    for (size_t off = 0, k = 0; bytes > SMALL_COPY && off < bytes; k ^= 1) {
        size_t len = bytes - off < c->stage_bytes ? bytes - off : c->stage_bytes;
        CK(cudaEventSynchronize(c->stage_done[k]), "upload");
        pool_copy(ctx, c->stage[k], (const char *)src + off, len);
        CK(cudaMemcpyAsync((char *)d_dst + off, c->stage[k], len,
                           cudaMemcpyHostToDevice, c->stream), "upload");
        CK(cudaEventRecord(c->stage_done[k], c->stream), "upload");
        off += len;
    }
    CK(cudaStreamSynchronize(c->stream), "upload");
    sc_phase_add(ctx, SC_PH_UPLOAD, sc_now() - t0);
    return SC_OK;
}

sc_status sc_cuda_upload(sc_ctx *ctx, void *d_dst, const void *src,
                         size_t bytes)
{
    return sc_cuda_upload_on(ctx, ctx->cuda, d_dst, src, bytes);
}

/* Queues the download of piece `off` into stage k. */
static sc_status fetch(sc_ctx *ctx, struct sc_cuda *c, const void *d_src,
                       size_t bytes, size_t off, int k)
{
    size_t len = bytes - off < c->stage_bytes ? bytes - off : c->stage_bytes;
    CK(cudaMemcpyAsync(c->stage[k], (const char *)d_src + off, len,
                       cudaMemcpyDeviceToHost, c->stream), "download");
    CK(cudaEventRecord(c->stage_done[k], c->stream), "download");
    return SC_OK;
}

sc_status sc_cuda_download_on(sc_ctx *ctx, struct sc_cuda *c, void *dst,
                              const void *d_src, size_t bytes)
{
    double t0 = sc_now();
    sc_status st = bytes > SMALL_COPY ? ensure_stages(ctx, c) : SC_OK;
    if (st) return st;
    if (bytes <= SMALL_COPY) {
        CK(cudaMemcpyAsync(dst, d_src, bytes, cudaMemcpyDeviceToHost,
                           c->stream), "download");
        CK(cudaStreamSynchronize(c->stream), "download");
    } else if ((st = fetch(ctx, c, d_src, bytes, 0, 0))) {
        return st;
    }
    for (size_t off = 0, k = 0; bytes > SMALL_COPY && off < bytes; k ^= 1) {
        size_t len = bytes - off < c->stage_bytes ? bytes - off : c->stage_bytes;
        /* The next piece crosses the bus while this one is copied out. */
        if (off + len < bytes && (st = fetch(ctx, c, d_src, bytes, off + len,
                                             (int)(k ^ 1))))
            return st;
        CK(cudaEventSynchronize(c->stage_done[k]), "download");
        pool_copy(ctx, (char *)dst + off, c->stage[k], len);
        off += len;
    }
    sc_phase_add(ctx, SC_PH_DOWNLOAD, sc_now() - t0);
    return SC_OK;
}

sc_status sc_cuda_download(sc_ctx *ctx, void *dst, const void *d_src,
                           size_t bytes)
{
    return sc_cuda_download_on(ctx, ctx->cuda, dst, d_src, bytes);
}
