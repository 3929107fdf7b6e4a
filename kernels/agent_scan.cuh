/* agent_scan.cuh — the tile engine's persistent prefix scan (sum, max,
 * min, xor: any commutative operator SOP with apply and identity) of 4-
 * or 8-byte elements with accumulators as wide, its look-back on a warp
 * of its own (lookback_warp.cuh).
 *
 * Tiles are BLOCK threads x VEC uint4 in the layout of tile_io.cuh, read
 * into a ring of STAGES shared-memory slots with cp.async.  The compute
 * threads scan tile k on chip (each thread's four, across the lanes of
 * each 128-element chunk, then the chunk totals), publish its total, and
 * write tile k-1 out at the prefix the look-back warp found for it, from
 * the ring slot still holding its input and the per-thread prefixes kept
 * in registers; only then is that slot refilled.  So the ring holds the
 * tile being written, the tile being scanned, and STAGES - 2 in flight.
 *
 * Input and output are 16-byte aligned (scan.cu runs its one-tile-per-
 * block kernel otherwise); only the last tile of the array may be partial.
 */
#ifndef SC_AGENT_SCAN_CUH
#define SC_AGENT_SCAN_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "warp_scan.cuh"
#include "tile_io.cuh"
#include "lookback_warp.cuh"
#include "launch_util.cuh"
#include "core/sc_hd.h"

