/* bench_sort_types.cu — scg_sort_type against CUB's DeviceRadixSort::
 * SortKeys on keys of every element type: u32, i32, f32 at 2^24 and 2^28
 * keys, u64, i64, f64 at 2^24 and 2^27, random bits (floats without -0,
 * which CUB orders equal to +0 and sc before it).  Each sort is checked
 * against CUB's output, byte for byte.  Median of RUNS; sc's input is
 * restored untimed before each run (CUB reads one buffer and writes
 * another).
 *
 * Built by bench/run-bench with -DSCG_TUNE: then every tile configuration
 * of 8-byte keys is timed too, and the one libsc calls is marked.
 */
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <algorithm>
#include <functional>
#include <stdio.h>
#include <vector>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "bench_timing.cuh"

#ifdef SCG_TUNE
extern "C" int scg_sort64_tune(int cfg);
#endif

static const int RUNS = 15;
static const char *type_name[] = { "u32", "i32", "f32", "u64", "i64", "f64" };


/* Random bits; -0 of the width (the sign bit alone) becomes +1. */
template <class K>
__global__ void fill_kernel(K *d, uint64_t n, uint64_t seed)
{
    const K neg_zero = (K)1 << (sizeof(K) * 8 - 1);
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        K v = (K)sc_mix64(seed + i * 0x9e3779b97f4a7c15ull);
        d[i] = v == neg_zero ? (K)1 : v;
    }
}

/* CUB's key type for an sc_type of width K. */
template <class K> struct cub_keys;
template <> struct cub_keys<uint32_t> { typedef uint32_t u; typedef int32_t i; typedef float f; };
template <> struct cub_keys<uint64_t> { typedef uint64_t u; typedef int64_t i; typedef double f; };

template <class T>
static void cub_sort(void *scr, size_t bytes, const void *in, void *out, uint64_t n)
{
    SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(scr, bytes, (const T *)in, (T *)out,
                                                 (int64_t)n));
}

template <class K>
static void cub_by_type(uint32_t type, void *scr, size_t bytes, const void *in,
                        void *out, uint64_t n)
{
    if (type == SC_U32 || type == SC_U64) cub_sort<typename cub_keys<K>::u>(scr, bytes, in, out, n);
    else if (type == SC_I32 || type == SC_I64) cub_sort<typename cub_keys<K>::i>(scr, bytes, in, out, n);
    else cub_sort<typename cub_keys<K>::f>(scr, bytes, in, out, n);
}

template <class K>
static size_t cub_bytes(uint32_t type, uint64_t n)
{
    size_t b = 0;
    if (type == SC_U32 || type == SC_U64)
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(nullptr, b, (const typename cub_keys<K>::u *)nullptr,
                                                     (typename cub_keys<K>::u *)nullptr, (int64_t)n));
    else if (type == SC_I32 || type == SC_I64)
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(nullptr, b, (const typename cub_keys<K>::i *)nullptr,
                                                     (typename cub_keys<K>::i *)nullptr, (int64_t)n));
    else
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(nullptr, b, (const typename cub_keys<K>::f *)nullptr,
                                                     (typename cub_keys<K>::f *)nullptr, (int64_t)n));
    return b;
}

static bool same(const void *a, const void *b, size_t bytes)
{
    std::vector<char> ha(bytes), hb(bytes);
    SCG_CHECK_DIE(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
    return ha == hb;
}

struct Bufs { void *in, *cub, *keys, *alt, *scr; };

/* sc's sort of n keys of type, timed and checked against CUB's output
 * (already in b.cub); -1 if it differs. */
static float ours(uint32_t type, uint64_t n, const Bufs &b)
{
    size_t bytes = n * (sc_type_is_64bit(type) ? 8 : 4);
    int is_alt = 0;
    float ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_sort_type(b.keys, b.alt, n, type, 0,
                                                 sc_type_is_64bit(type) ? 64 : 32, 0,
                                                 &is_alt, b.scr, 0));
    }, [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(b.keys, b.in, bytes, cudaMemcpyDeviceToDevice));
    });
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    return same(is_alt ? b.alt : b.keys, b.cub, bytes) ? ms : -1;
}

template <class K>
static int bench_type(uint32_t type, int lg, const Bufs &b, size_t scr_bytes)
{
    uint64_t n = 1ull << lg;
    fill_kernel<K><<<4096, 256>>>((K *)b.in, n, 42 + type);
    SCG_CHECK_DIE(cudaGetLastError());
    size_t cb = cub_bytes<K>(type, n);
    if (cb > scr_bytes || scg_sort_scratch_type(n, type) > scr_bytes) {
        fprintf(stderr, "scratch too small\n");
        return 1;
    }
    float cub_ms = median_ms(RUNS, [&] { cub_by_type<K>(type, b.scr, cb, b.in, b.cub, n); },
                             [] {});
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    float ms = ours(type, n, b);
    if (ms < 0) {
        fprintf(stderr, "scg_sort_type %s 2^%d differs from CUB\n", type_name[type], lg);
        return 1;
    }
    double gkeys = n / (ms * 1e6);
    printf("| %s | 2^%d | %8.3f | %8.3f | %5.2fx | %6.2f |\n", type_name[type], lg,
           cub_ms, ms, cub_ms / ms, gkeys);
#ifdef SCG_TUNE
    if (sizeof(K) == 8) {
        int shipped = scg_sort64_tune(-1);
        for (int c = 0; int tag = scg_sort64_tune(c); c++) {
            float t = ours(type, n, b);
            printf("|   tile %d x %d%s | 2^%d | | %8.3f | %5.2fx | |\n", tag >> 16,
                   tag & 0x7fff, tag == shipped ? " (libsc's)" : "", lg, t,
                   t > 0 ? cub_ms / t : 0.0);
        }
        scg_sort64_tune(-1);
    }
#endif
    return 0;
}

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }
    const size_t max_bytes = (size_t)1 << 30;     /* 2^28 x 4 = 2^27 x 8 */
    Bufs b;
    SCG_CHECK_DIE(cudaMalloc(&b.in, max_bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.cub, max_bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.keys, max_bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.alt, max_bytes));
    size_t scr_bytes = std::max(scg_sort_scratch_type(1ull << 27, SC_U64),
                                scg_sort_scratch_type(1ull << 28, SC_U32));
    scr_bytes = std::max(scr_bytes, cub_bytes<uint64_t>(SC_U64, 1ull << 27) * 2);
    SCG_CHECK_DIE(cudaMalloc(&b.scr, scr_bytes));

    printf("sort: %s\n", scg_sort_variant());
    printf("| type | keys | CUB SortKeys ms | sc ms | x CUB | G keys/s |\n");
    printf("|---|---|---|---|---|---|\n");
    int rc = 0;
    for (uint32_t type = SC_U32; type <= SC_F64 && !rc; type++) {
        int big = sc_type_is_64bit(type) ? 27 : 28;
        for (int lg : { 24, big }) {
            rc = sc_type_is_64bit(type) ? bench_type<uint64_t>(type, lg, b, scr_bytes)
                                        : bench_type<uint32_t>(type, lg, b, scr_bytes);
            if (rc) break;
        }
    }
    cudaFree(b.in); cudaFree(b.cub); cudaFree(b.keys); cudaFree(b.alt); cudaFree(b.scr);
    return rc;
}
