/* agent_scan.cuh — the tile engine's persistent prefix scan with 32-bit
 * accumulators (sum, max, min, xor: any commutative operator SOP with
 * apply and identity), its look-back on a warp of its own
 * (lookback_warp.cuh).
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

namespace te {

template <int BLOCK, int VEC>
struct scan_smem {
    typedef geom<BLOCK, VEC> G;
    uint32_t chunk[2][G::CHUNKS];   /* chunk totals, by the tile's parity */
    uint32_t offset[2];             /* the tile's exclusive prefix, likewise */
};

template <int BLOCK, int VEC, int STAGES>
struct scan_layout {
    typedef geom<BLOCK, VEC> G;
    enum { THREADS = BLOCK + 32, SLOT = G::SIZE / 4, RING_BYTES = STAGES * G::SIZE * 4 };
    static size_t bytes() { return RING_BYTES + sizeof(scan_smem<BLOCK, VEC>); }
    static_assert(STAGES >= 2, "the tile written and the tile scanned");
};

struct scan_args {
    const uint32_t *in;
    uint32_t *out;
    uint64_t n, n_tiles;
    const uint64_t *carry_in;
    uint64_t *carry_out;
    int inclusive;
};

/* The last tile of the array into its slot, padded with the identity, so
 * that it is read and written back as the full ones are.  Inlined, as is
 * scan_write_partial: as calls they give the kernel a 96-byte stack frame
 * and 4 more registers, and the scans other than the sum run 1-3 %
 * slower (bench/RESULTS.md, "Figures behind the kernels' comments"). */
template <int BLOCK, int VEC>
__device__ __forceinline__ void load_partial_slot(const input &in, uint64_t vt, uint4 *slot,
                                               uint32_t pad)
{
    uint32_t x[VEC][4], ok[VEC];
    load_tile<BLOCK, VEC, false>(in, vt, x, ok, pad);
#pragma unroll
    for (int j = 0; j < VEC; j++)
        slot[j * BLOCK + threadIdx.x] = make_uint4(x[j][0], x[j][1], x[j][2], x[j][3]);
}

/* Compute threads: scan tile (in `slot`) on chip.  pre[j] ends as the
 * tile-local exclusive prefix of this thread's vector j; returns the
 * tile's total. */
template <class SOP, int BLOCK, int VEC>
__device__ __forceinline__ uint32_t scan_local(const uint4 *slot, uint32_t *chunk,
                                               uint32_t (&pre)[VEC])
{
    typedef geom<BLOCK, VEC> G;
    unsigned lane = lane_id(), warp = warp_id();
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint4 u = slot[j * BLOCK + threadIdx.x];
        uint32_t s = SOP::apply(SOP::apply(u.x, u.y), SOP::apply(u.z, u.w));
        uint32_t inc = warp_inclusive<SOP, uint32_t>(s);
        pre[j] = warp_exclusive_of<SOP, uint32_t>(inc);
        if (lane == 31)
            chunk[j * G::WARPS + warp] = inc;
    }
    bar_sync(BAR_COMPUTE, BLOCK);
    uint32_t off[VEC];
    uint32_t total = chunk_prefixes<SOP, BLOCK, VEC>(chunk, off);
#pragma unroll
    for (int j = 0; j < VEC; j++)
        pre[j] = SOP::apply(off[j], pre[j]);
    return total;
}

/* Compute threads: tile written out at prefix `excl`, from its slot and
 * the thread's prefixes.  FULL: no element past n. */
template <class SOP, int BLOCK, int VEC, bool FULL>
__device__ __forceinline__ void scan_write(const scan_args &a, uint64_t first,
                                           const uint4 *slot, const uint32_t (&pre)[VEC],
                                           uint32_t excl)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint4 u = slot[j * BLOCK + threadIdx.x];
        uint32_t x[4] = { u.x, u.y, u.z, u.w }, o[4];
        uint32_t acc = SOP::apply(excl, pre[j]);
#pragma unroll
        for (int c = 0; c < 4; c++) {
            uint32_t nxt = SOP::apply(acc, x[c]);
            o[c] = a.inclusive ? nxt : acc;
            acc = nxt;
        }
        uint64_t i = first + 4ull * (uint64_t)(j * BLOCK + threadIdx.x);
        if (FULL) {
            __stcs((uint4 *)(a.out + i), make_uint4(o[0], o[1], o[2], o[3]));
        } else {
#pragma unroll
            for (int c = 0; c < 4; c++)
                if (i + c < a.n)
                    a.out[i + c] = o[c];
        }
    }
}

template <class SOP, int BLOCK, int VEC>
__device__ __forceinline__ void scan_write_partial(const scan_args &a, uint64_t first,
                                                const uint4 *slot,
                                                const uint32_t (&pre)[VEC], uint32_t excl)
{
    scan_write<SOP, BLOCK, VEC, false>(a, first, slot, pre, excl);
}

