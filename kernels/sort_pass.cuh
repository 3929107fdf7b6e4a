/* sort_pass.cuh — the kernels of sort.cu's radix sort: the histogram
 * pass, the prefix over digits, and one onesweep pass (rank, place, look
 * back, write), each over keys of 4 or 8 bytes (K), alone or with a value
 * each (V; NoVal: keys alone).  sort.cu says how they fit together and
 * launches them. */
#ifndef SC_SORT_PASS_CUH
#define SC_SORT_PASS_CUH

#include <cuda_runtime.h>
#include <type_traits>
#include "sc_kernels.h"
#include "tile_status.cuh"
#include "tile_config.cuh"
#include "sort_rank.cuh"

namespace {

/* The rank transform of K's types: sc_key for 4 bytes, sc_key64 for 8. */
template <class K> struct key_map;
template <> struct key_map<uint32_t> {
    sc_key k;
    static key_map of(uint32_t type) { key_map m; m.k = sc_key_of(type); return m; }
    __device__ __forceinline__ uint32_t rank(uint32_t x) const { return sc_key_rank(k, x); }
    __device__ __forceinline__ uint32_t unrank(uint32_t r) const { return sc_key_unrank(k, r); }
};
template <> struct key_map<uint64_t> {
    sc_key64 k;
    static key_map of(uint32_t type) { key_map m; m.k = sc_key64_of(type); return m; }
    __device__ __forceinline__ uint64_t rank(uint64_t x) const { return sc_key64_rank(k, x); }
    __device__ __forceinline__ uint64_t unrank(uint64_t r) const { return sc_key64_unrank(k, r); }
};

struct Passes {
    int count;
    sc_order d[MAX_PASSES];
};

/* ---------------- count: all histograms in one read ---------------- */

constexpr int HIST_THREADS = 512;

/* A key's digit in each pass; PASSES bounds the loop for the key's
 * width. */
template <int PASSES, class K>
__device__ __forceinline__ void hist_add(uint32_t (*h)[RADIX],
                                         const Passes &ps, K k)
{
#pragma unroll
    for (int p = 0; p < PASSES; p++)
        if (p < ps.count)
            atomicAdd(&h[p][key_digit(ps.d[p], k)], 1u);
}

/* The keys of one 16-byte load. */
template <class K> struct vec16;
template <> struct vec16<uint32_t> { typedef uint4 v; enum { N = 4 }; };
template <> struct vec16<uint64_t> { typedef ulonglong2 v; enum { N = 2 }; };

/* STRIDE: key i at keys[i * STRIDE] (2: the keys of 16-byte records,
 * read one at a time). */
template <class K, bool RANKED, int STRIDE = 1>
__global__ void __launch_bounds__(HIST_THREADS)
hist_kernel(const K *keys, uint64_t n, int aligned, Passes ps,
            key_map<K> map, u64 *hist)
{
    constexpr int PASSES = sizeof(K) * 8 / RADIX_BITS;
    constexpr int V = vec16<K>::N;
    __shared__ uint32_t h[PASSES][RADIX];
    for (int i = threadIdx.x; i < PASSES * RADIX; i += HIST_THREADS)
        (&h[0][0])[i] = 0;
    __syncthreads();

    uint64_t stride = (uint64_t)gridDim.x * HIST_THREADS;
    uint64_t t = (uint64_t)blockIdx.x * HIST_THREADS + threadIdx.x;
    uint64_t scalar_from = 0;
    if (STRIDE == 1 && aligned) {
        typedef typename vec16<K>::v VT;
        const VT *kv = (const VT *)keys;
        for (uint64_t i = t; i < n / V; i += stride) {
            VT q = __ldcs(kv + i);
            const K *e = (const K *)&q;
#pragma unroll
            for (int j = 0; j < V; j++)
                hist_add<PASSES>(h, ps, RANKED ? map.rank(e[j]) : e[j]);
        }
        scalar_from = n / V * V;
    }
    for (uint64_t i = scalar_from + t; i < n; i += stride)
        hist_add<PASSES>(h, ps, RANKED ? map.rank(keys[i * STRIDE]) : keys[i * STRIDE]);
    __syncthreads();

    for (int i = threadIdx.x; i < ps.count * RADIX; i += HIST_THREADS) {
        uint32_t c = (&h[0][0])[i];
        if (c) atomicAdd(&hist[i], (u64)c);
    }
}

/* prefix over digits: first output position of each digit, per pass; and
 * whether the pass is trivial (one digit holds all n keys).  A block a
 * pass and a thread a digit: one thread walking the 256 counts took
 * 24 us, more than the whole gap to CUB at 2^20 keys. */
__global__ void __launch_bounds__(RADIX)
bins_kernel(const u64 *hist, uint64_t n, u64 *bins, int *trivial)
{
    __shared__ u64 warp_total[RADIX / 32];
    int p = blockIdx.x, d = threadIdx.x, warp = d >> 5;
    u64 c = hist[p * RADIX + d];
    u64 inc = te::warp_inclusive<te::plus<u64>, u64>(c);
    if (te::lane_id() == 31) warp_total[warp] = inc;
    int one_digit = __syncthreads_or(c == n);
    u64 before = 0;
    for (int w = 0; w < warp; w++) before += warp_total[w];
    bins[p * RADIX + d] = before + inc - c;
    if (d == 0) trivial[p] = one_digit;
}

/* ---------------- one pass: rank, place, look back, write ---------------- */

/* Keys alone: no values. */
struct NoVal {};

/* A pass's values, where V is not NoVal: they go where their keys go.
 * With rec_kin set, the keys and values are instead read from and
 * written to 16-byte records (key word and value word, in either order)
 * by the first and the last pass that move them, the passes between
 * going through the two buffers: a sort of records with no copies. */
template <class K, class V>
struct ValArgs {
    V *vals, *valt;         /* beside keys and alt */
    const V *vin;           /* chosen by the kernel */
    V *vout;
    const K *rec_kin;       /* the records' key words, or NULL */
    const V *rec_vin;       /* their value words */
    K *rec_kout;            /* the output records' words */
    V *rec_vout;
    int in_stride, out_stride;  /* chosen by the kernel: 2 for records */
};
template <class K> struct ValArgs<K, NoVal> {};

template <class K, class V = NoVal>
struct PassArgs : ValArgs<K, V> {
    K *keys, *alt;          /* the pass reads one, writes the other */
    const int *trivial;     /* [MAX_PASSES], from bins_kernel */
    int pass, passes;
    int *result_is_alt;     /* written by the last pass */
    const K *in;            /* chosen by the kernel */
    K *out;
    uint64_t n;
    sc_order dig;
    key_map<K> map;
    int rank_in, unrank_out;    /* set by a RANKED kernel: this pass ranks
                                   the keys it reads, unranks those it
                                   writes */
    uint32_t epoch;
    u64 *status;            /* [tile][RADIX] */
    const u64 *bins;        /* [RADIX], this pass */
    uint32_t *tile_counter;
};

/* A pass's shared memory.  Per-warp digit counters and match words are
 * done with before the keys are placed; the values (no wider than the
 * keys) are placed in the keys' room once the keys are written. */
template <int THREADS, int ITEMS, class K>
struct PassShared {
    union {
        struct {
            uint32_t cnt[THREADS / 32][RADIX];
            uint32_t match[THREADS / 32][RADIX];
        } w;
        K keys[THREADS * ITEMS];
    } sm;
    uint32_t local_start[RADIX];
    u64 global[RADIX];
    uint32_t warp[RADIX / 32];
    uint32_t tile;
};

/* One tile of a pass.  FULL: the tile holds TILE keys, so every bound
 * check folds away (rem is a constant); the last tile runs with them.
 * Values, as CUB's onesweep carries them: each thread loads its items'
 * values at its keys' positions, and once the keys are written they are
 * placed in shared memory by the keys' ranks and written where the keys
 * at the same places went.  rank[i] keeps item i's rank in its low 16
 * bits and, from the keys' write, the digit of the key written from
 * place i above them. */
template <int THREADS, int ITEMS, bool FULL, bool RANKED, class K, class V>
__device__ __forceinline__ void sort_tile(const PassArgs<K, V> &a,
                                          PassShared<THREADS, ITEMS, K> &sh,
                                          uint32_t tile, uint32_t tile_n)
{
    constexpr int TILE = THREADS * ITEMS;
    constexpr int WARPS = THREADS / 32;
    constexpr bool PAIRS = !std::is_same<V, NoVal>::value;
    static_assert(!PAIRS || (sizeof(V) <= sizeof(K) && TILE <= 65536),
                  "values in the keys' room, ranks in 16 bits");
    int is = 1, os = 1;     /* strides of the keys and values read, written */
    if constexpr (PAIRS) {
        is = a.in_stride;
        os = a.out_stride;
    }
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    uint32_t d = threadIdx.x;       /* the digit this thread looks after */
    uint64_t tile_base = (uint64_t)tile * TILE;
    te::packed_status st = { (uint64_t *)a.status + (d < RADIX ? d : 0), RADIX,
                             2 * a.epoch + 1 };

    /* A warp owns ITEMS*32 consecutive keys; item i of lane l is key
     * i*32 + l of that run, so the order is (item, lane). */
    int first = warp * ITEMS * 32 + lane;      /* within the tile */
    const K *src = a.in + (tile_base + first) * is;
    /* item i is valid iff i*32 < rem: 32-bit compares only */
    const int rem = FULL ? ITEMS * 32 : (int)tile_n - first;
    K key[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        key[i] = FULL ? __ldcs(src + i * 32 * is) : i * 32 < rem ? src[i * 32 * is] : 0;
    V val[PAIRS ? ITEMS : 1];
    if constexpr (PAIRS) {
        const V *vsrc = a.vin + (tile_base + first) * is;
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            val[i] = FULL ? __ldcs(vsrc + i * 32 * is) : i * 32 < rem ? vsrc[i * 32 * is] : V();
    }
    if (RANKED && a.rank_in) {
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            key[i] = a.map.rank(key[i]);
    }

    uint32_t rank[ITEMS];
    rank_warp<ITEMS>(key, rem, a.dig, sh.sm.w.cnt[warp], sh.sm.w.match[warp], rank);
    __syncthreads();
    /* warp counts become warp offsets; the tile count is published at once
     * so that successors can look past this tile */
    uint32_t tile_count = 0;
    if (d < RADIX) {
#pragma unroll 4
        for (int w = 0; w < WARPS; w++) {
            uint32_t c = sh.sm.w.cnt[w][d];
            sh.sm.w.cnt[w][d] = tile_count;
            tile_count += c;
        }
        st.publish_agg(tile, tile_count);
    }
    uint32_t local_start = block_exclusive_radix<THREADS>(tile_count, sh.warp);
    if (d < RADIX)
        sh.local_start[d] = local_start;
    __syncthreads();
    /* place the keys in digit order on chip before looking back, so that
     * the predecessors have the longest time to publish their prefixes */
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        if (i * 32 < rem) {
            uint32_t dd = key_digit(a.dig, key[i]);
            rank[i] += sh.local_start[dd] + sh.sm.w.cnt[warp][dd];
        }
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        if (i * 32 < rem)
            sh.sm.keys[rank[i]] = key[i];
    if (d < RADIX) {
        u64 excl = tile > 0 ? look_back_digit(st, tile, tile_count) : 0;
        sh.global[d] = a.bins[d] + excl - local_start;
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < ITEMS; i++) {
        uint32_t j = threadIdx.x + i * THREADS;
        if (FULL || j < tile_n) {
            K k = sh.sm.keys[j];
            a.out[(sh.global[key_digit(a.dig, k)] + j) * os] =
                RANKED && a.unrank_out ? a.map.unrank(k) : k;
            if constexpr (PAIRS)
                rank[i] |= key_digit(a.dig, k) << 16;
        }
    }
    if constexpr (PAIRS) {
        V *vals = (V *)sh.sm.keys;
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++)
            if (i * 32 < rem)
                vals[rank[i] & 0xffff] = val[i];
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            uint32_t j = threadIdx.x + i * THREADS;
            if (FULL || j < tile_n)
                a.vout[(sh.global[rank[i] >> 16] + j) * os] = vals[j];
        }
    }
}

