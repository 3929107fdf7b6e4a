/* select_bench.cuh — what the select benchmarks share (bench_select_types,
 * bench_select_records): the device buffers, the sizes asked for, and one
 * comparison of libsc's compaction and split with CUB's DeviceSelect::If
 * and DevicePartition::If on the same items and predicate, checked
 * against CUB's (count and contents) before it is printed.  Medians of
 * RUNS; "% floor" is the bytes read and written at the run's
 * device-to-device copy rate.
 */
#ifndef SC_SELECT_BENCH_CUH
#define SC_SELECT_BENCH_CUH

#include <stdio.h>
#include <stdlib.h>
#include <cub/cub.cuh>
#include "sc_kernels.h"
#include "bench_timing.cuh"

static const int RUNS = 20;

struct bufs {
    void *in, *out, *rej, *cub, *cub2;
    uint64_t *cnt, *cub_cnt;
    unsigned long long *bad;
    void *scr, *cub_tmp;
    size_t cub_bytes;
};

/* Whether a CUDA GPU is here; if not, a line that says so. */
static bool have_gpu()
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0)
        return true;
    printf("no CUDA GPU\n");
    return false;
}

/* The five arrays of `bytes` each, the counts, scr_bytes of scratch; the
 * caller sizes CUB's then. */
static void alloc_bufs(bufs &b, size_t bytes, size_t scr_bytes)
{
    void **arrays[] = {&b.in, &b.out, &b.rej, &b.cub, &b.cub2};
    for (void **a : arrays)
        SCG_CHECK_DIE(cudaMalloc(a, bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.cub_cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.bad, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.scr, scr_bytes));
}

/* The log2 sizes of the command line (at most 8), else d0 and d1; the
 * largest size in *max_n. */
static int sizes_asked(int argc, char **argv, int (&lgs)[8], int d0, int d1, uint64_t *max_n)
{
    int n_lg = 2;
    lgs[0] = d0;
    lgs[1] = d1;
    if (argc > 1)
        for (n_lg = 0; n_lg < argc - 1 && n_lg < 8; n_lg++)
            lgs[n_lg] = atoi(argv[n_lg + 1]);
    *max_n = 0;
    for (int i = 0; i < n_lg; i++)
        *max_n = std::max(*max_n, (uint64_t)1 << lgs[i]);
    return n_lg;
}

/* Items a[i] and b[i] (b[n - 1 - i] reversed) that differ in any of their
 * 32-bit words, counted. */
template <typename T>
static __global__ void diff_kernel(const T *a, const T *b, uint64_t n, int reversed,
                                   unsigned long long *bad)
{
    const int W = (int)(sizeof(T) / 4);
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t *x = (const uint32_t *)(a + i);
        const uint32_t *y = (const uint32_t *)(b + (reversed ? n - 1 - i : i));
        bool same = true;
        for (int w = 0; w < W; w++)
            same = same && x[w] == y[w];
        if (!same)
            atomicAdd(bad, 1ull);
    }
}

static uint64_t host_u64(const uint64_t *d)
{
    uint64_t h;
    SCG_CHECK_DIE(cudaMemcpy(&h, d, 8, cudaMemcpyDeviceToHost));
    return h;
}

template <typename T>
static uint64_t mismatches(const bufs &b, const void *x, const void *y, uint64_t n,
                           int reversed)
{
    SCG_CHECK_DIE(cudaMemset(b.bad, 0, 8));
    diff_kernel<<<4096, 256>>>((const T *)x, (const T *)y, n, reversed, b.bad);
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

/* The copy rate (bytes read and written a second) of `bytes`, printed
 * with the size, and the table's head. */
static double copy_rate(const bufs &b, size_t bytes, const char *what)
{
    float copy = median_ms(RUNS, [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(b.out, b.in, bytes, cudaMemcpyDeviceToDevice));
    });
    double rate = 2.0 * bytes / (copy * 1e-3);
    printf("%s (%.0f MiB); D2D copy %.3f ms, %.2f TB/s read+write\n", what,
           (double)bytes / 1048576, copy, rate / 1e12);
    printf("  %-34s %4s %9s %9s %8s %7s\n", "op (against CUB's If)", "keep", "CUB ms", "sc ms",
           "x CUB", "% floor");
    return rate;
}

/* The CUB temporary storage of runs on n items of T under F. */
template <class F, typename T>
static size_t cub_bytes_of(const bufs &b, uint64_t n)
{
    size_t s1 = 0, s2 = 0;
    SCG_CHECK_DIE(cub::DeviceSelect::If(nullptr, s1, (T *)b.in, (T *)b.cub, b.cub_cnt,
                                        (int64_t)n, F()));
    SCG_CHECK_DIE(cub::DevicePartition::If(nullptr, s2, (T *)b.in, (T *)b.cub, b.cub_cnt,
                                           (int64_t)n, F()));
    return std::max(s1, s2);
}

/* n items of T at b.in, F CUB's predicate; compact() and split() run
 * libsc's on them into b.out (and b.rej), returning its status; tn names
 * the rows.  The failures, 0 to 2. */
template <class F, typename T, class COMPACT, class SPLIT>
static int bench_pair(const bufs &b, uint64_t n, int keep, const char *tn, double rate,
                      const COMPACT &compact, const SPLIT &split)
{
    const double E = sizeof(T);
    T *in = (T *)b.in;
    float cub_sel = median_ms(RUNS, [&] {
        size_t tb = b.cub_bytes;
        SCG_CHECK_DIE(cub::DeviceSelect::If(b.cub_tmp, tb, in, (T *)b.cub, b.cub_cnt,
                                            (int64_t)n, F()));
    });
    uint64_t k = host_u64(b.cub_cnt);
    float cub_part = median_ms(RUNS, [&] {
        size_t tb = b.cub_bytes;
        SCG_CHECK_DIE(cub::DevicePartition::If(b.cub_tmp, tb, in, (T *)b.cub2, b.cub_cnt,
                                               (int64_t)n, F()));
    });
    float sc_sel = median_ms(RUNS, [&] { SCG_CHECK_DIE((cudaError_t)compact()); });
    int fails = 0;
    char what[64];
    if (host_u64(b.cnt) != k || mismatches<T>(b, b.out, b.cub, k, 0)) {
        printf("  MISMATCH compact %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "compact %s", tn);
        row(what, keep, cub_sel, sc_sel, E * (n + k), rate);
    }
    float sc_split = median_ms(RUNS, [&] { SCG_CHECK_DIE((cudaError_t)split()); });
    /* CUB's partition writes the rejects reversed after the selected */
    if (host_u64(b.cnt) != k || mismatches<T>(b, b.out, b.cub2, k, 0) ||
        mismatches<T>(b, b.rej, (T *)b.cub2 + k, n - k, 1)) {
        printf("  MISMATCH split %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "split %s", tn);
        row(what, keep, cub_part, sc_split, 2 * E * n, rate);
    }
    return fails;
}

#endif /* SC_SELECT_BENCH_CUH */
