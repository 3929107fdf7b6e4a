/* compact_impl.h — compaction's and split's loops for one key width,
 * included by cpu_compact.c once per width.  It expects:
 *   ELEM_T            the element's (or a record key's) word (uint32_t,
 *                     uint64_t);
 *   EVAL_BITS(p, x)   the predicate on an integer's bits (sc_hd.h's
 *                     sc_pred_eval_bits, sc_pred_eval_bits64);
 *   EVAL_FLOAT(p, x)  the same on a float's (sc_pred_eval, sc_pred_eval64);
 *   BSWAP(x)          x's bytes reversed;
 *   W(name)           name with the width's suffix;
 * and cpu_compact.c's compact_op, compact_fns, keys_at, copy_records,
 * SC_INLINE, STAGE and BY_PRED.
 *
 * Keys are read through a keys_at: the elements themselves (a constant
 * stride of one element, which the compiler sees through, so the
 * element loops stay as fast as plain array loops), or the keys of
 * records (op->stride bytes apart), whose whole records are then moved
 * by their positions. */

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

/* Key i, in the host's byte order. */
SC_INLINE ELEM_T W(key)(keys_at k, uint64_t i)
{
    ELEM_T x;
    memcpy(&x, k.at + i * k.stride, sizeof x);
    return k.swap ? BSWAP(x) : x;
}

/* The elements' keys: themselves. */
SC_INLINE keys_at W(elem_keys)(const compact_op *op)
{
    keys_at k = { op->in, sizeof(ELEM_T), 0 };
    return k;
}

SC_INLINE uint64_t W(count_with)(W(pred_fn) f, const sc_pred *p, keys_at k,
                                 uint64_t b, uint64_t e)
{
    uint64_t c = 0;
    for (uint64_t i = b; i < e; i++) c += (uint64_t)f(p, W(key)(k, i));
    return c;
}

