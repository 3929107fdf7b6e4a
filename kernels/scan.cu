/* scan.cu — prefix scan (sum, max, min, xor), the three phases fused into
 * one pass over the data.
 *
 * 32-bit accumulators over 16-byte aligned arrays run the persistent pass
 * of agent_scan.cuh, whose look-back is on a warp of its own (1.11x CUB
 * against 1.05x for the kernel below, which the rest run).
 *
 * The kernel here: each block takes the next tile (dynamic tile ids, so a tile's predecessors
 * are always running or done: the look-back cannot deadlock) and does:
 *   count:  reduce its tile on chip;
 *   prefix: publish that aggregate, then look back over the predecessors'
 *           published values (decoupled look-back, Merrill & Garland 2016)
 *           until one carries an inclusive prefix; publish its own;
 *   move:   scan the tile locally, add the tile's prefix, write.
 * So the data is read once and written once: the floor of a scan.
 *
 * Elements of 8 bytes (scg_scan64) run the same kernel, two a vector, with
 * 64-bit accumulators; max and min of i64 and f64 on the elements' ranks.
 *
 * The accumulator starts at *d_carry_in (device memory, so calls can be
 * queued back to back with the previous call's *d_carry_out) and the last
 * tile writes the final accumulator to *d_carry_out.
 */
#include <cuda_runtime.h>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "tile_status.cuh"
#include "tile_config.cuh"
#include "agent_scan.cuh"
#include "launch_util.cuh"

