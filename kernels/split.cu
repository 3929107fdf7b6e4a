/* split.cu — stable split: the select agent with MOVE_REJECTS.  Matches go
 * forward from the tile's exclusive prefix in d_sel; rejects from (the
 * tile's first element's index - matches before the tile) in d_rej.  Both
 * are staged in the same tile buffer, so both leave the SM as 16-byte
 * vectors.  Elements of 4 or 8 bytes (the predicate's type), or records
 * of 8 or 16 bytes (select_records.cuh); values move as 32-bit words. */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"
#include "select_records.cuh"

namespace {

using namespace te;

template <typename ELEM, class PRED>
int split_with(const PRED &pred, const key_place<ELEM> &at, const input &in, void *d_sel,
               void *d_rej, uint64_t *d_selected, void *d_scratch, int algo, cudaStream_t s)
{
    sel_op<PRED, uint32_t, false, true, ELEM> op = { at, pred, (uint32_t *)d_sel,
                                                     (uint32_t *)d_rej, 0 };
    return run_variant(algo, op, in, d_scratch, d_selected, s);
}

/* The arguments of a split but its input's; run<ELEM> splits the n
 * elements (or records) of in, their keys where at says. */
struct split_call {
    const void *d_in;
    void *d_sel, *d_rej;
    uint64_t *d_selected;
    void *d_scratch;
    int algo;
    cudaStream_t s;

    template <typename ELEM>
    int run(const input &in, const key_place<ELEM> &at, const sc_pred &given,
            uint64_t n) const
    {
        return on_pred<typename elem_traits<ELEM>::key_t>(
            given,
            [&](const auto &pred) {
                return split_with<ELEM>(pred, at, in, d_sel, d_rej, d_selected, d_scratch,
                                        algo, s);
            },
            [&] {                       /* every element rejected, in order */
                SCG_CHECK(cudaMemsetAsync(d_selected, 0, sizeof(uint64_t), s));
                SCG_CHECK(cudaMemcpyAsync(d_rej, d_in, n * elem_traits<ELEM>::W * 4,
                                          cudaMemcpyDeviceToDevice, s));
                return 0;
            });
    }
};

} /* namespace */

extern "C" size_t scg_split_scratch(uint64_t n)
{
    return te::scratch_bytes(n, te::SEL_MIN_TILE);
}

extern "C" int scg_split_algo(const void *d_in, uint64_t n, const sc_pred *pred,
                              void *d_sel, void *d_rej, uint64_t *d_selected,
                              void *d_scratch, int algo, scg_stream stream)
{
    return scg_split_records(d_in, n, 0, 0, pred, d_sel, d_rej, d_selected, d_scratch, algo,
                             stream);
}

extern "C" int scg_split(const void *d_in, uint64_t n, const sc_pred *pred,
                         void *d_sel, void *d_rej, uint64_t *d_selected,
                         void *d_scratch, scg_stream stream)
{
    return scg_split_algo(d_in, n, pred, d_sel, d_rej, d_selected, d_scratch,
                          SCG_ALGO_FUSED, stream);
}

/* rec_size 0: elements of pred's type (scg_split_algo). */
extern "C" int scg_split_records(const void *d_in, uint64_t n, uint32_t rec_size,
                                 uint32_t key_off, const sc_pred *pred, void *d_sel,
                                 void *d_rej, uint64_t *d_selected, void *d_scratch,
                                 int algo, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_selected || (n && (!d_in || !d_sel || !d_rej || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (!te::variant_name(algo))
        return (int)cudaErrorInvalidValue;
    split_call c = { d_in, d_sel, d_rej, d_selected, d_scratch, algo, s };
    return te::select_on(c, d_in, n, rec_size, key_off, *pred, d_selected, s);
}
