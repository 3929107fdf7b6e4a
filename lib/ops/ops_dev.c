/* ops_dev.c — the calls on the caller's device arrays (sc_dev.h): the
 * arguments checked, then the GPU's table, stream-ordered (queued on the
 * caller's stream) or blocking (on the default stream, waited for once).
 * Each call builds one sc_dev_call that both forms run; the uint32 scan
 * and sort are the typed ones of SC_U32; the record calls are
 * ops_dev_records.c's.  There is no CPU fallback: the arrays are in
 * device memory. */
#include "ops/ops.h"

/* The alignment of what c reads and writes: the kernels load and store
 * whole elements, so each array must be aligned to their size; records
 * to the largest power of 2 that divides their size, up to 16 (the
 * widest load; 8 and 16 for the compaction's). */
static unsigned in_size(const sc_dev_call *c)
{
    if (c->w.rec) {
        unsigned low = c->w.rec->size & -c->w.rec->size;
        return low < 16 ? low : 16;
    }
    if (c->w.pred) return sc_type_size((sc_type)c->w.pred->type);
    return c->op == SC_DEV_GEN ? 4 : sc_type_size(c->w.type);
}

static unsigned out_size(const sc_dev_call *c)
{
    if (c->op == SC_DEV_COMPACT && c->w.out_kind == SC_EMIT_IDX64) return 8;
    if (c->op == SC_DEV_SCAN && c->w.wide) return 8;
    if (c->op == SC_DEV_STAT) return 8;     /* an sc_stats_typed */
    if (c->op == SC_DEV_ARGSORT_RECORDS) return 8;
    return in_size(c);
}

static sc_status aligned(sc_ctx *ctx, const void *p, const char *name,
                         unsigned size, const char *what)
{
    if (!p || (uintptr_t)p % size == 0) return SC_OK;
    return sc_fail(ctx, SC_ERR_USAGE, "%s is not aligned to its %u-byte %s",
                   name, size, what);
}

static sc_status arrays_ok(sc_ctx *ctx, const sc_dev_call *c)
{
    if (c->w.pred && !sc_type_size((sc_type)c->w.pred->type))
        return sc_fail(ctx, SC_ERR_USAGE, "invalid predicate element type");
    int sorts = c->op == SC_DEV_SORT_RECORDS || c->op == SC_DEV_ARGSORT_RECORDS;
    const char *what = sorts ? "record alignment"
                     : c->w.rec ? "records" : "elements";
    unsigned in = in_size(c), out = out_size(c);
    sc_status bad = aligned(ctx, c->in, sorts ? "d_recs" : "d_in", in, what);
    if (!bad && c->op == SC_DEV_ARGSORT_RECORDS)
        bad = aligned(ctx, c->out, "d_idx", out, "positions");
    else if (!bad && c->op == SC_DEV_STAT)
        /* a stat's out is its figures, an sc_stats_typed of 8-byte words */
        bad = aligned(ctx, c->out, "d_figs", out, "words");
    else if (!bad)
        bad = aligned(ctx, c->out, "d_out", out, what);
    if (!bad) bad = aligned(ctx, c->rej, "d_rej", in, what);
    return bad;
}

sc_status sc_dev_run(sc_ctx *ctx, const sc_dev_call *c, int async,
                     const sc_dev_queue *q, void *result)
{
    sc_status bad = arrays_ok(ctx, c);
    if (bad) return bad;
    const sc_backend *b = sc_policy_device_arrays(ctx);
    if (!b) return SC_ERR_NODEVICE;
    return async ? b->dev_queue(ctx, c, q) : b->dev_block(ctx, c, result);
}

/* op's scratch on n records of r's layout, or elements of type (r
 * NULL), in place where it is a sort of records. */
static size_t temp_bytes(sc_dev_op op, uint64_t n, sc_type type,
                         const sc_record *r)
{
    const sc_backend *gpu = sc_ops_gpu();
    if (!gpu) return 0;
    sc_dev_call c = { .op = op, .n = n };
    c.w.type = type;
    c.w.rec = r;
    return gpu->dev_temp(&c);
}

size_t sc_dev_temp_bytes_type(sc_dev_op op, uint64_t n, sc_type type)
{
    unsigned size = sc_type_size(type);
    sc_record whole = { size, 0, type };
    int sorts = op == SC_DEV_SORT_RECORDS || op == SC_DEV_ARGSORT_RECORDS;
    return size ? temp_bytes(op, n, type, sorts ? &whole : NULL) : 0;
}