namespace te {

/* What a load does to an element and a store to a result: nothing, or
 * (max and min of i64 and f64) the order-preserving rank of sc_hd.h, so
 * that the operator compares unsigned numbers; the carries stay ranks. */
struct as_is {
    template <typename E> __device__ __forceinline__ E in(E x) const { return x; }
    template <typename T> __device__ __forceinline__ T out(T x) const { return x; }
};
struct ranked64 {
    sc_key64 k;
    __device__ __forceinline__ uint64_t in(uint64_t x) const { return sc_key64_rank(k, x); }
    __device__ __forceinline__ uint64_t out(uint64_t r) const { return sc_key64_unrank(k, r); }
};

/* A 16-byte vector as elements of E, and back. */
__device__ __forceinline__ void unpack(uint4 q, uint32_t (&x)[4])
{
    x[0] = q.x; x[1] = q.y; x[2] = q.z; x[3] = q.w;
}
template <typename W>
__device__ __forceinline__ void unpack(uint4 q, W (&x)[2])
{
    static_assert(sizeof(W) == 8, "two 8-byte elements a vector");
    x[0] = (W)q.x | (W)q.y << 32;
    x[1] = (W)q.z | (W)q.w << 32;
}
__device__ __forceinline__ uint4 pack(const uint32_t (&o)[4])
{
    return make_uint4(o[0], o[1], o[2], o[3]);
}
template <typename W>
__device__ __forceinline__ uint4 pack(const W (&o)[2])
{
    static_assert(sizeof(W) == 8, "two 8-byte elements a vector");
    return make_uint4((uint32_t)o[0], (uint32_t)(o[0] >> 32), (uint32_t)o[1],
                      (uint32_t)(o[1] >> 32));
}

/* Elements of E (4 or 8 bytes), EPV a vector; the status word that fits
 * the accumulator T: one packed word for 32 bits, a flag and two slots
 * for 64 (tile_status.cuh). */
template <typename E> struct elem_of { enum { EPV = 16 / (int)sizeof(E) }; };
template <typename T> struct status_of { typedef packed_status type; };
template <> struct status_of<uint64_t> { typedef wide_status type; };

template <int BLOCK, int VEC, typename T>
struct scan_smem {
    typedef geom<BLOCK, VEC> G;
    T chunk[2][G::CHUNKS];   /* chunk totals, by the tile's parity */
    T offset[2];             /* the tile's exclusive prefix, likewise */
};

template <int BLOCK, int VEC, int STAGES, typename T>
struct scan_layout {
    enum { THREADS = BLOCK + 32, SLOT = BLOCK * VEC, RING_BYTES = STAGES * SLOT * 16 };
    static size_t bytes() { return RING_BYTES + sizeof(scan_smem<BLOCK, VEC, T>); }
    static_assert(STAGES >= 2, "the tile written and the tile scanned");
};

struct scan_args {
    const void *in;
    void *out;
    uint64_t n, n_tiles;
    const uint64_t *carry_in;
    uint64_t *carry_out;
    int inclusive;
};

/* The last tile of the array into its slot, padded with `pad` (the
 * element whose transform is the identity), so that it is read and
 * written back as the full ones are.  Inlined, as is scan_write_partial:
 * as calls they give the kernel a 96-byte stack frame and 4 more
 * registers, and the scans other than the sum run 1-3 % slower
 * (bench/RESULTS.md, "Figures behind the kernels' comments"). */
template <int BLOCK, int VEC, typename E>
__device__ __forceinline__ void load_partial_slot(const input &in, uint64_t vt, uint4 *slot,
                                                  E pad)
{
    if constexpr (sizeof(E) == 4) {
        uint32_t x[VEC][4], ok[VEC];
        load_tile<BLOCK, VEC, false>(in, vt, x, ok, pad);
#pragma unroll
        for (int j = 0; j < VEC; j++)
            slot[j * BLOCK + threadIdx.x] = make_uint4(x[j][0], x[j][1], x[j][2], x[j][3]);
    } else {
        const int EPV = elem_of<E>::EPV;
        const E *src = (const E *)in.base;
        E *dst = (E *)slot;
#pragma unroll
        for (int j = 0; j < VEC; j++)
#pragma unroll
            for (int c = 0; c < EPV; c++) {
                uint64_t q = (uint64_t)EPV * (j * BLOCK + threadIdx.x) + c;
                dst[q] = vt + q < in.hi ? src[vt + q] : pad;
            }
    }
}

/* A vector's elements (transformed) reduced, pairwise where there are
 * four. */
template <class SOP, class XF, typename E>
__device__ __forceinline__ typename SOP::type vec_total(uint4 u, const XF &xf)
{
    E x[elem_of<E>::EPV];
    unpack(u, x);
    if constexpr (elem_of<E>::EPV == 4)
        return SOP::apply(SOP::apply(xf.in(x[0]), xf.in(x[1])),
                          SOP::apply(xf.in(x[2]), xf.in(x[3])));
    else
        return SOP::apply(xf.in(x[0]), xf.in(x[1]));
}

/* Compute threads: scan tile (in `slot`) on chip.  pre[j] ends as the
 * tile-local exclusive prefix of this thread's vector j; returns the
 * tile's total. */
template <class SOP, int BLOCK, int VEC, typename E, class XF>
__device__ __forceinline__ typename SOP::type scan_local(const uint4 *slot,
                                                         typename SOP::type *chunk,
                                                         typename SOP::type (&pre)[VEC],
                                                         const XF &xf)
{
    typedef typename SOP::type T;
    typedef geom<BLOCK, VEC> G;
    unsigned lane = lane_id(), warp = warp_id();
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        T s = vec_total<SOP, XF, E>(slot[j * BLOCK + threadIdx.x], xf);
        T inc = warp_inclusive<SOP, T>(s);
        pre[j] = warp_exclusive_of<SOP, T>(inc);
        if (lane == 31)
            chunk[j * G::WARPS + warp] = inc;
    }
    bar_sync(BAR_COMPUTE, BLOCK);
    T off[VEC];
    T total = chunk_prefixes<SOP, BLOCK, VEC>(chunk, off);
#pragma unroll
    for (int j = 0; j < VEC; j++)
        pre[j] = SOP::apply(off[j], pre[j]);
    return total;
}

/* Compute threads: tile written out at prefix `excl`, from its slot and
 * the thread's prefixes.  FULL: no element past n. */
