/* cuda_dev.c — the kernels on the caller's device arrays: queued on the
 * caller's stream with the caller's scratch or the context's own for
 * these calls, with no wait (stream-ordered); or on the default stream
 * with the context's scratch, the count or carry read back and waited
 * for once (blocking).  Both queue the same kernels, laid out in the scratch the
 * same way (sc_cuda_dev_temp). */
#include <string.h>
#include "cuda/cuda_internal.h"

#define ALIGN 256

static size_t round_up(size_t b) { return (b + ALIGN - 1) & ~(size_t)(ALIGN - 1); }

/* The scratch's layout.  A sort's second buffer of keys comes first; a
 * scan of a 32-bit type that rewrites its input (sc_scan_rewrites_input)
 * runs on a copy of it, after the kernels' scratch; a scan keeps its
 * spare words in the last unit: a final carry no one asked for, and the
 * carry-in as the kernels take it (the identity, or the caller's ranked).
 * A stat's accumulator comes first, then room for the figures, where a
 * blocking call has them made before it fetches them.  A sort of records
 * lays out its own (scg_queue_sort_records). */
static size_t alt_bytes(uint64_t n, sc_type type)
{
    return round_up(n * sc_type_size(type) + 16);
}

static size_t acc_bytes(void) { return round_up(sizeof(scg_stat_acc)); }

static size_t scan_copy_bytes(uint64_t n, sc_type type)
{
    return type == SC_I32 || type == SC_F32 ? round_up(n * 4) : 0;
}

/* A record sort's or argsort's: the kernel's, with a copy of the records
 * for a sort in place. */
static size_t sort_records_bytes(const sc_dev_call *c)
{
    const sc_record *r = c->w.rec;
    int argsort = c->op == SC_DEV_ARGSORT_RECORDS;
    return scg_queue_sort_records_scratch(
        c->n, r->size, r->key_off, (uint32_t)r->key_type, 0,
        argsort ? SCG_GATHER_POSITIONS : SCG_GATHER_ITEMS,
        !argsort && c->in == c->out);
}

size_t sc_cuda_dev_temp(const sc_dev_call *c)
{
    uint64_t n = c->n;
    sc_type type = c->w.type;
    switch (c->op) {
    case SC_DEV_COMPACT: return sc_cuda_scratch(SC_JOB_COMPACT, n);
    case SC_DEV_SPLIT: return sc_cuda_scratch(SC_JOB_SPLIT, n);
    case SC_DEV_SCAN:
        return round_up(sc_cuda_scratch(SC_JOB_SCAN, n)) +
               scan_copy_bytes(n, type) + ALIGN;
    case SC_DEV_SORT:
        return alt_bytes(n, type) + sc_cuda_sort_scratch(n, type);
    case SC_DEV_STAT: return acc_bytes() + round_up(sizeof(sc_stats_typed));
    case SC_DEV_SORT_RECORDS:
    case SC_DEV_ARGSORT_RECORDS: return c->w.rec ? sort_records_bytes(c) : 0;
    default: return 0;
    }
}

static const char *what(const sc_dev_call *c)
{
    static const char *const names[] = { "compact", "split", "scan", "sort",
                                         "gen", "stat", "sort of records",
                                         "argsort of records" };
    return c->op <= SC_DEV_ARGSORT_RECORDS ? names[c->op] : "device call";
}

/* A scan's carries as its kernels take them: the carry-in (cin, the
 * caller's, or NULL: the op's identity) ranked into spare[1] where the
 * op runs on ranks; the final carry to res (NULL: to spare[0]), unranked
 * by the caller.  A cudaError_t. */
