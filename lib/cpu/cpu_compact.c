/* cpu_compact.c — compaction and split as instances of the three phases. */
#include <string.h>
#include "cpu/phases.h"

/* The default predicate (x != 0) gets its own loop so the compiler can
 * vectorise it; every other predicate goes through sc_pred_eval_bits, a
 * float's through sc_pred_eval.  All are instantiated from one
 * always-inlined body (BY_PRED). */
#define SC_INLINE static inline __attribute__((always_inline))
typedef int (*pred_fn)(const sc_pred *p, uint32_t x);

SC_INLINE int pred_nonzero(const sc_pred *p, uint32_t x)
{
    (void)p;
    return x != 0;
}
SC_INLINE int pred_general(const sc_pred *p, uint32_t x)
{
    return sc_pred_eval_bits(p, x);
}
SC_INLINE int pred_float(const sc_pred *p, uint32_t x)
{
    return sc_pred_eval(p, x);
}

/* CALL(f) for op's predicate's loop body f. */
#define BY_PRED(op, CALL)                                              \
    ((op)->fast ? CALL(pred_nonzero)                                   \
     : (op)->pred->key_neg ? CALL(pred_float) : CALL(pred_general))

static int is_default_pred(const sc_pred *p)
{
    /* Any bounds that admit everything: a signed type's are shifted. */
    return !p->empty && !p->invert && p->hi - p->lo == UINT32_MAX &&
           p->key_neg == 0 &&
           p->n_mask == 0 && p->n_ne == 1 && p->ne[0] == 0;
}

SC_INLINE uint64_t count_with(pred_fn f, const sc_pred *p, const uint32_t *in,
                              uint64_t b, uint64_t e)
{
    uint64_t c = 0;
    for (uint64_t i = b; i < e; i++) c += (uint64_t)f(p, in[i]);
    return c;
}

typedef struct compact_op {
    const uint32_t *in;
    const sc_pred *pred;
    int fast;
    int kind;               /* sc_emit */
    uint64_t first_index;
    void *out;
    uint32_t *rej;          /* split only */
    uint64_t *moved;        /* per sequence */
} compact_op;

static void compact_count(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    compact_op *op = arg;
#define COUNT(f) count_with(f, op->pred, op->in, b, e)
    res[0] = BY_PRED(op, COUNT);
#undef COUNT
}

static int exclusive_sum(void *arg, uint64_t *res, unsigned seqs)
{
    (void)arg;
    uint64_t run = 0;
    for (unsigned i = 0; i < seqs; i++) {
        uint64_t c = res[i];
        res[i] = run;
        run += c;
    }
    return 0;
}

/* Branch-free: every element is stored, the cursor advances when it is
 * kept.  Staged through a small local block so that the store past a
 * sequence's last kept element never lands in a neighbour's output. */
#define STAGE 1024
SC_INLINE uint64_t move_values(pred_fn f, const sc_pred *p, const uint32_t *in,
                               uint64_t b, uint64_t e, uint32_t *out)
{
    uint32_t stage[STAGE + 1];
    uint64_t total = 0;
    for (uint64_t s = b; s < e; s += STAGE) {
        uint64_t end = e - s < STAGE ? e : s + STAGE;
        unsigned k = 0;
        for (uint64_t i = s; i < end; i++) {
            stage[k] = in[i];
            k += (unsigned)f(p, in[i]);
        }
        memcpy(out + total, stage, (size_t)k * sizeof *stage);
        total += k;
    }
    return total;
}

/* Positions 64 bits wide (out64), or 32 (out32) where the caller knows
 * they fit. */
SC_INLINE uint64_t move_indices(pred_fn f, const sc_pred *p,
                                const uint32_t *in, uint64_t b, uint64_t e,
                                uint64_t first, uint64_t *out64,
                                uint32_t *out32)
{
    uint64_t stage[STAGE + 1];
    uint64_t total = 0;
    for (uint64_t s = b; s < e; s += STAGE) {
        uint64_t end = e - s < STAGE ? e : s + STAGE;
        unsigned k = 0;
        for (uint64_t i = s; i < end; i++) {
            stage[k] = first + i;
            k += (unsigned)f(p, in[i]);
        }
        if (out64) memcpy(out64 + total, stage, (size_t)k * sizeof *stage);
        else for (unsigned i = 0; i < k; i++) out32[total + i] = (uint32_t)stage[i];
        total += k;
    }
    return total;
}