static void W(count)(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    compact_op *op = arg;
#define COUNT(f) W(count_with)(f, op->pred, W(elem_keys)(op), b, e)
#define COUNT_RECORDS(f) W(count_with)(f, op->pred, record_keys(op), b, e)
    res[0] = op->stride ? BY_PRED(op, COUNT_RECORDS) : BY_PRED(op, COUNT);
#undef COUNT
#undef COUNT_RECORDS
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

/* Branch-free: the positions first + i of the keys of [s, end) that
 * pass, into stage; how many. */
SC_INLINE unsigned W(select)(W(pred_fn) f, const sc_pred *p, keys_at k,
                             uint64_t s, uint64_t end, uint64_t first,
                             uint64_t *stage)
{
    unsigned n = 0;
    for (uint64_t i = s; i < end; i++) {
        stage[n] = first + i;
        n += (unsigned)f(p, W(key)(k, i));
    }
    return n;
}

/* Positions 64 bits wide (out64), or 32 (out32) where the caller knows
 * they fit. */
SC_INLINE uint64_t W(move_indices)(W(pred_fn) f, const sc_pred *p,
                                   keys_at keys, uint64_t b, uint64_t e,
                                   uint64_t first, uint64_t *out64,
                                   uint32_t *out32)
{
    uint64_t stage[STAGE + 1];
    uint64_t total = 0;
    for (uint64_t s = b; s < e; s += STAGE) {
        uint64_t end = e - s < STAGE ? e : s + STAGE;
        unsigned k = W(select)(f, p, keys, s, end, first, stage);
        if (out64) memcpy(out64 + total, stage, (size_t)k * sizeof *stage);
        else for (unsigned i = 0; i < k; i++) out32[total + i] = (uint32_t)stage[i];
        total += k;
    }
    return total;
}

/* Records: the passing ones' positions staged, then the records copied
 * whole, in order, to out (records of op->stride bytes). */
SC_INLINE uint64_t W(move_records)(W(pred_fn) f, const compact_op *op,
                                   uint64_t b, uint64_t e, unsigned char *out)
{
    uint64_t stage[STAGE + 1];
    uint64_t total = 0;
    for (uint64_t s = b; s < e; s += STAGE) {
        uint64_t end = e - s < STAGE ? e : s + STAGE;
        unsigned k = W(select)(f, op->pred, record_keys(op), s, end, 0, stage);
        copy_records(op, out + total * op->stride, stage, k);
        total += k;
    }
    return total;
}

static void W(compact_move)(void *arg, unsigned seq, uint64_t b, uint64_t e,
                            const uint64_t *off)
{
    compact_op *op = arg;
    uint64_t m;
    if (op->kind == SC_EMIT_VALUES && op->stride) {
        unsigned char *out = (unsigned char *)op->out + off[0] * op->stride;
#define MOVE(f) W(move_records)(f, op, b, e, out)
        m = BY_PRED(op, MOVE);
#undef MOVE
    } else if (op->kind == SC_EMIT_VALUES) {
        ELEM_T *out = (ELEM_T *)op->out + off[0];
#define MOVE(f) W(move_values)(f, op->pred, op->in, b, e, out)
        m = BY_PRED(op, MOVE);
#undef MOVE
    } else {
        int wide = op->kind == SC_EMIT_IDX64;
        uint64_t *o64 = wide ? (uint64_t *)op->out + off[0] : NULL;
        uint32_t *o32 = wide ? NULL : (uint32_t *)op->out + off[0];
        /* Each its own loop: the elements' constant stride is seen
         * through only where it is a constant. */
#define MOVE(f) W(move_indices)(f, op->pred, W(elem_keys)(op), b, e, \
                                op->first_index, o64, o32)
#define MOVE_RECORDS(f) W(move_indices)(f, op->pred, record_keys(op), b, e, \
                                        op->first_index, o64, o32)
        m = op->stride ? BY_PRED(op, MOVE_RECORDS) : BY_PRED(op, MOVE);
#undef MOVE
#undef MOVE_RECORDS
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

/* Records: the positions of the selected and of the rejected staged
 * side by side, then both groups copied whole. */
SC_INLINE uint64_t W(split_records)(W(pred_fn) f, const compact_op *op,
                                    uint64_t b, uint64_t e,
                                    unsigned char *sel, unsigned char *rej)
{
    uint64_t s_stage[STAGE + 1], r_stage[STAGE + 1];
    keys_at keys = record_keys(op);
    uint64_t ns = 0, nr = 0;
    for (uint64_t s = b; s < e; s += STAGE) {
        uint64_t end = e - s < STAGE ? e : s + STAGE;
        unsigned ks = 0, kr = 0;
        for (uint64_t i = s; i < end; i++) {
            unsigned keep = (unsigned)f(op->pred, W(key)(keys, i));
            s_stage[ks] = i;
            r_stage[kr] = i;
            ks += keep;
            kr += keep ^ 1u;
        }
        copy_records(op, sel + ns * op->stride, s_stage, ks);
        copy_records(op, rej + nr * op->stride, r_stage, kr);
        ns += ks;
        nr += kr;
    }
    return ns;
}

static void W(split_move)(void *arg, unsigned seq, uint64_t b, uint64_t e,
                          const uint64_t *off)
{
    compact_op *op = arg;
    uint64_t m;
    if (op->stride) {
        unsigned char *sel = (unsigned char *)op->out + off[0] * op->stride;
        unsigned char *rej = (unsigned char *)op->rej +
                             (b - off[0]) * op->stride;
#define SPLIT(f) W(split_records)(f, op, b, e, sel, rej)
        m = BY_PRED(op, SPLIT);
#undef SPLIT
    } else {
        ELEM_T *sel = (ELEM_T *)op->out + off[0];
        ELEM_T *rej = (ELEM_T *)op->rej + (b - off[0]);
#define SPLIT(f) W(split_seq)(f, op->pred, op->in, b, e, sel, rej)
        m = BY_PRED(op, SPLIT);
#undef SPLIT
    }
    op->moved[seq] = off[0] + m;
}

static const compact_fns W(fns) = { W(count), W(compact_move),
                                    W(split_move) };
