/* bench_scan_types.cu — scans of 8-byte elements (scg_scan_type: u64 sum,
 * max, min, xor; i64 and f64 max on ranks) against CUB's DeviceScan with
 * the same operator on the same data, in the same run, on data held on
 * the device.  Built with -DSCG_TUNE: every tile shape of scg_scan64_tune
 * is timed ("p": the persistent pass), and the one libsc calls is marked
 * "*".
 *
 * CUB: ExclusiveSum / InclusiveSum for sums, ExclusiveScan /
 * InclusiveScan with the operator (for i64 and f64, CUB's Max on the
 * type itself, as a CUDA program would call it) and the identity; sc
 * starts from the same carry-in.  Every sc result is checked against
 * CUB's before it is printed (f64: max of values with no NaN, where the
 * two orders agree).  Medians of 20; "% floor" is the bytes read and
 * written at the run's device-to-device copy rate.
 *
 * Usage: bench_scan_types [log2 n ...]   (default 24 27)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cub/cub.cuh>
#include "sc_kernels.h"
#include "bench_timing.cuh"

extern "C" int scg_scan64_tune(int cfg);

static const int RUNS = 20;

struct xor_op {
    __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a ^ b; }
};
struct max_op {
    template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
struct min_op {
    template <typename T> __device__ T operator()(T a, T b) const { return a < b ? a : b; }
};

/* Full-range bits (small signed numbers for i64, finite doubles of either
 * sign for f64), a hash of the index. */
static __global__ void fill(uint64_t *d, uint64_t n, int kind)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t r = sc_mix64(i * 0x9e3779b97f4a7c15ULL + 99);
        if (kind == 1) r = (uint64_t)((int64_t)r >> 20);
        if (kind == 2) {
            double x = (double)(int64_t)r * 0x1p-20;
            memcpy(&r, &x, 8);
        }
        d[i] = r;
    }
}

static __global__ void diff_kernel(const uint64_t *a, const uint64_t *b, uint64_t n,
                                   unsigned long long *bad)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        if (a[i] != b[i]) atomicAdd(bad, 1ull);
}

struct bufs {
    uint64_t *in, *out, *cub, *carry;
    unsigned long long *bad;
    void *scr, *tmp;
    size_t tmp_bytes;
};

static uint64_t mismatches(const bufs &b, uint64_t n)
{
    SCG_CHECK_DIE(cudaMemset(b.bad, 0, 8));
    diff_kernel<<<4096, 256>>>(b.out, b.cub, n, b.bad);
    SCG_CHECK_DIE(cudaGetLastError());
    unsigned long long h;
    SCG_CHECK_DIE(cudaMemcpy(&h, b.bad, 8, cudaMemcpyDeviceToHost));
    return h;
}

/* CUB's scan of b.in into b.cub with op OP on T, exclusive from init. */
template <typename T, class OP>
static void cub_scan(const bufs &b, uint64_t n, int op, T init)
{
    size_t tb = b.tmp_bytes;
    T *in = (T *)b.in, *out = (T *)b.cub;
    if (op == SC_OP_SUM)
        SCG_CHECK_DIE(cub::DeviceScan::ExclusiveSum(b.tmp, tb, in, out, (int64_t)n));
    else
        SCG_CHECK_DIE(cub::DeviceScan::ExclusiveScan(b.tmp, tb, in, out, OP(), init,
                                                     (int64_t)n));
}

static const char *OPS[] = {"sum", "max", "min", "xor"};

