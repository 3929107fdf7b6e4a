/* compact_impl.h — compaction's and split's loops for one element width,
 * included by cpu_compact.c once per width.  It expects:
 *   ELEM_T            the element's word (uint32_t, uint64_t);
 *   EVAL_BITS(p, x)   the predicate on an integer's bits (sc_hd.h's
 *                     sc_pred_eval_bits, sc_pred_eval_bits64);
 *   EVAL_FLOAT(p, x)  the same on a float's (sc_pred_eval, sc_pred_eval64);
 *   W(name)           name with the width's suffix;
 * and cpu_compact.c's compact_op, compact_fns, SC_INLINE, STAGE and
 * BY_PRED. */

/* The default predicate (x != 0) gets its own loop so the compiler can
 * vectorise it; every other predicate goes through EVAL_BITS, a float's
 * through EVAL_FLOAT.  All are instantiated from one always-inlined
 * body (BY_PRED). */
typedef int (*W(pred_fn))(const sc_pred *p, ELEM_T x);

SC_INLINE int W(pred_nonzero)(const sc_pred *p, ELEM_T x)
{
    (void)p;
    return x != 0;
}
SC_INLINE int W(pred_general)(const sc_pred *p, ELEM_T x)
{
    return EVAL_BITS(p, x);
}
SC_INLINE int W(pred_float)(const sc_pred *p, ELEM_T x)
{
    return EVAL_FLOAT(p, x);
}

SC_INLINE uint64_t W(count_with)(W(pred_fn) f, const sc_pred *p,
                                 const ELEM_T *in, uint64_t b, uint64_t e)
{
    uint64_t c = 0;
    for (uint64_t i = b; i < e; i++) c += (uint64_t)f(p, in[i]);
    return c;
}

static void W(count)(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    compact_op *op = arg;
#define COUNT(f) W(count_with)(f, op->pred, op->in, b, e)
    res[0] = BY_PRED(op, COUNT);
#undef COUNT
}

/* Branch-free: every element is stored, the cursor advances when it is
 * kept.  Staged through a small local block so that the store past a
 * sequence's last kept element never lands in a neighbour's output. */
SC_INLINE uint64_t W(move_values)(W(pred_fn) f, const sc_pred *p,
                                  const ELEM_T *in, uint64_t b, uint64_t e,
                                  ELEM_T *out)
{
    ELEM_T stage[STAGE + 1];
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
SC_INLINE uint64_t W(move_indices)(W(pred_fn) f, const sc_pred *p,
                                   const ELEM_T *in, uint64_t b, uint64_t e,
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

static void W(compact_move)(void *arg, unsigned seq, uint64_t b, uint64_t e,
                            const uint64_t *off)
{
    compact_op *op = arg;
    uint64_t m;
    if (op->kind == SC_EMIT_VALUES) {
        ELEM_T *out = (ELEM_T *)op->out + off[0];
#define MOVE(f) W(move_values)(f, op->pred, op->in, b, e, out)
        m = BY_PRED(op, MOVE);
#undef MOVE
    } else {
        int wide = op->kind == SC_EMIT_IDX64;
        uint64_t *o64 = wide ? (uint64_t *)op->out + off[0] : NULL;
        uint32_t *o32 = wide ? NULL : (uint32_t *)op->out + off[0];
#define MOVE(f) W(move_indices)(f, op->pred, op->in, b, e, op->first_index, \
                                o64, o32)
        m = BY_PRED(op, MOVE);
#undef MOVE
    }
    op->moved[seq] = off[0] + m;
}

/* Split: rejects of a sequence start at (begin - selected before it). */
SC_INLINE uint64_t W(split_seq)(W(pred_fn) f, const sc_pred *p,
                                const ELEM_T *in, uint64_t b, uint64_t e,
                                ELEM_T *sel, ELEM_T *rej)
{
    ELEM_T s_stage[STAGE + 1], r_stage[STAGE + 1];
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

static void W(split_move)(void *arg, unsigned seq, uint64_t b, uint64_t e,
                          const uint64_t *off)
{
    compact_op *op = arg;
    ELEM_T *sel = (ELEM_T *)op->out + off[0];
    ELEM_T *rej = (ELEM_T *)op->rej + (b - off[0]);
#define SPLIT(f) W(split_seq)(f, op->pred, op->in, b, e, sel, rej)
    uint64_t m = BY_PRED(op, SPLIT);
#undef SPLIT
    op->moved[seq] = off[0] + m;
}

static const compact_fns W(fns) = { W(count), W(compact_move),
                                    W(split_move) };