namespace {

/* Tile shapes: THREADS threads, VECS uint4 per thread.  The smallest tile
 * of all configurations sizes the scratch. */
constexpr int MIN_TILE = 2048;

typedef unsigned long long u64;

/* The four operators as functors of the tile engine's warp layer. */
template <int OP, typename T> struct scan_op {
    typedef T type;
    __device__ __forceinline__ static T apply(T a, T b)
    {
        if constexpr (OP == SC_OP_SUM) return a + b;
        else if constexpr (OP == SC_OP_MAX) return a > b ? a : b;
        else if constexpr (OP == SC_OP_MIN) return a < b ? a : b;
        else return a ^ b;
    }
    __device__ __forceinline__ static T identity()
    {
        return OP == SC_OP_MIN ? (T)~(T)0 : (T)0;
    }
};

template <int OP, typename T> __device__ __forceinline__ T op_apply(T a, T b)
{
    return scan_op<OP, T>::apply(a, b);
}
template <int OP, typename T> __device__ __forceinline__ T op_identity()
{
    return scan_op<OP, T>::identity();
}

/* Padding for elements past n, in the accumulator's domain (E, after the
 * element's transform).  For min over uint32 inputs with a 64-bit
 * accumulator this is 2^32-1, not the 64-bit identity, which is harmless:
 * a padded tile always holds at least one real input, itself <= 2^32-1. */
template <int OP, typename E> __device__ __forceinline__ E op_pad()
{
    return OP == SC_OP_MIN ? (E)~(E)0 : (E)0;
}

template <int OP, typename T> __device__ __forceinline__ T warp_inclusive(T x)
{
    return te::warp_inclusive<scan_op<OP, T>, T>(x);
}

/* 32-bit accumulators fit the packed status word; the wide sum needs the
 * two-slot one (tile_status.cuh). */
template <typename T> struct StatusFor { typedef te::packed_status type; };
template <> struct StatusFor<u64> { typedef te::wide_status type; };

using te::as_is;
using te::ranked64;
using te::unpack;

/* Elements of E a 16-byte vector. */
template <typename E> struct vec_of { static const int EPV = 16 / (int)sizeof(E); };

/* Thread (warp w, lane l) holds vectors v = 0..VECS-1 at tile offset
 * w*(32*VECS*EPV) + v*32*EPV + l*EPV: each load instruction of a warp
 * covers 512 contiguous bytes, and a warp's elements are contiguous, in the
 * order (v, lane, component). */
template <int VECS, int EPV>
__device__ __forceinline__ uint64_t elem_base(uint64_t tile_base)
{
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    return tile_base + (uint64_t)warp * (32 * VECS * EPV) + (uint64_t)lane * EPV;
}

template <int OP, typename E, int VECS, bool CS, class XF>
__device__ __forceinline__ void load_tile(const E *in, uint64_t n, uint64_t base,
                                          bool fast, E (&x)[VECS][vec_of<E>::EPV],
                                          const XF &xf)
{
    constexpr int EPV = vec_of<E>::EPV;
    if (fast) {
#pragma unroll
        for (int v = 0; v < VECS; v++) {
            const uint4 *q4 = (const uint4 *)(in + base + v * 32 * EPV);
            unpack(CS ? __ldcs(q4) : *q4, x[v]);
#pragma unroll
            for (int c = 0; c < EPV; c++)
                x[v][c] = xf.in(x[v][c]);
        }
        return;
    }
#pragma unroll
    for (int v = 0; v < VECS; v++)
#pragma unroll
        for (int c = 0; c < EPV; c++) {
            uint64_t i = base + v * 32 * EPV + c;
            x[v][c] = i < n ? xf.in(in[i]) : op_pad<OP, E>();
        }
}

template <bool CS, typename V> __device__ __forceinline__ void store_v(V *p, V v)
{
    if (CS) __stcs(p, v);
    else *p = v;
}

template <bool CS>
__device__ __forceinline__ void store_vec(uint32_t *out, const uint32_t (&o)[4])
{
    store_v<CS>((uint4 *)out, make_uint4(o[0], o[1], o[2], o[3]));
}

template <bool CS>
__device__ __forceinline__ void store_vec(u64 *out, const u64 (&o)[4])
{
    store_v<CS>((ulonglong2 *)out, make_ulonglong2(o[0], o[1]));
    store_v<CS>((ulonglong2 *)out + 1, make_ulonglong2(o[2], o[3]));
}

template <bool CS>
__device__ __forceinline__ void store_vec(u64 *out, const u64 (&o)[2])
{
    store_v<CS>((ulonglong2 *)out, make_ulonglong2(o[0], o[1]));
}

/* A vector's elements reduced, pairwise where there are four. */
template <int OP, typename T, typename E, int EPV>
__device__ __forceinline__ T vec_reduce(const E (&x)[EPV])
{
    if constexpr (EPV == 4)
        return op_apply<OP, T>(op_apply<OP, T>((T)x[0], (T)x[1]),
                               op_apply<OP, T>((T)x[2], (T)x[3]));
    else
        return op_apply<OP, T>((T)x[0], (T)x[1]);
}

/* One tile held in x: count (reduce on chip), prefix (publish, look back),
 * move (local scan plus the tile's prefix).  All threads of the block. */
template <int OP, typename E, typename T, int SCAN_THREADS, int SCAN_VECS, bool CS,
          class XF>
__device__ __forceinline__ void scan_tile(const E (&x)[SCAN_VECS][vec_of<E>::EPV],
                                          uint32_t tile, bool fast, uint64_t base,
                                          uint64_t n, int inclusive,
                                          const uint64_t *carry_in, T *out,
                                          uint64_t *carry_out,
                                          const typename StatusFor<T>::type &st,
                                          uint32_t num_tiles, T *s_warp, const XF &xf)
{
    constexpr int SCAN_WARPS = SCAN_THREADS / 32;
    constexpr int EPV = vec_of<E>::EPV;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    /* count: per-vector sums, scanned across the warp, chained over v */
    T pre[SCAN_VECS];
    T run = op_identity<OP, T>();
#pragma unroll
    for (int v = 0; v < SCAN_VECS; v++) {
        T s = vec_reduce<OP, T, E, EPV>(x[v]);
        T inc = warp_inclusive<OP, T>(s);
        T exc = te::warp_exclusive_of<scan_op<OP, T>, T>(inc);
        pre[v] = op_apply<OP, T>(run, exc);
        run = op_apply<OP, T>(run, __shfl_sync(0xffffffffu, inc, 31));
    }
    if (lane == 0)
        s_warp[warp] = run;
    __syncthreads();

    /* prefix: warp 0 scans the warp totals and resolves the tile's prefix */
    if (warp == 0) {
        T w = lane < SCAN_WARPS ? s_warp[lane] : op_identity<OP, T>();
        T winc = warp_inclusive<OP, T>(w);
        T wexc = te::warp_exclusive_of<scan_op<OP, T>, T>(winc);
        T agg = __shfl_sync(0xffffffffu, winc, SCAN_WARPS - 1);
        T prefix;
        if (tile == 0) {
            prefix = (T)*carry_in;
        } else {
            if (lane == 0) st.publish_agg((uint64_t)tile, agg);
            prefix = te::warp_lookback<scan_op<OP, T> >(st, tile);
        }
        T total = op_apply<OP, T>(prefix, agg);
        if (lane == 0) {
            st.publish_prefix((uint64_t)tile, total);
            if (tile == num_tiles - 1) *carry_out = total;
        }
        if (lane < SCAN_WARPS)
            s_warp[lane] = op_apply<OP, T>(prefix, wexc);
        static_assert(SCAN_WARPS <= 32, "one warp scans the warp totals");
    }
    __syncthreads();

    /* move: local scan plus offset */
    T wprefix = s_warp[warp];
#pragma unroll
    for (int v = 0; v < SCAN_VECS; v++) {
        T acc = op_apply<OP, T>(wprefix, pre[v]);
        T o[EPV];
#pragma unroll
        for (int c = 0; c < EPV; c++) {
            T nxt = op_apply<OP, T>(acc, (T)x[v][c]);
            o[c] = xf.out(inclusive ? nxt : acc);
            acc = nxt;
        }
        uint64_t i = base + v * 32 * EPV;
        if (fast) {
            store_vec<CS>(out + i, o);
        } else {
#pragma unroll
            for (int c = 0; c < EPV; c++)
                if (i + c < n) out[i + c] = o[c];
        }
    }
}


/* CS: streaming (evict-first) loads and stores.  Elements E, accumulator
 * and outputs T (as wide as E or wider). */
template <int OP, typename E, typename T, int SCAN_THREADS, int SCAN_VECS, bool CS,
          class XF>
__global__ void __launch_bounds__(SCAN_THREADS)
scan_kernel(const E *in, uint64_t n, int inclusive, int aligned,
            const uint64_t *carry_in, T *out, uint64_t *carry_out,
            typename StatusFor<T>::type st, uint32_t *tile_counter,
            uint32_t num_tiles, XF xf)
{
    constexpr int SCAN_WARPS = SCAN_THREADS / 32;
    constexpr int EPV = vec_of<E>::EPV;
    constexpr int SCAN_TILE = SCAN_THREADS * SCAN_VECS * EPV;
    __shared__ uint32_t s_tile;
    __shared__ T s_warp[SCAN_WARPS];

    if (threadIdx.x == 0)
        s_tile = atomicAdd(tile_counter, 1u);
    __syncthreads();
    uint32_t tile = s_tile;
    uint64_t tile_base = (uint64_t)tile * SCAN_TILE;
    bool fast = aligned && tile_base + SCAN_TILE <= n;
    uint64_t base = elem_base<SCAN_VECS, EPV>(tile_base);

    E x[SCAN_VECS][EPV];
    load_tile<OP, E, SCAN_VECS, CS>(in, n, base, fast, x, xf);
    scan_tile<OP, E, T, SCAN_THREADS, SCAN_VECS, CS>(x, tile, fast, base, n, inclusive,
                                                     carry_in, out, carry_out, st,
                                                     num_tiles, s_warp, xf);
}

__global__ void carry_copy_kernel(const uint64_t *in, uint64_t *out, int wide)
{
    *out = wide ? *in : (uint32_t)*in;
}

uint64_t tiles_for(uint64_t n, uint64_t tile)
{
    uint64_t t = (n + tile - 1) / tile;
    return t ? t : 1;
}

#ifdef SCG_TUNE
/* The bench's configurations: slots > 0 is the persistent pass of
 * agent_scan.cuh (32-bit accumulators over aligned arrays), 0 the one-
 * tile-per-block kernel above, which the others run. */
struct ScanCfg { int threads, vecs, slots; };
const ScanCfg scan_cfgs[] = {
    { te::cfg::scan::P_THREADS, te::cfg::scan::P_VECS, te::cfg::scan::P_SLOTS },  /* default */
    { te::cfg::scan::THREADS, te::cfg::scan::VECS, 0 },
};
int scan_cfg = 0;
/* 8-byte elements: 0 the default (tile_config.cuh's E64_*), then over
 * aligned arrays the persistent pass at 480 x 4 uint4 with 3 slots and 2,
 * 480 x 8 with 2 (1 block an SM), and one tile a block of 512 x 16. */
int scan64_cfg = 0;
#endif

/* Scratch: [tile counter | flags (wide) | status words or agg + incl]. */
template <int OP, typename E, typename T, int THREADS, int VECS, bool CS, class XF>
int launch(const E *d_in, uint64_t n, int inclusive, const uint64_t *d_carry_in,
           void *d_out, uint64_t *d_carry_out, void *d_scratch, cudaStream_t s,
           const XF &xf)
{
    constexpr int TILE = THREADS * VECS * vec_of<E>::EPV;
    static_assert(TILE >= MIN_TILE, "scratch sized for MIN_TILE");
    uint64_t tiles = tiles_for(n, TILE);
    if (tiles > 0x7fffffffu)
        return (int)cudaErrorInvalidValue;
    char *p = (char *)d_scratch;
    uint32_t *counter = (uint32_t *)p;
    typename StatusFor<T>::type st;
    size_t clear;
    if constexpr (sizeof(T) == 4) {
        st.words = (uint64_t *)(p + 256);
        st.stride = 1;
        st.code_agg = 1;
        clear = 256 + tiles * 8;
    } else {
        st.flag = (uint32_t *)(p + 256);
        st.agg = (uint64_t *)(p + 256 + te::round256(tiles * 4));
        st.incl = st.agg + tiles;
        clear = 256 + tiles * 4;
    }
    SCG_CHECK(cudaMemsetAsync(d_scratch, 0, clear, s));
    int aligned = (((uintptr_t)d_in | (uintptr_t)d_out) & 15) == 0;
    scan_kernel<OP, E, T, THREADS, VECS, CS, XF><<<(unsigned)tiles, THREADS, 0, s>>>(
        d_in, n, inclusive, aligned, d_carry_in, (T *)d_out, d_carry_out, st,
        counter, (uint32_t)tiles, xf);
    SCG_CHECK_LAUNCH();
    return 0;
}

template <int OP, typename T>
int launch_cfg(const uint32_t *d_in, uint64_t n, int inclusive,
               const uint64_t *d_carry_in, void *d_out, uint64_t *d_carry_out,
               void *d_scratch, cudaStream_t s)
{
    typedef te::cfg::scan C;
    bool persistent = (((uintptr_t)d_in | (uintptr_t)d_out) & 15) == 0;
#ifdef SCG_TUNE
    persistent = persistent && scan_cfgs[scan_cfg].slots;
#endif
    if constexpr (sizeof(T) == 8) {
        return launch<OP, uint32_t, T, C::WIDE_THREADS, C::WIDE_VECS, true>(
            d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, as_is());
    } else {
        if (persistent) {
            te::scan_args a = { d_in, (uint32_t *)d_out, n, 0, d_carry_in, d_carry_out,
                                inclusive };
            return te::run_persistent_scan<scan_op<OP, uint32_t>, C::P_THREADS,
                                           C::P_VECS, C::P_SLOTS, C::P_MINB>(a, d_scratch,
                                                                             s);
        }
        return launch<OP, uint32_t, T, C::THREADS, C::VECS, true>(
            d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, as_is());
    }
}

template <typename T>
int launch_op(int op, const uint32_t *d_in, uint64_t n, int inclusive,
              const uint64_t *d_carry_in, void *d_out, uint64_t *d_carry_out,
              void *d_scratch, cudaStream_t s)
{
    switch (op) {
    case SC_OP_SUM: return launch_cfg<SC_OP_SUM, T>(d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s);
    case SC_OP_MAX: return launch_cfg<SC_OP_MAX, T>(d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s);
    case SC_OP_MIN: return launch_cfg<SC_OP_MIN, T>(d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s);
    case SC_OP_XOR: return launch_cfg<SC_OP_XOR, T>(d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s);
    }
    return (int)cudaErrorInvalidValue;
}

/* 8-byte elements: one tile per block, the largest measured, 1024 x 8
 * uint4; the persistent pass of agent_scan.cuh, which the 32-bit scans
 * run, measured slower with 64-bit accumulators at every shape tried (the
 * variants below; bench/RESULTS.md, "Session 26"). */
template <int OP, class XF>
int launch64(const u64 *d_in, uint64_t n, int inclusive, const uint64_t *d_carry_in,
             void *d_out, uint64_t *d_carry_out, void *d_scratch, cudaStream_t s,
             const XF &xf)
{
    typedef te::cfg::scan C;
#ifdef SCG_TUNE
    typedef scan_op<OP, uint64_t> SOP;
    bool aligned = (((uintptr_t)d_in | (uintptr_t)d_out) & 15) == 0;
    te::scan_args a = { d_in, d_out, n, 0, d_carry_in, d_carry_out, inclusive };
    if (aligned) switch (scan64_cfg) {
    case 1: return te::run_persistent_scan<SOP, 480, 4, 3, 2, uint64_t>(a, d_scratch, s, xf);
    case 2: return te::run_persistent_scan<SOP, 480, 4, 2, 2, uint64_t>(a, d_scratch, s, xf);
    case 3: return te::run_persistent_scan<SOP, 480, 8, 2, 1, uint64_t>(a, d_scratch, s, xf);
    case 4: return launch<OP, u64, u64, 512, 16, true>(d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, xf);
    }
#endif
    return launch<OP, u64, u64, C::E64_THREADS, C::E64_VECS, true>(
        d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, xf);
}

} /* namespace */

