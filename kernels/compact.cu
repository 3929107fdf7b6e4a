/* compact.cu — stream compaction: the select agent with values or indices
 * as output (select_ops.cuh), dispatched on the element's width (or the
 * record's layout) and the predicate's shape. */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"
#include "select_records.cuh"

namespace {

using namespace te;

template <typename ELEM, class PRED>
int compact_with(const PRED &pred, const key_place<ELEM> &at, const input &in,
                 int out_kind, uint64_t first_index, void *d_out, uint64_t *d_count,
                 void *scr, int algo, cudaStream_t s)
{
    switch (out_kind) {
    case SC_EMIT_VALUES: {
        sel_op<PRED, uint32_t, false, false, ELEM> op = { at, pred, (uint32_t *)d_out, 0, 0 };
        return run_variant(algo, op, in, scr, d_count, s);
    }
    case SC_EMIT_IDX32: {
        sel_op<PRED, uint32_t, true, false, ELEM> op = { at, pred, (uint32_t *)d_out, 0,
                                                         first_index };
        return run_variant(algo, op, in, scr, d_count, s);
    }
    case SC_EMIT_IDX64: {
        sel_op<PRED, uint64_t, true, false, ELEM> op = { at, pred, (uint64_t *)d_out, 0,
                                                         first_index };
        return run_variant(algo, op, in, scr, d_count, s);
    }
    }
    return (int)cudaErrorInvalidValue;
}

/* The arguments of a compaction but its input's; run<ELEM> compacts the
 * n elements (or records) of in, their keys where at says. */
struct compact_call {
    int out_kind;
    uint64_t first_index;
    void *d_out;
    uint64_t *d_count;
    void *scr;
    int algo;
    cudaStream_t s;

    template <typename ELEM>
    int run(const input &in, const key_place<ELEM> &at, const sc_pred &given,
            uint64_t n) const
    {
        (void)n;
        return on_pred<typename elem_traits<ELEM>::key_t>(
            given,
            [&](const auto &pred) {
                return compact_with<ELEM>(pred, at, in, out_kind, first_index, d_out, d_count,
                                          scr, algo, s);
            },
            [&] {                       /* nothing kept */
                SCG_CHECK(cudaMemsetAsync(d_count, 0, sizeof(uint64_t), s));
                return 0;
            });
    }
};

} /* namespace */

extern "C" const char *scg_select_variant(int algo)
{
    return te::variant_name(algo);
}

extern "C" size_t scg_compact_scratch(uint64_t n)
{
    return te::scratch_bytes(n, te::SEL_MIN_TILE);
}

extern "C" size_t scg_select_scratch_type(uint64_t n, uint32_t type)
{
    return te::scratch_bytes(sc_type_is_64bit(type) ? 2 * n : n, te::SEL_MIN_TILE);
}

extern "C" size_t scg_select_scratch_records(uint64_t n, uint32_t rec_size)
{
    return te::scratch_bytes(n * (rec_size / 4), te::SEL_MIN_TILE);
}

extern "C" int scg_compact(const void *d_in, uint64_t n, const sc_pred *pred,
                           int out_kind, uint64_t first_index, void *d_out,
                           uint64_t *d_count, void *d_scratch, int algo,
                           scg_stream stream)
{
    return scg_compact_records(d_in, n, 0, 0, pred, out_kind, first_index, d_out, d_count,
                               d_scratch, algo, stream);
}

/* rec_size 0: elements of pred's type (scg_compact). */
extern "C" int scg_compact_records(const void *d_in, uint64_t n, uint32_t rec_size,
                                   uint32_t key_off, const sc_pred *pred, int out_kind,
                                   uint64_t first_index, void *d_out, uint64_t *d_count,
                                   void *d_scratch, int algo, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!pred || !d_count || (n && (!d_in || !d_out || !d_scratch)))
        return (int)cudaErrorInvalidValue;
    if (!te::variant_name(algo) || out_kind < SC_EMIT_VALUES || out_kind > SC_EMIT_IDX64)
        return (int)cudaErrorInvalidValue;
    compact_call c = { out_kind, first_index, d_out, d_count, d_scratch, algo, s };
    return te::select_on(c, d_in, n, rec_size, key_off, *pred, d_count, s);
}
