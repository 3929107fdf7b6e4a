/* cuda_ops.c — the CUDA table: operations on host arrays as upload,
 * kernels, download; the same kernels on the caller's device arrays are
 * cuda_dev.c's.
 *
 * Work on host arrays goes through the device in pieces: a piece that
 * does not fit in device memory is halved and retried, and when even a
 * small piece does not fit, SC_ERR_NOMEM sends ops.c to the CPU.  The
 * streaming jobs do not come here: they queue chunks on lanes (lane.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cuda/cuda_internal.h"

#define MIN_PIECE ((uint64_t)1 << 20)

/* Grows the first GPU's device buffer `which` to at least `bytes`. */
static sc_status ensure(sc_ctx *ctx, int which, size_t bytes)
{
    return sc_cuda_ensure(ctx, ctx->cuda, which, bytes);
}

/* Grows the first GPU's buffers to what w needs on n elements. */
static sc_status ensure_for(sc_ctx *ctx, const sc_chunk_work *w, uint64_t n)
{
    size_t need[BUF_COUNT_OF];
    sc_cuda_needs(w, n, need);
    sc_status st = SC_OK;
    for (int k = 0; k < BUF_COUNT_OF && st == SC_OK; k++)
        if (need[k]) st = ensure(ctx, k, need[k]);
    return st;
}

/* The first GPU's buffers as an operation's, once they are ensured. */
static sc_cuda_bufs own_bufs(const struct sc_cuda *c)
{
    sc_cuda_bufs b = { c->buf[BUF_IN], c->buf[BUF_OUT], c->buf[BUF_AUX],
                       c->buf[BUF_SCRATCH], c->d_small, c->d_small,
                       c->d_small + 1 };
    return b;
}

static sc_status sync_stream(sc_ctx *ctx)
{
    CK(cudaStreamSynchronize(ctx->cuda->stream), "running kernels");
    return SC_OK;
}

/* Kernels of a fused operation are timed as the move phase. */
static sc_status kernels_done(sc_ctx *ctx, sc_phase_times *times, int err,
                              double t0, const char *what)
{
    if (err) return sc_cuda_fail(ctx, (cudaError_t)err, what);
    sc_status st = sync_stream(ctx);
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    return st;
}

static sc_status small_get(sc_ctx *ctx, int k, uint64_t *v)
{
    struct sc_cuda *c = ctx->cuda;
    CK(cudaMemcpyAsync(c->h_small + k, c->d_small + k, 8,
                       cudaMemcpyDeviceToHost, c->stream), "download");
    sc_status st = sync_stream(ctx);
    *v = c->h_small[k];
    return st;
}

static sc_status small_put(sc_ctx *ctx, int k, uint64_t v)
{
    struct sc_cuda *c = ctx->cuda;
    c->h_small[k] = v;
    CK(cudaMemcpyAsync(c->d_small + k, c->h_small + k, 8,
                       cudaMemcpyHostToDevice, c->stream), "upload");
    return sync_stream(ctx);
}

/* Runs fn over [0, n) in pieces that fit the device, halving the piece
 * on NOMEM.  The callback gets the offset and length. */
typedef sc_status (*piece_fn)(sc_ctx *ctx, sc_phase_times *times, void *arg,
                              uint64_t off, uint64_t len);

static sc_status in_pieces(sc_ctx *ctx, sc_phase_times *times, uint64_t n,
                           piece_fn fn, void *arg)
{
    sc_status st = sc_cuda_bind(ctx);
    uint64_t piece = n ? n : 1;
    for (uint64_t off = 0; st == SC_OK && off < n;) {
        uint64_t len = n - off < piece ? n - off : piece;
        st = fn(ctx, times, arg, off, len);
        if (st == SC_ERR_NOMEM && piece > MIN_PIECE) {
            piece /= 2;
            st = SC_OK;
            continue;
        }
        off += len;
    }
    return st;
}

/* Queues w's kernels on the first GPU and waits for them. */
static sc_status run_kernels(sc_ctx *ctx, sc_phase_times *times,
                             const sc_chunk_work *w, uint64_t n,
                             uint64_t first, const sc_cuda_bufs *b,
                             const char *what)
{
    double t0 = sc_now();
    int err = sc_cuda_queue(w, n, first, b, ctx->cuda->stream);
    return kernels_done(ctx, times, err, t0, what);
}

/* One piece of w, a compaction or (with rej) a split, of host arrays. */
typedef struct compact_args {
    sc_chunk_work w; const char *in; uint64_t first;
    void *out; char *rej; uint64_t kept;
} compact_args;

