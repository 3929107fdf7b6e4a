/* bench_compact.cu — scg_compact and scg_split against CUB on 2^28 uint32
 * held on the device.
 *
 * Data: a hash of the index, zero with probability 1 - p, else nonzero, so
 * the predicate x != 0 keeps a fraction p in an unpredictable pattern.
 * Each figure is the median of 20 runs timed with events after warm-up.
 * "floor" is the time one pass would take at the device-to-device copy
 * rate (read + write bytes counted): bytes read + written / copy rate.
 * Every result is checked against CUB's (count and contents) before it is
 * printed.
 *
 * Usage: bench_compact [log2 n [keep%]]   (default 28, and 10, 50, 90)
 * SC_BENCH_RUNS=N: N timed runs after one warm-up, for a profiler that
 * serializes and times each launch (bench/baseclock.sh under ncu);
 * default 20 after 3.
 */
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <cub/cub.cuh>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_data.cuh"

static int RUNS = 20, WARMUP = 3;

struct nonzero {
    __device__ bool operator()(uint32_t x) const { return x != 0; }
};

/* mismatches of a[i] vs b[i] (or b[n-1-i] when reversed) over [0, n) */
static __global__ void cmp_kernel(const uint32_t *a, const uint32_t *b,
                                  uint64_t n, uint64_t b_len, int reversed,
                                  unsigned long long *bad)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t y = reversed ? b[b_len - 1 - i] : b[i];
        if (a[i] != y)
            atomicAdd(bad, 1ull);
    }
}

static unsigned long long *g_bad;

static uint64_t mismatches(const uint32_t *a, const uint32_t *b, uint64_t n,
                           uint64_t b_len, int reversed)
{
    unsigned long long h = 0;
    SCG_CHECK_DIE(cudaMemset(g_bad, 0, 8));
    cmp_kernel<<<4096, 256>>>(a, b, n, b_len, reversed, g_bad);
    SCG_CHECK_DIE(cudaGetLastError());
    SCG_CHECK_DIE(cudaMemcpy(&h, g_bad, 8, cudaMemcpyDeviceToHost));
    return h;
}

static uint64_t read_count(const uint64_t *d)
{
    uint64_t h;
    SCG_CHECK_DIE(cudaMemcpy(&h, d, 8, cudaMemcpyDeviceToHost));
    return h;
}

