/* cuda.c — the CUDA backend's host side: device choice, device buffers,
 * and the host-array operations as upload / kernels / download.
 *
 * Work on host arrays goes through the device in pieces: a piece that
 * does not fit in device memory is halved and retried, and when even a
 * small piece does not fit, SC_ERR_NOMEM sends the caller to the CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "internal.h"
#include "sc_kernels.h"

enum { BUF_IN, BUF_OUT, BUF_AUX, BUF_SCRATCH, BUF_COUNT_OF };

struct sc_cuda {
    int device;
    cudaStream_t stream;
    void *buf[BUF_COUNT_OF];
    size_t cap[BUF_COUNT_OF];
    uint64_t *d_small;          /* counters and carries on the device */
    uint64_t *h_small;          /* their pinned host mirror */
};

#define MIN_PIECE ((uint64_t)1 << 20)

static sc_status cuda_fail(sc_ctx *ctx, cudaError_t err, const char *what)
{
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();     /* clear it: the device is still usable */
        sc_fail(ctx, SC_ERR_NOMEM, "CUDA: %s: out of device memory", what);
        return SC_ERR_NOMEM;
    }
    return sc_fail(ctx, SC_ERR_DEVICE, "CUDA: %s: %s", what,
                   cudaGetErrorString(err));
}

#define CK(call, what)                                                  \
    do {                                                                \
        cudaError_t e_ = (cudaError_t)(call);                           \
        if (e_ != cudaSuccess) return cuda_fail(ctx, e_, what);         \
    } while (0)

int sc_cuda_available(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

sc_status sc_cuda_open(sc_ctx *ctx, int index)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0)
        return sc_fail(ctx, SC_ERR_NODEVICE, "no CUDA GPU found (%s)",
                       e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    if (index >= count)
        return sc_fail(ctx, SC_ERR_NODEVICE, "cuda:%d: no such GPU (%d found)",
                       index, count);
    struct sc_cuda *c = calloc(1, sizeof *c);
    if (!c) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    c->device = index;
    ctx->cuda = c;
    struct cudaDeviceProp prop;
    if ((e = cudaSetDevice(index)) != cudaSuccess ||
        (e = cudaFree(0)) != cudaSuccess ||
        (e = cudaGetDeviceProperties(&prop, index)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking))
            != cudaSuccess ||
        (e = cudaMalloc((void **)&c->d_small, 8 * sizeof(uint64_t)))
            != cudaSuccess ||
        (e = cudaHostAlloc((void **)&c->h_small, 8 * sizeof(uint64_t),
                           cudaHostAllocDefault)) != cudaSuccess) {
        sc_status st = sc_fail(ctx, SC_ERR_NODEVICE, "cuda:%d: unusable: %s",
                               index, cudaGetErrorString(e));
        sc_cuda_close(ctx);
        return st;
    }
    ctx->kind = SC_DEVICE_CUDA;
    ctx->cuda_index = index;
    snprintf(ctx->name, sizeof ctx->name, "cuda:%d (%s)", index, prop.name);
    return SC_OK;
}

void sc_cuda_close(sc_ctx *ctx)
{
    struct sc_cuda *c = ctx->cuda;
    if (!c) return;
    for (int i = 0; i < BUF_COUNT_OF; i++) cudaFree(c->buf[i]);
    cudaFree(c->d_small);
    cudaFreeHost(c->h_small);
    if (c->stream) cudaStreamDestroy(c->stream);
    free(c);
    ctx->cuda = NULL;
}

void *sc_host_alloc(sc_ctx *ctx, size_t bytes)
{
    void *p = NULL;
    if (ctx && ctx->cuda &&
        cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocDefault) == cudaSuccess)
        return p;
    cudaGetLastError();
    return sc_big_alloc(bytes);
}

void sc_host_free(sc_ctx *ctx, void *p)
{
    (void)ctx;
    if (!p) return;
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) == cudaSuccess &&
        a.type == cudaMemoryTypeHost)
        cudaFreeHost(p);
    else {
        cudaGetLastError();
        free(p);
    }
}

/* SC_TEST_DEVICE_MEMORY=BYTES caps the device memory libsc takes, so that
 * tests can drive the out-of-memory paths on any GPU. */
static size_t device_memory_cap(void)
{
    const char *v = getenv("SC_TEST_DEVICE_MEMORY");
    return v && *v ? (size_t)strtoull(v, NULL, 0) : SIZE_MAX;
}

/* Grows device buffer `which` to at least `bytes`. */
static sc_status ensure(sc_ctx *ctx, int which, size_t bytes)
{
    struct sc_cuda *c = ctx->cuda;
    if (bytes <= c->cap[which]) return SC_OK;
    size_t others = 0;
    for (int i = 0; i < BUF_COUNT_OF; i++)
        if (i != which) others += c->cap[i];
    if (others + bytes > device_memory_cap())
        return sc_fail(ctx, SC_ERR_NOMEM, "CUDA: test cap on device memory "
                       "reached");
    cudaFree(c->buf[which]);
    c->buf[which] = NULL;
    c->cap[which] = 0;
    CK(cudaMalloc(&c->buf[which], bytes), "allocating device memory");
    c->cap[which] = bytes;
    return SC_OK;
}

