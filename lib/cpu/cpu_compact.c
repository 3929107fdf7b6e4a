/* cpu_compact.c — compaction and split as instances of the three phases,
 * for 4- and 8-byte elements and for records alike: the loops are
 * compact_impl.h's, included once per width; a predicate's type picks the
 * width (a record's key's), and a record's size is a parameter. */
#include <string.h>
#include "cpu/phases.h"

#define SC_INLINE static inline __attribute__((always_inline))
#define STAGE 1024

typedef struct compact_op {
    const void *in;         /* elements of pred's type */
    const sc_pred *pred;
    int fast;
    int kind;               /* sc_emit */
    uint64_t first_index;
    void *out;
    void *rej;              /* split only */
    uint64_t *moved;        /* per sequence */
    /* Records: stride bytes each, the key at key_off, big-endian when
     * swap; stride 0: elements. */
    size_t stride, key_off;
    int swap;
} compact_op;

/* Where keys are: key i's bytes at at + i * stride. */
typedef struct keys_at {
    const unsigned char *at;
    size_t stride;
    int swap;
} keys_at;

static inline keys_at record_keys(const compact_op *op)
{
    keys_at k = { (const unsigned char *)op->in + op->key_off, op->stride,
                  op->swap };
    return k;
}

/* Records at positions pos[0..k) of op's input, whole and in order, to
 * out. */
static inline void copy_records(const compact_op *op, unsigned char *out,
                                const uint64_t *pos, unsigned k)
{
    const unsigned char *in = op->in;
    for (unsigned i = 0; i < k; i++)
        memcpy(out + (size_t)i * op->stride, in + pos[i] * op->stride,
               op->stride);
}

/* One width's phases: count, and the move of compaction or of split. */
typedef void (*move_fn)(void *, unsigned, uint64_t, uint64_t,
                        const uint64_t *);
typedef struct compact_fns {
    void (*count)(void *, uint64_t, uint64_t, uint64_t *);
    move_fn compact_move, split_move;
} compact_fns;

/* CALL(f) for op's predicate's loop body f, of the width W names. */
#define BY_PRED(op, CALL)                                              \
    ((op)->fast ? CALL(W(pred_nonzero))                                \
     : (op)->pred->key_neg ? CALL(W(pred_float)) : CALL(W(pred_general)))

#define W_(name, bits) name##bits
#define W__(name, bits) W_(name, bits)

#define ELEM_T uint32_t
#define EVAL_BITS(p, x) sc_pred_eval_bits((p), (x))
#define EVAL_FLOAT(p, x) sc_pred_eval((p), (x))
#define BSWAP(x) __builtin_bswap32(x)
#define W(name) W__(name, 32)
#include "cpu/compact_impl.h"
#undef ELEM_T
#undef EVAL_BITS
#undef EVAL_FLOAT
#undef BSWAP
#undef W

#define ELEM_T uint64_t
#define EVAL_BITS(p, x) sc_pred_eval_bits64((p), (x))
#define EVAL_FLOAT(p, x) sc_pred_eval64((p), (x))
#define BSWAP(x) __builtin_bswap64(x)
#define W(name) W__(name, 64)
#include "cpu/compact_impl.h"
#undef ELEM_T
#undef EVAL_BITS
#undef EVAL_FLOAT
#undef BSWAP
#undef W

static const compact_fns *fns_of(const sc_pred *p)
{
    return sc_type_size((sc_type)p->type) == 8 ? &fns64 : &fns32;
}

/* The width's greatest word. */
static uint64_t top_of(const sc_pred *p)
{
    return sc_type_size((sc_type)p->type) == 8 ? UINT64_MAX : UINT32_MAX;
}

static int is_default_pred(const sc_pred *p)
{
    /* Any bounds that admit everything: a signed type's are shifted, so
     * their span is taken in the width. */
    uint64_t top = top_of(p);
    return !p->empty && !p->invert && ((p->hi - p->lo) & top) == top &&
           p->key_neg == 0 &&
           p->n_mask == 0 && p->n_ne == 1 && p->ne[0] == 0;
}

static int exclusive_sum(void *arg, uint64_t *res, unsigned seqs)
{
    compact_op *op = arg;
    uint64_t run = 0;
    for (unsigned i = 0; i < seqs; i++) {
        uint64_t c = res[i];
        res[i] = run;
        run += c;
    }
    /* Counting alone (no output): the total is the answer, and the move,
     * which would only write it, is skipped. */
    if (!op->out) {
        op->moved[seqs - 1] = run;
        return 1;
    }
    return 0;
}

/* Runs op's phases with move last; *moved: how many went to the output
 * (kept, or selected), which the last sequence's move knows. */
static sc_status run(sc_ctx *ctx, sc_phase_times *times, compact_op *op,
                     uint64_t n, int split, uint64_t *moved)
{
    const compact_fns *f = fns_of(op->pred);
    sc_phases ph = { n, 1, op->out != NULL, f->count, exclusive_sum,
                     split ? f->split_move : f->compact_move, op };
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
sc_status sc_cpu_compact(sc_ctx *ctx, sc_phase_times *times, const void *in,
                         uint64_t n, const sc_pred *pred, int out_kind,
                         uint64_t first_index, void *out, uint64_t *kept)
{
    return sc_cpu_compact_records(ctx, times, in, n, NULL, 0, pred, out_kind,
                                  first_index, out, kept);
}

sc_status sc_cpu_split(sc_ctx *ctx, sc_phase_times *times, const void *in,
                       uint64_t n, const sc_pred *pred, void *sel, void *rej,
                       uint64_t *selected)
{
    return sc_cpu_split_records(ctx, times, in, n, NULL, 0, pred, sel, rej,
                                selected);
}

/* A record that is its key alone, in the host's order, is an element:
 * the element loops take it. */
static void set_layout(compact_op *op, const sc_record *rec, int big_endian)
{
    if (!rec || !rec->size ||
        (rec->size == sc_type_size(rec->key_type) && !big_endian))
        return;
    op->stride = rec->size;
    op->key_off = rec->key_off;
    op->swap = big_endian != 0;
}

sc_status sc_cpu_compact_records(sc_ctx *ctx, sc_phase_times *times,
                                 const void *in, uint64_t n,
                                 const sc_record *rec, int big_endian,
                                 const sc_pred *pred, int out_kind,
                                 uint64_t first_index, void *out,
                                 uint64_t *kept)
{
    uint64_t moved[SC_MAX_SEQS];
    compact_op op = { in, pred, is_default_pred(pred), out_kind, first_index,
                      out, NULL, moved, 0, 0, 0 };
    set_layout(&op, rec, big_endian);
    return run(ctx, times, &op, n, 0, kept);
}

sc_status sc_cpu_split_records(sc_ctx *ctx, sc_phase_times *times,
                               const void *in, uint64_t n,
                               const sc_record *rec, int big_endian,
                               const sc_pred *pred, void *sel, void *rej,
                               uint64_t *selected)
{
    uint64_t moved[SC_MAX_SEQS];
    compact_op op = { in, pred, is_default_pred(pred), SC_EMIT_VALUES, 0,
                      sel, rej, moved, 0, 0, 0 };
    set_layout(&op, rec, big_endian);
    return run(ctx, times, &op, n, 1, selected);
}
