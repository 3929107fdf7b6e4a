/* ops.c — the array layer: each operation on the device the policy picks
 * for it (policy.c).
 *
 * When the GPU finds itself out of memory the work runs on the CPU
 * instead (SC_ERR_NOMEM from the CUDA table means exactly that), so a
 * result is never lost or wrong because the GPU was full.
 *
 * The calls of sc.h come from the library's user, not from a run: no one
 * asks for their phases' times, so the backends get NULL for them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ops/ops.h"

/* The table for n elements of type t of work w: the policy's pick for
 * 4-byte elements and for compaction, split, scans and stat of 8-byte
 * ones; other work on 8-byte elements (gen) is the host's threads'
 * whatever the device (no GPU kernel takes it yet), which then reads as
 * the CPU under -v, with no word of the policy's. */
static const sc_backend *pick(sc_ctx *ctx, sc_job_kind w, sc_type t,
                              uint64_t n)
{
    int gpu_takes = sc_type_size(t) == 4 || w == SC_JOB_COMPACT ||
                    w == SC_JOB_SPLIT || w == SC_JOB_SCAN ||
                    w == SC_JOB_STAT;
    if (!gpu_takes) return sc_ops_cpu();
    return sc_backend_pick(ctx, w, n * sc_type_size(t));
}

/* Runs CALL on the table picked for it. */
#define ON_DEVICE(ctx, w, t, n, CALL)                                       \
    do {                                                                    \
        const sc_backend *b_ = pick((ctx), (w), (t), (n));                  \
        if (!b_) return SC_ERR_NODEVICE;                                    \
        sc_status st_;                                                      \
        do st_ = b_->CALL; while (sc_backend_retry((ctx), &b_, st_));       \
        sc_backend_used((ctx), b_);                                         \
        return st_;                                                         \
    } while (0)

/* A predicate's element type, which the arrays hold. */
static sc_status pred_type(sc_ctx *ctx, const sc_pred *pred, sc_type *t)
{
    *t = (sc_type)pred->type;
    if (sc_type_size(*t)) return SC_OK;
    return sc_fail(ctx, SC_ERR_USAGE, "invalid predicate element type");
}

sc_status sc_compact(sc_ctx *ctx, const void *in, uint64_t n,
                     const sc_pred *pred, void *out, uint64_t *kept)
{
    sc_type t = SC_U32;
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (!bad) bad = pred_type(ctx, pred, &t);
    if (bad) return bad;
    ON_DEVICE(ctx, SC_JOB_COMPACT, t, n,
              compact(ctx, NULL, in, n, pred, SC_EMIT_VALUES, 0, out,
                      kept));
}

sc_status sc_compact_indices(sc_ctx *ctx, const void *in, uint64_t n,
                             const sc_pred *pred, uint64_t first_index,
                             uint64_t *out, uint64_t *kept)
{
    sc_type t = SC_U32;
    sc_status bad = BAD_ARGS(ctx, !pred || !kept || (n && (!in || !out)));
    if (!bad) bad = pred_type(ctx, pred, &t);
    if (bad) return bad;
    ON_DEVICE(ctx, SC_JOB_COMPACT, t, n,
              compact(ctx, NULL, in, n, pred, SC_EMIT_IDX64, first_index,
                      out, kept));
}

sc_status sc_split_parts(sc_ctx *ctx, const void *in, uint64_t n,
                         const sc_pred *pred, void *sel, void *rej,
                         uint64_t *selected)
{
    sc_type t = SC_U32;
    sc_status bad = BAD_ARGS(ctx, !pred || !selected ||
                                  (n && (!in || !sel || !rej)));
    if (!bad) bad = pred_type(ctx, pred, &t);
    if (bad) return bad;
    ON_DEVICE(ctx, SC_JOB_SPLIT, t, n,
              split(ctx, NULL, in, n, pred, sel, rej, selected));
}