template <class SOP, int BLOCK, int VEC, bool FULL, typename E, class XF>
__device__ __forceinline__ void scan_write(const scan_args &a, uint64_t first,
                                           const uint4 *slot,
                                           const typename SOP::type (&pre)[VEC],
                                           typename SOP::type excl, const XF &xf)
{
    typedef typename SOP::type T;
    const int EPV = elem_of<E>::EPV;
    E *out = (E *)a.out;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        E x[EPV], o[EPV];
        unpack(slot[j * BLOCK + threadIdx.x], x);
        T acc = SOP::apply(excl, pre[j]);
#pragma unroll
        for (int c = 0; c < EPV; c++) {
            T nxt = SOP::apply(acc, xf.in(x[c]));
            o[c] = xf.out(a.inclusive ? nxt : acc);
            acc = nxt;
        }
        uint64_t i = first + (uint64_t)EPV * (uint64_t)(j * BLOCK + threadIdx.x);
        if (FULL) {
            __stcs((uint4 *)(out + i), pack(o));
        } else {
#pragma unroll
            for (int c = 0; c < EPV; c++)
                if (i + c < a.n)
                    out[i + c] = o[c];
        }
    }
}

template <class SOP, int BLOCK, int VEC, typename E, class XF>
__device__ __forceinline__ void scan_write_partial(const scan_args &a, uint64_t first,
                                                   const uint4 *slot,
                                                   const typename SOP::type (&pre)[VEC],
                                                   typename SOP::type excl, const XF &xf)
{
    scan_write<SOP, BLOCK, VEC, false, E>(a, first, slot, pre, excl, xf);
}

template <class SOP, int BLOCK, int VEC, int STAGES, typename E, class XF, class ST>
__device__ __forceinline__ void scan_compute(const scan_args &a, const input &in,
                                             const ST &st, typename SOP::type carry,
                                             uint4 *ring,
                                             scan_smem<BLOCK, VEC, typename SOP::type> &sm,
                                             const XF &xf)
{
    typedef typename SOP::type T;
    const int EPV = elem_of<E>::EPV;
    typedef geom<BLOCK, VEC, EPV> G;
    typedef scan_layout<BLOCK, VEC, STAGES, T> L;
    const uint64_t step = gridDim.x;
    uint64_t tile = blockIdx.x, prev = 0;
    T pre[VEC], prev_pre[VEC];
    unsigned s = 0, prev_s = 0;
    bool have_prev = false;
    /* tile k of the sequence goes to slot k % STAGES; the first STAGES - 1
     * now, the next as each slot is written out */
#pragma unroll
    for (int k = 0; k < STAGES - 1; k++)
        prefetch_if_full<BLOCK, VEC, EPV>(in, tile + k * step, a.n_tiles, ring + k * L::SLOT);
    for (; tile < a.n_tiles; tile += step) {
        uint4 *slot = ring + s * L::SLOT;
        cp_async_wait<STAGES - 2>();
        bool full = tile_full(in, tile * G::SIZE, G::SIZE);
        if (!full)
            load_partial_slot<BLOCK, VEC, E>(in, tile * G::SIZE, slot,
                                             (E)xf.out(SOP::identity()));
        T total = scan_local<SOP, BLOCK, VEC, E>(slot, sm.chunk[parity_of(tile)], pre, xf);
        publish_tile<SOP, BLOCK>(st, tile, total, carry);
        if (have_prev) {
            uint4 *pslot = ring + prev_s * L::SLOT;
            T excl = offset_of<BLOCK>(prev, sm.offset);
            /* only the last tile of the array is partial, and it is last */
            scan_write<SOP, BLOCK, VEC, true, E>(a, prev * G::SIZE, pslot, prev_pre, excl, xf);
            prefetch_if_full<BLOCK, VEC, EPV>(in, prev + STAGES * step, a.n_tiles, pslot);
        } else {
            prefetch_if_full<BLOCK, VEC, EPV>(in, tile + (STAGES - 1) * step, a.n_tiles,
                                              ring + (STAGES - 1) * L::SLOT);
        }
#pragma unroll
        for (int j = 0; j < VEC; j++)
            prev_pre[j] = pre[j];
        prev = tile;
        prev_s = s;
        have_prev = true;
        s = s + 1 == STAGES ? 0 : s + 1;
    }
    cp_async_wait<0>();
    if (have_prev) {
        T excl = offset_of<BLOCK>(prev, sm.offset);
        const uint4 *pslot = ring + prev_s * L::SLOT;
        if (tile_full(in, prev * G::SIZE, G::SIZE))
            scan_write<SOP, BLOCK, VEC, true, E>(a, prev * G::SIZE, pslot, prev_pre, excl, xf);
        else
            scan_write_partial<SOP, BLOCK, VEC, E>(a, prev * G::SIZE, pslot, prev_pre, excl,
                                                   xf);
    }
}

