/* compact.cu — stream compaction: the select agent with values or indices
 * as output (select_ops.cuh), dispatched on the predicate's shape. */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"

namespace {

using namespace te;

template <class PRED>
int compact_with(const PRED &pred, const input &in, int out_kind,
                 uint64_t first_index, void *d_out, uint64_t *d_count,
                 void *scr, int algo, cudaStream_t s)
{
    switch (out_kind) {
    case SC_EMIT_VALUES: {
        sel_op<PRED, uint32_t, false, false> op = { pred, (uint32_t *)d_out, 0, 0 };
        return run_variant(algo, op, in, scr, d_count, s);
    }
    case SC_EMIT_IDX32: {
        sel_op<PRED, uint32_t, true, false> op = { pred, (uint32_t *)d_out, 0, first_index };
        return run_variant(algo, op, in, scr, d_count, s);
    }
    case SC_EMIT_IDX64: {
        sel_op<PRED, uint64_t, true, false> op = { pred, (uint64_t *)d_out, 0, first_index };
        return run_variant(algo, op, in, scr, d_count, s);
    }
    }
    return (int)cudaErrorInvalidValue;
}

} /* namespace */

extern "C" const char *scg_select_variant(int algo)
{
    return te::variant_name(algo);
}

extern "C" size_t scg_compact_scratch(uint64_t n)
{
    return te::scratch_bytes(n, te::SEL_MIN_TILE);
}

extern "C" int scg_compact(const uint32_t *d_in, uint64_t n, const sc_pred *pred,
                           int out_kind, uint64_t first_index, void *d_out,
                           uint64_t *d_count, void *d_scratch, int algo,
                           scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_count || (n && (!d_in || !d_out || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (!te::variant_name(algo) || out_kind < SC_EMIT_VALUES || out_kind > SC_EMIT_IDX64)
        return (int)cudaErrorInvalidValue;
    if (n == 0) {
        SCG_CHECK(cudaMemsetAsync(d_count, 0, sizeof(uint64_t), s));
        return 0;
    }
    te::input in = te::make_input(d_in, n);
    te::pred_range r;
    if (te::is_range(*pred)) {
        if (!te::range_of(*pred, r)) {  /* nothing kept */
            SCG_CHECK(cudaMemsetAsync(d_count, 0, sizeof(uint64_t), s));
            return 0;
        }
        return compact_with(r, in, out_kind, first_index, d_out, d_count, d_scratch,
                            algo, s);
    }
    if (pred->key_neg) {
        te::pred_general_float f = { *pred };
        return compact_with(f, in, out_kind, first_index, d_out, d_count, d_scratch,
                            algo, s);
    }
    te::pred_general g = { *pred };
    return compact_with(g, in, out_kind, first_index, d_out, d_count, d_scratch,
                        algo, s);
}
