/* compact.cu — stream compaction as instances of three_phase.cuh.
 *
 * Three Ops differ only in what is staged and how it is written: values,
 * or indices narrowed to 32 bits or kept at 64.  Indices are staged as the
 * element's position inside its tile (32 bits) and widened only at the
 * final store, so all three share the same 4-byte-per-element stage.
 */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "three_phase.cuh"

/* 256 threads x 4 uint4: 4096 elements (16 KiB) per tile.  Large enough
 * to keep look-back and per-tile overheads small, small enough that the
 * 16 KiB stage allows several blocks per SM for latency hiding. */
#define COMPACT_BLOCK 256
#define COMPACT_VEC 4
#define COMPACT_TILE (COMPACT_BLOCK * COMPACT_VEC * 4)

namespace {

struct compact_values_op {
    sc_pred pred;
    uint32_t *out;
    static const bool MOVE_REJECTS = false;
    __device__ bool select(uint32_t x) const { return sc_pred_eval(&pred, x); }
    __device__ uint32_t stage(uint32_t x, uint32_t) const { return x; }
    __device__ void put_sel(uint64_t pos, uint32_t s, uint64_t) const { out[pos] = s; }
    __device__ void put_rej(uint64_t, uint32_t, uint64_t) const {}
};

struct compact_idx32_op {
    sc_pred pred;
    uint32_t *out;
    uint64_t first_index;
    static const bool MOVE_REJECTS = false;
    __device__ bool select(uint32_t x) const { return sc_pred_eval(&pred, x); }
    __device__ uint32_t stage(uint32_t, uint32_t local) const { return local; }
    __device__ void put_sel(uint64_t pos, uint32_t s, uint64_t first) const
    {
        out[pos] = (uint32_t)(first_index + first + s);
    }
    __device__ void put_rej(uint64_t, uint32_t, uint64_t) const {}
};

struct compact_idx64_op {
    sc_pred pred;
    uint64_t *out;
    uint64_t first_index;
    static const bool MOVE_REJECTS = false;
    __device__ bool select(uint32_t x) const { return sc_pred_eval(&pred, x); }
    __device__ uint32_t stage(uint32_t, uint32_t local) const { return local; }
    __device__ void put_sel(uint64_t pos, uint32_t s, uint64_t first) const
    {
        out[pos] = first_index + first + s;
    }
    __device__ void put_rej(uint64_t, uint32_t, uint64_t) const {}
};

template <class Op>
int run(const Op &op, const tp::input &in, void *scratch, uint64_t *d_count,
        int algo, cudaStream_t s)
{
    if (algo == SCG_ALGO_THREE_PHASE)
        return tp::run_three_phase<Op, COMPACT_BLOCK, COMPACT_VEC>(op, in, scratch,
                                                                d_count, s);
    return tp::run_fused<Op, COMPACT_BLOCK, COMPACT_VEC>(op, in, scratch, d_count, s);
}

} /* namespace */

extern "C" size_t scg_compact_scratch(uint64_t n)
{
    return tp::scratch_bytes(n, COMPACT_TILE);
}

extern "C" int scg_compact(const uint32_t *d_in, uint64_t n, const sc_pred *pred,
                           int out_kind, uint64_t first_index, void *d_out,
                           uint64_t *d_count, void *d_scratch, int algo,
                           scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_count || (n && (!d_in || !d_out || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (algo != SCG_ALGO_FUSED && algo != SCG_ALGO_THREE_PHASE)
        return (int)cudaErrorInvalidValue;
    if (n == 0) {
        SCG_CHECK(cudaMemsetAsync(d_count, 0, sizeof(uint64_t), s));
        return 0;
    }
    tp::input in = tp::make_input(d_in, n);
    switch (out_kind) {
    case SCG_OUT_VALUES: {
        compact_values_op op;
        op.pred = *pred;
        op.out = (uint32_t *)d_out;
        return run(op, in, d_scratch, d_count, algo, s);
    }
    case SCG_OUT_IDX32: {
        compact_idx32_op op;
        op.pred = *pred;
        op.out = (uint32_t *)d_out;
        op.first_index = first_index;
        return run(op, in, d_scratch, d_count, algo, s);
    }
    case SCG_OUT_IDX64: {
        compact_idx64_op op;
        op.pred = *pred;
        op.out = (uint64_t *)d_out;
        op.first_index = first_index;
        return run(op, in, d_scratch, d_count, algo, s);
    }
    default:
        return (int)cudaErrorInvalidValue;
    }
}
