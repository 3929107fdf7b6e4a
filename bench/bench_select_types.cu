/* bench_select_types.cu — scg_compact and scg_split of 8-byte elements
 * against CUB's DeviceSelect::If and DevicePartition::If with the same
 * predicate, in the same run, on data held on the device.
 *
 * Data: a hash of the index, zero with probability 1 - p, else a nonzero
 * u64 (or a positive f64), so that x != 0 (u64, the range form libsc
 * runs for most conditions) or x > 0 (f64, the float form) keeps a
 * fraction p in an unpredictable pattern.  Every result is checked
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

static __global__ void diff64(const uint64_t *a, const uint64_t *b, uint64_t n,
                              int reversed, unsigned long long *bad)
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

static uint64_t mismatches(const bufs &b, const uint64_t *x, const uint64_t *y, uint64_t n,
                           int reversed)
{
    SCG_CHECK_DIE(cudaMemset(b.bad, 0, 8));
    diff64<<<4096, 256>>>(x, y, n, reversed, b.bad);
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

/* One type (its CUB functor F), one size, one share kept. */
template <class F, typename CT>
static int bench_one(const bufs &b, uint64_t n, int keep, sc_type t, const sc_pred &pred,
                     double rate)
{
    const char *tn = sc_type_name(t);
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
    if (host_u64(b.cnt) != k || mismatches(b, b.out, b.cub, k, 0)) {
        printf("  MISMATCH compact %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "compact %s (CUB Select::If)", tn);
        row(what, keep, cub_sel, sc_sel, 8.0 * (n + k), rate);
    }
    float sc_split = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_split(b.in, n, &pred, b.out, b.rej, b.cnt, b.scr, 0));
    });
    /* CUB's partition writes the rejects reversed after the selected */
    if (host_u64(b.cnt) != k || mismatches(b, b.out, b.cub2, k, 0) ||
        mismatches(b, b.rej, b.cub2 + k, n - k, 1)) {
        printf("  MISMATCH split %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "split %s (CUB Partition::If)", tn);
        row(what, keep, cub_part, sc_split, 16.0 * n, rate);
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
    b.cub_bytes = std::max(s1, s2) * 2;
    SCG_CHECK_DIE(cudaMalloc(&b.cub_tmp, b.cub_bytes));
    cudaDeviceProp prop;
    SCG_CHECK_DIE(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; compaction and split of 8-byte elements, medians of %d\n",
           prop.name, RUNS);
    printf("libsc runs: %s\n", scg_select_variant(SCG_ALGO_FUSED));
    sc_pred p_u64, p_f64;
    if (sc_pred_default_type(&p_u64, SC_U64) || sc_pred_all_type(&p_f64, SC_F64))
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
        printf("  %-34s %4s %9s %9s %8s %7s\n", "op", "keep", "CUB ms", "sc ms", "x CUB",
               "% floor");
        for (int keep : {10, 50, 90}) {
            uint64_t kb = (uint64_t)(keep / 100.0 * 18446744073709551615.0);
            fill64<<<4096, 256>>>(b.in, n, kb, 0);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            fails += bench_one<nonzero64, uint64_t>(b, n, keep, SC_U64, p_u64, rate);
            fill64<<<4096, 256>>>(b.in, n, kb, 1);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            fails += bench_one<positive64, double>(b, n, keep, SC_F64, p_f64, rate);
        }
    }
    return fails ? 1 : 0;
}