static sc_status compact_cb(sc_ctx *ctx, sc_phase_times *times, void *arg,
                            uint64_t off, uint64_t len)
{
    compact_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    size_t esz = sc_cuda_out_bytes(&a->w), isz = sc_cuda_in_bytes(&a->w);
    sc_status st;
    if ((st = ensure_for(ctx, &a->w, len)) ||
        (st = sc_cuda_upload(ctx, times, c->buf[BUF_IN], a->in + off * isz,
                             len * isz)))
        return st;
    sc_cuda_bufs b = own_bufs(c);
    uint64_t k = 0;
    if ((st = run_kernels(ctx, times, &a->w, len, a->first + off, &b,
                          a->rej ? "split" : "compact")) ||
        (st = small_get(ctx, 0, &k)) ||
        (st = sc_cuda_download(ctx, times, (char *)a->out + a->kept * esz,
                               c->buf[BUF_OUT], k * esz)))
        return st;
    if (a->rej)
        st = sc_cuda_download(ctx, times, a->rej + (off - a->kept) * isz,
                              c->buf[BUF_AUX], (len - k) * isz);
    a->kept += k;
    return st;
}

/* Records of a layout that the kernels take (the jobs send the others to
 * the CPU); rec NULL: elements. */
static sc_status records_taken(sc_ctx *ctx, const sc_record *rec,
                               int big_endian)
{
    if (!rec || sc_record_on_gpu(rec, big_endian)) return SC_OK;
    return sc_fail(ctx, SC_ERR_USAGE, "no GPU kernel takes %s records of "
                   "%u bytes", big_endian ? "big-endian" : "these",
                   (unsigned)rec->size);
}

static sc_status cuda_compact_records(sc_ctx *ctx, sc_phase_times *times,
                                      const void *in, uint64_t n,
                                      const sc_record *rec, int big_endian,
                                      const sc_pred *pred, int out_kind,
                                      uint64_t first_index, void *out,
                                      uint64_t *kept)
{
    sc_chunk_work w = { .work = SC_JOB_COMPACT, .pred = pred, .rec = rec,
                        .out_kind = out_kind };
    compact_args a = { w, in, first_index, out, NULL, 0 };
    sc_status st = records_taken(ctx, rec, big_endian);
    if (st == SC_OK) st = in_pieces(ctx, times, n, compact_cb, &a);
    *kept = a.kept;
    return st;
}

static sc_status cuda_compact(sc_ctx *ctx, sc_phase_times *times,
                              const void *in, uint64_t n,
                              const sc_pred *pred, int out_kind,
                              uint64_t first_index, void *out, uint64_t *kept)
{
    return cuda_compact_records(ctx, times, in, n, NULL, 0, pred, out_kind,
                                first_index, out, kept);
}

static sc_status cuda_split_records(sc_ctx *ctx, sc_phase_times *times,
                                    const void *in, uint64_t n,
                                    const sc_record *rec, int big_endian,
                                    const sc_pred *pred, void *sel, void *rej,
                                    uint64_t *selected)
{
    sc_chunk_work w = { .work = SC_JOB_SPLIT, .pred = pred, .rec = rec };
    compact_args a = { w, in, 0, sel, rej, 0 };
    sc_status st = records_taken(ctx, rec, big_endian);
    if (st == SC_OK) st = in_pieces(ctx, times, n, compact_cb, &a);
    *selected = a.kept;
    return st;
}

static sc_status cuda_split(sc_ctx *ctx, sc_phase_times *times,
                            const void *in, uint64_t n,
                            const sc_pred *pred, void *sel, void *rej,
                            uint64_t *selected)
{
    return cuda_split_records(ctx, times, in, n, NULL, 0, pred, sel, rej,
                              selected);
}

typedef struct scan_args {
    sc_chunk_work w; const char *in; void *out; uint64_t carry;
} scan_args;

static sc_status scan_cb(sc_ctx *ctx, sc_phase_times *times, void *arg,
                         uint64_t off, uint64_t len)
{
    scan_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    size_t esz = sc_cuda_out_bytes(&a->w), isz = sc_cuda_in_bytes(&a->w);
    sc_status st;
    if ((st = ensure_for(ctx, &a->w, len)) ||
        (st = small_put(ctx, 0, a->carry)) ||
        (st = sc_cuda_upload(ctx, times, c->buf[BUF_IN], a->in + off * isz,
                             len * isz)))
        return st;
    sc_cuda_bufs b = own_bufs(c);
    if ((st = run_kernels(ctx, times, &a->w, len, off, &b, "scan")) ||
        (st = sc_cuda_download(ctx, times, (char *)a->out + off * esz,
                               c->buf[BUF_OUT], len * esz)))
        return st;
    return small_get(ctx, 1, &a->carry);
}

