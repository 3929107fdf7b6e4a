/* cuda_sort.c — sorting host arrays on the GPU: on one, or under
 * -d cuda:all on all of them at once.
 *
 * One GPU: upload, radix sort, download, through the GPU's own buffers
 * and pinned stages.  Several: the keys are cut into one contiguous part
 * per GPU, each part sorted on its GPU by a thread of its own (the
 * caller's thread takes the first) into a second host buffer, and the
 * sorted parts are merged back into the keys on the pool's threads
 * (core/merge_parts.c).  Ties keep part order in the merge, and the
 * parts are in input order, so the result is the one stable sort, byte
 * for byte.
 * The merge takes ranks, so a signed or float type is ranked on the
 * host's threads around it.  The second buffer doubles the host memory of
 * the sort; where it cannot be had, and for 8-byte keys, whose merge is
 * not written, the first GPU sorts alone.  The simpler k-way heap merge of
 * merge.c, streamed to the output, runs on one thread: measured on a
 * shared 2-core machine, sc-rsort -m of two sorted 256 MiB files took
 * 2.6 s (0.2 GB/s), the parallel merge of the same 512 MiB 0.8-1.1 s on
 * 2 threads, and it scales with the host's threads.
 */
#include <stdlib.h>
#include <string.h>
#include "cuda/cuda_internal.h"

sc_status sc_cuda_sort_on(sc_ctx *ctx, sc_phase_times *times,
                          struct sc_cuda *c, const void *src, void *dst,
                          uint64_t n, sc_type type, unsigned lo_bit,
                          unsigned hi_bit, int descending)
{
    size_t bytes = n * sc_type_size(type);
    if (n < 2) {
        memmove(dst, src, bytes);
        return SC_OK;
    }
    sc_status st;
    if ((st = sc_cuda_bind_on(ctx, c)) ||
        (st = sc_cuda_ensure(ctx, c, BUF_IN, bytes)) ||
        (st = sc_cuda_ensure(ctx, c, BUF_OUT, bytes)) ||
        (st = sc_cuda_ensure(ctx, c, BUF_SCRATCH,
                             sc_cuda_sort_scratch(n, type))) ||
        (st = sc_cuda_upload_on(ctx, times, c, c->buf[BUF_IN], src, bytes)))
        return st;
    int alt = 0;
    double t0 = sc_now();
    int err = scg_sort_type(c->buf[BUF_IN], c->buf[BUF_OUT], n, (uint32_t)type,
                            lo_bit, hi_bit, descending, &alt,
                            c->buf[BUF_SCRATCH], c->stream);
    if (err) return sc_cuda_fail(ctx, (cudaError_t)err, "sort");
    CK(cudaStreamSynchronize(c->stream), "running kernels");
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    return sc_cuda_download_on(ctx, times, c, dst,
                               c->buf[alt ? BUF_OUT : BUF_IN], bytes);
}

/* One GPU's part of a sort spread over several. */
typedef struct part_job {
    sc_ctx *ctx;
    sc_phase_times *times;
    struct sc_cuda *gpu;
    const uint32_t *src;
    uint32_t *dst;
    uint64_t n;
    unsigned lo_bit, hi_bit;
    int descending, threaded;
    pthread_t thread;
    sc_status st;
} part_job;

static void *part_main(void *arg)
{
    part_job *j = arg;
    j->st = sc_cuda_sort_on(j->ctx, j->times, j->gpu, j->src, j->dst, j->n,
                            SC_U32, j->lo_bit, j->hi_bit, j->descending);
    if (j->st == SC_OK) {
        j->gpu->chunks++;           /* only this thread counts on this GPU */
        j->gpu->elems += j->n;
    }
    return NULL;
}

/* The parts' outcome: a device's failure before running out of memory,
 * which sends the whole sort to the CPU (the keys are still untouched). */
static sc_status parts_status(const part_job *jobs, unsigned k)
{
    sc_status st = SC_OK;
    for (unsigned i = 0; i < k; i++) {
        if (jobs[i].st == SC_OK) continue;
        if (jobs[i].st != SC_ERR_NOMEM) return jobs[i].st;
        st = SC_ERR_NOMEM;
    }
    return st;
}

/* Sorts the k parts keys[bounds[i] .. bounds[i+1]) into tmp at once. */
static sc_status sort_parts(sc_ctx *ctx, sc_phase_times *times,
                            uint32_t *keys, uint32_t *tmp,
                            const uint64_t *bounds, unsigned k,
                            unsigned lo_bit, unsigned hi_bit, int descending)
{
    part_job jobs[SC_MAX_GPUS];
    for (unsigned i = 0; i < k; i++) {
        part_job j = { .ctx = ctx, .times = times, .gpu = sc_gpu(ctx, i),
                       .src = keys + bounds[i], .dst = tmp + bounds[i],
                       .n = bounds[i + 1] - bounds[i], .lo_bit = lo_bit,
                       .hi_bit = hi_bit, .descending = descending };
        jobs[i] = j;
    }
    for (unsigned i = 1; i < k; i++)
        jobs[i].threaded = sc_thread_start(&jobs[i].thread, part_main,
                                           &jobs[i]) == 0;
    part_main(&jobs[0]);
    /* A part whose thread could not start is sorted here, after. */
    for (unsigned i = 1; i < k; i++) {
        if (jobs[i].threaded) pthread_join(jobs[i].thread, NULL);
        else part_main(&jobs[i]);
    }
    return parts_status(jobs, k);
}

/* The parts sorted, each on its GPU, and merged back into keys. */
static sc_status sort_spread(sc_ctx *ctx, sc_phase_times *times,
                             uint32_t *keys, uint32_t *tmp, uint64_t n,
                             unsigned k, unsigned lo_bit, unsigned hi_bit,
                             int descending)
{
    uint64_t bounds[SC_MAX_GPUS + 1];
    for (unsigned i = 0; i <= k; i++) bounds[i] = n / k * i + n % k * i / k;
    sc_status st = sort_parts(ctx, times, keys, tmp, bounds, k, lo_bit,
                              hi_bit, descending);
    if (st == SC_OK) {
        /* Host work of the sort, shown with the kernels' under -v. */
        double t0 = sc_now();
        sc_merge_parts(ctx, tmp, bounds, k, lo_bit, hi_bit, descending,
                           keys);
        sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    }
    return st;
}

sc_status sc_cuda_sort(sc_ctx *ctx, sc_phase_times *times, void *keys,
                       uint64_t n, sc_type type, unsigned lo_bit,
                       unsigned hi_bit, int descending)
{
    unsigned k = sc_type_size(type) == 4 ? sc_gpu_count(ctx) : 1;
    uint32_t *tmp = k > 1 && n >= 2 ? sc_big_alloc(n * 4) : NULL;
    if (!tmp)
        return sc_cuda_sort_on(ctx, times, ctx->cuda, keys, keys, n, type,
                               lo_bit, hi_bit, descending);
    int ranked = sc_type_ranked(type);
    sc_key key = sc_key_of((uint32_t)type);
    double t0 = sc_now();
    if (ranked) sc_keys_rank(ctx->pool, ctx->threads, key, keys, n, 0);
    sc_phase_add(times, SC_PH_COUNT, sc_now() - t0);
    sc_status st = sort_spread(ctx, times, keys, tmp, n, k, lo_bit, hi_bit,
                               descending);
    /* Whatever happened, the keys are elements again. */
    if (ranked) sc_keys_rank(ctx->pool, ctx->threads, key, keys, n, 1);
    free(tmp);
    return st;
}
