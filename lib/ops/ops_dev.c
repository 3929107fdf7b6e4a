/* ops_dev.c — the calls on the caller's device arrays (sc_dev.h): the
 * arguments checked, then the GPU's table, stream-ordered (queued on the
 * caller's stream) or blocking (on the default stream, waited for once).
 * There is no CPU fallback: the arrays are in device memory. */
#include "ops/ops.h"

static sc_status bits_ok(sc_ctx *ctx, unsigned lo_bit, unsigned hi_bit)
{
    if (lo_bit < hi_bit && hi_bit <= 32) return SC_OK;
    return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u", lo_bit,
                   hi_bit);
}

/* Compaction and split read elements of the predicate's type, stat
 * those of its own, which must be one, from an array aligned to them. */
static sc_status elems_ok(sc_ctx *ctx, const sc_dev_call *c)
{
    const sc_pred *p = c->w.pred;
    if (!p && c->op != SC_DEV_STAT) return SC_OK;
    unsigned size = sc_type_size(p ? (sc_type)p->type : c->w.type);
    if (!size)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid %s element type",
                       p ? "predicate" : "stat");
    if ((uintptr_t)c->in % size)
        return sc_fail(ctx, SC_ERR_USAGE, "d_in is not aligned to its %u-byte "
                       "elements", size);
    return SC_OK;
}

static sc_status queued(sc_ctx *ctx, const sc_dev_call *c,
                        const sc_dev_queue *q)
{
    sc_status bad = elems_ok(ctx, c);
    if (bad) return bad;
    const sc_backend *b = sc_policy_device_arrays(ctx);
    return b ? b->dev_queue(ctx, c, q) : SC_ERR_NODEVICE;
}

static sc_status blocking(sc_ctx *ctx, const sc_dev_call *c, void *result)
{
    sc_status bad = elems_ok(ctx, c);
    if (bad) return bad;
    const sc_backend *b = sc_policy_device_arrays(ctx);
    return b ? b->dev_block(ctx, c, result) : SC_ERR_NODEVICE;
}

size_t sc_dev_temp_bytes(sc_dev_op op, uint64_t n)
{
    const sc_backend *gpu = sc_ops_gpu();
    return gpu ? gpu->dev_temp(op, n) : 0;
}

/* The calls as the backends take them. */
static sc_dev_call compact_call(const void *d_in, uint64_t n,
                                const sc_pred *pred, int out_kind,
                                uint64_t first, void *d_out)
{
    sc_dev_call c = { .op = SC_DEV_COMPACT, .n = n, .first = first,
                      .in = d_in, .out = d_out };
    c.w.work = SC_JOB_COMPACT;
    c.w.pred = pred;
    c.w.out_kind = out_kind;
    return c;
}

static sc_dev_call split_call(const void *d_in, uint64_t n,
                              const sc_pred *pred, void *d_sel, void *d_rej)
{
    sc_dev_call c = { .op = SC_DEV_SPLIT, .n = n, .in = d_in, .out = d_sel,
                      .rej = d_rej };
    c.w.work = SC_JOB_SPLIT;
    c.w.pred = pred;
    return c;
}

static sc_dev_call scan_call(const uint32_t *d_in, uint64_t n, sc_scan_op op,
                             int inclusive, int wide, void *d_out)
{
    sc_dev_call c = { .op = SC_DEV_SCAN, .n = n, .in = d_in, .out = d_out };
    c.w.work = SC_JOB_SCAN;
    c.w.op = op;
    c.w.inclusive = inclusive;
    c.w.wide = wide;
    c.w.type = SC_U32;
    return c;
}

static sc_dev_call sort_call(uint32_t *d_keys, uint64_t n, unsigned lo_bit,
                             unsigned hi_bit, int descending)
{
    sc_dev_call c = { .op = SC_DEV_SORT, .n = n, .in = d_keys,
                      .lo_bit = lo_bit, .hi_bit = hi_bit,
                      .descending = descending };
    c.w.work = SC_JOB_SORT;
    return c;
}

static sc_dev_call gen_call(const sc_gen_plan *plan, uint64_t first,
                            uint32_t *d_out, uint64_t n)
{
    sc_dev_call c = { .op = SC_DEV_GEN, .n = n, .first = first,
                      .out = d_out };
    c.w.work = SC_JOB_GEN;
    c.w.plan = plan;
    return c;
}

