/* lane.c — chunks queued on CUDA streams, one stream per pipeline slot.
 *
 * A chunk's upload, kernels and the copies whose sizes are known (a scan's
 * or sc-gen's output, the counts) are queued at once; the outputs whose
 * size the kernels decide (kept, selected, rejected) are fetched when the
 * writer asks for the chunk.  Scans chain their carries on the device:
 * each waits for the kernel of the chunk before, never for the host.
 * sc-stat's chunks each reduce into their lane's accumulator (in the
 * scratch buffer), which comes back with the chunk for the writer to
 * merge, in order.
 * Under -d cuda:all lane i is on GPU i % n: chunks take the GPUs in turn,
 * and a carry from another GPU is copied across (carry_in()). */
#include <stdlib.h>
#include "cuda/cuda_internal.h"
#include "cuda/cuda.h"

enum { SMALL_COUNT = 0, SMALL_CARRY_OUT = 1, SMALL_CARRY_IN = 2, SMALLS = 4 };

typedef struct lane {
    struct sc_cuda *gpu;        /* the GPU all of the lane's work is on */
    cudaStream_t stream;
    cudaEvent_t kernels_done, all_done;
    void *buf[BUF_COUNT_OF];    /* the operation's (sc_cuda_needs) */
    uint64_t *d_small, *h_small;
    size_t n;                   /* the chunk queued */
    int out_kind;               /* what the kernels wrote to out */
    scg_stat_acc *h_stat;       /* STAT: the accumulator fetched (pinned) */
    sc_stat_acc *stat;          /* STAT: the same as the host's figures */
} lane;

struct sc_lanes {
    sc_ctx *ctx;
    sc_phase_times *times;      /* the run's: its transfers' time */
    sc_chunk_work w;
    size_t elems;
    unsigned count, last;       /* last: the lane queued most recently */
    size_t bytes[BUF_COUNT_OF]; /* of each lane's buf[] */
    lane lanes[];
};

/* sc-stat's host side of a lane: where its accumulator comes back to. */
static sc_status stat_open(sc_lanes *l, lane *ln)
{
    sc_ctx *ctx = l->ctx;
    if (l->w.work != SC_JOB_STAT) return SC_OK;
    CK(cudaHostAlloc((void **)&ln->h_stat, sizeof *ln->h_stat,
                     cudaHostAllocDefault), "allocating pinned memory");
    ln->stat = malloc(sizeof *ln->stat);
    return ln->stat ? SC_OK : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
}

static sc_status lane_open(sc_lanes *l, lane *ln)
{
    sc_ctx *ctx = l->ctx;
    sc_status st = sc_cuda_bind_on(ctx, ln->gpu);
    if (st) return st;
    CK(cudaStreamCreateWithFlags(&ln->stream, cudaStreamNonBlocking),
       "creating a stream");
    CK(cudaEventCreateWithFlags(&ln->kernels_done, cudaEventDisableTiming),
       "creating an event");
    CK(cudaEventCreateWithFlags(&ln->all_done, cudaEventDisableTiming),
       "creating an event");
    CK(cudaHostAlloc((void **)&ln->h_small, SMALLS * sizeof(uint64_t),
                     cudaHostAllocDefault), "allocating pinned memory");
    struct sc_cuda *g = ln->gpu;
    if ((st = sc_cuda_malloc_on(ctx, g, (void **)&ln->d_small,
                                SMALLS * sizeof(uint64_t))))
        return st;
    for (int k = 0; k < BUF_COUNT_OF; k++)
        if (l->bytes[k] &&
            (st = sc_cuda_malloc_on(ctx, g, &ln->buf[k], l->bytes[k])))
            return st;
    return stat_open(l, ln);
}

sc_status sc_lanes_open(sc_ctx *ctx, sc_phase_times *times, sc_lanes **out,
                        unsigned count, size_t elems, const sc_chunk_work *w)
{
    *out = NULL;
    sc_status st = sc_cuda_bind(ctx);
    if (st) return st;
    sc_lanes *l = calloc(1, sizeof *l + count * sizeof(lane));
    if (!l) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    l->ctx = ctx;
    l->times = times;
    l->w = *w;
    l->elems = elems;
    l->count = count;
    l->last = count;
    /* Room for positions that a chunk may get 64-bit (queue_kernels()). */
    sc_chunk_work widest = *w;
    if (widest.out_kind == SC_EMIT_IDX32) widest.out_kind = SC_EMIT_IDX64;
    sc_cuda_needs(&widest, elems, l->bytes);
    for (unsigned i = 0; i < count; i++)
        l->lanes[i].gpu = sc_gpu(ctx, i % sc_gpu_count(ctx));
    for (unsigned i = 0; i < count && st == SC_OK; i++)
        st = lane_open(l, &l->lanes[i]);
    if (st != SC_OK) {
        sc_lanes_close(l);
        return st;
    }
    *out = l;
    return SC_OK;
}