/* One type and op at one size: CUB, then every sc tile shape. */
template <typename T, class OP>
static int bench_one(const bufs &b, uint64_t n, sc_type t, int op, T init, double rate)
{
    float cub = median_ms(RUNS, [&] { cub_scan<T, OP>(b, n, op, init); });
    uint64_t carry = 0;
    memcpy(&carry, &init, 8);
    if (sc_scan_ranks((uint32_t)t, op)) carry = sc_type_rank((uint32_t)t, carry);
    SCG_CHECK_DIE(cudaMemcpy(b.carry, &carry, 8, cudaMemcpyHostToDevice));
    int fails = 0;
    for (int c = 0; int tag = scg_scan64_tune(c); c++) {
        float ms = median_ms(RUNS, [&] {
            SCG_CHECK_DIE((cudaError_t)scg_scan_type(b.in, n, (uint32_t)t, op, 0, 0, b.carry,
                                                     b.out, b.carry + 1, b.scr, 0));
        });
        char what[64];
        snprintf(what, sizeof what, "%s %s %dx%d%s%s", sc_type_name(t), OPS[op],
                 tag % 1000000 / 100, tag % 100, tag >= 1000000 ? " p" : "",
                 c == 0 ? " *" : "");
        if (mismatches(b, n)) {
            printf("  MISMATCH %s\n", what);
            fails++;
            continue;
        }
        printf("  %-28s %9.3f %9.3f %7.2fx %6.1f%%\n", what, cub, ms, cub / ms,
               100.0 * 16.0 * n / rate / (ms * 1e-3));
    }
    scg_scan64_tune(0);
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
    SCG_CHECK_DIE(cudaMalloc(&b.in, max_n * 8));
    SCG_CHECK_DIE(cudaMalloc(&b.out, max_n * 8));
    SCG_CHECK_DIE(cudaMalloc(&b.cub, max_n * 8));
    SCG_CHECK_DIE(cudaMalloc(&b.carry, 16));
    SCG_CHECK_DIE(cudaMalloc(&b.bad, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.scr, scg_scan_scratch(max_n) + 256));
    size_t s1 = 0, s2 = 0, s3 = 0;
    SCG_CHECK_DIE(cub::DeviceScan::ExclusiveSum(nullptr, s1, b.in, b.cub, (int64_t)max_n));
    SCG_CHECK_DIE(cub::DeviceScan::ExclusiveScan(nullptr, s2, b.in, b.cub, max_op(),
                                                 (uint64_t)0, (int64_t)max_n));
    SCG_CHECK_DIE(cub::DeviceScan::ExclusiveScan(nullptr, s3, (double *)b.in, (double *)b.cub,
                                                 max_op(), 0.0, (int64_t)max_n));
    b.tmp_bytes = std::max(s1, std::max(s2, s3));
    SCG_CHECK_DIE(cudaMalloc(&b.tmp, b.tmp_bytes));
    cudaDeviceProp prop;
    SCG_CHECK_DIE(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; exclusive scans of 8-byte elements, medians of %d\n", prop.name,
           RUNS);
    printf("libsc runs: %s\n", scg_scan_variant());
    int fails = 0;
    for (int i = 0; i < n_lg; i++) {
        uint64_t n = (uint64_t)1 << lgs[i];
        float copy = median_ms(RUNS, [&] {
            SCG_CHECK_DIE(cudaMemcpyAsync(b.out, b.in, n * 8, cudaMemcpyDeviceToDevice));
        });
        double rate = 2.0 * 8 * n / (copy * 1e-3);
        printf("n = 2^%d (%.0f MiB); D2D copy %.3f ms, %.2f TB/s read+write\n", lgs[i],
               8.0 * n / 1048576, copy, rate / 1e12);
        printf("  %-28s %9s %9s %8s %7s\n", "scan (tile, * libsc's)", "CUB ms", "sc ms",
               "x CUB", "% floor");
        fill<<<4096, 256>>>(b.in, n, 0);
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        fails += bench_one<uint64_t, max_op>(b, n, SC_U64, SC_OP_SUM, (uint64_t)0, rate);
        fails += bench_one<uint64_t, max_op>(b, n, SC_U64, SC_OP_MAX, (uint64_t)0, rate);
        fails += bench_one<uint64_t, min_op>(b, n, SC_U64, SC_OP_MIN, ~(uint64_t)0, rate);
        fails += bench_one<uint64_t, xor_op>(b, n, SC_U64, SC_OP_XOR, (uint64_t)0, rate);
        fill<<<4096, 256>>>(b.in, n, 1);
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        fails += bench_one<int64_t, max_op>(b, n, SC_I64, SC_OP_MAX, (int64_t)INT64_MIN, rate);
        fill<<<4096, 256>>>(b.in, n, 2);
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        fails += bench_one<double, max_op>(b, n, SC_F64, SC_OP_MAX, -1.0 / 0.0, rate);
    }
    return fails ? 1 : 0;
}