static int scan_carries(const sc_dev_call *c, cudaStream_t s, uint64_t *spare,
                        const uint64_t **cin, uint64_t **res)
{
    sc_type t = c->w.type;
    int ranks = sc_scan_ranks((uint32_t)t, (int)c->w.op);
    if (!*res) *res = spare;
    if (*cin && !ranks) return 0;
    if (*cin) {
        int err = scg_scan_carry(*cin, spare + 1, (uint32_t)t, (int)c->w.op,
                                 0, s);
        *cin = spare + 1;
        return err;
    }
    /* Memsets, which a graph capture takes, not a copy from the host: the
     * identity is 0, or all ones of the element's width for min (of
     * ranks, for the types that rank). */
    cudaError_t e = cudaMemsetAsync(spare + 1, 0, 8, s);
    if (!e && c->w.op == SC_OP_MIN)
        e = cudaMemsetAsync(spare + 1, 0xff, sc_type_size(t), s);
    *cin = spare + 1;
    return (int)e;
}

static int queue_scan(const sc_dev_call *c, cudaStream_t s, void *temp,
                      const uint64_t *cin, uint64_t *res)
{
    sc_type t = c->w.type;
    size_t total = sc_cuda_dev_temp(c);
    uint64_t *spare = (uint64_t *)((char *)temp + total - ALIGN);
    uint64_t *want = res;
    int err = scan_carries(c, s, spare, &cin, &res);
    if (err) return err;
    /* The kernels rank or bias such an input in place: the caller's is
     * const, so they take a copy, unless the scan is in place. */
    const void *in = c->in;
    if (c->n && in != c->out &&
        sc_scan_rewrites_input((uint32_t)t, (int)c->w.op, c->w.wide)) {
        void *copy = (char *)temp + total - ALIGN - scan_copy_bytes(c->n, t);
        cudaError_t e = cudaMemcpyAsync(copy, in, c->n * 4,
                                        cudaMemcpyDeviceToDevice, s);
        if (e) return (int)e;
        in = copy;
    }
    sc_cuda_bufs b = { in, c->out, NULL, temp, NULL, cin, res };
    err = sc_cuda_queue(&c->w, c->n, c->first, &b, s);
    if (!err && want && sc_scan_ranks((uint32_t)t, (int)c->w.op))
        err = scg_scan_carry(want, want, (uint32_t)t, (int)c->w.op, 1, s);
    return err;
}

/* Queues c on s with its scratch temp; cin and res are SCAN's carries
 * and COMPACT's and SPLIT's count.  A cudaError_t. */
static int queue(const sc_dev_call *c, cudaStream_t s, void *temp,
                 const uint64_t *cin, uint64_t *res)
{
    if (c->op == SC_DEV_STAT) {
        sc_cuda_bufs b = { .in = c->in, .scratch = temp };
        int e = scg_stat_reset(temp, s);
        if (!e) e = sc_cuda_queue(&c->w, c->n, 0, &b, s);
        if (!e) e = scg_stat_figures(temp, c->n, (uint32_t)c->w.type, c->out, s);
        return e;
    }
    if (c->op == SC_DEV_SORT)
        return scg_sort_keys_type((void *)c->in, temp, c->n,
                                  (uint32_t)c->w.type, c->lo_bit, c->hi_bit,
                                  c->descending,
                                  (char *)temp + alt_bytes(c->n, c->w.type),
                                  s);
    if (c->op == SC_DEV_SORT_RECORDS || c->op == SC_DEV_ARGSORT_RECORDS) {
        const sc_record *r = c->w.rec;
        int gather = c->op == SC_DEV_SORT_RECORDS ? SCG_GATHER_ITEMS
                                                  : SCG_GATHER_POSITIONS;
        return scg_queue_sort_records(c->in, c->n, r->size, r->key_off,
                                      (uint32_t)r->key_type, 0, c->descending,
                                      gather, 0, c->out, temp, s);
    }
    if (c->op == SC_DEV_SCAN) return queue_scan(c, s, temp, cin, res);
    sc_cuda_bufs b = { c->in, c->out, c->rej, temp, res, cin, res };
    return sc_cuda_queue(&c->w, c->n, c->first, &b, s);
}

/* The context's scratch for stream-ordered calls: grown (which waits for
 * the device, as cudaFree does) but never shrunk. */
