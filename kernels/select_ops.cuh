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
#define SEL_TUNED_VARIANTS 7
#else
#define SEL_TUNED_VARIANTS 2
#endif

static inline const char *variant_name(int v)
{
    static const char *const names[] = {
        "fused persistent 256 thr x 4 uint4, 3 tiles in flight",
        "three phases (count, prefix, move) 256 x 4 uint4",
        "fused persistent 256 x 2, 4 in flight",
        "fused persistent 512 x 4, 2 in flight",
        "fused persistent 256 x 4, 4 in flight",
        "fused one tile per block 256 x 4",
        "fused one tile per block 384 x 4",
    };
    return v >= 0 && v < SEL_TUNED_VARIANTS ? names[v] : 0;
}

template <class Op>
static int run_variant(int v, const Op &op, const input &in, void *scr,
                       uint64_t *d_total, cudaStream_t s)
{
    typedef cfg::select S;
    typedef cfg::three_phase T;
    if (v == V_THREE_PHASE)
        return run_three_phase<Op, T::BLOCK, T::VEC, T::MINB>(op, in, scr, d_total, s);
#ifdef SCG_TUNE
    if constexpr (!Op::IN_SMEM) {
        switch (v) {
        case 2: return run_fused<Op, 256, 2, 4, 4>(op, in, scr, d_total, s);
        case 3: return run_fused<Op, 512, 4, 2, 2>(op, in, scr, d_total, s);
        case 4: return run_fused<Op, 256, 4, 4, 2>(op, in, scr, d_total, s);
        case 5: return run_single<Op, 256, 4, 4>(op, in, scr, d_total, s);
        case 6: return run_single<Op, 384, 4, 2>(op, in, scr, d_total, s);
        }
    }
#endif
    return run_fused<Op, S::BLOCK, S::VEC, S::STAGES, S::MINB>(op, in, scr, d_total, s);
}

/* The smallest tile of any variant sizes the scratch. */
static const uint64_t SEL_MIN_TILE = 256 * 2 * 4;

} /* namespace te */

#endif /* SC_SELECT_OPS_CUH */
