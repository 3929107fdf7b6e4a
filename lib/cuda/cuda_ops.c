/* cuda_ops.c — the CUDA table: operations on host arrays as upload,
 * kernels, download, and the same kernels on device arrays.
 *
 * Work on host arrays goes through the device in pieces: a piece that
 * does not fit in device memory is halved and retried, and when even a
 * small piece does not fit, SC_ERR_NOMEM sends ops.c to the CPU.  The
 * streaming jobs do not come here: they queue chunks on lanes (lane.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "cuda/cuda_internal.h"

#define MIN_PIECE ((uint64_t)1 << 20)

sc_status sc_cuda_ensure(sc_ctx *ctx, struct sc_cuda *c, int which,
                         size_t bytes)
{
    if (bytes <= c->cap[which]) return SC_OK;
    sc_cuda_free_on(c, c->buf[which], c->cap[which]);
    c->buf[which] = NULL;
    c->cap[which] = 0;
    sc_status st = sc_cuda_malloc_on(ctx, c, &c->buf[which], bytes);
    if (st == SC_OK) c->cap[which] = bytes;
    return st;
}

/* Grows the first GPU's device buffer `which` to at least `bytes`. */
static sc_status ensure(sc_ctx *ctx, int which, size_t bytes)
{
    return sc_cuda_ensure(ctx, ctx->cuda, which, bytes);
}

static sc_status sync_stream(sc_ctx *ctx)
{
    CK(cudaStreamSynchronize(ctx->cuda->stream), "running kernels");
    return SC_OK;
}

/* Kernels of a fused operation are timed as the move phase. */
static sc_status kernels_done(sc_ctx *ctx, int err, double t0,
                              const char *what)
{
    if (err) return sc_cuda_fail(ctx, (cudaError_t)err, what);
    sc_status st = sync_stream(ctx);
    sc_phase_add(ctx, SC_PH_MOVE, sc_now() - t0);
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
typedef sc_status (*piece_fn)(sc_ctx *ctx, void *arg, uint64_t off,
                              uint64_t len);

static sc_status in_pieces(sc_ctx *ctx, uint64_t n, piece_fn fn, void *arg)
{
    sc_status st = sc_cuda_bind(ctx);
    uint64_t piece = n ? n : 1;
    for (uint64_t off = 0; st == SC_OK && off < n;) {
        uint64_t len = n - off < piece ? n - off : piece;
        st = fn(ctx, arg, off, len);
        if (st == SC_ERR_NOMEM && piece > MIN_PIECE) {
            piece /= 2;
            st = SC_OK;
            continue;
        }
        off += len;
    }
    return st;
}

/* One piece of a compaction, or with `rej` a split, of host arrays. */
typedef struct compact_args {
    const uint32_t *in; const sc_pred *pred; int kind; uint64_t first;
    void *out; uint32_t *rej; uint64_t kept;
} compact_args;

static sc_status compact_cb(sc_ctx *ctx, void *arg, uint64_t off,
                            uint64_t len)
{
    compact_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    size_t esz = a->kind == SC_EMIT_IDX64 ? 8 : 4;
    size_t scratch = a->rej ? scg_split_scratch(len) : scg_compact_scratch(len);
    sc_status st;
    if ((st = ensure(ctx, BUF_IN, len * 4 + 16)) ||
        (st = ensure(ctx, BUF_OUT, len * esz + 16)) ||
        (a->rej && (st = ensure(ctx, BUF_AUX, len * 4 + 16))) ||
        (st = ensure(ctx, BUF_SCRATCH, scratch + 256)) ||
        (st = sc_cuda_upload(ctx, c->buf[BUF_IN], a->in + off, len * 4)))
        return st;
    double t0 = sc_now();
    int err = a->rej
        ? scg_split(c->buf[BUF_IN], len, a->pred, c->buf[BUF_OUT],
                    c->buf[BUF_AUX], c->d_small, c->buf[BUF_SCRATCH],
                    c->stream)
        : scg_compact(c->buf[BUF_IN], len, a->pred, a->kind, a->first + off,
                      c->buf[BUF_OUT], c->d_small, c->buf[BUF_SCRATCH],
                      SCG_ALGO_FUSED, c->stream);
    uint64_t k = 0;
    if ((st = kernels_done(ctx, err, t0, a->rej ? "split" : "compact")) ||
        (st = small_get(ctx, 0, &k)) ||
        (st = sc_cuda_download(ctx, (char *)a->out + a->kept * esz,
                               c->buf[BUF_OUT], k * esz)))
        return st;
    if (a->rej)
        st = sc_cuda_download(ctx, a->rej + (off - a->kept), c->buf[BUF_AUX],
                              (len - k) * 4);
    a->kept += k;
    return st;
}

static sc_status cuda_compact(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                              const sc_pred *pred, int out_kind,
                              uint64_t first_index, void *out, uint64_t *kept)
{
    compact_args a = { in, pred, out_kind, first_index, out, NULL, 0 };
    sc_status st = in_pieces(ctx, n, compact_cb, &a);
    *kept = a.kept;
    return st;
}

static sc_status cuda_split(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                            const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                            uint64_t *selected)
{
    compact_args a = { in, pred, SC_EMIT_VALUES, 0, sel, rej, 0 };
    sc_status st = in_pieces(ctx, n, compact_cb, &a);
    *selected = a.kept;
    return st;
}

typedef struct scan_args {
    const uint32_t *in; sc_scan_op op; int inclusive, wide;
    void *out; uint64_t carry;
} scan_args;

static sc_status scan_cb(sc_ctx *ctx, void *arg, uint64_t off, uint64_t len)
{
    scan_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    size_t esz = a->wide ? 8 : 4;
    sc_status st;
    if ((st = ensure(ctx, BUF_IN, len * 4 + 16)) ||
        (st = ensure(ctx, BUF_OUT, len * esz + 16)) ||
        (st = ensure(ctx, BUF_SCRATCH, scg_scan_scratch(len) + 256)) ||
        (st = small_put(ctx, 0, a->carry)) ||
        (st = sc_cuda_upload(ctx, c->buf[BUF_IN], a->in + off, len * 4)))
        return st;
    double t0 = sc_now();
    int err = scg_scan(c->buf[BUF_IN], len, (int)a->op, a->inclusive, a->wide,
                       c->d_small, c->buf[BUF_OUT], c->d_small + 1,
                       c->buf[BUF_SCRATCH], c->stream);
    if ((st = kernels_done(ctx, err, t0, "scan")) ||
        (st = sc_cuda_download(ctx, (char *)a->out + off * esz,
                               c->buf[BUF_OUT], len * esz)))
        return st;
    return small_get(ctx, 1, &a->carry);
}

static sc_status cuda_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                           sc_scan_op op, int inclusive, int wide, void *out,
                           uint64_t *carry)
{
    if (n == 0) return SC_OK;
    scan_args a = { in, op, inclusive, wide, out, *carry };
    sc_status st = in_pieces(ctx, n, scan_cb, &a);
    if (st == SC_OK) *carry = a.carry;
    return st;
}

