/* split.cu — stable split as an instance of three_phase.cuh (fused pass).
 *
 * The count is the number of matches, as for compaction; the move writes
 * matches forward from the tile's exclusive prefix in d_sel and rejects
 * from (index of the tile's first element - matches before the tile) in
 * d_rej.  Both are staged in the same tile buffer, so both leave the SM as
 * coalesced runs.
 */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "three_phase.cuh"

#define SPLIT_BLOCK 256
#define SPLIT_VEC 4
#define SPLIT_TILE (SPLIT_BLOCK * SPLIT_VEC * 4)

namespace {

struct split_op {
    sc_pred pred;
    uint32_t *sel, *rej;
    static const bool MOVE_REJECTS = true;
    __device__ bool select(uint32_t x) const { return sc_pred_eval(&pred, x); }
    __device__ uint32_t stage(uint32_t x, uint32_t) const { return x; }
    __device__ void put_sel(uint64_t pos, uint32_t s, uint64_t) const { sel[pos] = s; }
    __device__ void put_rej(uint64_t pos, uint32_t s, uint64_t) const { rej[pos] = s; }
};

} /* namespace */

extern "C" size_t scg_split_scratch(uint64_t n)
{
    return tp::scratch_bytes(n, SPLIT_TILE);
}

extern "C" int scg_split(const uint32_t *d_in, uint64_t n, const sc_pred *pred,
                         uint32_t *d_sel, uint32_t *d_rej, uint64_t *d_selected,
                         void *d_scratch, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_selected || (n && (!d_in || !d_sel || !d_rej || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (n == 0) {
        SCG_CHECK(cudaMemsetAsync(d_selected, 0, sizeof(uint64_t), s));
        return 0;
    }
    split_op op;
    op.pred = *pred;
    op.sel = d_sel;
    op.rej = d_rej;
    return tp::run_fused<split_op, SPLIT_BLOCK, SPLIT_VEC>(
        op, tp::make_input(d_in, n), d_scratch, d_selected, s);
}