sc_status sc_split(sc_ctx *ctx, const void *in, uint64_t n,
                   const sc_pred *pred, void *out, uint64_t *selected)
{
    sc_type t = SC_U32;
    sc_status bad = BAD_ARGS(ctx, !pred || !selected || (n && (!in || !out)));
    if (!bad) bad = pred_type(ctx, pred, &t);
    if (bad) return bad;
    size_t size = sc_type_size(t);
    char *rej = malloc((n ? n : 1) * size);
    if (!rej) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = sc_split_parts(ctx, in, n, pred, out, rej, selected);
    if (st == SC_OK)
        memcpy((char *)out + *selected * size, rej, (n - *selected) * size);
    free(rej);
    return st;
}

sc_status sc_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n, sc_scan_op op,
                  int inclusive, int wide, void *out, uint64_t *carry)
{
    return sc_scan_type(ctx, in, n, SC_U32, op, inclusive, wide, out, carry);
}

/* A scan of either width on the device the policy picks (pick()). */
static sc_status scan_on_device(sc_ctx *ctx, const void *in, uint64_t n,
                                sc_type type, sc_scan_op op, int inclusive,
                                int wide, void *out, uint64_t *acc)
{
    ON_DEVICE(ctx, SC_JOB_SCAN, type, n,
              scan(ctx, NULL, in, n, type, op, inclusive, wide, out, acc));
}

sc_status sc_scan_check(sc_ctx *ctx, sc_type type, sc_scan_op op, int wide)
{
    const char *name = sc_type_name(type);
    if ((unsigned)op > SC_OP_XOR)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid scan operator");
    if (!name || (op == SC_OP_XOR && sc_type_is_float(type)))
        return sc_fail(ctx, SC_ERR_USAGE, "scan: %s of %s elements is not "
                       "handled", op == SC_OP_XOR ? "xor" : "this operator",
                       name ? name : "such");
    if (wide && sc_type_size(type) == 8)
        return sc_fail(ctx, SC_ERR_USAGE, "scan: wide output needs a 32-bit "
                       "type, not %s", name);
    return SC_OK;
}

/* Float sums run in their fixed order on the CPU (cpu_only.c); max and
 * min of other types than u32 carry a rank on the devices. */
sc_status sc_scan_type(sc_ctx *ctx, const void *in, uint64_t n,
                       sc_type type, sc_scan_op op, int inclusive, int wide,
                       void *out, uint64_t *carry)
{
    sc_status bad = BAD_ARGS(ctx, !carry || (n && (!in || !out)));
    if (!bad) bad = sc_scan_check(ctx, type, op, wide);
    if (bad) return bad;
    if (sc_type_is_float(type) && op == SC_OP_SUM) {
        sc_fsum_state st = { 0, 0, 0 };
        memcpy(&st.carry, carry, 8);
        sc_status s = sc_fsum_scan(ctx, NULL, in, n, type, 0, inclusive, wide,
                                   out, &st);
        double total = sc_fsum_total(&st);
        memcpy(carry, &total, 8);
        return s;
    }
    uint64_t acc = sc_scan_carry_rank(type, op, *carry, 0);
    sc_status st = scan_on_device(ctx, in, n, type, op, inclusive, wide, out,
                                  &acc);
    if (st == SC_OK) *carry = sc_scan_carry_rank(type, op, acc, 1);
    return st;
}

sc_status sc_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n, unsigned lo_bit,
                  unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !keys);    /* named as the caller's */
    return bad ? bad
               : sc_sort_type(ctx, keys, n, SC_U32, lo_bit, hi_bit, descending);
}

sc_status sc_sort_check(sc_ctx *ctx, sc_type type, unsigned lo_bit,
                        unsigned hi_bit)
{
    if (sc_type_size(type) == 0)
        return sc_fail(ctx, SC_ERR_USAGE, "sort: no such element type");
    if (lo_bit < hi_bit && hi_bit <= 8 * sc_type_size(type)) return SC_OK;
    return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u", lo_bit,
                   hi_bit);
}

