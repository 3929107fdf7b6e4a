/* fused_pass.cuh — dispatch of the select agent's fused single pass
 * (agent_select.cuh): per tile count, decoupled look-back and move while
 * the tile is on chip, the input read once.  What compaction and split run
 * by default (select_ops.cuh).
 */
#ifndef SC_FUSED_PASS_CUH
#define SC_FUSED_PASS_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "cuda_check.cuh"
#include "agent_select.cuh"
#include "launch_util.cuh"
#include "select_scratch.cuh"

namespace te {

/* The fused pass, persistent: one wave of as many blocks as fit, launched
 * cooperatively (see agent_select.cuh: all blocks resident at once), each
 * of BLOCK threads. */
template <class Op, int BLOCK, int VEC, int STAGES, int MINB, bool EARLY>
static int run_fused(const Op &op, const input &in, void *scratch,
                     uint64_t *d_total, cudaStream_t s)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    typedef fused_layout<Op, BLOCK, VEC, STAGES> L;
    uint64_t tiles = n_tiles(in, G::SIZE);
    unsigned blocks = 0;
    SCG_CHECK(persistent_grid(fused_select_kernel<Op, BLOCK, VEC, STAGES, MINB, EARLY>,
                              BLOCK, L::bytes(), tiles, &blocks));
    scratch_map m = map_scratch(scratch, tiles);
    packed_status st = { m.status, 1, 1 };
    SCG_CHECK(cudaMemsetAsync(scratch, 0, m.zero_bytes, s));
    Op op_arg = op;
    input in_arg = in;
    void *args[] = { &op_arg, &in_arg, &tiles, &st, &d_total };
    SCG_CHECK(cudaLaunchCooperativeKernel(
        (const void *)fused_select_kernel<Op, BLOCK, VEC, STAGES, MINB, EARLY>, dim3(blocks),
        dim3(BLOCK), args, L::bytes(), s));
    return 0;
}

} /* namespace te */

#endif /* SC_FUSED_PASS_CUH */
