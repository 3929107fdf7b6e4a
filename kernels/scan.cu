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

/* Padding for elements past n, as uint32 inputs.  For min this is 2^32-1,
 * not the 64-bit identity, which is harmless: a padded tile always holds at
 * least one real input, itself <= 2^32-1. */
template <int OP> __device__ __forceinline__ uint32_t op_pad()
{
    return OP == SC_OP_MIN ? 0xffffffffu : 0u;
}

template <int OP, typename T> __device__ __forceinline__ T warp_inclusive(T x)
{
    return te::warp_inclusive<scan_op<OP, T>, T>(x);
}

/* 32-bit accumulators fit the packed status word; the wide sum needs the
 * two-slot one (tile_status.cuh). */
template <typename T> struct StatusFor { typedef te::packed_status type; };
template <> struct StatusFor<u64> { typedef te::wide_status type; };

/* Thread (warp w, lane l) holds vectors v = 0..3 at tile offset
 * w*(128*VECS) + v*128 + l*4: each load instruction of a warp covers 512
 * contiguous bytes, and a warp's elements are contiguous, in the order
 * (v, lane, component). */
template <int VECS>
__device__ __forceinline__ uint64_t elem_base(uint64_t tile_base)
{
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    return tile_base + (uint64_t)warp * (32 * VECS * 4) + (uint64_t)lane * 4;
}

template <int OP, int VECS, bool CS>
__device__ __forceinline__ void load_tile(const uint32_t *in, uint64_t n,
                                          uint64_t base, bool fast,
                                          uint32_t x[VECS][4])
{
    if (fast) {
#pragma unroll
        for (int v = 0; v < VECS; v++) {
            const uint4 *q4 = (const uint4 *)(in + base + v * 128);
            uint4 q = CS ? __ldcs(q4) : *q4;
            x[v][0] = q.x; x[v][1] = q.y; x[v][2] = q.z; x[v][3] = q.w;
        }
        return;
    }
#pragma unroll
    for (int v = 0; v < VECS; v++)
#pragma unroll
        for (int c = 0; c < 4; c++) {
            uint64_t i = base + v * 128 + c;
            x[v][c] = i < n ? in[i] : op_pad<OP>();
        }
}

template <bool CS, typename V> __device__ __forceinline__ void store_v(V *p, V v)
{
    if (CS) __stcs(p, v);
    else *p = v;
}

template <bool CS>
__device__ __forceinline__ void store4(uint32_t *out, const uint32_t o[4])
{
    store_v<CS>((uint4 *)out, make_uint4(o[0], o[1], o[2], o[3]));
}

template <bool CS>
__device__ __forceinline__ void store4(u64 *out, const u64 o[4])
{
    store_v<CS>((ulonglong2 *)out, make_ulonglong2(o[0], o[1]));
    store_v<CS>((ulonglong2 *)out + 1, make_ulonglong2(o[2], o[3]));
}

/* One tile held in x: count (reduce on chip), prefix (publish, look back),
 * move (local scan plus the tile's prefix).  All threads of the block. */
template <int OP, typename T, int SCAN_THREADS, int SCAN_VECS, bool CS>
__device__ __forceinline__ void scan_tile(const uint32_t (&x)[SCAN_VECS][4],
                                          uint32_t tile, bool fast, uint64_t base,
                                          uint64_t n, int inclusive,
                                          const uint64_t *carry_in, T *out,
                                          uint64_t *carry_out,
                                          const typename StatusFor<T>::type &st,
                                          uint32_t num_tiles, T *s_warp)
{
    constexpr int SCAN_WARPS = SCAN_THREADS / 32;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    /* count: per-vector sums, scanned across the warp, chained over v */
    T pre[SCAN_VECS];
    T run = op_identity<OP, T>();
#pragma unroll
    for (int v = 0; v < SCAN_VECS; v++) {
        T s = op_apply<OP, T>(op_apply<OP, T>((T)x[v][0], (T)x[v][1]),
                              op_apply<OP, T>((T)x[v][2], (T)x[v][3]));
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
        T o[4];
#pragma unroll
        for (int c = 0; c < 4; c++) {
            T nxt = op_apply<OP, T>(acc, (T)x[v][c]);
            o[c] = inclusive ? nxt : acc;
            acc = nxt;
        }
        uint64_t i = base + v * 128;
        if (fast) {
            store4<CS>(out + i, o);
        } else {
#pragma unroll
            for (int c = 0; c < 4; c++)
                if (i + c < n) out[i + c] = o[c];
        }
    }
}


