/* bench_stat.cu — sc-stat's kernel (scg_stat_type: sum in 128 bits,
 * zeros, min, max and the distinct sketch in one pass) against CUB's
 * DeviceReduce::Sum, Min and Max, three calls, on the same data held on
 * the device, in the same run: u32 at 2^28, u64 and i64 at 2^27 (1 GiB
 * each).  sc's time includes the accumulator's reset, as every call has
 * it; CUB's three calls have one temp, sized for the largest.  CUB's Sum
 * alone is printed too: a plain read of the data, the best any one pass
 * can do.  Medians of 20; GB/s are bytes read over the time; "% floor"
 * is the time the bytes would take at the run's device-to-device copy
 * rate (read + write bytes counted) over the time.  sc's sum (its low 64
 * bits), min and max are checked against CUB's before anything is
 * printed.
 *
 * Usage: bench_stat [log2 bytes]   (default 30: 1 GiB of each type)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cub/cub.cuh>
#include "sc_kernels.h"
#include "bench_timing.cuh"

static const int RUNS = 20;

/* A hash of the index: full-range bits, or (kind 1) small signed
 * numbers, so that i64 sums and extremes are of both signs; every 64th
 * element 0. */
template <typename T>
static __global__ void fill(T *d, uint64_t n, int kind)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t r = sc_mix64(i * 0x9e3779b97f4a7c15ULL + 7);
        if (kind == 1) r = (uint64_t)((int64_t)r >> 20);
        d[i] = i % 64 == 5 ? (T)0 : (T)r;
    }
}