size_t sc_dev_temp_bytes_records(sc_dev_op op, uint64_t n, const sc_record *r)
{
    if (!r || !r->size || sc_record_fault(r)) return 0;
    if (op != SC_DEV_SORT_RECORDS && op != SC_DEV_ARGSORT_RECORDS)
        return sc_dev_temp_bytes_type(op, n, r->key_type);
    return temp_bytes(op, n, r->key_type, r);
}

size_t sc_dev_temp_bytes(sc_dev_op op, uint64_t n)
{
    return sc_dev_temp_bytes_type(op, n, SC_U32);
}

#define ARRAYS(in, out) (n && (!(in) || !(out)))

sc_status sc_dev_select(sc_ctx *ctx, const char *fn, sc_dev_op op,
                        const void *d_in, uint64_t n, const sc_record *r,
                        const sc_pred *pred, int out_kind, uint64_t first,
                        void *d_out, void *d_rej, uint64_t *count, int async,
                        const sc_dev_queue *q)
{
    sc_status bad = BAD_CALL(ctx, fn, !pred || !count || ARRAYS(d_in, d_out) ||
                                  (op == SC_DEV_SPLIT && ARRAYS(d_in, d_rej)));
    if (bad) return bad;
    sc_dev_call c = { .op = op, .n = n, .first = first, .in = d_in,
                      .out = d_out, .rej = d_rej, .d_result = count };
    c.w.work = op == SC_DEV_SPLIT ? SC_JOB_SPLIT : SC_JOB_COMPACT;
    c.w.pred = pred;
    c.w.rec = r;
    c.w.out_kind = out_kind;
    return sc_dev_run(ctx, &c, async, q, count);
}

sc_status sc_dev_compact_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_pred *pred, void *d_out,
                               uint64_t *d_kept, const sc_dev_queue *q)
{
    return sc_dev_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, NULL, pred,
                         SC_EMIT_VALUES, 0, d_out, NULL, d_kept, 1, q);
}

sc_status sc_dev_indices_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_pred *pred, uint64_t first_index,
                               uint64_t *d_pos, uint64_t *d_kept,
                               const sc_dev_queue *q)
{
    return sc_dev_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, NULL, pred,
                         SC_EMIT_IDX64, first_index, d_pos, NULL, d_kept, 1,
                         q);
}

sc_status sc_dev_split_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                             const sc_pred *pred, void *d_sel, void *d_rej,
                             uint64_t *d_selected, const sc_dev_queue *q)
{
    return sc_dev_select(ctx, __func__, SC_DEV_SPLIT, d_in, n, NULL, pred,
                         SC_EMIT_VALUES, 0, d_sel, d_rej, d_selected, 1, q);
}

sc_status sc_dev_compact(sc_ctx *ctx, const void *d_in, uint64_t n,
                         const sc_pred *pred, void *d_out, uint64_t *kept)
{
    return sc_dev_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, NULL, pred,
                         SC_EMIT_VALUES, 0, d_out, NULL, kept, 0, NULL);
}

sc_status sc_dev_indices(sc_ctx *ctx, const void *d_in, uint64_t n,
                         const sc_pred *pred, uint64_t first_index,
                         uint64_t *d_pos, uint64_t *kept)
{
    return sc_dev_select(ctx, __func__, SC_DEV_COMPACT, d_in, n, NULL, pred,
                         SC_EMIT_IDX64, first_index, d_pos, NULL, kept, 0,
                         NULL);
}

sc_status sc_dev_split(sc_ctx *ctx, const void *d_in, uint64_t n,
                       const sc_pred *pred, void *d_sel, void *d_rej,
                       uint64_t *selected)
{
    return sc_dev_select(ctx, __func__, SC_DEV_SPLIT, d_in, n, NULL, pred,
                         SC_EMIT_VALUES, 0, d_sel, d_rej, selected, 0, NULL);
}

/* A scan as sc_scan_type checks it, less the float sums: their fixed
 * order (sc_scan_type's blocks of 1024 added in order) is the host's
 * alone. */