static sc_status sync_stream(sc_ctx *ctx)
{
    CK(cudaStreamSynchronize(ctx->cuda->stream), "running kernels");
    return SC_OK;
}

static sc_status upload(sc_ctx *ctx, void *dst, const void *src, size_t bytes)
{
    double t0 = sc_now();
    CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice,
                       ctx->cuda->stream), "upload");
    sc_status st = sync_stream(ctx);
    sc_phase_add(ctx, SC_PH_UPLOAD, sc_now() - t0);
    return st;
}

static sc_status download(sc_ctx *ctx, void *dst, const void *src,
                          size_t bytes)
{
    double t0 = sc_now();
    CK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost,
                       ctx->cuda->stream), "download");
    sc_status st = sync_stream(ctx);
    sc_phase_add(ctx, SC_PH_DOWNLOAD, sc_now() - t0);
    return st;
}

/* Kernels of a fused operation are timed as the move phase. */
static sc_status kernels_done(sc_ctx *ctx, int err, double t0,
                              const char *what)
{
    if (err) return cuda_fail(ctx, (cudaError_t)err, what);
    sc_status st = sync_stream(ctx);
    sc_phase_add(ctx, SC_PH_MOVE, sc_now() - t0);
    return st;
}

/* One piece of a compaction (or, with rej, a split) of host arrays. */
static sc_status compact_piece(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                               const sc_pred *pred, int kind, uint64_t first,
                               void *out, uint32_t *rej, uint64_t *kept)
{
    struct sc_cuda *c = ctx->cuda;
    size_t esz = kind == SC_KIND_IDX64 ? 8 : 4;
    size_t scratch = rej ? scg_split_scratch(n) : scg_compact_scratch(n);
    sc_status st;
    if ((st = ensure(ctx, BUF_IN, n * 4 + 16)) ||
        (st = ensure(ctx, BUF_OUT, n * esz + 16)) ||
        (rej && (st = ensure(ctx, BUF_AUX, n * 4 + 16))) ||
        (st = ensure(ctx, BUF_SCRATCH, scratch + 256)))
        return st;
    if ((st = upload(ctx, c->buf[BUF_IN], in, n * 4))) return st;
    double t0 = sc_now();
    int err = rej
        ? scg_split(c->buf[BUF_IN], n, pred, c->buf[BUF_OUT], c->buf[BUF_AUX],
                    c->d_small, c->buf[BUF_SCRATCH], c->stream)
        : scg_compact(c->buf[BUF_IN], n, pred, kind, first, c->buf[BUF_OUT],
                      c->d_small, c->buf[BUF_SCRATCH], SCG_ALGO_FUSED,
                      c->stream);
    if ((st = kernels_done(ctx, err, t0, rej ? "split" : "compact"))) return st;
    if ((st = download(ctx, c->h_small, c->d_small, 8))) return st;
    *kept = c->h_small[0];
    if ((st = download(ctx, out, c->buf[BUF_OUT], *kept * esz))) return st;
    if (rej) st = download(ctx, rej, c->buf[BUF_AUX], (n - *kept) * 4);
    return st;
}

/* Runs piece() over [0, n) in pieces that fit the device, halving the
 * piece on NOMEM.  The callback gets the offset and length. */
typedef sc_status (*piece_fn)(sc_ctx *ctx, void *arg, uint64_t off,
                              uint64_t len);

static sc_status in_pieces(sc_ctx *ctx, uint64_t n, piece_fn fn, void *arg)
{
    uint64_t piece = n ? n : 1;
    for (uint64_t off = 0; off < n || (n == 0 && off == 0);) {
        uint64_t len = n - off < piece ? n - off : piece;
        sc_status st = fn(ctx, arg, off, len);
        if (st == SC_ERR_NOMEM && piece > MIN_PIECE) {
            piece /= 2;
            continue;
        }
        if (st) return st;
        off += len;
        if (n == 0) break;
    }
    return SC_OK;
}

typedef struct compact_args {
    const uint32_t *in; const sc_pred *pred; int kind; uint64_t first;
    void *out; uint32_t *sel; uint32_t *rej; uint64_t kept;
} compact_args;

static sc_status compact_cb(sc_ctx *ctx, void *arg, uint64_t off, uint64_t len)
{
    compact_args *a = arg;
    size_t esz = a->kind == SC_KIND_IDX64 ? 8 : 4;
    uint64_t k = 0;
    sc_status st = compact_piece(ctx, a->in + off, len, a->pred, a->kind,
                                 a->first + off,
                                 (char *)a->out + a->kept * esz, NULL, &k);
    if (st == SC_OK) a->kept += k;
    return st;
}

sc_status sc_cuda_compact(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                          const sc_pred *pred, int out_kind,
                          uint64_t first_index, void *out, uint64_t *kept)
{
    compact_args a = { in, pred, out_kind, first_index, out, NULL, NULL, 0 };
    sc_status st = in_pieces(ctx, n, compact_cb, &a);
    *kept = a.kept;
    return st;
}

