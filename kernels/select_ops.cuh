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
#include "three_phase.cuh"
#include "tile_config.cuh"

namespace te {

struct pred_range {
    uint32_t lo, span, live, invert;
    static const bool INDEXED = false;
    __device__ __forceinline__ bool operator()(uint32_t x) const
    {
        return (((uint32_t)(x - lo <= span)) & live) ^ invert;
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

static inline pred_range make_range(const sc_pred &p)
{
    pred_range r;
    r.lo = p.lo;
    r.span = p.hi - p.lo;
    r.live = p.empty ? 0u : 1u;
    r.invert = p.invert ? 1u : 0u;
    return r;
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

/* The variants, by number: 0 is what libsc calls (the fastest measured),
 * 1 the plain three phases; with SCG_TUNE (bench and tests) the others,
 * for range predicates, for measurement. */
enum { V_DEFAULT = 0, V_THREE_PHASE = 1 };

#ifdef SCG_TUNE
#define SEL_TUNED_VARIANTS 6
#else
#define SEL_TUNED_VARIANTS 2
#endif

static inline const char *variant_name(int v)
{
    static const char *const names[] = {
        "three phases (count, prefix, move), 256 threads x 4 uint4 tiles",
        "three phases (count, prefix, move), 256 threads x 4 uint4 tiles",
        "fused persistent cooperative 256 x 4 uint4, 3 tiles in flight",
        "fused persistent cooperative 256 x 4 uint4, 2 tiles in flight",
        "fused persistent cooperative 512 x 4 uint4, 2 tiles in flight",
        "fused persistent cooperative 128 x 4 uint4, 4 tiles in flight",
    };
    return v >= 0 && v < SEL_TUNED_VARIANTS ? names[v] : 0;
}

/* The default (0) is the plain three phases: on an H100 (2026-11-23) they
 * measured 0.67 / 0.74 / 0.81x CUB select at 10 / 50 / 90 % kept and 0.85x
 * CUB partition for split, against 0.10-0.16x for a persistent fused pass
 * with tiles from a counter and 0.51-0.68x for one tile per block. */
template <class Op>
static int run_variant(int v, const Op &op, const input &in, void *scr,
                       uint64_t *d_total, cudaStream_t s)
{
    typedef cfg::select S;
    typedef cfg::three_phase T;
#ifdef SCG_TUNE
    if constexpr (!Op::IN_SMEM) {
        switch (v) {
        case 2: return run_fused<Op, 256, 4, 3, 3>(op, in, scr, d_total, s);
        case 3: return run_fused<Op, 256, 4, 2, 3>(op, in, scr, d_total, s);
        case 4: return run_fused<Op, 512, 4, 2, 2>(op, in, scr, d_total, s);
        case 5: return run_fused<Op, 128, 4, 4, 5>(op, in, scr, d_total, s);
        }
    }
#endif
    if constexpr (S::THREE_PHASE)
        return run_three_phase<Op, T::BLOCK, T::VEC, T::MINB>(op, in, scr, d_total, s);
    else if (v == V_THREE_PHASE)
        return run_three_phase<Op, T::BLOCK, T::VEC, T::MINB>(op, in, scr, d_total, s);
    else
        return run_fused<Op, S::BLOCK, S::VEC, S::STAGES, S::MINB>(op, in, scr, d_total, s);
}

/* The smallest tile of any variant sizes the scratch. */
static const uint64_t SEL_MIN_TILE = 128 * 4 * 4;

} /* namespace te */

#endif /* SC_SELECT_OPS_CUH */
