/* bench_sort_records.cu — scg_sort_records against CUB on the record
 * sizes of issue #31's targets, every variant that applies:
 *   - 8-byte records (u32 key, u32 payload) at 2^27 against
 *     DeviceRadixSort::SortPairs u32 -> u32 on the same keys and payloads;
 *   - 16-byte records (u64 key, u64 payload) at 2^26 against SortPairs
 *     u64 -> u64;
 *   - 64-byte records (u32 or u64 key at 0) at 2^24 against CUB's way of
 *     sorting them: the keys and a u32 index pulled out, SortPairs of
 *     those, then a gather of the records, all three timed.
 * Random keys (ties among them) and payloads; CUB's sort is stable, as
 * sc's is, so each of sc's outputs is checked against CUB's byte for byte.
 * Median of RUNS; sc's input is restored untimed before each run (the
 * direct variant sorts in place).  "x CUB" is CUB's time over sc's: above
 * 1 sc is faster.  The line marked (libsc's) is the variant that libsc's
 * sc-rsort runs for that layout (SCG_RSORT_AUTO).  Built with -DSCG_TUNE
 * (and sort.cu with it), the pairs and index variants run once for each
 * tile of sort.cu's table of pairs, the tile named beside the variant;
 * the default tile is the first.
 */
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <stdio.h>
#include <vector>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "bench_timing.cuh"

static const int RUNS = 15;

#ifdef SCG_TUNE
extern "C" int scg_sort_pairs_tune(int which, int cfg);
#endif

/* Record i: the key (random bits, of kbytes) at 0, the rest random. */
__global__ void fill_records(uint32_t *recs, uint64_t n, uint32_t words, uint64_t seed)
{
    uint64_t total = n * words;
    for (uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; t < total;
         t += (uint64_t)gridDim.x * blockDim.x)
        recs[t] = (uint32_t)sc_mix64(seed + t * 0x9e3779b97f4a7c15ull);
}

/* Keys and payloads of records of `words` 4-byte words, the key K at 0,
 * the payload V right after it (or, with idx, the record's index). */
template <class K, class V>
__global__ void split_records(const uint32_t *recs, uint64_t n, uint32_t words, bool idx,
                              K *keys, V *vals)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const uint32_t *r = recs + i * words;
        K k;
        memcpy(&k, r, sizeof k);
        keys[i] = k;
        if (idx) {
            vals[i] = (V)i;
        } else {
            V v;
            memcpy(&v, r + sizeof(K) / 4, sizeof v);
            vals[i] = v;
        }
    }
}

/* Records back from sorted keys and payloads (8 and 16 bytes). */
template <class K, class V>
__global__ void join_records(const K *keys, const V *vals, uint64_t n, uint32_t *recs)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint32_t *r = recs + i * ((sizeof(K) + sizeof(V)) / 4);
        memcpy(r, &keys[i], sizeof(K));
        memcpy(r + sizeof(K) / 4, &vals[i], sizeof(V));
    }
}

/* CUB's record gather: record idx[i] to position i, 16 bytes a thread. */
__global__ void gather64(const uint4 *recs, const uint32_t *idx, uint64_t n, uint4 *out)
{
    for (uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; t < n * 4;
         t += (uint64_t)gridDim.x * blockDim.x)
        out[t] = recs[(uint64_t)idx[t >> 2] * 4 + (t & 3)];
}

static bool same(const void *a, const void *b, size_t bytes)
{
    std::vector<char> ha(bytes), hb(bytes);
    SCG_CHECK_DIE(cudaMemcpy(ha.data(), a, bytes, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(hb.data(), b, bytes, cudaMemcpyDeviceToHost));
    return ha == hb;
}

struct Bufs {
    void *pristine, *in, *out, *scr, *cub_ref;      /* records */
    void *k0, *k1, *v0, *v1, *cub_tmp;              /* CUB's */
    size_t cub_tmp_bytes;
};

/* sc's sort of the records (key type at 0, full width, ascending) with
 * algo, timed and checked against the records CUB sorted (b.cub_ref);
 * -1 if they differ. */
static float ours(uint64_t n, uint32_t size, uint32_t type, int algo, const Bufs &b)
{
    int in_input = 0;
    unsigned bits = sc_type_is_64bit(type) ? 64 : 32;
    float ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_sort_records(b.in, n, size, 0, type, 0, 0, bits, 0,
                                                    SCG_GATHER_ITEMS, 0, b.out, &in_input,
                                                    b.scr, algo, 0));
    }, [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(b.in, b.pristine, n * size, cudaMemcpyDeviceToDevice));
    });
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    return same(in_input ? b.in : b.out, b.cub_ref, n * size) ? ms : -1;
}