/* Median of RUNS timed calls of f (which returns 0 on success). */
template <class F>
static double time_ms(F f)
{
    cudaEvent_t a, b;
    SCG_CHECK_DIE(cudaEventCreate(&a));
    SCG_CHECK_DIE(cudaEventCreate(&b));
    for (int i = 0; i < WARMUP; i++)
        SCG_CHECK_DIE((cudaError_t)f());
    std::vector<float> t(RUNS);
    for (int i = 0; i < RUNS; i++) {
        SCG_CHECK_DIE(cudaEventRecord(a));
        SCG_CHECK_DIE((cudaError_t)f());
        SCG_CHECK_DIE(cudaEventRecord(b));
        SCG_CHECK_DIE(cudaEventSynchronize(b));
        SCG_CHECK_DIE(cudaEventElapsedTime(&t[i], a, b));
    }
    SCG_CHECK_DIE(cudaEventDestroy(a));
    SCG_CHECK_DIE(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return RUNS % 2 ? t[RUNS / 2] : 0.5 * (t[RUNS / 2 - 1] + t[RUNS / 2]);
}

static void row(const char *op, int keep, double ms, double cub_ms,
                double bytes, double rate)
{
    double floor_ms = bytes / rate * 1e3;
    printf("%-26s %4d%% %9.3f %9.3f %8.2fx %7.1f%%\n", op, keep, cub_ms, ms,
           cub_ms / ms, 100.0 * floor_ms / ms);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 28;
    uint64_t n = 1ull << lg;
    const char *runs = getenv("SC_BENCH_RUNS");
    if (runs && *runs) {
        RUNS = atoi(runs);
        WARMUP = 1;
        if (RUNS < 1) {
            fprintf(stderr, "bench_compact: SC_BENCH_RUNS=%s is not a count\n", runs);
            return 2;
        }
    }
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }
    cudaDeviceProp prop;
    SCG_CHECK_DIE(cudaGetDeviceProperties(&prop, 0));
    uint32_t *d_in, *d_out, *d_rej, *d_cub;
    uint64_t *d_cnt, *d_cub_cnt;
    char *d_scr;
    SCG_CHECK_DIE(cudaMalloc(&d_in, n * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_out, n * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_rej, n * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_cub, n * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&d_cub_cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&g_bad, 8));
    size_t sb = std::max(scg_compact_scratch(n), scg_split_scratch(n));
    SCG_CHECK_DIE(cudaMalloc(&d_scr, sb));

    size_t cub_sel_b = 0, cub_part_b = 0;
    SCG_CHECK_DIE(cub::DeviceSelect::If(nullptr, cub_sel_b, d_in, d_cub, d_cub_cnt,
                                        (int64_t)n, nonzero()));
    SCG_CHECK_DIE(cub::DevicePartition::If(nullptr, cub_part_b, d_in, d_cub, d_cub_cnt,
                                           (int64_t)n, nonzero()));
    void *d_cub_tmp;
    size_t cub_b = std::max(cub_sel_b, cub_part_b);
    SCG_CHECK_DIE(cudaMalloc(&d_cub_tmp, cub_b));

    sc_pred pred = {};
    pred.lo = 1;          /* x != 0 */
    pred.hi = 0xffffffffu;

    double bytes_in = 4.0 * n;
    double copy_ms = time_ms([&] {
        return (int)cudaMemcpyAsync(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice);
    });
    double rate = 2 * bytes_in / (copy_ms * 1e-3);
    printf("device: %s, n = 2^%d uint32 (%.0f MiB), median of %d runs\n",
           prop.name, lg, bytes_in / 1048576, RUNS);
    printf("default variant: %s\n", scg_select_variant(SCG_ALGO_FUSED));
    printf("%-26s %5s %9s %9s %9s %8s\n", "op", "keep", "CUB ms", "ms", "vs CUB",
           "% floor");
    printf("%-26s %5s %9s %9.3f %9s %7.1f%%   (%.2f TB/s read+write)\n",
           "cudaMemcpy D2D", "-", "-", copy_ms, "-", 100.0, rate / 1e12);

    const int keeps[] = {10, 50, 90};
    int failures = 0;
    int only = argc > 2 ? atoi(argv[2]) : 0;
    uint32_t *d_cub2;
    SCG_CHECK_DIE(cudaMalloc(&d_cub2, n * 4));
    for (int ki = 0; ki < 3; ki++) {
        int keep = only ? only : keeps[ki];
        if (only && ki > 0)
            break;
        uint64_t kb = (uint64_t)((double)keep / 100.0 * 18446744073709551615.0);
        fill_kernel<<<4096, 256>>>(d_in, n, kb);
        SCG_CHECK_DIE(cudaGetLastError());
        SCG_CHECK_DIE(cudaDeviceSynchronize());

        /* CUB select and partition: the reference results stay in d_cub
         * and d_cub2 for the checks */
        double cub_sel = time_ms([&] {
            size_t b = cub_b;
            return (int)cub::DeviceSelect::If(d_cub_tmp, b, d_in, d_cub, d_cub_cnt,
                                              (int64_t)n, nonzero());
        });
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        uint64_t k = read_count(d_cub_cnt);
        double bytes_c = bytes_in + 4.0 * k;
        row("cub::DeviceSelect::If", keep, cub_sel, cub_sel, bytes_c, rate);
        double cub_part = time_ms([&] {
            size_t b = cub_b;
            return (int)cub::DevicePartition::If(d_cub_tmp, b, d_in, d_cub2, d_cub_cnt,
                                                 (int64_t)n, nonzero());
        });
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        uint64_t kp = read_count(d_cub_cnt);
        double bytes_s = 2 * bytes_in;
        row("cub::DevicePartition::If", keep, cub_part, cub_part, bytes_s, rate);

        for (int v = 0; scg_select_variant(v); v++) {
            double ms = time_ms([&] {
                return scg_compact(d_in, n, &pred, SC_EMIT_VALUES, 0, d_out, d_cnt,
                                   d_scr, v, 0);
            });
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            uint64_t got = read_count(d_cnt);
            uint64_t bad = got == k ? mismatches(d_out, d_cub, k, k, 0) : 1;
            char name[64];
            snprintf(name, sizeof name, "scg_compact v%d%s", v, v ? "" : " (default)");
            if (got != k || bad) {
                printf("MISMATCH %s: count %llu vs CUB %llu, %llu bad (%.3f ms)\n",
                       name, (unsigned long long)got, (unsigned long long)k,
                       (unsigned long long)bad, ms);
                failures++;
                continue;
            }
            row(name, keep, ms, cub_sel, bytes_c, rate);
        }
        double idx_ms = time_ms([&] {
            return scg_compact(d_in, n, &pred, SC_EMIT_IDX32, 0, d_out, d_cnt, d_scr,
                               SCG_ALGO_FUSED, 0);
        });
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        if (read_count(d_cnt) != k) {
            printf("MISMATCH scg_compact idx32 count\n");
            failures++;
        } else {
            row("scg_compact idx32 v0", keep, idx_ms, cub_sel, bytes_c, rate);
        }

        for (int v = 0; scg_select_variant(v); v++) {
            double ms = time_ms([&] {
                return scg_split_algo(d_in, n, &pred, d_out, d_rej, d_cnt, d_scr, v, 0);
            });
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            uint64_t got = read_count(d_cnt);
            uint64_t bad = got == k ? mismatches(d_out, d_cub, k, k, 0) : 1;
            /* CUB writes the rejects reversed at the end */
            if (!bad && kp == k)
                bad = mismatches(d_rej, d_cub2 + k, n - k, n - k, 1);
            char name[64];
            snprintf(name, sizeof name, "scg_split v%d%s", v, v ? "" : " (default)");
            if (got != kp || bad) {
                printf("MISMATCH %s: count %llu vs CUB %llu, %llu bad (%.3f ms)\n",
                       name, (unsigned long long)got, (unsigned long long)kp,
                       (unsigned long long)bad, ms);
                failures++;
                continue;
            }
            row(name, keep, ms, cub_part, bytes_s, rate);
        }
    }
    printf("\nvariants (v0 is what libsc calls):\n");
    for (int v = 0; scg_select_variant(v); v++)
        printf("  v%d: %s\n", v, scg_select_variant(v));
    cudaFree(d_cub2);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_rej); cudaFree(d_cub);
    cudaFree(d_cnt); cudaFree(d_cub_cnt); cudaFree(g_bad); cudaFree(d_scr);
    cudaFree(d_cub_tmp);
    return failures ? 1 : 0;
}