static sc_status shared_temp(sc_ctx *ctx, size_t need, void **temp)
{
    struct sc_cuda *g = ctx->cuda;
    if (need > g->dev_temp_cap) {
        sc_cuda_free(ctx, g->dev_temp, g->dev_temp_cap);
        g->dev_temp = NULL;
        g->dev_temp_cap = 0;
        sc_status st = sc_cuda_malloc(ctx, &g->dev_temp, need);
        if (st) return st;
        g->dev_temp_cap = need;
    }
    *temp = g->dev_temp;
    return SC_OK;
}

sc_status sc_cuda_dev_queue(sc_ctx *ctx, const sc_dev_call *c,
                            const sc_dev_queue *q)
{
    static const sc_dev_queue plain;    /* the default stream, our scratch */
    if (!q) q = &plain;
    size_t need = sc_cuda_dev_temp(c);
    void *temp = q->temp;
    sc_status st = sc_cuda_bind(ctx);
    if (st) return st;
    if (temp && (q->temp_bytes < need || ((uintptr_t)temp & (ALIGN - 1))))
        return sc_fail(ctx, SC_ERR_USAGE, "%s of %llu elements: its scratch "
                       "needs %zu bytes aligned to %d (%zu given)", what(c),
                       (unsigned long long)c->n, need, ALIGN, q->temp_bytes);
    if (!temp && need && (st = shared_temp(ctx, need, &temp))) return st;
    int err = queue(c, (cudaStream_t)q->stream, temp, c->d_carry_in,
                    c->d_result);
    return err ? sc_cuda_fail(ctx, (cudaError_t)err, what(c)) : SC_OK;
}

/* On the default stream (the legacy one), not the context's: a blocking
 * call follows what the caller queued there before it (a cudaMemcpy of
 * its input, say), as a call with no stream argument is expected to. */
sc_status sc_cuda_dev_block(sc_ctx *ctx, const sc_dev_call *c,
                            void *result)
{
    struct sc_cuda *g = ctx->cuda;
    cudaStream_t s = 0;
    size_t need = sc_cuda_dev_temp(c);
    sc_status st;
    if ((st = sc_cuda_bind(ctx)) ||
        (need && (st = sc_cuda_ensure(ctx, g, BUF_SCRATCH, need))))
        return st;
    void *temp = g->buf[BUF_SCRATCH];
    sc_dev_call own = *c;
    const uint64_t *cin = NULL;
    if (c->op == SC_DEV_SCAN) {
        memcpy(g->h_small, result, 8);
        CK(cudaMemcpyAsync(g->d_small, g->h_small, 8, cudaMemcpyHostToDevice,
                           s), "upload");
        cin = g->d_small;
    }
    if (c->op == SC_DEV_STAT) own.out = (char *)temp + acc_bytes();
    int err = queue(&own, s, temp, cin, g->d_small + 1);
    if (err) return sc_cuda_fail(ctx, (cudaError_t)err, what(c));
    /* The figures straight to the caller's (pageable) memory: a copy
     * that waits for the kernels, before the one wait below. */
    if (c->op == SC_DEV_STAT)
        CK(cudaMemcpyAsync(result, own.out, sizeof(sc_stats_typed),
                           cudaMemcpyDeviceToHost, s), "download");
    else if (result)
        CK(cudaMemcpyAsync(g->h_small + 1, g->d_small + 1, 8,
                           cudaMemcpyDeviceToHost, s), "download");
    CK(cudaStreamSynchronize(s), "running kernels");
    if (result && c->op != SC_DEV_STAT) memcpy(result, g->h_small + 1, 8);
    return SC_OK;
}

sc_status sc_cuda_dev_sync(sc_ctx *ctx, void *stream)
{
    sc_status st = sc_cuda_bind(ctx);
    if (st) return st;
    CK(cudaStreamSynchronize((cudaStream_t)stream), "running kernels");
    CK(cudaGetLastError(), "running kernels");
    return SC_OK;
}