void sc_lanes_close(sc_lanes *l)
{
    if (!l) return;
    sc_ctx *ctx = l->ctx;
    for (unsigned i = 0; i < l->count; i++) {
        lane *ln = &l->lanes[i];
        struct sc_cuda *g = ln->gpu;
        /* Freed on its own GPU; a GPU that cannot be selected leaks. */
        if (sc_cuda_bind_on(ctx, g) != SC_OK) continue;
        if (ln->stream) cudaStreamSynchronize(ln->stream);
        sc_cuda_free_on(g, ln->d_small, SMALLS * sizeof(uint64_t));
        for (int k = 0; k < BUF_COUNT_OF; k++)
            sc_cuda_free_on(g, ln->buf[k], l->bytes[k]);
        if (ln->h_small) cudaFreeHost(ln->h_small);
        if (ln->h_stat) cudaFreeHost(ln->h_stat);
        free(ln->stat);
        if (ln->kernels_done) cudaEventDestroy(ln->kernels_done);
        if (ln->all_done) cudaEventDestroy(ln->all_done);
        if (ln->stream) cudaStreamDestroy(ln->stream);
    }
    free(l);
}

/* A scan's carry-in: the chunk before's carry-out on the device, or the
 * host's value copied up.  From another GPU the carry is copied across
 * once that GPU's kernel is done (the wait takes another device's event;
 * the peer copy works with or without peer access).  The chunk after the
 * one before on the same lane cannot overwrite it first: its scan waits,
 * through the chain, for this one. */
static sc_status carry_in(sc_lanes *l, lane *ln, const sc_chunk *c,
                          int chain, const uint64_t **d_carry)
{
    sc_ctx *ctx = l->ctx;
    if (chain && l->last < l->count) {
        lane *prev = &l->lanes[l->last];
        CK(cudaStreamWaitEvent(ln->stream, prev->kernels_done, 0), "chaining");
        *d_carry = prev->d_small + SMALL_CARRY_OUT;
        if (prev->gpu == ln->gpu) return SC_OK;
        CK(cudaMemcpyPeerAsync(ln->d_small + SMALL_CARRY_IN, ln->gpu->device,
                               prev->d_small + SMALL_CARRY_OUT,
                               prev->gpu->device, 8, ln->stream),
           "copying the carry between GPUs");
        *d_carry = ln->d_small + SMALL_CARRY_IN;
        return SC_OK;
    }
    ln->h_small[SMALL_CARRY_IN] = c->carry_in;
    CK(cudaMemcpyAsync(ln->d_small + SMALL_CARRY_IN,
                       ln->h_small + SMALL_CARRY_IN, 8,
                       cudaMemcpyHostToDevice, ln->stream), "upload");
    *d_carry = ln->d_small + SMALL_CARRY_IN;
    return SC_OK;
}

/* The kernels of chunk c; positions go 32-bit only where they fit.  Each
 * STAT chunk starts its lane's accumulator afresh. */
static sc_status queue_kernels(sc_lanes *l, lane *ln, sc_chunk *c, int chain)
{
    sc_chunk_work w = l->w;
    sc_cuda_bufs b = { ln->buf[BUF_IN], ln->buf[BUF_OUT], ln->buf[BUF_AUX],
                       ln->buf[BUF_SCRATCH], ln->d_small + SMALL_COUNT, NULL,
                       ln->d_small + SMALL_CARRY_OUT };
    sc_status st;
    if (w.work == SC_JOB_COMPACT) {
        if (w.out_kind == SC_EMIT_IDX32 && c->first + c->n - 1 > UINT32_MAX)
            w.out_kind = SC_EMIT_IDX64;
        ln->out_kind = w.out_kind;
        c->out_wide = w.out_kind != l->w.out_kind;
    }
    if (w.work == SC_JOB_SCAN &&
        (st = carry_in(l, ln, c, chain, &b.carry_in)))
        return st;
    int err = w.work == SC_JOB_STAT ? scg_stat_reset(b.scratch, ln->stream)
                                     : 0;
    if (!err) err = sc_cuda_queue(&w, c->n, c->first, &b, ln->stream);
    if (err < 0)
        return sc_fail(l->ctx, SC_ERR_USAGE, "no GPU lane for this work");
    if (err) return sc_cuda_fail(l->ctx, (cudaError_t)err, "queuing kernels");
    return SC_OK;
}

