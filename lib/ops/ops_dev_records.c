/* ops_dev_records.c — the calls on records in the caller's device arrays
 * (sc_dev.h): compaction, positions and split of the layouts the GPU's
 * kernels take (sc_record_on_gpu), refused with a message for the
 * others, then ops_dev.c's sc_dev_select as for elements; the sort and
 * argsort of every layout, on the kernels that sc_sort_records' GPU path
 * runs (kernels/sort_records.cu), through ops_dev.c's sc_dev_run. */
#include "ops/ops.h"

/* A layout the GPU's kernels take: sc_record_on_gpu's, keys in the
 * host's order; pred, when given, of the key's type. */
static sc_status records_ok(sc_ctx *ctx, const char *fn, const sc_record *r,
                            const sc_pred *pred)
{
    sc_status bad = sc_record_check(ctx, fn, r, pred);
    if (bad || sc_record_on_gpu(r, 0)) return bad;
    return sc_fail(ctx, SC_ERR_USAGE, "%s: records of %u bytes are not taken "
                   "on device arrays: the GPU's kernels take 8- and 16-byte "
                   "records (the host-array calls, sc_compact_records and "
                   "the like, take every layout)", fn, (unsigned)r->size);
}

static sc_status records_select(sc_ctx *ctx, const char *fn, sc_dev_op op,
                                const void *d_in, uint64_t n,
                                const sc_record *r, const sc_pred *pred,
                                int out_kind, uint64_t first, void *d_out,
                                void *d_rej, uint64_t *count, int async,
                                const sc_dev_queue *q)
{
    sc_status bad = BAD_CALL(ctx, fn, !r);
    if (!bad) bad = records_ok(ctx, fn, r, pred);
    if (bad) return bad;
    return sc_dev_select(ctx, fn, op, d_in, n, r, pred, out_kind, first,
                         d_out, d_rej, count, async, q);
}

sc_status sc_dev_compact_records_async(sc_ctx *ctx, const void *d_in,
                                       uint64_t n, const sc_record *r,
                                       const sc_pred *pred, void *d_out,
                                       uint64_t *d_kept, const sc_dev_queue *q)
{
    return records_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, r, pred,
                          SC_EMIT_VALUES, 0, d_out, NULL, d_kept, 1, q);
}

sc_status sc_dev_compact_records_indices_async(sc_ctx *ctx, const void *d_in,
                                               uint64_t n, const sc_record *r,
                                               const sc_pred *pred,
                                               uint64_t first_index,
                                               uint64_t *d_pos,
                                               uint64_t *d_kept,
                                               const sc_dev_queue *q)
{
    return records_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, r, pred,
                          SC_EMIT_IDX64, first_index, d_pos, NULL, d_kept, 1,
                          q);
}

sc_status sc_dev_split_records_async(sc_ctx *ctx, const void *d_in,
                                     uint64_t n, const sc_record *r,
                                     const sc_pred *pred, void *d_sel,
                                     void *d_rej, uint64_t *d_selected,
                                     const sc_dev_queue *q)
{
    return records_select(ctx, __func__, SC_DEV_SPLIT, d_in, n, r, pred,
                          SC_EMIT_VALUES, 0, d_sel, d_rej, d_selected, 1, q);
}

sc_status sc_dev_compact_records(sc_ctx *ctx, const void *d_in, uint64_t n,
                                 const sc_record *r, const sc_pred *pred,
                                 void *d_out, uint64_t *kept)
{
    return records_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, r, pred,
                          SC_EMIT_VALUES, 0, d_out, NULL, kept, 0, NULL);
}

sc_status sc_dev_compact_records_indices(sc_ctx *ctx, const void *d_in,
                                         uint64_t n, const sc_record *r,
                                         const sc_pred *pred,
                                         uint64_t first_index,
                                         uint64_t *d_pos, uint64_t *kept)
{
    return records_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, r, pred,
                          SC_EMIT_IDX64, first_index, d_pos, NULL, kept, 0,
                          NULL);
}

sc_status sc_dev_split_records(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_record *r, const sc_pred *pred,
                               void *d_sel, void *d_rej, uint64_t *selected)
{
    return records_select(ctx, __func__, SC_DEV_SPLIT, d_in, n, r, pred,
                          SC_EMIT_VALUES, 0, d_sel, d_rej, selected, 0, NULL);
}

/* The kernel's indices are 32 bits. */
#define SORT_RECORDS_MAX ((uint64_t)1 << 32)

/* A sort (op SC_DEV_SORT_RECORDS: in place, d_out NULL, or to d_out) or
 * argsort (positions to d_out) of records of every layout. */
static sc_status sort_records_any(sc_ctx *ctx, const char *fn, sc_dev_op op,
                                  const void *d_recs, uint64_t n,
                                  const sc_record *r, int descending,
                                  void *d_out, int async,
                                  const sc_dev_queue *q)
{
    int argsort = op == SC_DEV_ARGSORT_RECORDS;
    sc_status bad = BAD_CALL(ctx, fn, n && (!d_recs || (argsort && !d_out)));
    if (!bad) bad = sc_record_check(ctx, fn, r, NULL);
    if (bad) return bad;
    if (n > SORT_RECORDS_MAX)
        return sc_fail(ctx, SC_ERR_USAGE, "%s: %llu records: the GPU sorts at "
                       "most 2^32 (sc_sort_records on host arrays takes more)",
                       fn, (unsigned long long)n);
    if (!argsort && d_out == d_recs) d_out = NULL;
    uintptr_t in = (uintptr_t)d_recs, out = (uintptr_t)d_out;
    size_t out_size = argsort ? 8 : r->size;
    if (n && d_out && in < out + n * out_size && out < in + n * r->size)
        return sc_fail(ctx, SC_ERR_USAGE, "%s: d_%s overlaps d_recs", fn,
                       argsort ? "idx" : "out");
    sc_dev_call c = { .op = op, .n = n, .in = d_recs,
                      .out = d_out ? d_out : (void *)d_recs,
                      .descending = descending };
    c.w.work = SC_JOB_SORT;
    c.w.type = r->key_type;
    c.w.rec = r;
    return sc_dev_run(ctx, &c, async, q, NULL);
}

sc_status sc_dev_sort_records_async(sc_ctx *ctx, void *d_recs, uint64_t n,
                                    const sc_record *r, int descending,
                                    void *d_out, const sc_dev_queue *q)
{
    return sort_records_any(ctx, __func__, SC_DEV_SORT_RECORDS, d_recs, n, r,
                            descending, d_out, 1, q);
}

sc_status sc_dev_sort_records(sc_ctx *ctx, void *d_recs, uint64_t n,
                              const sc_record *r, int descending, void *d_out)
{
    return sort_records_any(ctx, __func__, SC_DEV_SORT_RECORDS, d_recs, n, r,
                            descending, d_out, 0, NULL);
}

sc_status sc_dev_argsort_records_async(sc_ctx *ctx, const void *d_recs,
                                       uint64_t n, const sc_record *r,
                                       int descending, uint64_t *d_idx,
                                       const sc_dev_queue *q)
{
    return sort_records_any(ctx, __func__, SC_DEV_ARGSORT_RECORDS, d_recs, n,
                            r, descending, d_idx, 1, q);
}

sc_status sc_dev_argsort_records(sc_ctx *ctx, const void *d_recs, uint64_t n,
                                 const sc_record *r, int descending,
                                 uint64_t *d_idx)
{
    return sort_records_any(ctx, __func__, SC_DEV_ARGSORT_RECORDS, d_recs, n,
                            r, descending, d_idx, 0, NULL);
}
