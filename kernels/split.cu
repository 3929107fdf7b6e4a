/* split.cu — stable split: the select agent with MOVE_REJECTS.  Matches go
 * forward from the tile's exclusive prefix in d_sel; rejects from (the
 * tile's first element's index - matches before the tile) in d_rej.  Both
 * are staged in the same tile buffer, so both leave the SM as 16-byte
 * vectors. */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"

/* A predicate with term lists, of integers or of floats (GENERAL). */
template <class GENERAL>
static int split_general(const sc_pred &p, const te::input &in, uint32_t *d_sel,
                         uint32_t *d_rej, uint64_t *d_selected, void *d_scratch,
                         int algo, cudaStream_t s)
{
    te::sel_op<GENERAL, uint32_t, false, true> op;
    op.pred.p = p;
    op.sel = d_sel;
    op.rej = d_rej;
    op.first_index = 0;
    return te::run_variant(algo, op, in, d_scratch, d_selected, s);
}

extern "C" size_t scg_split_scratch(uint64_t n)
{
    return te::scratch_bytes(n, te::SEL_MIN_TILE);
}

extern "C" int scg_split_algo(const uint32_t *d_in, uint64_t n, const sc_pred *pred,
                              uint32_t *d_sel, uint32_t *d_rej, uint64_t *d_selected,
                              void *d_scratch, int algo, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_selected || (n && (!d_in || !d_sel || !d_rej || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (!te::variant_name(algo))
        return (int)cudaErrorInvalidValue;
    if (n == 0) {
        SCG_CHECK(cudaMemsetAsync(d_selected, 0, sizeof(uint64_t), s));
        return 0;
    }
    te::input in = te::make_input(d_in, n);
    te::pred_range r;
    if (te::is_range(*pred)) {
        if (!te::range_of(*pred, r)) {  /* every element rejected, in order */
            SCG_CHECK(cudaMemsetAsync(d_selected, 0, sizeof(uint64_t), s));
            SCG_CHECK(cudaMemcpyAsync(d_rej, d_in, n * sizeof(uint32_t),
                                      cudaMemcpyDeviceToDevice, s));
            return 0;
        }
        te::sel_op<te::pred_range, uint32_t, false, true> op = { r, d_sel, d_rej, 0 };
        return te::run_variant(algo, op, in, d_scratch, d_selected, s);
    }
    return pred->key_neg
        ? split_general<te::pred_general_float>(*pred, in, d_sel, d_rej, d_selected,
                                                d_scratch, algo, s)
        : split_general<te::pred_general>(*pred, in, d_sel, d_rej, d_selected,
                                          d_scratch, algo, s);
}

extern "C" int scg_split(const uint32_t *d_in, uint64_t n, const sc_pred *pred,
                         uint32_t *d_sel, uint32_t *d_rej, uint64_t *d_selected,
                         void *d_scratch, scg_stream stream)
{
    return scg_split_algo(d_in, n, pred, d_sel, d_rej, d_selected, d_scratch,
                          SCG_ALGO_FUSED, stream);
}
