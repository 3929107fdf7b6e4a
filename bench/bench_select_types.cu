/* bench_select_types.cu — scg_compact and scg_split of 8-byte elements,
 * and of uint32 with predicates built as the tools build them, against
 * CUB's DeviceSelect::If and DevicePartition::If with the same predicate,
 * in the same run, on data held on the device.
 *
 * Data: a hash of the index, zero with probability 1 - p, else a nonzero
 * u64 (or a positive f64), so that x != 0 (u64, the range form libsc
 * runs for most conditions) or x > 0 (f64, the float form) keeps a
 * fraction p in an unpredictable pattern.  uint32 (2^(lg+1) of them,
 * the same bytes): sc-compact's default, x != 0 (sc_pred_default, which
 * the kernels fold into the range form), and x != 0 && x != 5 (two !=
 * terms: the term-list form).  Every result is checked
 * against CUB's (count and contents) before it is printed.  Medians of
 * 20; "% floor" is the bytes read and written at the run's
 * device-to-device copy rate.
 *
 * Usage: bench_select_types [log2 n ...]   (default 24 27)
 */
#include <string.h>
#include "select_bench.cuh"

struct nonzero64 {
    __device__ bool operator()(uint64_t x) const { return x != 0; }
};
struct positive64 {
    __device__ bool operator()(double x) const { return x > 0; }
};
struct nonzero32 {
    __device__ bool operator()(uint32_t x) const { return x != 0; }
};
struct nonzero_not5 {
    __device__ bool operator()(uint32_t x) const { return x != 0 && x != 5; }
};

static __global__ void fill32(uint32_t *d, uint64_t n, uint64_t keep_below)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t a = sc_mix64(i * 0x9e3779b97f4a7c15ULL + 777), b = sc_mix64(a);
        uint32_t v = (uint32_t)(b >> 32);
        d[i] = a < keep_below ? (v ? v : 1u) : 0u;
    }
}

static __global__ void fill64(uint64_t *d, uint64_t n, uint64_t keep_below, int as_double)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t a = sc_mix64(i * 0x9e3779b97f4a7c15ULL + 777), b = sc_mix64(a);
        uint64_t v = b ? b : 1;
        if (as_double) {
            double x = (double)(b >> 11) + 1.0;
            memcpy(&v, &x, 8);
        }
        d[i] = a < keep_below ? v : 0;
    }
}

/* One type CT (its CUB functor F), one size, one share kept; tn names
 * the row. */
template <class F, typename CT>
static int bench_one(const bufs &b, uint64_t n, int keep, const char *tn, const sc_pred &pred,
                     double rate)
{
    return bench_pair<F, CT>(
        b, n, keep, tn, rate,
        [&] {
            return scg_compact(b.in, n, &pred, SC_EMIT_VALUES, 0, b.out, b.cnt, b.scr,
                               SCG_ALGO_FUSED, 0);
        },
        [&] { return scg_split(b.in, n, &pred, b.out, b.rej, b.cnt, b.scr, 0); });
}

int main(int argc, char **argv)
{
    if (!have_gpu())
        return 0;
    int lgs[8];
    uint64_t max_n;
    int n_lg = sizes_asked(argc, argv, lgs, 24, 27, &max_n);
    bufs b;
    alloc_bufs(b, max_n * 8, scg_select_scratch_type(max_n, SC_U64));
    b.cub_bytes = std::max(std::max(cub_bytes_of<nonzero64, uint64_t>(b, max_n),
                                    cub_bytes_of<positive64, double>(b, max_n)),
                           cub_bytes_of<nonzero_not5, uint32_t>(b, 2 * max_n));
    SCG_CHECK_DIE(cudaMalloc(&b.cub_tmp, b.cub_bytes));
    cudaDeviceProp prop;
    SCG_CHECK_DIE(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; compaction and split of 8-byte elements, medians of %d\n",
           prop.name, RUNS);
    printf("libsc runs: %s\n", scg_select_variant(SCG_ALGO_FUSED));
    sc_pred p_u64, p_f64, p_u32, p_u32_not5;
    if (sc_pred_default_type(&p_u64, SC_U64) || sc_pred_all_type(&p_f64, SC_F64) ||
        sc_pred_default_type(&p_u32, SC_U32) || sc_pred_default_type(&p_u32_not5, SC_U32) ||
        sc_pred_add_cmp(&p_u32_not5, SC_NE, 5))
        return 2;
    double zero = 0.0;
    uint64_t zero_bits;
    memcpy(&zero_bits, &zero, 8);
    if (sc_pred_add_cmp(&p_f64, SC_GT, zero_bits))
        return 2;
    int fails = 0;
    for (int i = 0; i < n_lg; i++) {
        uint64_t n = (uint64_t)1 << lgs[i];
        char what[64];
        snprintf(what, sizeof what, "n = 2^%d", lgs[i]);
        double rate = copy_rate(b, n * 8, what);
        for (int keep : {10, 50, 90}) {
            uint64_t kb = (uint64_t)(keep / 100.0 * 18446744073709551615.0);
            fill64<<<4096, 256>>>((uint64_t *)b.in, n, kb, 0);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            fails += bench_one<nonzero64, uint64_t>(b, n, keep, "u64 x != 0", p_u64, rate);
            fill64<<<4096, 256>>>((uint64_t *)b.in, n, kb, 1);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            fails += bench_one<positive64, double>(b, n, keep, "f64 x > 0", p_f64, rate);
            fill32<<<4096, 256>>>((uint32_t *)b.in, 2 * n, kb);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            fails += bench_one<nonzero32, uint32_t>(b, 2 * n, keep, "u32 x != 0 (default)",
                                                    p_u32, rate);
            fails += bench_one<nonzero_not5, uint32_t>(b, 2 * n, keep,
                                                       "u32 x != 0, x != 5 (terms)",
                                                       p_u32_not5, rate);
        }
    }
    return fails ? 1 : 0;
}