static sc_status cuda_scan(sc_ctx *ctx, sc_phase_times *times,
                           const void *in, uint64_t n, sc_type type,
                           sc_scan_op op, int inclusive, int wide, void *out,
                           uint64_t *carry)
{
    if (n == 0) return SC_OK;
    sc_chunk_work w = { .work = SC_JOB_SCAN, .op = op,
                        .inclusive = inclusive, .wide = wide, .type = type };
    scan_args a = { w, in, out, *carry };
    sc_status st = in_pieces(ctx, times, n, scan_cb, &a);
    if (st == SC_OK) *carry = a.carry;
    return st;
}

typedef struct gen_args { sc_chunk_work w; uint64_t first;
                          uint32_t *out; } gen_args;

static sc_status gen_cb(sc_ctx *ctx, sc_phase_times *times, void *arg,
                        uint64_t off, uint64_t len)
{
    gen_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    sc_status st = ensure_for(ctx, &a->w, len);
    if (st) return st;
    sc_cuda_bufs b = own_bufs(c);
    if ((st = run_kernels(ctx, times, &a->w, len, a->first + off, &b, "gen")))
        return st;
    return sc_cuda_download(ctx, times, a->out + off, c->buf[BUF_OUT],
                            len * 4);
}

static sc_status cuda_gen(sc_ctx *ctx, sc_phase_times *times,
                          const sc_gen_plan *plan, uint64_t first_index,
                          void *out, uint64_t n)
{
    sc_chunk_work w = { .work = SC_JOB_GEN, .plan = plan };
    gen_args a = { w, first_index, out };
    return in_pieces(ctx, times, n, gen_cb, &a);
}

typedef struct stat_args { sc_chunk_work w; const char *in;
                           scg_stat_acc *d_acc; } stat_args;

static sc_status stat_cb(sc_ctx *ctx, sc_phase_times *times, void *arg,
                         uint64_t off, uint64_t len)
{
    stat_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    sc_status st;
    size_t size = sc_type_size(a->w.type);
    if ((st = ensure_for(ctx, &a->w, len)) ||
        (st = sc_cuda_upload(ctx, times, c->buf[BUF_IN], a->in + off * size,
                             len * size)))
        return st;
    sc_cuda_bufs b = own_bufs(c);
    return run_kernels(ctx, times, &a->w, len, off, &b, "stat");
}

/* The pieces add up in one accumulator on the device, which is fetched
 * and merged into acc only once all are in: a failure leaves acc as it
 * was, for the CPU to take the whole array again.  The accumulator is the
 * scratch, ensured here at the size the pieces ask for, so it stays where
 * it is while they add up. */
static sc_status cuda_stat(sc_ctx *ctx, sc_phase_times *times,
                           const void *in, uint64_t n, sc_type type,
                           sc_stat_acc *acc)
{
    if (n == 0) return SC_OK;
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) ||
        (st = ensure(ctx, BUF_SCRATCH, sc_cuda_scratch(SC_JOB_STAT, n))))
        return st;
    stat_args a = { { .work = SC_JOB_STAT, .type = type }, in,
                    ctx->cuda->buf[BUF_SCRATCH] };
    int err = scg_stat_reset(a.d_acc, ctx->cuda->stream);
    if (err) return sc_cuda_fail(ctx, (cudaError_t)err, "stat");
    if ((st = in_pieces(ctx, times, n, stat_cb, &a))) return st;
    scg_stat_acc *h = malloc(sizeof *h);
    sc_stat_acc *part = malloc(sizeof *part);
    st = h && part ? sc_cuda_download(ctx, times, h, a.d_acc, sizeof *h)
                   : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (st == SC_OK) {
        sc_cuda_stat_figures(part, h, n, type);
        sc_stat_acc_merge(acc, part);
    }
    free(h);
    free(part);
    return st;
}

/* A sort is not cut into pieces here: the whole array (under -d cuda:all,
 * each GPU's part) must fit in device memory, or SC_ERR_NOMEM sends the
 * sort to the CPU (ops.c).  The sort job cuts its input into runs of -S. */
const sc_backend sc_cuda_backend = {
    .name = "cuda",
    .compact = cuda_compact,
    .split = cuda_split,
    .compact_records = cuda_compact_records,
    .split_records = cuda_split_records,
    .scan = cuda_scan,
    .sort = sc_cuda_sort,
    .sort_records = sc_cuda_sort_records,
    .gen = cuda_gen,
    .stat = cuda_stat,
    .dev_queue = sc_cuda_dev_queue,
    .dev_block = sc_cuda_dev_block,
    .dev_sync = sc_cuda_dev_sync,
    .dev_temp = sc_cuda_dev_temp,
    .lanes_open = sc_lanes_open,
    .lanes_submit = sc_lanes_submit,
    .lanes_finish = sc_lanes_finish,
    .lanes_close = sc_lanes_close,
    .pin = sc_device_pin,
    .unpin = sc_device_unpin,
};