/* The float types' sums have their fixed order on the host
 * (sc_stat_type). */
static sc_status stat_call(sc_ctx *ctx, const void *d_in, uint64_t n,
                           sc_type type, sc_stats_typed *figs,
                           sc_dev_call *c)
{
    sc_dev_call call = { .op = SC_DEV_STAT, .n = n, .in = d_in, .out = figs };
    call.w.work = SC_JOB_STAT;
    call.w.type = type;
    *c = call;
    if (!sc_type_is_float(type)) return SC_OK;
    return sc_fail(ctx, SC_ERR_USAGE, "sc_dev_stat: the sum of %s elements "
                   "is sc_stat_type()'s, on the host", sc_type_name(type));
}

#define ARRAYS(in, out) (n && (!(in) || !(out)))
/* A wide scan writes 8 bytes an element: in place, its output would
 * overrun input that other tiles have yet to read. */
#define IN_PLACE_WIDE(in, out, wide) \
    (n && (wide) && (const void *)(in) == (const void *)(out))

sc_status sc_dev_compact_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_pred *pred, void *d_out,
                               uint64_t *d_kept, const sc_dev_queue *q)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !d_kept || ARRAYS(d_in, d_out));
    if (bad) return bad;
    sc_dev_call c = compact_call(d_in, n, pred, SC_EMIT_VALUES, 0, d_out);
    c.d_result = d_kept;
    return queued(ctx, &c, q);
}

sc_status sc_dev_indices_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_pred *pred, uint64_t first_index,
                               uint64_t *d_pos, uint64_t *d_kept,
                               const sc_dev_queue *q)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !d_kept || ARRAYS(d_in, d_pos));
    if (bad) return bad;
    sc_dev_call c = compact_call(d_in, n, pred, SC_EMIT_IDX64, first_index,
                                 d_pos);
    c.d_result = d_kept;
    return queued(ctx, &c, q);
}

sc_status sc_dev_split_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                             const sc_pred *pred, void *d_sel, void *d_rej,
                             uint64_t *d_selected, const sc_dev_queue *q)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !d_selected ||
                                  ARRAYS(d_in, d_sel) || ARRAYS(d_in, d_rej));
    if (bad) return bad;
    sc_dev_call c = split_call(d_in, n, pred, d_sel, d_rej);
    c.d_result = d_selected;
    return queued(ctx, &c, q);
}

sc_status sc_dev_scan_async(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                            sc_scan_op op, int inclusive, int wide,
                            const uint64_t *d_carry_in, void *d_out,
                            uint64_t *d_carry_out, const sc_dev_queue *q)
{
    sc_status bad = BAD_ARGS(ctx, ARRAYS(d_in, d_out) || op > SC_OP_XOR ||
                                  IN_PLACE_WIDE(d_in, d_out, wide) ||
                                  (d_carry_out && d_carry_out == d_carry_in));
    if (bad) return bad;
    sc_dev_call c = scan_call(d_in, n, op, inclusive, wide, d_out);
    c.d_carry_in = d_carry_in;
    c.d_result = d_carry_out;
    return queued(ctx, &c, q);
}

sc_status sc_dev_sort_async(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                            unsigned lo_bit, unsigned hi_bit, int descending,
                            const sc_dev_queue *q)
{
    sc_status bad = BAD_ARGS(ctx, n && !d_keys);
    if (bad || (bad = bits_ok(ctx, lo_bit, hi_bit))) return bad;
    sc_dev_call c = sort_call(d_keys, n, lo_bit, hi_bit, descending);
    return queued(ctx, &c, q);
}

/* The kernel makes 32-bit elements (d_out is uint32_t): 64-bit types are
 * sc_gen()'s, on the host. */
static sc_status dev_gen_check(sc_ctx *ctx, const sc_gen_params *g)
{
    sc_status bad = sc_gen_params_check(ctx, g);
    if (bad == SC_OK && sc_type_size(g->type) != 4)
        bad = sc_fail(ctx, SC_ERR_USAGE, "sc_dev_gen: %s elements are made "
                      "by sc_gen() on the host only", sc_type_name(g->type));
    return bad;
}

