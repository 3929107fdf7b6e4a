/* staging.c — host arrays to and from the GPU through two pinned stages.
 *
 * Copies from pageable memory run at about 9 GB/s; pinning the array
 * itself costs 0.4 ms per MiB, as much as the copy saves.  So the array
 * is copied piece by piece into a small buffer pinned once, by all the
 * pool's threads, while the other stage's piece is on the bus.  Each GPU
 * has stages of its own; with -d cuda:all one thread per GPU copies, and
 * the pool takes their copies one at a time (pool.c). */
#include <string.h>
#include "cuda/cuda_internal.h"

#define STAGE_BYTES ((size_t)16 << 20)
#define SMALL_COPY ((size_t)1 << 20)

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

/* One transfer between a host array and device memory. */
typedef struct transfer {
    struct sc_cuda *c;          /* the GPU, with its stages and stream */
    int up;                     /* to the device, else from it */
    char *host, *dev;           /* the side sent from is only read */
    size_t bytes;
    sc_phase_times *times;      /* the run's, or NULL */
} transfer;

/* Piece i is a stage's worth (the last one what is left), in stage
 * i & 1: pieces alternate between the two. */
static size_t piece_len(const struct sc_cuda *c, const transfer *t, size_t i)
{
    size_t off = i * c->stage_bytes;
    return t->bytes - off < c->stage_bytes ? t->bytes - off : c->stage_bytes;
}

/* Queues len bytes across the bus, between host memory h (the array or
 * a stage) and device memory d, in the transfer's direction. */
static cudaError_t bus(const struct sc_cuda *c, const transfer *t, char *h,
                       char *d, size_t len)
{
    return cudaMemcpyAsync(t->up ? d : h, t->up ? h : d, len,
                           t->up ? cudaMemcpyHostToDevice
                                 : cudaMemcpyDeviceToHost, c->stream);
}

/* Queues piece i across the bus, between its stage and the device. */
static sc_status cross(sc_ctx *ctx, const transfer *t, size_t i)
{
    struct sc_cuda *c = t->c;
    const char *what = t->up ? "upload" : "download";
    CK(bus(c, t, c->stage[i & 1], t->dev + i * c->stage_bytes,
           piece_len(c, t, i)), what);
    CK(cudaEventRecord(c->stage_done[i & 1], c->stream), what);
    return SC_OK;
}

/* Copies piece i between the host array and its stage, once the stage's
 * last crossing is done. */
static sc_status copy_piece(sc_ctx *ctx, const transfer *t, size_t i)
{
    struct sc_cuda *c = t->c;
    char *stage = c->stage[i & 1], *host = t->host + i * c->stage_bytes;
    CK(cudaEventSynchronize(c->stage_done[i & 1]),
       t->up ? "upload" : "download");
    sc_pool_copy(ctx->pool, ctx->threads, t->up ? stage : host,
                 t->up ? host : stage, piece_len(c, t, i));
    return SC_OK;
}

typedef sc_status (*piece_fn)(sc_ctx *ctx, const transfer *t, size_t i);

/* An upload copies a piece into its stage and then sends it across; a
 * download fetches the next piece across while this one is copied out.
 * Either way one stage's piece is on the bus while the other's is copied:
 * at step i, the first move for piece i, then the second for the piece
 * `lag` steps behind. */
static sc_status staged(sc_ctx *ctx, const transfer *t)
{
    size_t per = t->c->stage_bytes, n = (t->bytes + per - 1) / per;
    piece_fn first = t->up ? copy_piece : cross;
    piece_fn second = t->up ? cross : copy_piece;
    size_t lag = t->up ? 0 : 1;
    sc_status st = SC_OK;
    for (size_t i = 0; st == SC_OK && i < n + lag; i++) {
        if (i < n) st = first(ctx, t, i);
        if (st == SC_OK && i >= lag) st = second(ctx, t, i - lag);
    }
    return st;
}

/* A whole transfer, timed as its phase: a small array crosses in one copy
 * from pageable memory, where the stages would only add a copy. */
static sc_status run_transfer(sc_ctx *ctx, const transfer *t)
{
    struct sc_cuda *c = t->c;
    const char *what = t->up ? "upload" : "download";
    double t0 = sc_now();
    sc_status st = t->bytes > SMALL_COPY ? ensure_stages(ctx, c) : SC_OK;
    if (st) return st;
    if (t->bytes <= SMALL_COPY) {
        CK(bus(c, t, t->host, t->dev, t->bytes), what);
    } else if ((st = staged(ctx, t)) != SC_OK) {
        return st;
    }
    CK(cudaStreamSynchronize(c->stream), what);
    sc_phase_add(t->times, t->up ? SC_PH_UPLOAD : SC_PH_DOWNLOAD,
                 sc_now() - t0);
    return SC_OK;
}

sc_status sc_cuda_upload_on(sc_ctx *ctx, sc_phase_times *times,
                            struct sc_cuda *c, void *d_dst, const void *src,
                            size_t bytes)
{
    transfer t = { c, 1, (char *)src, d_dst, bytes, times };
    return run_transfer(ctx, &t);
}

sc_status sc_cuda_upload(sc_ctx *ctx, sc_phase_times *times, void *d_dst,
                         const void *src, size_t bytes)
{
    return sc_cuda_upload_on(ctx, times, ctx->cuda, d_dst, src, bytes);
}

sc_status sc_cuda_download_on(sc_ctx *ctx, sc_phase_times *times,
                              struct sc_cuda *c, void *dst, const void *d_src,
                              size_t bytes)
{
    transfer t = { c, 0, dst, (char *)d_src, bytes, times };
    return run_transfer(ctx, &t);
}

sc_status sc_cuda_download(sc_ctx *ctx, sc_phase_times *times, void *dst,
                           const void *d_src, size_t bytes)
{
    return sc_cuda_download_on(ctx, times, ctx->cuda, dst, d_src, bytes);
}