/* CS: streaming (evict-first) loads and stores. */
template <int OP, typename T, int SCAN_THREADS, int SCAN_VECS, bool CS>
__global__ void __launch_bounds__(SCAN_THREADS)
scan_kernel(const uint32_t *in, uint64_t n, int inclusive, int aligned,
            const uint64_t *carry_in, T *out, uint64_t *carry_out,
            typename StatusFor<T>::type st, uint32_t *tile_counter,
            uint32_t num_tiles)
{
    constexpr int SCAN_WARPS = SCAN_THREADS / 32;
    constexpr int SCAN_TILE = SCAN_THREADS * SCAN_VECS * 4;
    __shared__ uint32_t s_tile;
    __shared__ T s_warp[SCAN_WARPS];

    if (threadIdx.x == 0)
        s_tile = atomicAdd(tile_counter, 1u);
    __syncthreads();
    uint32_t tile = s_tile;
    uint64_t tile_base = (uint64_t)tile * SCAN_TILE;
    bool fast = aligned && tile_base + SCAN_TILE <= n;
    uint64_t base = elem_base<SCAN_VECS>(tile_base);

    uint32_t x[SCAN_VECS][4];
    load_tile<OP, SCAN_VECS, CS>(in, n, base, fast, x);
    scan_tile<OP, T, SCAN_THREADS, SCAN_VECS, CS>(x, tile, fast, base, n, inclusive,
                                                  carry_in, out, carry_out, st,
                                                  num_tiles, s_warp);
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
#endif

/* Scratch: [tile counter | flags (wide) | status words or agg + incl]. */
template <int OP, typename T, int THREADS, int VECS, bool CS>
int launch(const uint32_t *d_in, uint64_t n, int inclusive,
           const uint64_t *d_carry_in, void *d_out, uint64_t *d_carry_out,
           void *d_scratch, cudaStream_t s)
{
    static_assert(THREADS * VECS * 4 >= MIN_TILE, "scratch sized for MIN_TILE");
    uint64_t tiles = tiles_for(n, THREADS * VECS * 4);
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
    scan_kernel<OP, T, THREADS, VECS, CS><<<(unsigned)tiles, THREADS, 0, s>>>(
        d_in, n, inclusive, aligned, d_carry_in, (T *)d_out, d_carry_out, st,
        counter, (uint32_t)tiles);
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
        return launch<OP, T, C::WIDE_THREADS, C::WIDE_VECS, true>(
            d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s);
    } else {
        if (persistent) {
            te::scan_args a = { d_in, (uint32_t *)d_out, n, 0, d_carry_in, d_carry_out,
                                inclusive };
            return te::run_persistent_scan<scan_op<OP, uint32_t>, C::P_THREADS,
                                           C::P_VECS, C::P_SLOTS, C::P_MINB>(a, d_scratch,
                                                                             s);
        }
        return launch<OP, T, C::THREADS, C::VECS, true>(
            d_in, n, inclusive, d_carry_in, d_out, d_carry_out, d_scratch, s);
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

extern "C" const char *scg_scan_variant(void)
{
    return "32-bit over aligned arrays: persistent cooperative, 480 threads x 4 uint4 "
           "tiles, a ring of 3, one look-back warp a block, each tile written a tile "
           "later; else one 1024 x 8 uint4 tile a block (wide: 512 x 8)";
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