static sc_status scan_ok(sc_ctx *ctx, const char *fn, sc_type type,
                         sc_scan_op op, int wide)
{
    sc_status bad = sc_scan_check(ctx, type, op, wide);
    if (bad || !(sc_type_is_float(type) && op == SC_OP_SUM)) return bad;
    return sc_fail(ctx, SC_ERR_USAGE, "%s: sums of %s run on host arrays only "
                   "(sc_scan_type adds them in a fixed order the GPU does not "
                   "keep)", fn, sc_type_name(type));
}

/* A wide scan writes 8 bytes an element: in place, its output would
 * overrun input that other tiles have yet to read. */
#define IN_PLACE_WIDE(in, out, wide) \
    (n && (wide) && (const void *)(in) == (const void *)(out))

static sc_status scan_any(sc_ctx *ctx, const char *fn, const void *d_in,
                          uint64_t n, sc_type type, sc_scan_op op,
                          int inclusive, int wide, const uint64_t *d_carry_in,
                          void *d_out, uint64_t *carry, int async,
                          const sc_dev_queue *q)
{
    sc_status bad = BAD_CALL(ctx, fn, ARRAYS(d_in, d_out) ||
                                  IN_PLACE_WIDE(d_in, d_out, wide) ||
                                  (async ? carry && carry == d_carry_in
                                         : !carry));
    if (!bad) bad = scan_ok(ctx, fn, type, op, wide);
    if (bad) return bad;
    sc_dev_call c = { .op = SC_DEV_SCAN, .n = n, .in = d_in, .out = d_out,
                      .d_carry_in = d_carry_in, .d_result = carry };
    c.w.work = SC_JOB_SCAN;
    c.w.op = op;
    c.w.inclusive = inclusive;
    c.w.wide = wide;
    c.w.type = type;
    return sc_dev_run(ctx, &c, async, q, carry);
}

sc_status sc_dev_scan_type_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                                 sc_type type, sc_scan_op op, int inclusive,
                                 int wide, const uint64_t *d_carry_in,
                                 void *d_out, uint64_t *d_carry_out,
                                 const sc_dev_queue *q)
{
    return scan_any(ctx, __func__, d_in, n, type, op, inclusive, wide,
                    d_carry_in, d_out, d_carry_out, 1, q);
}

sc_status sc_dev_scan_type(sc_ctx *ctx, const void *d_in, uint64_t n,
                           sc_type type, sc_scan_op op, int inclusive,
                           int wide, void *d_out, uint64_t *carry)
{
    return scan_any(ctx, __func__, d_in, n, type, op, inclusive, wide, NULL,
                    d_out, carry, 0, NULL);
}

sc_status sc_dev_scan_async(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                            sc_scan_op op, int inclusive, int wide,
                            const uint64_t *d_carry_in, void *d_out,
                            uint64_t *d_carry_out, const sc_dev_queue *q)
{
    return scan_any(ctx, __func__, d_in, n, SC_U32, op, inclusive, wide,
                    d_carry_in, d_out, d_carry_out, 1, q);
}

sc_status sc_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *d_out,
                      uint64_t *carry)
{
    return scan_any(ctx, __func__, d_in, n, SC_U32, op, inclusive, wide, NULL,
                    d_out, carry, 0, NULL);
}

static sc_status sort_any(sc_ctx *ctx, const char *fn, void *d_keys,
                          uint64_t n, sc_type type, unsigned lo_bit,
                          unsigned hi_bit, int descending, int async,
                          const sc_dev_queue *q)
{
    sc_status bad = BAD_CALL(ctx, fn, n && !d_keys);
    if (bad || (bad = sc_sort_check(ctx, type, lo_bit, hi_bit))) return bad;
    sc_dev_call c = { .op = SC_DEV_SORT, .n = n, .in = d_keys,
                      .lo_bit = lo_bit, .hi_bit = hi_bit,
                      .descending = descending };
    c.w.work = SC_JOB_SORT;
    c.w.type = type;
    return sc_dev_run(ctx, &c, async, q, NULL);
}

sc_status sc_dev_sort_type_async(sc_ctx *ctx, void *d_keys, uint64_t n,
                                 sc_type type, unsigned lo_bit,
                                 unsigned hi_bit, int descending,
                                 const sc_dev_queue *q)
{
    return sort_any(ctx, __func__, d_keys, n, type, lo_bit, hi_bit,
                    descending, 1, q);
}

