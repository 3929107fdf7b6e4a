/* split.cu — stable split: the select agent with MOVE_REJECTS.  Matches go
 * forward from the tile's exclusive prefix in d_sel; rejects from (the
 * tile's first element's index - matches before the tile) in d_rej.  Both
 * are staged in the same tile buffer, so both leave the SM as 16-byte
 * vectors.  Elements of 4 or 8 bytes (the predicate's type); values move
 * as 32-bit words. */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"

namespace {

using namespace te;

template <typename ELEM, class PRED>
int split_with(const PRED &pred, const input &in, void *d_sel, void *d_rej,
               uint64_t *d_selected, void *d_scratch, int algo, cudaStream_t s)
{
    sel_op<PRED, uint32_t, false, true, ELEM> op = { pred, (uint32_t *)d_sel,
                                                     (uint32_t *)d_rej, 0 };
    return run_variant(algo, op, in, d_scratch, d_selected, s);
}

template <typename ELEM>
int split_typed(const ELEM *d_in, uint64_t n, const sc_pred &given, void *d_sel,
                void *d_rej, uint64_t *d_selected, void *d_scratch, int algo,
                cudaStream_t s)
{
    input in = make_input(d_in, n);
    sc_pred folded = fold_ne<ELEM>(given);
    const sc_pred &pred = folded;
    if (is_range(pred)) {
        pred_range_t<ELEM> r;
        if (!range_of(pred, r)) {       /* every element rejected, in order */
            SCG_CHECK(cudaMemsetAsync(d_selected, 0, sizeof(uint64_t), s));
            SCG_CHECK(cudaMemcpyAsync(d_rej, d_in, n * sizeof(ELEM),
                                      cudaMemcpyDeviceToDevice, s));
            return 0;
        }
        return split_with<ELEM>(r, in, d_sel, d_rej, d_selected, d_scratch, algo, s);
    }
    if (pred.key_neg) {
        pred_general_float f = { pred };
        return split_with<ELEM>(f, in, d_sel, d_rej, d_selected, d_scratch, algo, s);
    }
    pred_general g = { pred };
    return split_with<ELEM>(g, in, d_sel, d_rej, d_selected, d_scratch, algo, s);
}

} /* namespace */

extern "C" size_t scg_split_scratch(uint64_t n)
{
    return te::scratch_bytes(n, te::SEL_MIN_TILE);
}

extern "C" int scg_split_algo(const void *d_in, uint64_t n, const sc_pred *pred,
                              void *d_sel, void *d_rej, uint64_t *d_selected,
                              void *d_scratch, int algo, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_selected || (n && (!d_in || !d_sel || !d_rej || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (!te::variant_name(algo))
        return (int)cudaErrorInvalidValue;
    bool wide = sc_type_is_64bit(pred->type) != 0;
    if ((uintptr_t)d_in % (wide ? 8 : 4))
        return (int)cudaErrorMisalignedAddress;
    if (n == 0) {
        SCG_CHECK(cudaMemsetAsync(d_selected, 0, sizeof(uint64_t), s));
        return 0;
    }
    return wide ? split_typed((const uint64_t *)d_in, n, *pred, d_sel, d_rej, d_selected,
                              d_scratch, algo, s)
                : split_typed((const uint32_t *)d_in, n, *pred, d_sel, d_rej, d_selected,
                              d_scratch, algo, s);
}

extern "C" int scg_split(const void *d_in, uint64_t n, const sc_pred *pred,
                         void *d_sel, void *d_rej, uint64_t *d_selected,
                         void *d_scratch, scg_stream stream)
{
    return scg_split_algo(d_in, n, pred, d_sel, d_rej, d_selected, d_scratch,
                          SCG_ALGO_FUSED, stream);
}