/* RANKED: the keys are of a signed or float type, sorted by rank (an
 * unsigned type's kernel carries none of it).  V: the values (NoVal:
 * none). */
template <int THREADS, int ITEMS, bool SPLIT_FULL, int MINB, class K, class V, bool RANKED>
__global__ void __launch_bounds__(THREADS, MINB)
sort_pass_kernel(PassArgs<K, V> a)
{
    constexpr int TILE = THREADS * ITEMS;
    constexpr bool PAIRS = !std::is_same<V, NoVal>::value;
    static_assert(THREADS >= RADIX && THREADS % 32 == 0, "one thread per digit");
    __shared__ PassShared<THREADS, ITEMS, K> sh;
    /* the passes before that moved keys say which buffer holds them, and
     * whether they are ranks yet; those after, whether to unrank */
    int moved = 0, later = 0;
    for (int q = 0; q < a.pass; q++)
        moved += !a.trivial[q];
    if (RANKED || PAIRS)
        for (int q = a.pass + 1; q < a.passes; q++)
            later += !a.trivial[q];
    int skip = a.trivial[a.pass];
    /* records reach the output only through a pass that moves them: where
     * every pass is trivial, the last runs all the same */
    if constexpr (PAIRS)
        if (a.rec_kin && a.pass == a.passes - 1 && moved == 0)
            skip = 0;
    if (a.pass == a.passes - 1 && blockIdx.x == 0 && threadIdx.x == 0)
        *a.result_is_alt = (moved + !skip) & 1;
    if (skip)
        return;
    a.in = moved & 1 ? a.alt : a.keys;
    a.out = moved & 1 ? a.keys : a.alt;
    a.rank_in = moved == 0;
    a.unrank_out = later == 0;
    if constexpr (PAIRS) {
        a.vin = moved & 1 ? a.valt : a.vals;
        a.vout = moved & 1 ? a.vals : a.valt;
        a.in_stride = a.out_stride = 1;
        if (a.rec_kin) {
            if (moved == 0) {
                a.in = a.rec_kin;
                a.vin = a.rec_vin;
                a.in_stride = 2;
            }
            if (later == 0) {
                a.out = a.rec_kout;
                a.vout = a.rec_vout;
                a.out_stride = 2;
            }
        }
    }
    if (threadIdx.x == 0)
        sh.tile = atomicAdd(a.tile_counter, 1u);
    for (int i = threadIdx.x; i < (int)(sizeof sh.sm.w / 4); i += THREADS)
        (&sh.sm.w.cnt[0][0])[i] = 0;
    __syncthreads();
    uint32_t tile = sh.tile;
    uint32_t tile_n = (uint32_t)min((uint64_t)TILE, a.n - (uint64_t)tile * TILE);
    if (SPLIT_FULL && tile_n == TILE)
        sort_tile<THREADS, ITEMS, true, RANKED, K, V>(a, sh, tile, tile_n);
    else
        sort_tile<THREADS, ITEMS, false, RANKED, K, V>(a, sh, tile, tile_n);
}

}  // namespace

#endif /* SC_SORT_PASS_CUH */