template <class SOP, int BLOCK, int VEC, int STAGES>
__device__ __forceinline__ void scan_compute(const scan_args &a, const input &in,
                                             const packed_status &st, uint32_t carry,
                                             uint4 *ring, scan_smem<BLOCK, VEC> &sm)
{
    typedef geom<BLOCK, VEC> G;
    typedef scan_layout<BLOCK, VEC, STAGES> L;
    const uint64_t step = gridDim.x;
    uint64_t tile = blockIdx.x, prev = 0;
    uint32_t pre[VEC], prev_pre[VEC];
    unsigned s = 0, prev_s = 0;
    bool have_prev = false;
    /* tile k of the sequence goes to slot k % STAGES; the first STAGES - 1
     * now, the next as each slot is written out */
#pragma unroll
    for (int k = 0; k < STAGES - 1; k++)
        prefetch_if_full<BLOCK, VEC>(in, tile + k * step, a.n_tiles, ring + k * L::SLOT);
    for (; tile < a.n_tiles; tile += step) {
        uint4 *slot = ring + s * L::SLOT;
        cp_async_wait<STAGES - 2>();
        bool full = tile_full(in, tile * G::SIZE, G::SIZE);
        if (!full)
            load_partial_slot<BLOCK, VEC>(in, tile * G::SIZE, slot, SOP::identity());
        uint32_t total = scan_local<SOP, BLOCK, VEC>(slot, sm.chunk[parity_of(tile)], pre);
        publish_tile<SOP, BLOCK>(st, tile, total, carry);
        if (have_prev) {
            uint4 *pslot = ring + prev_s * L::SLOT;
            uint32_t excl = offset_of<BLOCK>(prev, sm.offset);
            /* only the last tile of the array is partial, and it is last */
            scan_write<SOP, BLOCK, VEC, true>(a, prev * G::SIZE, pslot, prev_pre, excl);
            prefetch_if_full<BLOCK, VEC>(in, prev + STAGES * step, a.n_tiles, pslot);
        } else {
            prefetch_if_full<BLOCK, VEC>(in, tile + (STAGES - 1) * step, a.n_tiles,
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
        uint32_t excl = offset_of<BLOCK>(prev, sm.offset);
        const uint4 *pslot = ring + prev_s * L::SLOT;
        if (tile_full(in, prev * G::SIZE, G::SIZE))
            scan_write<SOP, BLOCK, VEC, true>(a, prev * G::SIZE, pslot, prev_pre, excl);
        else
            scan_write_partial<SOP, BLOCK, VEC>(a, prev * G::SIZE, pslot, prev_pre, excl);
    }
}

template <class SOP, int BLOCK, int VEC, int STAGES, int MINB>
__global__ void __launch_bounds__(BLOCK + 32, MINB)
persistent_scan_kernel(scan_args a, packed_status st)
{
    typedef scan_layout<BLOCK, VEC, STAGES> L;
    extern __shared__ uint4 dyn[];
    scan_smem<BLOCK, VEC> &sm = *(scan_smem<BLOCK, VEC> *)((char *)dyn + L::RING_BYTES);
    uint32_t carry = (uint32_t)*a.carry_in;
    input in = { (const uint4 *)a.in, 0, a.n };
    if (threadIdx.x < BLOCK)
        scan_compute<SOP, BLOCK, VEC, STAGES>(a, in, st, carry, dyn, sm);
    else
        lookback_loop<SOP, BLOCK>(a.n_tiles, st, carry, a.carry_out, sm.offset);
}

/* One persistent launch; scratch: 256 bytes, then one status word per
 * tile, zeroed here. */
template <class SOP, int BLOCK, int VEC, int STAGES, int MINB>
static int run_persistent_scan(const scan_args &args, void *scratch, cudaStream_t s)
{
    typedef scan_layout<BLOCK, VEC, STAGES> L;
    scan_args a = args;
    a.n_tiles = (a.n + geom<BLOCK, VEC>::SIZE - 1) / geom<BLOCK, VEC>::SIZE;
    unsigned blocks = 0;
    SCG_CHECK(persistent_grid(persistent_scan_kernel<SOP, BLOCK, VEC, STAGES, MINB>,
                              L::THREADS, L::bytes(), a.n_tiles, &blocks));
    packed_status st = { (uint64_t *)((char *)scratch + 256), 1, 1 };
    SCG_CHECK(cudaMemsetAsync(scratch, 0, 256 + a.n_tiles * 8, s));
    void *kargs[] = { &a, &st };
    SCG_CHECK(cudaLaunchCooperativeKernel(
        (const void *)persistent_scan_kernel<SOP, BLOCK, VEC, STAGES, MINB>, dim3(blocks),
        dim3(L::THREADS), kargs, L::bytes(), s));
    return 0;
}

} /* namespace te */

#endif /* SC_AGENT_SCAN_CUH */