sc_status sc_dev_gen_async(sc_ctx *ctx, const sc_gen_params *g,
                           uint64_t first_index, uint32_t *d_out, uint64_t n,
                           const sc_dev_queue *q)
{
    sc_status bad = BAD_ARGS(ctx, !g || (n && !d_out));
    if (bad || (bad = dev_gen_check(ctx, g))) return bad;
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    sc_dev_call c = gen_call(&plan, first_index, d_out, n);
    return queued(ctx, &c, q);
}

sc_status sc_dev_stat_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                            sc_type type, sc_stats_typed *d_figs,
                            const sc_dev_queue *q)
{
    sc_dev_call c;
    sc_status bad = BAD_ARGS(ctx, !d_figs || ARRAYS(d_in, d_figs));
    if (bad || (bad = stat_call(ctx, d_in, n, type, d_figs, &c))) return bad;
    return queued(ctx, &c, q);
}

sc_status sc_dev_sync(sc_ctx *ctx, void *stream)
{
    sc_status bad = BAD_ARGS(ctx, 0);
    if (bad) return bad;
    const sc_backend *b = sc_policy_device_arrays(ctx);
    return b ? b->dev_sync(ctx, stream) : SC_ERR_NODEVICE;
}

sc_status sc_dev_compact(sc_ctx *ctx, const void *d_in, uint64_t n,
                         const sc_pred *pred, void *d_out, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || ARRAYS(d_in, d_out));
    if (bad) return bad;
    sc_dev_call c = compact_call(d_in, n, pred, SC_EMIT_VALUES, 0, d_out);
    return blocking(ctx, &c, kept);
}

sc_status sc_dev_indices(sc_ctx *ctx, const void *d_in, uint64_t n,
                         const sc_pred *pred, uint64_t first_index,
                         uint64_t *d_pos, uint64_t *kept)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || ARRAYS(d_in, d_pos));
    if (bad) return bad;
    sc_dev_call c = compact_call(d_in, n, pred, SC_EMIT_IDX64, first_index,
                                 d_pos);
    return blocking(ctx, &c, kept);
}

sc_status sc_dev_split(sc_ctx *ctx, const void *d_in, uint64_t n,
                       const sc_pred *pred, void *d_sel, void *d_rej,
                       uint64_t *selected)
{
    sc_status bad = BAD_ARGS(ctx, !pred || !selected || ARRAYS(d_in, d_sel) ||
                                  ARRAYS(d_in, d_rej));
    if (bad) return bad;
    sc_dev_call c = split_call(d_in, n, pred, d_sel, d_rej);
    return blocking(ctx, &c, selected);
}

sc_status sc_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *d_out,
                      uint64_t *carry)
{
    sc_status bad = BAD_ARGS(ctx, !carry || ARRAYS(d_in, d_out) ||
                                  op > SC_OP_XOR ||
                                  IN_PLACE_WIDE(d_in, d_out, wide));
    if (bad) return bad;
    sc_dev_call c = scan_call(d_in, n, op, inclusive, wide, d_out);
    return blocking(ctx, &c, carry);
}

sc_status sc_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !d_keys);
    if (bad || (bad = bits_ok(ctx, lo_bit, hi_bit))) return bad;
    sc_dev_call c = sort_call(d_keys, n, lo_bit, hi_bit, descending);
    return blocking(ctx, &c, NULL);
}

sc_status sc_dev_gen(sc_ctx *ctx, const sc_gen_params *g,
                     uint64_t first_index, uint32_t *d_out, uint64_t n)
{
    sc_status bad = BAD_ARGS(ctx, !g || (n && !d_out));
    if (bad || (bad = dev_gen_check(ctx, g))) return bad;
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    sc_dev_call c = gen_call(&plan, first_index, d_out, n);
    return blocking(ctx, &c, NULL);
}

sc_status sc_dev_stat(sc_ctx *ctx, const void *d_in, uint64_t n, sc_type type,
                      sc_stats_typed *figs)
{
    sc_dev_call c;
    sc_status bad = BAD_ARGS(ctx, !figs || ARRAYS(d_in, figs));
    if (bad || (bad = stat_call(ctx, d_in, n, type, NULL, &c))) return bad;
    return blocking(ctx, &c, figs);
}
