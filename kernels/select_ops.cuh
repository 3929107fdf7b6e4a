/* select_ops.cuh — the operations of the select agent: predicates and what
 * is written (values, 32- or 64-bit indices, split's two outputs) for
 * elements of 4 or 8 bytes and records of 8 or 16 bytes tested by a 4- or
 * 8-byte key, and the variants a dispatch can run.
 *
 * Predicates come in two shapes.  Most are one range test, possibly
 * inverted (x != 0, x < v, lo <= x <= hi, ...): pred_range evaluates them
 * with no loop and stays in the kernel's parameter bank.  The rest carry
 * term lists (--ne, --mask): pred_general loops over them, which needs the
 * Op in shared memory (see agent_select.cuh, IN_SMEM).
 */
#ifndef SC_SELECT_OPS_CUH
#define SC_SELECT_OPS_CUH

#include <stdint.h>
#include "sc_kernels.h"
#include "fused_pass.cuh"
#include "three_phase.cuh"
#include "tile_config.cuh"

namespace te {

/* One circular interval: (x - lo) mod 2^w <= span (w the element's
 * bits), one subtraction and one comparison.  range_of turns a range predicate into it: an inverted
 * interval is the rest of the circle, also an interval.  The pass
 * evaluates the test twice an element (again to stage: the flags are not
 * kept), and a range test with the inversion as an xor takes five
 * instructions: the interval is measurably faster for compaction and
 * split alike (bench/RESULTS.md, "Figures behind the kernels'
 * comments"). */
template <typename T> struct pred_range_t {
    T lo, span;
    static const bool INDEXED = false;
    __device__ __forceinline__ bool operator()(T x) const
    {
        return x - lo <= span;
    }
};
typedef pred_range_t<uint32_t> pred_range;

/* FLOAT: p's elements are floats (key_neg set), read as sc_pred_eval
 * reads them; the integers' instance is the test alone.  Either width. */
template <bool FLOAT> struct pred_general_t {
    sc_pred p;
    static const bool INDEXED = true;
    __device__ __forceinline__ bool operator()(uint32_t x) const
    {
        return (FLOAT ? sc_pred_eval(&p, x) : sc_pred_eval_bits(&p, x)) != 0;
    }
    __device__ __forceinline__ bool operator()(uint64_t x) const
    {
        return (FLOAT ? sc_pred_eval64(&p, x) : sc_pred_eval_bits64(&p, x)) != 0;
    }
};
typedef pred_general_t<false> pred_general;
typedef pred_general_t<true> pred_general_float;

/* A float's predicate reads it as sc_pred_eval does, which only
 * pred_general does. */
static inline bool is_range(const sc_pred &p)
{
    return p.n_ne == 0 && p.n_mask == 0 && p.key_neg == 0;
}

/* p with a single != term folded into its interval where the two are one
 * circular interval: the term at an end of it, or the interval the whole
 * circle (x != 0, the tools' default, is 1 <= x <= max), or the term
 * outside it (then it says nothing).  The kernels then run the range
 * form, which reads no term list: measurably faster (bench/RESULTS.md,
 * "Session 25"). */
template <typename T>
static inline sc_pred fold_ne(const sc_pred &p)
{
    sc_pred q = p;
    if (q.key_neg || q.n_mask || q.empty || q.n_ne != 1)
        return q;
    const T ALL = (T)~(T)0;
    T v = (T)q.ne[0], lo = (T)q.lo, span = (T)q.hi - (T)q.lo;
    if (span == ALL) {                  /* the circle but v */
        q.lo = (T)(v + 1);
        q.hi = (T)(v - 1);
    } else if ((T)(v - lo) > span) {    /* v is outside: the term is true */
    } else if (span == 0) {             /* [v, v] but v: nothing */
        q.empty = 1;
    } else if (v == lo) {
        q.lo = (T)(lo + 1);
    } else if (v == (T)(lo + span)) {
        q.hi = (T)(lo + span - 1);
    } else {
        return q;
    }
    q.n_ne = 0;
    return q;
}

/* p (a range: is_range) as a pred_range_t in r, in T's width (p's words
 * cut to it); false when p admits nothing, which no interval says: the
 * caller then runs no kernel. */
template <typename T>
static inline bool range_of(const sc_pred &p, pred_range_t<T> &r)
{
    const T ALL = (T)~(T)0;
    bool none = p.empty != 0;
    T lo = (T)p.lo, span = (T)p.hi - (T)p.lo;
    if (p.invert) {
        if (none) {                     /* everything */
            lo = 0;
            span = ALL;
            none = false;
        } else if (span == ALL) {
            none = true;                /* the whole circle, inverted */
        } else {                        /* the rest of the circle */
            lo = lo + span + 1;
            span = (T)(ALL - 1) - span;
        }
    }
    r.lo = lo;
    r.span = span;
    return !none;
}

/* given as the kernels run it, of keys of type KEY: with(pred) for the
 * predicate's form (range, float, term list), none() where it admits
 * nothing; either's result. */
template <typename KEY, class WITH, class NONE>
static int on_pred(const sc_pred &given, const WITH &with, const NONE &none)
{
    sc_pred pred = fold_ne<KEY>(given);
    if (is_range(pred)) {
        pred_range_t<KEY> r;
        if (!range_of(pred, r))
            return none();
        return with(r);
    }
    if (pred.key_neg) {
        pred_general_float f = { pred };
        return with(f);
    }
    pred_general g = { pred };
    return with(g);
}

/* Element k of a vector's words v, of type T. */
template <typename T> __device__ __forceinline__ T elem_at(const uint32_t (&v)[4], int k);
template <> __device__ __forceinline__ uint32_t elem_at<uint32_t>(const uint32_t (&v)[4], int k)
{
    return v[k];
}
template <> __device__ __forceinline__ uint64_t elem_at<uint64_t>(const uint32_t (&v)[4], int k)
{
    return (uint64_t)v[2 * k] | (uint64_t)v[2 * k + 1] << 32;
}

/* A record of RW 32-bit words (2 or 4: 8 or 16 bytes) tested by a key of
 * KEY's width (uint32_t or uint64_t: the key's bits) at a word the op
 * holds (key_place); as an ELEM of sel_op it stands for such records. */
template <typename KEY, int RW> struct rec_t {};

/* An ELEM's words and its key's type: an element is its own key. */
template <typename ELEM> struct elem_traits {
    typedef ELEM key_t;
    static const int W = (int)(sizeof(ELEM) / 4);
};
template <typename KEY, int RW> struct elem_traits<rec_t<KEY, RW> > {
    typedef KEY key_t;
    static const int W = RW;
    static_assert(RW == 2 || RW == 4, "records of 8 or 16 bytes, 1 or 2 a vector");
};

/* Where an element's key is, as a base of sel_op: an element is its key,
 * which takes no field (the element ops' parameters stay as they are); a
 * record's key starts at word key_word of it, a run-time field: records
 * of every layout share one kernel, the word picked by selects (an array
 * indexed at run time would go to local memory). */
template <typename ELEM> struct key_place {
    __device__ __forceinline__ ELEM key(const uint32_t (&v)[4], int k) const
    {
        return elem_at<ELEM>(v, k);
    }
};
template <typename KEY, int RW> struct key_place<rec_t<KEY, RW> > {
    uint32_t key_word;
    __device__ __forceinline__ uint32_t word(const uint32_t (&v)[4], int k, uint32_t w) const
    {
        uint32_t x = v[k * RW];
#pragma unroll
        for (int i = 1; i < RW; i++)
            x = w == (uint32_t)i ? v[k * RW + i] : x;
        return x;
    }
    __device__ __forceinline__ KEY key(const uint32_t (&v)[4], int k) const
    {
        if (sizeof(KEY) == 4)
            return (KEY)word(v, k, key_word);
        return (KEY)((uint64_t)word(v, k, key_word) |
                     (uint64_t)word(v, k, key_word + 1) << 32);
    }
};

/* Elements of type ELEM (uint32_t or uint64_t), or records (rec_t), the
 * predicate testing their key.  INDEX: stage the element's index in its
 * tile, write first_index + its global index; else stage and write the
 * value, word by word (OUT then uint32_t: an element or record of W words
 * is W words of the output). */
template <class PRED, typename OUT, bool INDEX, bool SPLIT, typename ELEM = uint32_t>
struct sel_op : key_place<ELEM> {
    typedef OUT out_t;
    static const bool MOVE_REJECTS = SPLIT;
    static const bool IN_SMEM = PRED::INDEXED;
    static const int W = elem_traits<ELEM>::W;
    static const int EPV = 4 / W;
    static const int SW = INDEX ? 1 : W;
    static_assert(INDEX || sizeof(OUT) == 4, "values move as 32-bit words");
    PRED pred;
    OUT *sel, *rej;
    uint64_t first_index;
    __device__ __forceinline__ bool select(const uint32_t (&v)[4], int k) const
    {
        return pred(this->key(v, k));
    }
    __device__ __forceinline__ void stage(uint32_t *dst, const uint32_t (&v)[4], int k,
                                          uint32_t local) const
    {
#pragma unroll
        for (int w = 0; w < SW; w++)
            dst[w] = INDEX ? local : v[k * W + w];
    }
    __device__ __forceinline__ OUT value(uint32_t s, uint64_t first) const
    {
        return INDEX ? (OUT)(first_index + first + s) : (OUT)s;
    }
};

/* pick<C, A, B>::type: A if C, else B. */
template <bool C, class A, class B> struct pick { typedef A type; };
template <class A, class B> struct pick<false, A, B> { typedef B type; };

/* The variants, by number: 0 is what libsc calls (the fastest measured),
 * 1 the plain three phases (the paper's algorithm, and the reference the
 * fused pass is tested against). */
enum { V_DEFAULT = 0, V_THREE_PHASE = 1 };

static inline const char *variant_name(int v)
{
    static const char *const names[] = {
        "fused persistent cooperative, 2 tiles in flight, each flushed a tile later, "
        "warp 0 looking back: compaction 384 threads x 4 uint4, 3 blocks an SM; "
        "split 512 x 4, 2 blocks an SM, the look-back's first round read early",
        "three phases (count, prefix, move), 256 threads x 4 uint4 tiles",
    };
    return v >= 0 && v < 2 ? names[v] : 0;
}

/* V_DEFAULT runs the fused pass on tile_config.cuh's shapes, which says
 * why them.  Tiles go to blocks in a fixed order (block b takes b, b + G,
 * ...), not from a counter: a tile queued in one block's ring would stall
 * every later tile.  The variants measured against it and lost (a
 * look-back warp beside the block, more tiles polled a round, the block
 * waiting for the look-back of the tile it has just ranked, one tile per
 * block) are in bench/RESULTS.md, "Figures behind the kernels'
 * comments". */
template <class Op>
static int run_variant(int v, const Op &op, const input &in, void *scr,
                       uint64_t *d_total, cudaStream_t s)
{
    typedef typename pick<Op::MOVE_REJECTS, cfg::split, cfg::compact>::type S;
    typedef cfg::three_phase T;
    if (v == V_THREE_PHASE)
        return run_three_phase<Op, T::BLOCK, T::VEC, T::MINB>(op, in, scr, d_total, s);
    return run_fused<Op, S::BLOCK, S::VEC, S::STAGES, S::MINB, S::EARLY != 0>(op, in, scr,
                                                                              d_total, s);
}

/* The smallest tile of any variant sizes the scratch. */
static const uint64_t SEL_MIN_TILE = 256 * 4 * 4;
static_assert(cfg::compact::BLOCK * cfg::compact::VEC * 4 >= SEL_MIN_TILE &&
                  cfg::split::BLOCK * cfg::split::VEC * 4 >= SEL_MIN_TILE &&
                  cfg::three_phase::BLOCK * cfg::three_phase::VEC * 4 >= SEL_MIN_TILE,
              "SEL_MIN_TILE is at most every variant's tile");

} /* namespace te */

#endif /* SC_SELECT_OPS_CUH */