sc_status sc_lanes_submit(sc_lanes *l, unsigned i, sc_chunk *c, int chain)
{
    sc_ctx *ctx = l->ctx;
    lane *ln = &l->lanes[i];
    const sc_chunk_work *w = &l->w;
    double t0 = sc_now();
    sc_status st = sc_cuda_bind_on(ctx, ln->gpu);
    if (st) return st;
    ln->gpu->chunks++;          /* only the worker thread submits */
    ln->gpu->elems += c->n;
    ln->n = c->n;
    ln->out_kind = SC_EMIT_VALUES;
    c->out_wide = 0;
    if (w->work != SC_JOB_GEN)
        CK(cudaMemcpyAsync(ln->buf[BUF_IN], c->in, c->n * sc_cuda_in_bytes(w),
                           cudaMemcpyHostToDevice, ln->stream), "upload");
    if ((st = queue_kernels(l, ln, c, chain))) return st;
    CK(cudaEventRecord(ln->kernels_done, ln->stream), "recording an event");
    l->last = i;
    int known_size = w->work == SC_JOB_GEN || w->work == SC_JOB_SCAN;
    if (known_size && !w->figures_only)
        CK(cudaMemcpyAsync(c->out, ln->buf[BUF_OUT],
                           c->n * sc_cuda_out_bytes(w), cudaMemcpyDeviceToHost,
                           ln->stream), "download");
    if (w->work == SC_JOB_STAT)
        CK(cudaMemcpyAsync(ln->h_stat, ln->buf[BUF_SCRATCH],
                           sizeof *ln->h_stat, cudaMemcpyDeviceToHost,
                           ln->stream), "download");
    CK(cudaMemcpyAsync(ln->h_small, ln->d_small, 2 * sizeof(uint64_t),
                       cudaMemcpyDeviceToHost, ln->stream), "download");
    CK(cudaEventRecord(ln->all_done, ln->stream), "recording an event");
    sc_phase_add(l->times, SC_PH_UPLOAD, sc_now() - t0);
    return SC_OK;
}

sc_status sc_lanes_finish(sc_lanes *l, unsigned i, sc_chunk *c)
{
    sc_ctx *ctx = l->ctx;
    lane *ln = &l->lanes[i];
    const sc_chunk_work *w = &l->w;
    double t0 = sc_now();
    sc_status st = sc_cuda_bind_on(ctx, ln->gpu);
    if (st) return st;
    CK(cudaEventSynchronize(ln->all_done), "running kernels");
    c->carry_out = ln->h_small[SMALL_CARRY_OUT];
    c->n_sel = w->work == SC_JOB_COMPACT || w->work == SC_JOB_SPLIT
             ? ln->h_small[SMALL_COUNT] : 0;
    if (w->work == SC_JOB_STAT) {
        sc_cuda_stat_figures(ln->stat, ln->h_stat, c->n, w->type);
        c->stat = ln->stat;
    }
    if ((w->work == SC_JOB_COMPACT || w->work == SC_JOB_SPLIT) &&
        !w->figures_only) {
        sc_chunk_work got = *w;
        got.out_kind = ln->out_kind;
        CK(cudaMemcpyAsync(c->out, ln->buf[BUF_OUT],
                           c->n_sel * sc_cuda_out_bytes(&got),
                           cudaMemcpyDeviceToHost, ln->stream), "download");
        if (w->work == SC_JOB_SPLIT)
            CK(cudaMemcpyAsync(c->aux, ln->buf[BUF_AUX],
                               (c->n - c->n_sel) * sc_cuda_in_bytes(w),
                               cudaMemcpyDeviceToHost, ln->stream),
               "download");
        CK(cudaStreamSynchronize(ln->stream), "download");
    }
    sc_phase_add(l->times, SC_PH_DOWNLOAD, sc_now() - t0);
    return SC_OK;
}