#ifdef SCG_TUNE
/* The tiles to time a variant on: which table of sort.cu's pairs it
 * sorts with (scg_sort_pairs_tune's which; -1: none), tile t of it. */
static int pairs_table(int algo, uint32_t type)
{
    if (algo == SCG_RSORT_PAIRS) return 0;
    if (algo == SCG_RSORT_INDEX) return sc_type_is_64bit(type) ? 1 : 2;
    return -1;
}
#endif

/* Picks tile t of the variant's table; its name in tile (empty for the
 * default build); 0 past the last. */
static int pick_tile(int algo, uint32_t type, int t, char *tile, size_t tile_n)
{
    tile[0] = 0;
#ifdef SCG_TUNE
    int which = pairs_table(algo, type);
    if (which < 0) return t == 0;
    int tag = scg_sort_pairs_tune(which, t);
    if (tag) snprintf(tile, tile_n, " %dx%d", tag >> 16, tag & 0x7fff);
    return tag != 0;
#else
    (void)algo, (void)type, (void)tile_n;
    return t == 0;
#endif
}

static void default_tiles(void)
{
#ifdef SCG_TUNE
    for (int which = 0; which < 3; which++) scg_sort_pairs_tune(which, -1);
#endif
}

/* The variants that apply to the layout, against cub_ms; 1 on a
 * mismatch. */
static int report(const char *what, uint64_t n, uint32_t size, uint32_t type, float cub_ms,
                  const Bufs &b)
{
    int direct = scg_sort_records_direct(size, 0, type, 0, SCG_GATHER_ITEMS);
    int pairs = scg_sort_records_pairs(size, 0, type, 0, SCG_GATHER_ITEMS);
    int libsc = direct ? SCG_RSORT_DIRECT : pairs ? SCG_RSORT_PAIRS : SCG_RSORT_WORDS;
    const int algos[] = {SCG_RSORT_DIRECT, SCG_RSORT_PAIRS, SCG_RSORT_WORDS, SCG_RSORT_INDEX};
    const char *const names[] = {"", "words", "direct", "pairs", "index"};
    for (int algo : algos) {
        if ((algo == SCG_RSORT_DIRECT && !direct) || (algo == SCG_RSORT_PAIRS && !pairs))
            continue;
        char tile[32];
        for (int t = 0; pick_tile(algo, type, t, tile, sizeof tile); t++) {
            float ms = ours(n, size, type, algo, b);
            if (ms < 0) {
                printf("  MISMATCH: %s, %s%s variant, differs from CUB\n", what,
                       names[algo], tile);
                default_tiles();
                return 1;
            }
            printf("| %s | 2^%d | %s%s%s | %8.3f | %8.3f | %5.2fx | %6.1f |\n", what,
                   __builtin_ctzll(n), names[algo], tile,
                   algo == libsc && t == 0 ? " (libsc's)" : "", cub_ms, ms, cub_ms / ms,
                   2.0 * n * size / (ms * 1e6));
        }
        default_tiles();
    }
    return 0;
}

static void grid_fill(void *recs, uint64_t n, uint32_t size, uint64_t seed)
{
    fill_records<<<4096, 256>>>((uint32_t *)recs, n, size / 4, seed);
    SCG_CHECK_DIE(cudaGetLastError());
}

/* 8- and 16-byte records against SortPairs K -> V. */
template <class K, class V>
static int pairs_case(const char *what, int lg, uint32_t type, Bufs &b)
{
    uint64_t n = 1ull << lg;
    uint32_t size = sizeof(K) + sizeof(V);
    grid_fill(b.pristine, n, size, 7 + lg);
    split_records<K, V><<<4096, 256>>>((const uint32_t *)b.pristine, n, size / 4, false,
                                       (K *)b.k0, (V *)b.v0);
    SCG_CHECK_DIE(cudaGetLastError());
    size_t tb = 0;
    SCG_CHECK_DIE(cub::DeviceRadixSort::SortPairs(nullptr, tb, (const K *)b.k0, (K *)b.k1,
                                                  (const V *)b.v0, (V *)b.v1, (int64_t)n));
    if (tb > b.cub_tmp_bytes) {
        printf("  CUB's scratch too small\n");
        return 1;
    }
    float cub_ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortPairs(b.cub_tmp, tb, (const K *)b.k0,
                                                      (K *)b.k1, (const V *)b.v0, (V *)b.v1,
                                                      (int64_t)n));
    });
    join_records<K, V><<<4096, 256>>>((const K *)b.k1, (const V *)b.v1, n,
                                      (uint32_t *)b.cub_ref);
    SCG_CHECK_DIE(cudaGetLastError());
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    return report(what, n, size, type, cub_ms, b);
}

/* 64-byte records, key K at 0: CUB's keys and indices, SortPairs,
 * gather, all timed. */
