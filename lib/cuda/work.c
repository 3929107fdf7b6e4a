/* work.c — one operation on a GPU: the device buffers it needs and the
 * kernels it queues, the same for the array operations (cuda_ops.c),
 * which keep one set of buffers per GPU, and the lanes (lane.c), which
 * keep a set each. */
#include "cuda/cuda_internal.h"

/* Slack past what the kernels address: one 16-byte vector on each array,
 * one 256-byte unit (the kernels lay the scratch out in them) on the
 * scratch. */
#define ARRAY_SLACK 16
#define SCRATCH_SLACK 256

size_t sc_cuda_in_bytes(const sc_chunk_work *w)
{
    int typed = (w->work == SC_JOB_COMPACT || w->work == SC_JOB_SPLIT) && w->pred;
    if (typed && w->rec) return w->rec->size;
    if (typed) return sc_type_size((sc_type)w->pred->type);
    return w->work == SC_JOB_SCAN || w->work == SC_JOB_STAT
           ? sc_type_size(w->type) : 4;
}

size_t sc_cuda_out_bytes(const sc_chunk_work *w)
{
    switch (w->work) {
    case SC_JOB_COMPACT:
        return w->out_kind == SC_EMIT_IDX64 ? 8
             : w->out_kind == SC_EMIT_IDX32 ? 4 : sc_cuda_in_bytes(w);
    case SC_JOB_SPLIT: return sc_cuda_in_bytes(w);
    case SC_JOB_SCAN: return w->wide ? 8 : sc_cuda_in_bytes(w);
    case SC_JOB_STAT: return 0;
    default: return 4;
    }
}

size_t sc_cuda_sort_scratch(uint64_t n, sc_type type)
{
    return scg_sort_scratch_type(n, (uint32_t)type) + SCRATCH_SLACK;
}

size_t sc_cuda_scratch(sc_job_kind work, uint64_t n)
{
    switch (work) {
    /* room for elements or records of every width the kernels take: a
     * few bytes a 1024 elements */
    case SC_JOB_COMPACT:
    case SC_JOB_SPLIT: return scg_select_scratch_records(n, 16) + SCRATCH_SLACK;
    case SC_JOB_SCAN: return scg_scan_scratch(n) + SCRATCH_SLACK;
    case SC_JOB_SORT: return sc_cuda_sort_scratch(n, SC_U32);
    case SC_JOB_STAT: return sizeof(scg_stat_acc) + SCRATCH_SLACK;
    default: return 0;
    }
}

void sc_cuda_needs(const sc_chunk_work *w, uint64_t n,
                   size_t need[BUF_COUNT_OF])
{
    size_t out = sc_cuda_out_bytes(w), in = sc_cuda_in_bytes(w);
    need[BUF_IN] = w->work == SC_JOB_GEN ? 0 : n * in + ARRAY_SLACK;
    need[BUF_OUT] = out ? n * out + ARRAY_SLACK : 0;
    need[BUF_AUX] = w->work == SC_JOB_SPLIT ? n * in + ARRAY_SLACK : 0;
    need[BUF_SCRATCH] = sc_cuda_scratch(w->work, n);
}

int sc_cuda_queue(const sc_chunk_work *w, uint64_t n, uint64_t first,
                  const sc_cuda_bufs *b, cudaStream_t s)
{
    switch (w->work) {
    case SC_JOB_GEN:
        return scg_gen(w->plan, first, b->out, n, s);
    /* records of w->rec's layout, or (size 0) elements */
    case SC_JOB_COMPACT:
        return scg_compact_records(b->in, n, w->rec ? w->rec->size : 0,
                                   w->rec ? w->rec->key_off : 0, w->pred,
                                   w->out_kind, first, b->out, b->count,
                                   b->scratch, SCG_ALGO_FUSED, s);
    case SC_JOB_SPLIT:
        return scg_split_records(b->in, n, w->rec ? w->rec->size : 0,
                                 w->rec ? w->rec->key_off : 0, w->pred,
                                 b->out, b->aux, b->count, b->scratch,
                                 SCG_ALGO_FUSED, s);
    case SC_JOB_SCAN:
        /* A typed scan ranks its input in place: b->in is a buffer of
         * the library's, the chunk's copy on the device. */
        return scg_scan_type((void *)b->in, n, (uint32_t)w->type,
                             (int)w->op, w->inclusive, w->wide, b->carry_in,
                             b->out, b->carry_out, b->scratch, s);
    case SC_JOB_STAT:
        return scg_stat_type(b->in, n, (uint32_t)w->type, b->scratch, s);
    default:
        return -1;
    }
}

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

void sc_cuda_stat_figures(sc_stat_acc *out, const scg_stat_acc *d,
                          uint64_t n, sc_type type)
{
    int wide = sc_type_size(type) == 8;
    out->count = n;
    out->zeros = d->zeros;
    out->sum = d->sum;
    out->sum_hi = d->sum_hi;
    out->min = wide ? d->min64 : d->min;
    out->max = wide ? d->max64 : d->max;
    /* A rank is at most 64 - SC_HLL_BITS + 1: it fits the host's byte. */
    for (unsigned k = 0; k < SC_HLL_REGS; k++)
        out->reg[k] = (uint8_t)d->reg[k];
}
