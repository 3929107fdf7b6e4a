/* select_ops.cuh — the operations of the select agent: predicates and what
 * is written (values, 32- or 64-bit indices, split's two outputs), and the
 * variants a dispatch can run.
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

/* One circular interval: (x - lo) mod 2^32 <= span, one subtraction and
 * one comparison.  range_of turns a range predicate into it: an inverted
 * interval is the rest of the circle, also an interval.  With the
 * inversion an xor in the kernel the test took five instructions, and the
 * pass evaluated it twice (again to stage, the flags not kept): on an
 * H200 (2026-11-24, 2^28, ms at 10 / 50 / 90 % kept) compaction 0.389-0.396
 * / 0.463-0.465 / 0.566-0.575 against 0.366-0.374 / 0.446-0.451 /
 * 0.563-0.565 now, split 0.619-0.630 / 0.624-0.633 / 0.618-0.627 against
 * 0.607-0.608 / 0.604-0.613 / 0.605-0.612. */
struct pred_range {
    uint32_t lo, span;
    static const bool INDEXED = false;
    __device__ __forceinline__ bool operator()(uint32_t x) const
    {
        return x - lo <= span;
    }
};

struct pred_general {
    sc_pred p;
    static const bool INDEXED = true;
    __device__ __forceinline__ bool operator()(uint32_t x) const
    {
        return sc_pred_eval(&p, x) != 0;
    }
};

static inline bool is_range(const sc_pred &p) { return p.n_ne == 0 && p.n_mask == 0; }

/* p (a range: is_range) as a pred_range in r; false when p admits
 * nothing, which no interval says: the caller then runs no kernel. */
static inline bool range_of(const sc_pred &p, pred_range &r)
{
    bool none = p.empty != 0;
    uint32_t lo = p.lo, span = p.hi - p.lo;
    if (p.invert) {
        if (none) {                     /* everything */
            lo = 0;
            span = 0xffffffffu;
            none = false;
        } else if (span == 0xffffffffu) {
            none = true;                /* the whole circle, inverted */
        } else {                        /* the rest of the circle */
            lo = lo + span + 1;
            span = 0xfffffffeu - span;
        }
    }
    r.lo = lo;
    r.span = span;
    return !none;
}

/* INDEX: stage the element's index in its tile, write first_index + its
 * global index; else stage and write the value. */
template <class PRED, typename OUT, bool INDEX, bool SPLIT>
struct sel_op {
    typedef OUT out_t;
    static const bool MOVE_REJECTS = SPLIT;
    static const bool IN_SMEM = PRED::INDEXED;
    PRED pred;
    OUT *sel, *rej;
    uint64_t first_index;
    __device__ __forceinline__ bool select(uint32_t x) const { return pred(x); }
    __device__ __forceinline__ uint32_t stage(uint32_t x, uint32_t local) const
    {
        return INDEX ? local : x;
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

/* tile_config.cuh has the shapes' measurements (2026-11-24).  Before, on
 * the ranks by ballots and the partial tile called (not inlined): on an
 * H200 (2026-11-24, 2^28 uint32, x CUB, two rounds by turns): compaction with warp 0 looking back one tile late while the
 * block waits (cfg::compact) 0.98 / 1.07 / 1.18-1.19, against 0.93-0.94 /
 * 1.00 / 1.10-1.11 with the look-back warp beside it; split the other way
 * round, 1.05 / 1.02 / 1.00-1.01 inline against 1.07 / 1.04-1.07 / 1.04-
 * 1.05.  In bench/ablate_select.cu's inline pass, lost: warp 0 looking
 * back at the start of the step, beside the ranking (1-8 % slower than
 * after it); 4 tiles a lane polled at once, bounded by the block's own
 * last prefix, 12 % slower (8 or 9 a lane, with spills: 70 %).
 * Earlier, on an H100 (2026-11-23, 2^28 uint32, x CUB select at 10 / 50 /
 * 90 % kept; split x CUB partition at the same): the default 0.98 / 1.05
 * / 1.15, split 1.11 / 1.10 / 1.08; the three phases 0.66 / 0.74 / 0.81,
 * split 0.85.  Lost in the same run: the pass before, whose whole block
 * waited for warp 0's look-back, 0.81 / 0.84 / 0.91 (split 0.88-0.91);
 * the same look-back warp with 992 x 4 tiles 0.93 / 1.02 / 1.13, 256 x 4
 * 0.87 / 0.95 / 1.04, 992 x 2 0.77 / 0.86 / 0.99; a look-back polling 128
 * tiles a round instead of 32, 0.95 / 1.03 / 1.13.  Earlier (the pass that
 * waited for warp 0): staging at the output's shift after the look-back
 * 0.78 / 0.82 / 0.87; on 1024 x 4 tiles 0.77 / 0.80 / 0.85, 384 x 4 0.69 /
 * 0.73 / 0.79, 256 x 4 0.67 / 0.71 / 0.78, 3 tiles in flight 0.63 / 0.70 /
 * 0.73; tiles taken from a counter ahead of use 0.10-0.16 (a tile queued in
 * one block's ring stalls every later tile); one tile per block 0.51-0.68. */
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
