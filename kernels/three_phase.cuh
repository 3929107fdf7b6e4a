/* three_phase.cuh — the plain three phases of Billeter, Olsson and
 * Assarsson (count, prefix, move) over the select agent (agent_select.cuh):
 * the paper's algorithm, and the reference the fused pass (fused_pass.cuh)
 * is tested against.
 *
 * S sequences of whole tiles, S at most one resident wave (so no SM idles
 * while a second wave runs a few long sequences) and at most MAX_SEQ.
 * count: each block counts its sequence; prefix: one block scans the S
 * counts; move: each block walks its sequence again from its offset.  The
 * input is read twice.
 */
#ifndef SC_THREE_PHASE_CUH
#define SC_THREE_PHASE_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "cuda_check.cuh"
#include "agent_select.cuh"
#include "launch_util.cuh"
#include "select_scratch.cuh"

namespace te {

static const int PREFIX_THREADS = 1024;

/* Phase 1: the number selected in each sequence. */
template <class Op, int BLOCK, int VEC>
__global__ void __launch_bounds__(BLOCK)
count_kernel(Op op_param, input in, uint64_t n_tiles, uint64_t tiles_per_seq,
             uint64_t *seq_count)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    __shared__ Op sop;
    const Op &op = op_in_smem(op_param, &sop);
    __syncthreads();
    uint64_t t0 = blockIdx.x * tiles_per_seq;
    uint64_t t1 = t0 + tiles_per_seq < n_tiles ? t0 + tiles_per_seq : n_tiles;
    uint64_t c = 0;
    for (uint64_t t = t0; t < t1; t++) {
        uint32_t x[VEC][4], ok[VEC], tc = 0;
        uint64_t vt = t * (uint64_t)G::SIZE;
        if (tile_full(in, vt, G::SIZE))
            load_tile<BLOCK, VEC, true, Op::EPV>(in, vt, x, ok);
        else
            load_tile<BLOCK, VEC, false, Op::EPV>(in, vt, x, ok);
#pragma unroll
        for (int j = 0; j < VEC; j++)
#pragma unroll
            for (int k = 0; k < Op::EPV; k++)
                tc += (uint32_t)op.select(x[j], k) & (ok[j] >> k);
        c += tc;
    }
    /* a sequence may exceed 2^32 elements: sum 64-bit across the block */
    uint64_t w = warp_reduce<plus<uint64_t>, uint64_t>(c);
    __shared__ uint64_t wt[G::WARPS];
    if (lane_id() == 0)
        wt[warp_id()] = w;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint64_t s = 0;
        for (int i = 0; i < G::WARPS; i++)
            s += wt[i];
        seq_count[blockIdx.x] = s;
    }
}

/* Phase 2: exclusive scan of at most MAX_SEQ counts in one block; the grand
 * total goes to *d_total. */
static __global__ void __launch_bounds__(PREFIX_THREADS)
prefix_kernel(const uint64_t *seq_count, uint32_t n_seq, uint64_t *seq_off,
              uint64_t *d_total)
{
    typedef plus<uint64_t> P;
    const int IPT = MAX_SEQ / PREFIX_THREADS;
    __shared__ uint64_t warp_total[PREFIX_THREADS / 32];
    uint64_t v[IPT], sum = 0;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        uint32_t k = threadIdx.x * IPT + i;
        v[i] = k < n_seq ? seq_count[k] : 0;
        sum += v[i];
    }
    uint64_t incl = warp_inclusive<P, uint64_t>(sum);
    unsigned warp = warp_id();
    if (lane_id() == 31)
        warp_total[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        uint64_t w = warp_total[lane_id()];
        uint64_t wi = warp_inclusive<P, uint64_t>(w);
        warp_total[lane_id()] = wi - w;
        if (lane_id() == 31)
            *d_total = wi;
    }
    __syncthreads();
    uint64_t run = warp_total[warp] + incl - sum;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        uint32_t k = threadIdx.x * IPT + i;
        if (k < n_seq)
            seq_off[k] = run;
        run += v[i];
    }
}

/* Phase 3: walk the sequence again, moving each tile at the known offset. */
template <class Op, int BLOCK, int VEC, int MINB>
__global__ void __launch_bounds__(BLOCK, MINB)
move_kernel(Op op_param, input in, uint64_t n_tiles, uint64_t tiles_per_seq,
            const uint64_t *seq_off)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    __shared__ select_smem<Op, BLOCK, VEC> sm;
    const Op &op = op_in_smem(op_param, &sm.op);
    __syncthreads();
    uint64_t t0 = blockIdx.x * tiles_per_seq;
    uint64_t t1 = t0 + tiles_per_seq < n_tiles ? t0 + tiles_per_seq : n_tiles;
    uint64_t off = seq_off[blockIdx.x];
    for (uint64_t t = t0; t < t1; t++) {
        uint64_t vt = t * (uint64_t)G::SIZE;
        if (tile_full(in, vt, G::SIZE)) {
            tile_regs<VEC> r;
            load_tile<BLOCK, VEC, true, Op::EPV>(in, vt, r.x, r.ok);
            off += move_tile<Op, BLOCK, VEC>(op, in, r, t, off, sm);
        } else {
            off += move_partial_tile<Op, BLOCK, VEC>(op, in, t, off, sm);
        }
    }
}

/* ------------------------------------------------------------------ */
/* Host side.                                                            */

template <class Op, int BLOCK, int VEC, int MINB>
static int run_three_phase(const Op &op, const input &in, void *scratch,
                           uint64_t *d_total, cudaStream_t s)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    uint64_t tiles = n_tiles(in, G::SIZE);
    int sms = 0, per_sm = 0;
    SCG_CHECK(sm_count(&sms));
    SCG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, move_kernel<Op, BLOCK, VEC, MINB>, BLOCK, 0));
    uint64_t want = (uint64_t)sms * (uint64_t)(per_sm > 0 ? per_sm : 1);
    if (want > (uint64_t)MAX_SEQ)
        want = MAX_SEQ;
    if (want > tiles)
        want = tiles;
    uint64_t tps = (tiles + want - 1) / want;
    uint32_t n_seq = (uint32_t)((tiles + tps - 1) / tps);
    scratch_map m = map_scratch(scratch, tiles);
    count_kernel<Op, BLOCK, VEC><<<n_seq, BLOCK, 0, s>>>(op, in, tiles, tps,
                                                         m.seq_count);
    SCG_CHECK_LAUNCH();
    prefix_kernel<<<1, PREFIX_THREADS, 0, s>>>(m.seq_count, n_seq, m.seq_off,
                                                d_total);
    SCG_CHECK_LAUNCH();
    move_kernel<Op, BLOCK, VEC, MINB><<<n_seq, BLOCK, 0, s>>>(op, in, tiles, tps,
                                                              m.seq_off);
    SCG_CHECK_LAUNCH();
    return 0;
}

} /* namespace te */

#endif /* SC_THREE_PHASE_CUH */