template <class SOP, int BLOCK, int VEC, int STAGES, int MINB, typename E, class XF>
__global__ void __launch_bounds__(BLOCK + 32, MINB)
persistent_scan_kernel(scan_args a, typename status_of<typename SOP::type>::type st, XF xf)
{
    typedef typename SOP::type T;
    typedef scan_layout<BLOCK, VEC, STAGES, T> L;
    extern __shared__ uint4 dyn[];
    scan_smem<BLOCK, VEC, T> &sm = *(scan_smem<BLOCK, VEC, T> *)((char *)dyn + L::RING_BYTES);
    T carry = (T)*a.carry_in;
    input in = { (const uint4 *)a.in, 0, a.n };
    if (threadIdx.x < BLOCK)
        scan_compute<SOP, BLOCK, VEC, STAGES, E>(a, in, st, carry, dyn, sm, xf);
    else
        lookback_loop<SOP, BLOCK>(a.n_tiles, st, carry, a.carry_out, sm.offset);
}

/* One persistent launch over elements of E, 16-byte aligned in and out;
 * scratch: 256 bytes, then the tiles' status (zeroed here): a word a tile
 * for 32-bit accumulators, else a flag a tile and, 256-aligned after the
 * flags, two slots a tile. */
template <class SOP, int BLOCK, int VEC, int STAGES, int MINB, typename E = uint32_t,
          class XF = as_is>
static int run_persistent_scan(const scan_args &args, void *scratch, cudaStream_t s,
                               const XF &xf = XF())
{
    typedef typename SOP::type T;
    typedef scan_layout<BLOCK, VEC, STAGES, T> L;
    typedef typename status_of<T>::type ST;
    const uint64_t SIZE = geom<BLOCK, VEC, elem_of<E>::EPV>::SIZE;
    scan_args a = args;
    a.n_tiles = (a.n + SIZE - 1) / SIZE;
    unsigned blocks = 0;
    SCG_CHECK(persistent_grid(persistent_scan_kernel<SOP, BLOCK, VEC, STAGES, MINB, E, XF>,
                              L::THREADS, L::bytes(), a.n_tiles, &blocks));
    char *p = (char *)scratch;
    ST st;
    size_t clear;
    if constexpr (sizeof(T) == 4) {
        st = { (uint64_t *)(p + 256), 1, 1 };
        clear = 256 + a.n_tiles * 8;
    } else {
        st.flag = (uint32_t *)(p + 256);
        st.agg = (uint64_t *)(p + 256 + round256(a.n_tiles * 4));
        st.incl = st.agg + a.n_tiles;
        clear = 256 + a.n_tiles * 4;
    }
    SCG_CHECK(cudaMemsetAsync(scratch, 0, clear, s));
    XF x = xf;
    void *kargs[] = { &a, &st, &x };
    SCG_CHECK(cudaLaunchCooperativeKernel(
        (const void *)persistent_scan_kernel<SOP, BLOCK, VEC, STAGES, MINB, E, XF>,
        dim3(blocks), dim3(L::THREADS), kargs, L::bytes(), s));
    return 0;
}

} /* namespace te */

#endif /* SC_AGENT_SCAN_CUH */
