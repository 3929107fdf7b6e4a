/* ops_records.c — sc.h's calls on records in host arrays: compaction,
 * split, sort and argsort by the key, through the same operations the
 * jobs run on their chunks (ops.h's sc_op_*_records), whose keys are
 * here in the host's byte order. */
#include <stdlib.h>
#include <string.h>
#include "ops/ops.h"

sc_status sc_record_check(sc_ctx *ctx, const char *fn, const sc_record *r,
                          const sc_pred *pred)
{
    const char *bad = !r || !r->size ? "no record layout" : sc_record_fault(r);
    if (!bad && pred && pred->type != (uint32_t)r->key_type)
        bad = "the predicate's type is not the record key's";
    return bad ? sc_fail(ctx, SC_ERR_USAGE, "%s: %s", fn, bad) : SC_OK;
}

/* Room for n records of `size` bytes, or NULL with the message set. */
static void *records_alloc(sc_ctx *ctx, uint64_t n, uint32_t size)
{
    void *p = n <= SIZE_MAX / size ? sc_big_alloc((size_t)(n ? n : 1) * size)
                                   : NULL;
    if (!p) sc_fail(ctx, SC_ERR_NOMEM, "out of memory for %llu records",
                    (unsigned long long)n);
    return p;
}

/* st, with the CPU noted as the device that ran (what -v and
 * sc_ctx_device_name of a run say). */
static sc_status ran(sc_ctx *ctx, sc_status st)
{
    sc_backend_used(ctx, sc_ops_cpu());
    return st;
}

static sc_status compact_any(sc_ctx *ctx, const char *fn, const void *in,
                             uint64_t n, const sc_record *r,
                             const sc_pred *pred, int kind,
                             uint64_t first_index, void *out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (!bad) bad = sc_record_check(ctx, fn, r, pred);
    if (bad) return bad;
    return ran(ctx, sc_op_compact_records(ctx, NULL, in, n, r, 0, pred, kind,
                                          first_index, out, kept));
}

sc_status sc_compact_records(sc_ctx *ctx, const void *in, uint64_t n,
                             const sc_record *r, const sc_pred *pred,
                             void *out, uint64_t *kept)
{
    return compact_any(ctx, __func__, in, n, r, pred, SC_EMIT_VALUES, 0, out,
                       kept);
}

sc_status sc_compact_records_indices(sc_ctx *ctx, const void *in,
                                     uint64_t n, const sc_record *r,
                                     const sc_pred *pred,
                                     uint64_t first_index, uint64_t *out,
                                     uint64_t *kept)
{
    return compact_any(ctx, __func__, in, n, r, pred, SC_EMIT_IDX64,
                       first_index, out, kept);
}

sc_status sc_split_records(sc_ctx *ctx, const void *in, uint64_t n,
                           const sc_record *r, const sc_pred *pred,
                           void *out, uint64_t *selected)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !selected || (n && (!in || !out)));
    if (!bad) bad = sc_record_check(ctx, __func__, r, pred);
    if (bad) return bad;
    /* The rejects wait aside: where they start is known only at the
     * end. */
    unsigned char *rej = records_alloc(ctx, n, r->size);
    if (!rej) return SC_ERR_NOMEM;
    sc_status st = sc_op_split_records(ctx, NULL, in, n, r, 0, pred, out,
                                       rej, selected);
    if (st == SC_OK)
        memcpy((unsigned char *)out + *selected * r->size, rej,
               (n - *selected) * r->size);
    free(rej);
    return ran(ctx, st);
}

/* The sort's gather of n records of recs, by r's key, into `to`: the
 * records, or (positions) their positions. */
static sc_status sort_into(sc_ctx *ctx, const void *recs, uint64_t n,
                           const sc_record *r, int descending, int positions,
                           void *to)
{
    sc_elem_order o;
    sc_elem_order_make(&o, r->size, r->key_off, r->key_type, 0, 0,
                       8 * sc_type_size(r->key_type), descending != 0);
    o.records = 1;
    /* on the policy's device, which the call notes itself */
    return sc_op_sort_records(ctx, NULL, recs, n, &o,
                              positions ? SC_GATHER_POSITIONS
                                        : SC_GATHER_ITEMS,
                              0, NULL, to);
}

sc_status sc_sort_records(sc_ctx *ctx, void *recs, uint64_t n,
                          const sc_record *r, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !recs);
    if (!bad) bad = sc_record_check(ctx, __func__, r, NULL);
    if (bad || n < 2) return bad;
    /* The records are gathered in their order beside the input, which
     * they then replace. */
    unsigned char *sorted = records_alloc(ctx, n, r->size);
    if (!sorted) return SC_ERR_NOMEM;
    sc_status st = sort_into(ctx, recs, n, r, descending, 0, sorted);
    if (st == SC_OK) memcpy(recs, sorted, n * r->size);
    free(sorted);
    return st;
}

sc_status sc_argsort_records(sc_ctx *ctx, const void *recs, uint64_t n,
                             const sc_record *r, int descending,
                             uint64_t *idx)
{
    sc_status bad = BAD_ARGS(ctx, n && (!recs || !idx));
    if (!bad) bad = sc_record_check(ctx, __func__, r, NULL);
    if (bad) return bad;
    return sort_into(ctx, recs, n, r, descending, 1, idx);
}