sc_status sc_dev_sort_type(sc_ctx *ctx, void *d_keys, uint64_t n,
                           sc_type type, unsigned lo_bit, unsigned hi_bit,
                           int descending)
{
    return sort_any(ctx, __func__, d_keys, n, type, lo_bit, hi_bit,
                    descending, 0, NULL);
}

sc_status sc_dev_sort_async(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                            unsigned lo_bit, unsigned hi_bit, int descending,
                            const sc_dev_queue *q)
{
    return sort_any(ctx, __func__, d_keys, n, SC_U32, lo_bit, hi_bit,
                    descending, 1, q);
}

sc_status sc_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending)
{
    return sort_any(ctx, __func__, d_keys, n, SC_U32, lo_bit, hi_bit,
                    descending, 0, NULL);
}

/* The kernel makes 32-bit elements (d_out is uint32_t): 64-bit types are
 * sc_gen()'s, on the host. */
static sc_status gen_any(sc_ctx *ctx, const char *fn, const sc_gen_params *g,
                         uint64_t first_index, uint32_t *d_out, uint64_t n,
                         int async, const sc_dev_queue *q)
{
    sc_status bad = BAD_CALL(ctx, fn, !g || (n && !d_out));
    if (!bad) bad = sc_gen_params_check(ctx, g);
    if (!bad && sc_type_size(g->type) != 4)
        bad = sc_fail(ctx, SC_ERR_USAGE, "%s: %s elements are made by "
                      "sc_gen() on the host only", fn, sc_type_name(g->type));
    if (bad) return bad;
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    sc_dev_call c = { .op = SC_DEV_GEN, .n = n, .first = first_index,
                      .out = d_out };
    c.w.work = SC_JOB_GEN;
    c.w.plan = &plan;
    return sc_dev_run(ctx, &c, async, q, NULL);
}

sc_status sc_dev_gen_async(sc_ctx *ctx, const sc_gen_params *g,
                           uint64_t first_index, uint32_t *d_out, uint64_t n,
                           const sc_dev_queue *q)
{
    return gen_any(ctx, __func__, g, first_index, d_out, n, 1, q);
}

sc_status sc_dev_gen(sc_ctx *ctx, const sc_gen_params *g,
                     uint64_t first_index, uint32_t *d_out, uint64_t n)
{
    return gen_any(ctx, __func__, g, first_index, d_out, n, 0, NULL);
}

/* The integer types: a float sum's fixed order is sc_stat_type()'s, on
 * the host. */
static sc_status stat_any(sc_ctx *ctx, const char *fn, const void *d_in,
                          uint64_t n, sc_type type, sc_stats_typed *figs,
                          int async, const sc_dev_queue *q)
{
    sc_status bad = BAD_CALL(ctx, fn, !figs || ARRAYS(d_in, figs));
    if (bad) return bad;
    if (!sc_type_size(type))
        return sc_fail(ctx, SC_ERR_USAGE, "%s: invalid element type", fn);
    if (sc_type_is_float(type))
        return sc_fail(ctx, SC_ERR_USAGE, "%s: the sum of %s elements is "
                       "sc_stat_type()'s, on the host", fn, sc_type_name(type));
    sc_dev_call c = { .op = SC_DEV_STAT, .n = n, .in = d_in, .out = figs };
    c.w.work = SC_JOB_STAT;
    c.w.type = type;
    return sc_dev_run(ctx, &c, async, q, figs);
}

sc_status sc_dev_stat_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                            sc_type type, sc_stats_typed *d_figs,
                            const sc_dev_queue *q)
{
    return stat_any(ctx, __func__, d_in, n, type, d_figs, 1, q);
}

sc_status sc_dev_stat(sc_ctx *ctx, const void *d_in, uint64_t n, sc_type type,
                      sc_stats_typed *figs)
{
    return stat_any(ctx, __func__, d_in, n, type, figs, 0, NULL);
}

sc_status sc_dev_sync(sc_ctx *ctx, void *stream)
{
    sc_status bad = BAD_ARGS(ctx, 0);
    if (bad) return bad;
    const sc_backend *b = sc_policy_device_arrays(ctx);
    return b ? b->dev_sync(ctx, stream) : SC_ERR_NODEVICE;
}