#ifdef SCG_TUNE
/* Bench only: pick a tile configuration; returns threads * 100 + uint4 per
 * thread + ring slots * 1000000 (persistent), 0 if none. */
extern "C" int scg_scan_tune(int cfg)
{
    if (cfg < 0 || cfg >= (int)(sizeof scan_cfgs / sizeof scan_cfgs[0]))
        return 0;
    scan_cfg = cfg;
    const ScanCfg &c = scan_cfgs[cfg];
    return c.threads * 100 + c.vecs + c.slots * 1000000;
}
#endif

#ifdef SCG_TUNE
/* Bench only: the 8-byte elements' tile, as scan64_cfg numbers them;
 * returns threads * 100 + uint4 per thread + ring slots * 1000000
 * (persistent), 0 if none. */
extern "C" int scg_scan64_tune(int cfg)
{
    static const int shapes[] = { te::cfg::scan::E64_THREADS * 100 + te::cfg::scan::E64_VECS,
                                  3048004, 2048004, 2048008, 51216 };
    if (cfg < 0 || cfg >= 5) return 0;
    scan64_cfg = cfg;
    return shapes[cfg];
}
#endif

extern "C" const char *scg_scan_variant(void)
{
    return "32-bit over aligned arrays: persistent cooperative, 480 threads x 4 uint4 "
           "tiles, a ring of 3, one look-back warp a block, each tile written a tile "
           "later; else one 1024 x 8 uint4 tile a block (wide: 512 x 8; 8-byte elements: "
           "1024 x 8, aligned or not)";
}

