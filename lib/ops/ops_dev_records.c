/* ops_dev_records.c — the calls on records in the caller's device arrays
 * (sc_dev.h): compaction, positions and split of the layouts that need
 * no scratch of their own (sc_record_on_dev_arrays), refused with a
 * message for the
 * others, then ops_dev.c's sc_dev_select as for elements.  A sort of
 * records on device arrays would belong here too, on the kernel that
 * sc_sort_records' GPU path runs (kernels/sort_records.cu); none is
 * offered yet. */
#include "ops/ops.h"

/* A layout of sc_record_on_dev_arrays, keys in the host's order; pred,
 * when given, of the key's type. */
static sc_status records_ok(sc_ctx *ctx, const char *fn, const sc_record *r,
                            const sc_pred *pred)
{
    sc_status bad = sc_record_check(ctx, fn, r, pred);
    if (bad || sc_record_on_dev_arrays(r)) return bad;
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
