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
_Static_assert(STAGE_BYTES >= SC_RECORD_MAX, "a stage holds a record");
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
    /* A download handed on piece by piece as it lands, items of `item`
     * bytes, while the next piece crosses, each piece into its place in
     * host or, with one_buffer, all into host's first piece; the seconds
     * spent in ready are its own, not the transfer's. */
    sc_ready_fn ready;
    void *arg;
    size_t item;
    int one_buffer;
    size_t per;                 /* bytes a piece: whole items of a stage */
    size_t stride;              /* host bytes between pieces */
    double handed;
} transfer;

/* Piece i is a piece's worth (the last one what is left), in stage
 * i & 1: pieces alternate between the two. */
static size_t piece_len(const transfer *t, size_t i)
{
    size_t off = i * t->per;
    return t->bytes - off < t->per ? t->bytes - off : t->per;
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
    CK(bus(c, t, c->stage[i & 1], t->dev + i * t->per, piece_len(t, i)),
       what);
    CK(cudaEventRecord(c->stage_done[i & 1], c->stream), what);
    return SC_OK;
}

/* A landed piece of a download to ready. */
static sc_status hand_on(transfer *t, char *host, size_t len)
{
    double t0 = sc_now();
    sc_status st = t->ready(t->arg, host, len / t->item);
    t->handed += sc_now() - t0;
    return st;
}

/* Copies piece i between the host array and its stage, once the stage's
 * last crossing is done; a download's is then handed on. */
static sc_status copy_piece(sc_ctx *ctx, transfer *t, size_t i)
{
    struct sc_cuda *c = t->c;
    char *stage = c->stage[i & 1], *host = t->host + i * t->stride;
    CK(cudaEventSynchronize(c->stage_done[i & 1]),
       t->up ? "upload" : "download");
    sc_pool_copy(ctx->pool, ctx->threads, t->up ? stage : host,
                 t->up ? host : stage, piece_len(t, i));
    return t->ready ? hand_on(t, host, piece_len(t, i)) : SC_OK;
}

static sc_status cross_piece(sc_ctx *ctx, transfer *t, size_t i)
{
    return cross(ctx, t, i);
}

typedef sc_status (*piece_fn)(sc_ctx *ctx, transfer *t, size_t i);

/* An upload copies a piece into its stage and then sends it across; a
 * download fetches the next piece across while this one is copied out
 * (and handed on).  Either way one stage's piece is on the bus while the
 * other's is copied: at step i, the first move for piece i, then the
 * second for the piece `lag` steps behind.  A failure waits for what is
 * on the bus, so that no stage is written after it. */
static sc_status staged(sc_ctx *ctx, transfer *t)
{
    size_t n = (t->bytes + t->per - 1) / t->per;
    piece_fn first = t->up ? copy_piece : cross_piece;
    piece_fn second = t->up ? cross_piece : copy_piece;
    size_t lag = t->up ? 0 : 1;
    sc_status st = SC_OK;
    for (size_t i = 0; st == SC_OK && i < n + lag; i++) {
        if (i < n) st = first(ctx, t, i);
        if (st == SC_OK && i >= lag) st = second(ctx, t, i - lag);
    }
    if (st != SC_OK) (void)cudaStreamSynchronize(t->c->stream);
    return st;
}

/* A whole transfer, timed as its phase: a small array crosses in one copy
 * from pageable memory, where the stages would only add a copy. */
static sc_status run_transfer(sc_ctx *ctx, transfer *t)
{
    struct sc_cuda *c = t->c;
    const char *what = t->up ? "upload" : "download";
    double t0 = sc_now();
    sc_status st = t->bytes > SMALL_COPY ? ensure_stages(ctx, c) : SC_OK;
    if (st) return st;
    t->per = sc_cuda_piece_bytes(t->item);
    t->stride = t->one_buffer ? 0 : t->per;
    if (t->bytes <= SMALL_COPY) {
        CK(bus(c, t, t->host, t->dev, t->bytes), what);
        CK(cudaStreamSynchronize(c->stream), what);
        if (t->ready && t->bytes) st = hand_on(t, t->host, t->bytes);
    } else {
        st = staged(ctx, t);
        if (st == SC_OK) CK(cudaStreamSynchronize(c->stream), what);
    }
    sc_phase_add(t->times, t->up ? SC_PH_UPLOAD : SC_PH_DOWNLOAD,
                 sc_now() - t0 - t->handed);
    return st;
}

sc_status sc_cuda_upload_on(sc_ctx *ctx, sc_phase_times *times,
                            struct sc_cuda *c, void *d_dst, const void *src,
                            size_t bytes)
{
    transfer t = { c, 1, (char *)src, d_dst, bytes, times, NULL, NULL, 1, 0,
                   0, 0, 0 };
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
    transfer t = { c, 0, dst, (char *)d_src, bytes, times, NULL, NULL, 1, 0,
                   0, 0, 0 };
    return run_transfer(ctx, &t);
}

sc_status sc_cuda_download(sc_ctx *ctx, sc_phase_times *times, void *dst,
                           const void *d_src, size_t bytes)
{
    return sc_cuda_download_on(ctx, times, ctx->cuda, dst, d_src, bytes);
}

size_t sc_cuda_piece_bytes(size_t item)
{
    return STAGE_BYTES / item * item;
}

sc_status sc_cuda_download_ready(sc_ctx *ctx, sc_phase_times *times,
                                 struct sc_cuda *c, void *dst, int one_buffer,
                                 const void *d_src, uint64_t n, size_t item,
                                 sc_ready_fn ready, void *arg)
{
    transfer t = { c, 0, dst, (char *)d_src, n * item, times, ready, arg,
                   item, one_buffer, 0, 0, 0 };
    return run_transfer(ctx, &t);
}
