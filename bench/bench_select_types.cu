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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cub/cub.cuh>
#include "sc_kernels.h"
#include "bench_timing.cuh"

static const int RUNS = 20;

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

template <typename T>
static __global__ void diff_kernel(const T *a, const T *b, uint64_t n, int reversed,
                                   unsigned long long *bad)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        if (a[i] != (reversed ? b[n - 1 - i] : b[i]))
            atomicAdd(bad, 1ull);
}

struct bufs {
    uint64_t *in, *out, *rej, *cub, *cub2, *cnt, *cub_cnt;
    unsigned long long *bad;
    void *scr, *cub_tmp;
    size_t cub_bytes;
};

static uint64_t host_u64(const uint64_t *d)
{
    uint64_t h;
    SCG_CHECK_DIE(cudaMemcpy(&h, d, 8, cudaMemcpyDeviceToHost));
    return h;
}

template <typename T>
static uint64_t mismatches(const bufs &b, const T *x, const T *y, uint64_t n, int reversed)
{
    SCG_CHECK_DIE(cudaMemset(b.bad, 0, 8));
    diff_kernel<<<4096, 256>>>(x, y, n, reversed, b.bad);
    SCG_CHECK_DIE(cudaGetLastError());
    unsigned long long h;
    SCG_CHECK_DIE(cudaMemcpy(&h, b.bad, 8, cudaMemcpyDeviceToHost));
    return h;
}

static void row(const char *what, int keep, float cub, float ms, double bytes, double rate)
{
    printf("  %-34s %3d%% %9.3f %9.3f %7.2fx %6.1f%%\n", what, keep, cub, ms, cub / ms,
           100.0 * bytes / rate / (ms * 1e-3));
}

/* One type CT (its CUB functor F), one size, one share kept; tn names
 * the row. */
template <class F, typename CT>
static int bench_one(const bufs &b, uint64_t n, int keep, const char *tn, const sc_pred &pred,
                     double rate)
{
    typedef typename std::conditional<sizeof(CT) == 8, uint64_t, uint32_t>::type W;
    const double E = sizeof(CT);
    CT *in = (CT *)b.in;
    float cub_sel = median_ms(RUNS, [&] {
        size_t tb = b.cub_bytes;
        SCG_CHECK_DIE(cub::DeviceSelect::If(b.cub_tmp, tb, in, (CT *)b.cub, b.cub_cnt,
                                            (int64_t)n, F()));
    });
    uint64_t k = host_u64(b.cub_cnt);
    float cub_part = median_ms(RUNS, [&] {
        size_t tb = b.cub_bytes;
        SCG_CHECK_DIE(cub::DevicePartition::If(b.cub_tmp, tb, in, (CT *)b.cub2, b.cub_cnt,
                                               (int64_t)n, F()));
    });
    float sc_sel = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_compact(b.in, n, &pred, SC_EMIT_VALUES, 0, b.out,
                                               b.cnt, b.scr, SCG_ALGO_FUSED, 0));
    });
    int fails = 0;
    char what[64];
    if (host_u64(b.cnt) != k || mismatches(b, (W *)b.out, (W *)b.cub, k, 0)) {
        printf("  MISMATCH compact %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "compact %s", tn);
        row(what, keep, cub_sel, sc_sel, E * (n + k), rate);
    }
    float sc_split = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_split(b.in, n, &pred, b.out, b.rej, b.cnt, b.scr, 0));
    });
    /* CUB's partition writes the rejects reversed after the selected */
    if (host_u64(b.cnt) != k || mismatches(b, (W *)b.out, (W *)b.cub2, k, 0) ||
        mismatches(b, (W *)b.rej, (W *)b.cub2 + k, n - k, 1)) {
        printf("  MISMATCH split %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "split %s", tn);
        row(what, keep, cub_part, sc_split, 2 * E * n, rate);
    }
    return fails;
}

int main(int argc, char **argv)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }
    int lgs[8] = {24, 27}, n_lg = 2;
    if (argc > 1)
        for (n_lg = 0; n_lg < argc - 1 && n_lg < 8; n_lg++)
            lgs[n_lg] = atoi(argv[n_lg + 1]);
    uint64_t max_n = 0;
    for (int i = 0; i < n_lg; i++)
        max_n = std::max(max_n, (uint64_t)1 << lgs[i]);
    bufs b;
    uint64_t **arrays[] = {&b.in, &b.out, &b.rej, &b.cub, &b.cub2};
    for (uint64_t **a : arrays)
        SCG_CHECK_DIE(cudaMalloc(a, max_n * 8));
    SCG_CHECK_DIE(cudaMalloc(&b.cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.cub_cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.bad, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.scr, scg_select_scratch_type(max_n, SC_U64)));
    size_t s1 = 0, s2 = 0;
    SCG_CHECK_DIE(cub::DeviceSelect::If(nullptr, s1, b.in, b.cub, b.cub_cnt, (int64_t)max_n,
                                        nonzero64()));
    SCG_CHECK_DIE(cub::DevicePartition::If(nullptr, s2, b.in, b.cub, b.cub_cnt,
                                           (int64_t)max_n, nonzero64()));
    size_t s3 = 0, s4 = 0;
    SCG_CHECK_DIE(cub::DeviceSelect::If(nullptr, s3, (uint32_t *)b.in, (uint32_t *)b.cub,
                                        b.cub_cnt, (int64_t)(2 * max_n), nonzero_not5()));
    SCG_CHECK_DIE(cub::DevicePartition::If(nullptr, s4, (uint32_t *)b.in, (uint32_t *)b.cub,
                                           b.cub_cnt, (int64_t)(2 * max_n), nonzero_not5()));
    b.cub_bytes = std::max(std::max(s1, s2), std::max(s3, s4));
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
        float copy = median_ms(RUNS, [&] {
            SCG_CHECK_DIE(cudaMemcpyAsync(b.out, b.in, n * 8, cudaMemcpyDeviceToDevice));
        });
        double rate = 2.0 * 8 * n / (copy * 1e-3);
        printf("n = 2^%d (%.0f MiB); D2D copy %.3f ms, %.2f TB/s read+write\n", lgs[i],
               8.0 * n / 1048576, copy, rate / 1e12);
        printf("  %-34s %4s %9s %9s %8s %7s\n", "op (against CUB's If)", "keep", "CUB ms",
               "sc ms", "x CUB", "% floor");
        for (int keep : {10, 50, 90}) {
            uint64_t kb = (uint64_t)(keep / 100.0 * 18446744073709551615.0);
            fill64<<<4096, 256>>>(b.in, n, kb, 0);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            fails += bench_one<nonzero64, uint64_t>(b, n, keep, "u64 x != 0", p_u64, rate);
            fill64<<<4096, 256>>>(b.in, n, kb, 1);
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