template <typename T>
static int bench_one(void *in, uint64_t n, uint32_t type, scg_stat_acc *acc,
                     void *tmp, size_t tmp_bytes, T *out3, double rate)
{
    const T *x = (const T *)in;
    size_t bytes = tmp_bytes;
    auto cub3 = [&] {
        SCG_CHECK_DIE(cub::DeviceReduce::Sum(tmp, bytes, x, out3, (int64_t)n));
        SCG_CHECK_DIE(cub::DeviceReduce::Min(tmp, bytes, x, out3 + 1, (int64_t)n));
        SCG_CHECK_DIE(cub::DeviceReduce::Max(tmp, bytes, x, out3 + 2, (int64_t)n));
    };
    auto sc = [&] {
        if (scg_stat_reset(acc, 0) || scg_stat_type(in, n, type, acc, 0)) {
            fprintf(stderr, "scg_stat_type failed\n");
            exit(1);
        }
    };
    /* the check: one of each, then compare */
    cub3();
    sc();
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    T c[3];
    scg_stat_acc h;
    SCG_CHECK_DIE(cudaMemcpy(c, out3, sizeof c, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(&h, acc, sizeof h, cudaMemcpyDeviceToHost));
    bool wide = sizeof(T) == 8;
    uint64_t lo = wide ? h.min64 : h.min, hi = wide ? h.max64 : h.max;
    sc_stats_typed f;
    memset(&f, 0, sizeof f);
    f.sum = h.sum;
    f.sum_hi = h.sum_hi;
    sc_stat_unbias(type, n, &f.sum, &f.sum_hi);
    T smin = (T)sc_type_unrank(type, lo), smax = (T)sc_type_unrank(type, hi);
    T ssum = (T)f.sum;
    if (ssum != c[0] || smin != c[1] || smax != c[2]) {
        printf("  %s: MISMATCH sum %llx/%llx min %llx/%llx max %llx/%llx\n",
               sc_type_name((sc_type)type), (unsigned long long)ssum,
               (unsigned long long)c[0], (unsigned long long)smin,
               (unsigned long long)c[1], (unsigned long long)smax,
               (unsigned long long)c[2]);
        return 1;
    }
    float t_sc = median_ms(RUNS, sc);
    float t_cub = median_ms(RUNS, cub3);
    float t_sum = median_ms(RUNS, [&] {
        SCG_CHECK_DIE(cub::DeviceReduce::Sum(tmp, bytes, x, out3, (int64_t)n));
    });
    double b = (double)n * sizeof(T), floor_ms = b / rate * 1e3;
    const char *name = sc_type_name((sc_type)type);
    printf("  %-4s %-30s %9.3f %8.0f %7.1f%%\n", name, "CUB Sum + Min + Max (3 calls)",
           t_cub, b / t_cub * 1e-6, 100.0 * floor_ms / t_cub);
    printf("  %-4s %-30s %9.3f %8.0f %7.1f%%\n", name, "CUB Sum alone", t_sum,
           b / t_sum * 1e-6, 100.0 * floor_ms / t_sum);
    printf("  %-4s %-30s %9.3f %8.0f %7.1f%%   %.2fx CUB's three\n", name,
           "sc stat (+ distinct sketch)", t_sc, b / t_sc * 1e-6,
           100.0 * floor_ms / t_sc, t_cub / t_sc);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 30;
    size_t bytes = (size_t)1 << lg;
    void *in, *out3, *tmp, *copy;
    scg_stat_acc *acc;
    SCG_CHECK_DIE(cudaMalloc(&in, bytes));
    SCG_CHECK_DIE(cudaMalloc(&copy, bytes));
    SCG_CHECK_DIE(cudaMalloc(&out3, 3 * 8));
    SCG_CHECK_DIE(cudaMalloc(&acc, sizeof *acc));
    size_t s1 = 0, s2 = 0, s3 = 0, s4 = 0;
    const uint64_t n8 = bytes / 8;
    SCG_CHECK_DIE(cub::DeviceReduce::Sum(nullptr, s1, (const uint64_t *)in,
                                         (uint64_t *)out3, (int64_t)n8));
    SCG_CHECK_DIE(cub::DeviceReduce::Min(nullptr, s2, (const uint64_t *)in,
                                         (uint64_t *)out3, (int64_t)n8));
    SCG_CHECK_DIE(cub::DeviceReduce::Sum(nullptr, s3, (const uint32_t *)in,
                                         (uint32_t *)out3, (int64_t)(bytes / 4)));
    SCG_CHECK_DIE(cub::DeviceReduce::Max(nullptr, s4, (const int64_t *)in,
                                         (int64_t *)out3, (int64_t)n8));
    size_t tmp_bytes = std::max(std::max(s1, s2), std::max(s3, s4)) + 256;
    SCG_CHECK_DIE(cudaMalloc(&tmp, tmp_bytes));
    cudaDeviceProp prop;
    SCG_CHECK_DIE(cudaGetDeviceProperties(&prop, 0));
    float cp = median_ms(RUNS, [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(copy, in, bytes, cudaMemcpyDeviceToDevice));
    });
    double rate = 2.0 * bytes / (cp * 1e-3);
    printf("device: %s; stat of %.0f MiB, medians of %d; D2D copy %.3f ms, "
           "%.2f TB/s read+write\n", prop.name, bytes / 1048576.0, RUNS, cp,
           rate / 1e12);
    printf("  %-4s %-30s %9s %8s %8s\n", "type", "", "ms", "GB/s", "% floor");
    int fails = 0;
    fill<<<4096, 256>>>((uint32_t *)in, bytes / 4, 0);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    fails += bench_one<uint32_t>(in, bytes / 4, SC_U32, acc, tmp, tmp_bytes,
                                 (uint32_t *)out3, rate);
    fill<<<4096, 256>>>((uint64_t *)in, n8, 0);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    fails += bench_one<uint64_t>(in, n8, SC_U64, acc, tmp, tmp_bytes,
                                 (uint64_t *)out3, rate);
    fill<<<4096, 256>>>((int64_t *)in, n8, 1);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    fails += bench_one<int64_t>(in, n8, SC_I64, acc, tmp, tmp_bytes,
                                (int64_t *)out3, rate);
    SCG_CHECK_DIE(cudaFree(in));
    SCG_CHECK_DIE(cudaFree(copy));
    SCG_CHECK_DIE(cudaFree(out3));
    SCG_CHECK_DIE(cudaFree(acc));
    SCG_CHECK_DIE(cudaFree(tmp));
    return fails ? 1 : 0;
}