typedef struct gen_args { const sc_gen_plan *plan; uint64_t first;
                          uint32_t *out; } gen_args;

static sc_status gen_cb(sc_ctx *ctx, void *arg, uint64_t off, uint64_t len)
{
    gen_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    sc_status st = ensure(ctx, BUF_OUT, len * 4 + 16);
    if (st) return st;
    double t0 = sc_now();
    int err = scg_gen(a->plan, a->first + off, c->buf[BUF_OUT], len,
                      c->stream);
    if ((st = kernels_done(ctx, err, t0, "gen"))) return st;
    return sc_cuda_download(ctx, a->out + off, c->buf[BUF_OUT], len * 4);
}

static sc_status cuda_gen(sc_ctx *ctx, const sc_gen_plan *plan,
                          uint64_t first_index, uint32_t *out, uint64_t n)
{
    gen_args a = { plan, first_index, out };
    return in_pieces(ctx, n, gen_cb, &a);
}

void sc_cuda_stat_figures(sc_stat_acc *out, const scg_stat_acc *d,
                          uint64_t n)
{
    out->count = n;
    out->zeros = d->zeros;
    out->sum = d->sum;
    out->sum_hi = d->sum_hi;
    out->min = d->min;
    out->max = d->max;
    /* A rank is at most 64 - SC_HLL_BITS + 1: it fits the host's byte. */
    for (unsigned k = 0; k < SC_HLL_REGS; k++)
        out->reg[k] = (uint8_t)d->reg[k];
}

typedef struct stat_args { const uint32_t *in; scg_stat_acc *d_acc; } stat_args;

static sc_status stat_cb(sc_ctx *ctx, void *arg, uint64_t off, uint64_t len)
{
    stat_args *a = arg;
    struct sc_cuda *c = ctx->cuda;
    sc_status st;
    if ((st = ensure(ctx, BUF_IN, len * 4 + 16)) ||
        (st = sc_cuda_upload(ctx, c->buf[BUF_IN], a->in + off, len * 4)))
        return st;
    double t0 = sc_now();
    int err = scg_stat(c->buf[BUF_IN], len, a->d_acc, c->stream);
    return kernels_done(ctx, err, t0, "stat");
}