extern "C" size_t scg_scan_scratch(uint64_t n)
{
    uint64_t tiles = tiles_for(n, MIN_TILE);
    return 256 + te::round256(tiles * 4) + tiles * 16;
}

extern "C" int scg_scan(const uint32_t *d_in, uint64_t n, int op,
                        int inclusive, int wide, const uint64_t *d_carry_in,
                        void *d_out, uint64_t *d_carry_out, void *d_scratch,
                        scg_stream s)
{
    if (op < SC_OP_SUM || op > SC_OP_XOR)
        return (int)cudaErrorInvalidValue;
    if (n == 0) {
        carry_copy_kernel<<<1, 1, 0, s>>>(d_carry_in, d_carry_out, wide);
        SCG_CHECK_LAUNCH();
        return 0;
    }
    if (wide)
        return launch_op<u64>(op, d_in, n, inclusive, d_carry_in, d_out,
                              d_carry_out, d_scratch, s);
    return launch_op<uint32_t>(op, d_in, n, inclusive, d_carry_in, d_out,
                               d_carry_out, d_scratch, s);
}

extern "C" int scg_scan64(const void *d_in, uint64_t n, uint32_t type, int op,
                          int inclusive, const uint64_t *d_carry_in, void *d_out,
                          uint64_t *d_carry_out, void *d_scratch, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const u64 *in = (const u64 *)d_in;
    if (n == 0) {
        carry_copy_kernel<<<1, 1, 0, s>>>(d_carry_in, d_carry_out, 1);
        SCG_CHECK_LAUNCH();
        return 0;
    }
    ranked64 r = { sc_key64_of(type) };
    int ranks = sc_scan_ranks(type, op);
    switch (op) {
    case SC_OP_SUM: return launch64<SC_OP_SUM>(in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, as_is());
    case SC_OP_XOR: return launch64<SC_OP_XOR>(in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, as_is());
    case SC_OP_MAX:
        return ranks ? launch64<SC_OP_MAX>(in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, r)
                     : launch64<SC_OP_MAX>(in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, as_is());
    case SC_OP_MIN:
        return ranks ? launch64<SC_OP_MIN>(in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, r)
                     : launch64<SC_OP_MIN>(in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s, as_is());
    }
    return (int)cudaErrorInvalidValue;
}