static void compact_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                         const uint64_t *off)
{
    compact_op *op = arg;
    uint64_t m;
    if (op->kind == SC_EMIT_VALUES) {
        uint32_t *out = (uint32_t *)op->out + off[0];
#define MOVE(f) move_values(f, op->pred, op->in, b, e, out)
        m = BY_PRED(op, MOVE);
#undef MOVE
    } else {
        int wide = op->kind == SC_EMIT_IDX64;
        uint64_t *o64 = wide ? (uint64_t *)op->out + off[0] : NULL;
        uint32_t *o32 = wide ? NULL : (uint32_t *)op->out + off[0];
#define MOVE(f) move_indices(f, op->pred, op->in, b, e, op->first_index, o64, o32)
        m = BY_PRED(op, MOVE);
#undef MOVE
    }
    op->moved[seq] = off[0] + m;
}

/* Runs op's phases with move last; *moved: how many went to the output
 * (kept, or selected), which the last sequence's move knows. */
static sc_status run(sc_ctx *ctx, sc_phase_times *times, compact_op *op,
                     uint64_t n,
                     void (*move)(void *, unsigned, uint64_t, uint64_t,
                                  const uint64_t *),
                     uint64_t *moved)
{
    sc_phases ph = { n, 1, 1, compact_count, exclusive_sum, move, op };
    *moved = 0;
    if (n == 0) return SC_OK;
    sc_status st = sc_phases_run(ctx, times, &ph);
    if (st == SC_OK) *moved = op->moved[sc_phases_seqs(ctx, n) - 1];
    return st;
}

/* Positions come 64 bits wide (SC_EMIT_IDX64), or 32 (SC_EMIT_IDX32)
 * for a caller that knows first_index + n fits: sc_compact_indices() asks
 * for 64, sc-compact's job for 32 where a chunk's positions all fit (the
 * writer narrows the others). */
sc_status sc_cpu_compact(sc_ctx *ctx, sc_phase_times *times,
                         const uint32_t *in, uint64_t n, const sc_pred *pred,
                         int out_kind, uint64_t first_index, void *out,
                         uint64_t *kept)
{
    uint64_t moved[SC_MAX_SEQS];
    compact_op op = { in, pred, is_default_pred(pred), out_kind, first_index,
                      out, NULL, moved };
    return run(ctx, times, &op, n, compact_move, kept);
}

/* Split: rejects of a sequence start at (begin - selected before it). */
SC_INLINE uint64_t split_seq(pred_fn f, const sc_pred *p, const uint32_t *in,
                             uint64_t b, uint64_t e, uint32_t *sel,
                             uint32_t *rej)
{
    uint32_t s_stage[STAGE + 1], r_stage[STAGE + 1];
    uint64_t ns = 0, nr = 0;
    for (uint64_t s = b; s < e; s += STAGE) {
        uint64_t end = e - s < STAGE ? e : s + STAGE;
        unsigned ks = 0, kr = 0;
        for (uint64_t i = s; i < end; i++) {
            unsigned keep = (unsigned)f(p, in[i]);
            s_stage[ks] = in[i];
            r_stage[kr] = in[i];
            ks += keep;
            kr += keep ^ 1u;
        }
        memcpy(sel + ns, s_stage, (size_t)ks * sizeof *s_stage);
        memcpy(rej + nr, r_stage, (size_t)kr * sizeof *r_stage);
        ns += ks;
        nr += kr;
    }
    return ns;
}

static void split_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                       const uint64_t *off)
{
    compact_op *op = arg;
    uint32_t *sel = (uint32_t *)op->out + off[0];
    uint32_t *rej = op->rej + (b - off[0]);
#define SPLIT(f) split_seq(f, op->pred, op->in, b, e, sel, rej)
    uint64_t m = BY_PRED(op, SPLIT);
#undef SPLIT
    op->moved[seq] = off[0] + m;
}

sc_status sc_cpu_split(sc_ctx *ctx, sc_phase_times *times, const uint32_t *in,
                       uint64_t n, const sc_pred *pred, uint32_t *sel,
                       uint32_t *rej, uint64_t *selected)
{
    uint64_t moved[SC_MAX_SEQS];
    compact_op op = { in, pred, is_default_pred(pred), SC_EMIT_VALUES, 0,
                      sel, rej, moved };
    return run(ctx, times, &op, n, split_move, selected);
}