static sc_status split_cb(sc_ctx *ctx, void *arg, uint64_t off, uint64_t len)
{
    compact_args *a = arg;
    uint64_t k = 0;
    sc_status st = compact_piece(ctx, a->in + off, len, a->pred,
                                 SC_KIND_VALUES, 0, a->sel + a->kept,
                                 a->rej + (off - a->kept), &k);
    if (st == SC_OK) a->kept += k;
    return st;
}

sc_status sc_cuda_split(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                        const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                        uint64_t *selected)
{
    compact_args a = { in, pred, SC_KIND_VALUES, 0, NULL, sel, rej, 0 };
    sc_status st = in_pieces(ctx, n, split_cb, &a);
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
        (st = ensure(ctx, BUF_SCRATCH, scg_scan_scratch(len) + 256)))
        return st;
    c->h_small[0] = a->carry;
    if ((st = upload(ctx, c->d_small, c->h_small, 8))) return st;
    if ((st = upload(ctx, c->buf[BUF_IN], a->in + off, len * 4))) return st;
    double t0 = sc_now();
    int err = scg_scan(c->buf[BUF_IN], len, (int)a->op, a->inclusive, a->wide,
                       c->d_small, c->buf[BUF_OUT], c->d_small + 1,
                       c->buf[BUF_SCRATCH], c->stream);
    if ((st = kernels_done(ctx, err, t0, "scan"))) return st;
    if ((st = download(ctx, (char *)a->out + off * esz, c->buf[BUF_OUT],
                       len * esz)))
        return st;
    if ((st = download(ctx, c->h_small + 1, c->d_small + 1, 8))) return st;
    a->carry = c->h_small[1];
    return SC_OK;
}

sc_status sc_cuda_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n,
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
    return download(ctx, a->out + off, c->buf[BUF_OUT], len * 4);
}

sc_status sc_cuda_gen(sc_ctx *ctx, const sc_gen_plan *plan,
                      uint64_t first_index, uint32_t *out, uint64_t n)
{
    if (n == 0) return SC_OK;
    gen_args a = { plan, first_index, out };
    return in_pieces(ctx, n, gen_cb, &a);
}

sc_status sc_cuda_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                       unsigned lo_bit, unsigned hi_bit, int descending)
{
    struct sc_cuda *c = ctx->cuda;
    if (n < 2) return SC_OK;
    sc_status st;
    if ((st = ensure(ctx, BUF_IN, n * 4)) || (st = ensure(ctx, BUF_OUT, n * 4)) ||
        (st = ensure(ctx, BUF_SCRATCH, scg_sort_scratch(n) + 256)))
        return st;
    if ((st = upload(ctx, c->buf[BUF_IN], keys, n * 4))) return st;
    int alt = 0;
    double t0 = sc_now();
    int err = scg_sort(c->buf[BUF_IN], c->buf[BUF_OUT], n, lo_bit, hi_bit,
                       descending, &alt, c->buf[BUF_SCRATCH], c->stream);
    if ((st = kernels_done(ctx, err, t0, "sort"))) return st;
    return download(ctx, keys, c->buf[alt ? BUF_OUT : BUF_IN], n * 4);
}

sc_status sc_cuda_dev_compact(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                              const sc_pred *pred, uint32_t *d_out,
                              uint64_t *kept)
{
    struct sc_cuda *c = ctx->cuda;
    sc_status st = ensure(ctx, BUF_SCRATCH, scg_compact_scratch(n) + 256);
    if (st) return st;
    double t0 = sc_now();
    int err = scg_compact(d_in, n, pred, SCG_OUT_VALUES, 0, d_out, c->d_small,
                          c->buf[BUF_SCRATCH], SCG_ALGO_FUSED, c->stream);
    if ((st = kernels_done(ctx, err, t0, "compact"))) return st;
    if ((st = download(ctx, c->h_small, c->d_small, 8))) return st;
    *kept = c->h_small[0];
    return SC_OK;
}

sc_status sc_cuda_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                           sc_scan_op op, int inclusive, int wide,
                           void *d_out, uint64_t *carry)
{
    struct sc_cuda *c = ctx->cuda;
    sc_status st = ensure(ctx, BUF_SCRATCH, scg_scan_scratch(n) + 256);
    if (st) return st;
    c->h_small[0] = *carry;
    if ((st = upload(ctx, c->d_small, c->h_small, 8))) return st;
    double t0 = sc_now();
    int err = scg_scan(d_in, n, (int)op, inclusive, wide, c->d_small, d_out,
                       c->d_small + 1, c->buf[BUF_SCRATCH], c->stream);
    if ((st = kernels_done(ctx, err, t0, "scan"))) return st;
    if ((st = download(ctx, c->h_small + 1, c->d_small + 1, 8))) return st;
    *carry = c->h_small[1];
    return SC_OK;
}

sc_status sc_cuda_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                           unsigned lo_bit, unsigned hi_bit, int descending)
{
    struct sc_cuda *c = ctx->cuda;
    if (n < 2) return SC_OK;
    sc_status st;
    if ((st = ensure(ctx, BUF_AUX, n * 4)) ||
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