sc_status sc_sort_type(sc_ctx *ctx, void *keys, uint64_t n, sc_type type,
                       unsigned lo_bit, unsigned hi_bit, int descending)
{
    sc_status bad = BAD_ARGS(ctx, n && !keys);
    if (bad) return bad;
    return sc_sort_ready(ctx, NULL, keys, n, type, lo_bit, hi_bit, descending,
                         NULL, NULL);
}

/* Elements of every type on the device the policy picks; a sort that
 * fails leaves the keys reordered, never ranked (each device ranks and
 * unranks them itself). */
sc_status sc_sort_ready(sc_ctx *ctx, sc_phase_times *times, void *keys,
                        uint64_t n, sc_type type, unsigned lo_bit,
                        unsigned hi_bit, int descending, sc_ready_fn ready,
                        void *arg)
{
    sc_status bad = sc_sort_check(ctx, type, lo_bit, hi_bit);
    if (bad) return bad;
    const sc_backend *b = sc_backend_pick(ctx,
                                          sc_sort_cost_kind(type, NULL, 0),
                                          n * sc_type_size(type));
    if (!b) return SC_ERR_NODEVICE;
    sc_status st;
    /* A retry moves a GPU's whole sort to the CPU: nothing was handed on
     * yet. */
    do st = b->sort_ready
            ? b->sort_ready(ctx, times, keys, n, type, lo_bit, hi_bit,
                            descending, ready, arg)
            : b->sort(ctx, times, keys, n, type, lo_bit, hi_bit, descending);
    while (sc_backend_retry(ctx, &b, st));
    sc_backend_used(ctx, b);
    if (st == SC_OK && !b->sort_ready && ready && n) st = ready(arg, keys, n);
    return st;
}

/* The caller's ready, noting that a piece went out. */
typedef struct handed {
    sc_ready_fn ready;
    void *arg;
    int any;
} handed;

static sc_status hand_on(void *arg, void *items, uint64_t n)
{
    handed *h = arg;
    h->any = 1;
    return h->ready(h->arg, items, n);
}

sc_status sc_op_sort_records(sc_ctx *ctx, sc_phase_times *times, const void *in,
                             uint64_t n, const sc_elem_order *o, int keypos,
                             uint64_t base, sc_ready_fn ready, void *arg)
{
    const sc_backend *b = n > (uint64_t)1 << 32
                        ? sc_ops_cpu()
                        : sc_backend_pick(ctx,
                                          sc_sort_cost_kind(o->type, o, keypos),
                                          n * o->size);
    if (!b) return SC_ERR_NODEVICE;
    sc_status st;
    /* The GPU runs out of memory, if at all, before it hands on a
     * piece; an SC_ERR_NOMEM after one (ready's own: an output's
     * compressor, say) is the run's end, since a sort on the CPU would
     * hand the same pieces on again. */
    handed h = { ready, arg, 0 };
    do st = b->sort_records(ctx, times, in, n, o, keypos, base,
                            ready ? hand_on : NULL, ready ? (void *)&h : arg);
    while (!h.any && sc_backend_retry(ctx, &b, st));
    sc_backend_used(ctx, b);
    return st;
}

sc_status sc_gen(sc_ctx *ctx, const sc_gen_params *g, uint64_t first_index,
                 void *out, uint64_t n)
{
    sc_status bad = BAD_ARGS(ctx, n && !out);
    if (bad) return bad;
    if ((bad = sc_gen_params_check(ctx, g))) return bad;
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    /* The GPU's kernel makes 32-bit elements only (pick()). */
    ON_DEVICE(ctx, SC_JOB_GEN, g->type, n,
              gen(ctx, NULL, &plan, first_index, out, n));
}

/* sc_stat()'s reduction (ops_stat.c makes the figures of it). */
sc_status sc_stat_add(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_stat_acc *acc)
{
    ON_DEVICE(ctx, SC_JOB_STAT, type, n,
              stat(ctx, times, in, n, type, acc));
}