/* The pieces add up in one accumulator on the device, which is fetched
 * and merged into acc only once all are in: a failure leaves acc as it
 * was, for the CPU to take the whole array again. */
static sc_status cuda_stat(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                           sc_stat_acc *acc)
{
    if (n == 0) return SC_OK;
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) ||
        (st = ensure(ctx, BUF_SCRATCH, sizeof(scg_stat_acc))))
        return st;
    stat_args a = { in, ctx->cuda->buf[BUF_SCRATCH] };
    int err = scg_stat_reset(a.d_acc, ctx->cuda->stream);
    if (err) return sc_cuda_fail(ctx, (cudaError_t)err, "stat");
    if ((st = in_pieces(ctx, n, stat_cb, &a))) return st;
    scg_stat_acc *h = malloc(sizeof *h);
    sc_stat_acc *part = malloc(sizeof *part);
    st = h && part ? sc_cuda_download(ctx, h, a.d_acc, sizeof *h)
                   : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (st == SC_OK) {
        sc_cuda_stat_figures(part, h, n);
        sc_stat_acc_merge(acc, part);
    }
    free(h);
    free(part);
    return st;
}

/* The whole array must fit: a sort cannot be cut into pieces here (the
 * sort job cuts its input into runs of what -S and the device allow). */
static sc_status cuda_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                           unsigned lo_bit, unsigned hi_bit, int descending)
{
    /* On one GPU, or a part on each of -d cuda:all's (cuda_sort.c). */
    return sc_cuda_sort(ctx, keys, n, lo_bit, hi_bit, descending);
}

static sc_status cuda_dev_compact(sc_ctx *ctx, const uint32_t *d_in,
                                  uint64_t n, const sc_pred *pred,
                                  uint32_t *d_out, uint64_t *kept)
{
    struct sc_cuda *c = ctx->cuda;
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) ||
        (st = ensure(ctx, BUF_SCRATCH, scg_compact_scratch(n) + 256)))
        return st;
    double t0 = sc_now();
    int err = scg_compact(d_in, n, pred, SC_EMIT_VALUES, 0, d_out, c->d_small,
                          c->buf[BUF_SCRATCH], SCG_ALGO_FUSED, c->stream);
    if ((st = kernels_done(ctx, err, t0, "compact"))) return st;
    return small_get(ctx, 0, kept);
}

static sc_status cuda_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                               sc_scan_op op, int inclusive, int wide,
                               void *d_out, uint64_t *carry)
{
    struct sc_cuda *c = ctx->cuda;
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) ||
        (st = ensure(ctx, BUF_SCRATCH, scg_scan_scratch(n) + 256)) ||
        (st = small_put(ctx, 0, *carry)))
        return st;
    double t0 = sc_now();
    int err = scg_scan(d_in, n, (int)op, inclusive, wide, c->d_small, d_out,
                       c->d_small + 1, c->buf[BUF_SCRATCH], c->stream);
    if ((st = kernels_done(ctx, err, t0, "scan"))) return st;
    return small_get(ctx, 1, carry);
}

static sc_status cuda_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                               unsigned lo_bit, unsigned hi_bit,
                               int descending)
{
    struct sc_cuda *c = ctx->cuda;
    if (n < 2) return SC_OK;
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) || (st = ensure(ctx, BUF_AUX, n * 4)) ||
        (st = ensure(ctx, BUF_SCRATCH, scg_sort_scratch(n) + 256)))
        return st;
    int alt = 0;
    double t0 = sc_now();
    int err = scg_sort(d_keys, c->buf[BUF_AUX], n, lo_bit, hi_bit, descending,
                       &alt, c->buf[BUF_SCRATCH], c->stream);
    if ((st = kernels_done(ctx, err, t0, "sort"))) return st;
    if (alt)
        CK(cudaMemcpyAsync(d_keys, c->buf[BUF_AUX], n * 4,
                           cudaMemcpyDeviceToDevice, c->stream), "copy");
    return sync_stream(ctx);
}

const sc_backend sc_cuda_backend = {
    .name = "cuda",
    .compact = cuda_compact,
    .split = cuda_split,
    .scan = cuda_scan,
    .sort = cuda_sort,
    .gen = cuda_gen,
    .stat = cuda_stat,
    .dev_compact = cuda_dev_compact,
    .dev_scan = cuda_dev_scan,
    .dev_sort = cuda_dev_sort,
    .lanes_open = sc_lanes_open,
    .lanes_submit = sc_lanes_submit,
    .lanes_finish = sc_lanes_finish,
    .lanes_close = sc_lanes_close,
    .pin = sc_device_pin,
    .unpin = sc_device_unpin,
};