template <class K>
static int gather_case(const char *what, int lg, uint32_t type, Bufs &b)
{
    uint64_t n = 1ull << lg;
    const uint32_t size = 64;
    grid_fill(b.pristine, n, size, 99);
    size_t tb = 0;
    SCG_CHECK_DIE(cub::DeviceRadixSort::SortPairs(
        nullptr, tb, (const K *)b.k0, (K *)b.k1, (const uint32_t *)b.v0,
        (uint32_t *)b.v1, (int64_t)n));
    if (tb > b.cub_tmp_bytes) {
        printf("  CUB's scratch too small\n");
        return 1;
    }
    float cub_ms = median_ms(RUNS, [&] {
        split_records<K, uint32_t><<<4096, 256>>>((const uint32_t *)b.pristine, n, 16, true,
                                                  (K *)b.k0, (uint32_t *)b.v0);
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortPairs(
            b.cub_tmp, tb, (const K *)b.k0, (K *)b.k1, (const uint32_t *)b.v0,
            (uint32_t *)b.v1, (int64_t)n));
        gather64<<<4096, 256>>>((const uint4 *)b.pristine, (const uint32_t *)b.v1, n,
                                (uint4 *)b.cub_ref);
    });
    SCG_CHECK_DIE(cudaGetLastError());
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    return report(what, n, size, type, cub_ms, b);
}

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }
    const size_t rec_bytes = (size_t)1 << 30;   /* 2^27 x 8 = 2^26 x 16 = 2^24 x 64 */
    const size_t half = (size_t)1 << 29;        /* CUB's keys or payloads */
    Bufs b;
    SCG_CHECK_DIE(cudaMalloc(&b.pristine, rec_bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.in, rec_bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.out, rec_bytes));
    SCG_CHECK_DIE(cudaMalloc(&b.cub_ref, rec_bytes));
    size_t scr = std::max(scg_sort_records_scratch(1ull << 27),
                          scg_sort_records_scratch(1ull << 26));
    SCG_CHECK_DIE(cudaMalloc(&b.scr, scr));
    SCG_CHECK_DIE(cudaMalloc(&b.k0, half));
    SCG_CHECK_DIE(cudaMalloc(&b.k1, half));
    SCG_CHECK_DIE(cudaMalloc(&b.v0, half));
    SCG_CHECK_DIE(cudaMalloc(&b.v1, half));
    b.cub_tmp_bytes = 0;
    SCG_CHECK_DIE(cub::DeviceRadixSort::SortPairs(
        nullptr, b.cub_tmp_bytes, (const uint64_t *)nullptr, (uint64_t *)nullptr,
        (const uint64_t *)nullptr, (uint64_t *)nullptr, (int64_t)1 << 26));
    size_t t32 = 0;
    SCG_CHECK_DIE(cub::DeviceRadixSort::SortPairs(
        nullptr, t32, (const uint32_t *)nullptr, (uint32_t *)nullptr,
        (const uint32_t *)nullptr, (uint32_t *)nullptr, (int64_t)1 << 27));
    b.cub_tmp_bytes = std::max(b.cub_tmp_bytes, t32);
    SCG_CHECK_DIE(cudaMalloc(&b.cub_tmp, b.cub_tmp_bytes));
    printf("sort of records: libsc runs %s\n", scg_sort_records_variant(SCG_RSORT_AUTO));
    printf("  direct: %s\n  pairs: %s\n  words: %s\n  index: %s\n",
           scg_sort_records_variant(SCG_RSORT_DIRECT), scg_sort_records_variant(SCG_RSORT_PAIRS),
           scg_sort_records_variant(SCG_RSORT_WORDS), scg_sort_records_variant(SCG_RSORT_INDEX));
    printf("| records | n | sc variant | CUB ms | sc ms | x CUB | sc GB/s (records read+written) |\n");
    printf("|---|---|---|---|---|---|---|\n");
    int rc = pairs_case<uint32_t, uint32_t>("8 B, u32 key (CUB SortPairs u32->u32)", 27, SC_U32, b);
    if (!rc)
        rc = pairs_case<uint64_t, uint64_t>("16 B, u64 key (CUB SortPairs u64->u64)", 26, SC_U64,
                                            b);
    if (!rc)
        rc = gather_case<uint32_t>("64 B, u32 key (CUB: keys and indices, SortPairs, gather)",
                                   24, SC_U32, b);
    if (!rc)
        rc = gather_case<uint64_t>("64 B, u64 key (CUB: keys and indices, SortPairs, gather)",
                                   24, SC_U64, b);
    void *ps[] = {b.pristine, b.in, b.out, b.cub_ref, b.scr, b.k0, b.k1, b.v0, b.v1, b.cub_tmp};
    for (void *p : ps) cudaFree(p);
    return rc;
}
