/* three_phase.cuh — the three phases of Billeter, Olsson and Assarsson
 * (count, prefix, move), and the fused single pass built from the same
 * pieces, written once for every "keep some elements, in order" operation.
 *
 * An operation is a small struct (the "Op") passed BY VALUE to the kernels,
 * so that its parameters (the predicate, the output pointers) live in the
 * kernel's constant parameter bank and cost no loads per element:
 *
 *   struct my_op {
 *       // What is counted.  1 when x belongs to the selected output.
 *       __device__ bool select(uint32_t x) const;
 *       // Whether rejected elements are moved too (split) or dropped
 *       // (compact).  Dropping them saves the shared-memory traffic.
 *       static const bool MOVE_REJECTS = false;
 *       // What is staged in shared memory for an element: its value, or
 *       // its index among the tile's valid elements ("local").  The stage
 *       // holds 32 bits per element whatever the final output type, which
 *       // keeps the tile's footprint (and so occupancy) independent of
 *       // whether 64-bit indices are written.
 *       __device__ uint32_t stage(uint32_t x, uint32_t local) const;
 *       // What is moved: write staged item s to output position pos
 *       // (global, 64-bit).  first is the global index of the tile's first
 *       // valid element, so that local + first is the element's index.
 *       __device__ void put_sel(uint64_t pos, uint32_t s, uint64_t first) const;
 *       __device__ void put_rej(uint64_t pos, uint32_t s, uint64_t first) const;
 *   };
 *
 * Data layout.  A tile is BLOCK threads x VEC uint4 = 4*VEC*BLOCK elements.
 * Load j of thread t reads uint4 number j*BLOCK + t of the tile, so that
 * each load instruction of a warp is one contiguous 512-byte run; the 32
 * uint4 a warp reads with one instruction are a "chunk" of 128 elements.
 * Chunk c = j*WARPS + warp covers tile elements [128c, 128c + 128), so the
 * order of the input is chunk-major, then lane, then component.  Inside a
 * chunk, positions come from ballots and popcounts (no shared memory); the
 * chunk counts of the tile are scanned by every warp redundantly, which
 * costs a few shuffles and saves a __syncthreads.
 *
 * Alignment.  The input may start anywhere (a chunk of a stream is often an
 * odd offset into a buffer).  Tiles are laid on a "virtual" index space
 * that starts at the 16-byte boundary at or before the first element, so
 * every uint4 load is aligned; virtual indices outside [lo, hi) are not
 * elements.  A vector that is only partly inside is read with scalar loads
 * of its valid part only, so no byte outside the array is ever read.
 *
 * Pipelining (the default; -DSC_TP_REGS selects the register variant
 * further down).  This exact code passed the whole test suite on an H200
 * (2026-11-22, SC_DEVICE=cuda) but has not been benchmarked yet; the
 * register variant was benchmarked (0.61x CUB fused at 50%) but its final
 * form has not run on a GPU.  Both the fused pass and the move run
 * persistent blocks that prefetch their next tile into shared memory with
 * cp.async while the current one is ranked, staged and flushed; the
 * current tile's buffer then serves as its stage.  Holding tiles in
 * registers instead bounds the bytes in flight by the register file and
 * measured 0.6x CUB.
 *
 * Counts and positions are 64-bit everywhere outside a tile; inside a tile
 * they are 32-bit (a tile is small).
 *
 * Reuse for other operations (scan, radix sort): load_tile(), the input
 * view and lookback() are independent of the Op.  lookback() packs a status
 * and a value below 2^62 into one 64-bit word so that a single relaxed
 * store publishes both (no fence between value and flag): it serves counts
 * and 32-bit sums, not full 64-bit sums.
 */
#ifndef SC_THREE_PHASE_CUH
#define SC_THREE_PHASE_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "cuda_check.cuh"

namespace tp {

static const unsigned FULL_MASK = 0xffffffffu;

/* ------------------------------------------------------------------ */
/* Input view on the aligned virtual index space.                       */

struct input {
    const uint4 *base;   /* 16-byte aligned, at or before element 0 */
    uint64_t lo, hi;     /* elements are the virtual indices [lo, hi) */
};

static inline input make_input(const uint32_t *p, uint64_t n)
{
    uint32_t mis = (uint32_t)(((uintptr_t)p >> 2) & 3);
    input in;
    in.base = (const uint4 *)(p - mis);
    in.lo = mis;
    in.hi = n + mis;
    return in;
}

template <int BLOCK, int VEC>
struct geom {
    enum {
        WARPS = BLOCK / 32,
        CHUNKS = WARPS * VEC,
        SIZE = BLOCK * VEC * 4,
        PER_LANE = CHUNKS / 32   /* chunk counts each lane scans */
    };
    static_assert(BLOCK % 32 == 0, "whole warps");
    static_assert(CHUNKS % 32 == 0 && CHUNKS <= 32 * 8,
                  "the chunk scan gives each lane 1..8 chunks");
};

static inline uint64_t n_tiles(const input &in, uint64_t tile)
{
    return (in.hi + tile - 1) / tile;
}

/* ------------------------------------------------------------------ */
/* Warp helpers.                                                         */

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ uint64_t warp_sum64(uint64_t v)
{
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, d);
    return v;
}

__device__ __forceinline__ uint32_t warp_sum32(uint32_t v)
{
    for (int d = 16; d > 0; d >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, d);
    return v;
}

/* Inclusive scan over the lanes. */
__device__ __forceinline__ uint32_t warp_incl_scan32(uint32_t v)
{
    unsigned lane = lane_id();
    for (int d = 1; d < 32; d <<= 1) {
        uint32_t t = __shfl_up_sync(FULL_MASK, v, d);
        if (lane >= (unsigned)d)
            v += t;
    }
    return v;
}

/* ------------------------------------------------------------------ */
/* Loads.                                                                */

/* Reads the tile starting at virtual index vt into x; ok[j] has bit k set
 * when x[j][k] is an element.  FULL: the caller knows the whole tile is
 * inside, so there is no per-vector test at all (the common case; the
 * partial path runs for at most two tiles of the array).  The input is
 * read once per pass, so loads are marked streaming (evict first) to leave
 * L2 to the outputs and the look-back status words. */
template <int BLOCK, int VEC, bool FULL>
__device__ __forceinline__ void load_tile(const input &in, uint64_t vt,
                                          uint32_t (&x)[VEC][4],
                                          uint32_t (&ok)[VEC])
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint64_t v0 = vt + 4ull * (uint64_t)(j * BLOCK + threadIdx.x);
        if (FULL || (v0 >= in.lo && v0 + 4 <= in.hi)) {
            uint4 u = __ldcs(in.base + (v0 >> 2));
            x[j][0] = u.x; x[j][1] = u.y; x[j][2] = u.z; x[j][3] = u.w;
            ok[j] = 0xfu;
        } else {
            const uint32_t *s = (const uint32_t *)in.base;
            ok[j] = 0;
#pragma unroll
            for (int k = 0; k < 4; k++) {
                uint64_t v = v0 + k;
                bool inside = v >= in.lo && v < in.hi;
                x[j][k] = inside ? s[v] : 0u;
                ok[j] |= (uint32_t)inside << k;
            }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Decoupled look-back (Merrill & Garland 2016).                         */

/* Status word: value << 2 | flag.  0 (what a memset leaves) means "not yet
 * published", so the status array needs no init kernel. */
enum { ST_NONE = 0, ST_AGG = 1, ST_PREFIX = 2 };

__device__ __forceinline__ void store_status(uint64_t *p, uint64_t w)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(w) : "memory");
}

__device__ __forceinline__ uint64_t load_status(const uint64_t *p)
{
    uint64_t w;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
    return w;
}

/* Publishes the tile's own count as soon as it is known, before any
 * waiting, so that successors can sum past this tile early. */
__device__ __forceinline__ void publish_aggregate(uint64_t *status,
                                                  uint64_t tile,
                                                  uint64_t aggregate)
{
    store_status(status + tile,
                 aggregate << 2 | (tile == 0 ? ST_PREFIX : ST_AGG));
}

/* Called by one whole warp, after publish_aggregate.  Sums the
 * predecessors' values back to the nearest inclusive prefix, 32 tiles per
 * step, publishes this tile's inclusive prefix and returns the exclusive
 * one (in every lane).  Tiles must be numbered in the order blocks start
 * (dynamic tile ids), so that every tile waited on is already running:
 * this is what makes the spin deadlock-free. */
__device__ __forceinline__ uint64_t lookback(uint64_t *status, uint64_t tile,
                                             uint64_t aggregate)
{
    if (tile == 0)
        return 0;
    unsigned lane = lane_id();
    uint64_t excl = 0;
    int64_t p = (int64_t)tile - 1;
    for (;;) {
        int64_t q = p - (int64_t)lane;   /* lane 0: the nearest predecessor */
        uint64_t w = q >= 0 ? load_status(status + q) : (uint64_t)ST_PREFIX;
        while (__any_sync(FULL_MASK, (w & 3) == ST_NONE)) {
            if ((w & 3) == ST_NONE)
                w = load_status(status + q);
        }
        unsigned pm = __ballot_sync(FULL_MASK, (w & 3) == ST_PREFIX);
        unsigned stop = pm ? (unsigned)(__ffs(pm) - 1) : 31u;
        excl += warp_sum64(lane <= stop ? w >> 2 : 0);
        if (pm)
            break;
        p -= 32;
    }
    if (lane == 0)
        store_status(status + tile, (excl + aggregate) << 2 | ST_PREFIX);
    return excl;
}

/* ------------------------------------------------------------------ */
/* The Op in shared memory.                                              */

/* Kernel parameters cannot be indexed at run time: an Op member indexed by
 * a loop counter (the predicate's term lists) makes the compiler copy the
 * whole parameter block to the stack, per thread, and read it from local
 * memory per element.  One copy per block in shared memory, read by
 * broadcast, costs nothing in comparison. */
template <class Op>
__device__ __forceinline__ void op_to_smem(const Op &op, Op *sop)
{
    /* One thread, by plain assignment: any run-time index (even
     * threadIdx) into the parameter would bring the stack copy back. */
    if (threadIdx.x == 0)
        *sop = op;
}

/* ------------------------------------------------------------------ */
/* One tile: rank, stage, flush.  */

template <int VEC>
struct tile_regs {
    uint32_t x[VEC][4];
    uint32_t ok[VEC];    /* bit k: x[j][k] is an element */
    uint32_t f[VEC];     /* bit k: x[j][k] is selected */
    uint32_t pre[VEC];   /* selected in the tile before x[j][0] */
    uint32_t total;      /* selected in the tile */
};

/* Count inside each chunk of the loaded tile r.x / r.ok; lane 0 of the
 * warp publishes the chunk count to shared memory.  A __syncthreads must
 * follow. */
template <class Op, int BLOCK, int VEC>
__device__ __forceinline__ void rank_local(const Op &op, tile_regs<VEC> &r,
                                           uint32_t *chunk_smem)
{
    typedef geom<BLOCK, VEC> G;
    unsigned lane = lane_id(), warp = threadIdx.x >> 5;
    unsigned lt = (1u << lane) - 1;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint32_t f = 0, cnt = 0, pre = 0;
#pragma unroll
        for (int k = 0; k < 4; k++) {
            uint32_t s = (uint32_t)op.select(r.x[j][k]) & (r.ok[j] >> k);
            f |= s << k;
            unsigned b = __ballot_sync(FULL_MASK, s);
            cnt += __popc(b);
            pre += __popc(b & lt);
        }
        r.f[j] = f;
        r.pre[j] = pre;
        if (lane == 0)
            chunk_smem[j * G::WARPS + warp] = cnt;
    }
}

/* After the __syncthreads: every warp scans the tile's chunk counts and
 * turns r.pre into tile-local positions; r.total is the tile's count. */
template <int BLOCK, int VEC>
__device__ __forceinline__ void rank_tile(tile_regs<VEC> &r,
                                          const uint32_t *chunk_smem)
{
    typedef geom<BLOCK, VEC> G;
    const int PL = G::PER_LANE;
    unsigned lane = lane_id(), warp = threadIdx.x >> 5;
    uint32_t ex[PL], sum = 0;
#pragma unroll
    for (int p = 0; p < PL; p++) {
        ex[p] = sum;
        sum += chunk_smem[lane * PL + p];
    }
    uint32_t incl = warp_incl_scan32(sum);
    uint32_t base = incl - sum;
    r.total = __shfl_sync(FULL_MASK, incl, 31);
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        unsigned c = j * G::WARPS + warp;
        uint32_t off = 0;
#pragma unroll
        for (int p = 0; p < PL; p++) {
            uint32_t t = __shfl_sync(FULL_MASK, base + ex[p], c / PL);
            if (c % PL == (unsigned)p)
                off = t;
        }
        r.pre[j] += off;
    }
}

/* Selected elements go to stage[0 .. total), in order; with MOVE_REJECTS
 * the rejected ones follow, in order.  head: virtual indices of the tile
 * before its first element (nonzero only in tile 0 of a misaligned
 * input), so that e - head counts the valid elements before e. */
template <class Op, int BLOCK, int VEC>
__device__ __forceinline__ void stage_tile(const Op &op,
                                           const tile_regs<VEC> &r,
                                           uint32_t head, uint32_t *stage)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint32_t below = r.pre[j];
#pragma unroll
        for (int k = 0; k < 4; k++) {
            uint32_t e = (uint32_t)(j * BLOCK + threadIdx.x) * 4 + k;
            uint32_t local = e - head;
            if ((r.f[j] >> k) & 1)
                stage[below] = op.stage(r.x[j][k], local);
            else if (Op::MOVE_REJECTS && ((r.ok[j] >> k) & 1))
                stage[r.total + local - below] = op.stage(r.x[j][k], local);
            below += (r.f[j] >> k) & 1;
        }
    }
}

/* Coalesced writes of the staged tile: consecutive threads write
 * consecutive output positions, whatever the selection pattern was. */
template <class Op, int BLOCK>
__device__ __forceinline__ void flush_tile(const Op &op, const uint32_t *stage,
                                           uint32_t total, uint32_t valid,
                                           uint64_t sel_off, uint64_t first)
{
    for (uint32_t i = threadIdx.x; i < total; i += BLOCK)
        op.put_sel(sel_off + i, stage[i], first);
    if (Op::MOVE_REJECTS) {
        uint64_t rej_off = first - sel_off;   /* rejected before the tile */
        for (uint32_t i = total + threadIdx.x; i < valid; i += BLOCK)
            op.put_rej(rej_off + (i - total), stage[i], first);
    }
}

/* Where the tile's elements are: head (see stage_tile), how many are
 * valid, and the global index of the first. */
struct tile_span {
    uint32_t head, valid;
    uint64_t first;
};

__device__ __forceinline__ tile_span span_of(const input &in, uint64_t vt,
                                             uint32_t size)
{
    uint64_t b = vt > in.lo ? vt : in.lo;
    uint64_t e = vt + size < in.hi ? vt + size : in.hi;
    tile_span s;
    s.head = (uint32_t)(b - vt);
    s.valid = (uint32_t)(e - b);
    s.first = b - in.lo;
    return s;
}

/* ------------------------------------------------------------------ */
/* The fused single pass: one tile per block, read once.                 */

/* Where a block keeps its tiles: two input buffers (the tile being
 * processed, the next one arriving); the current buffer doubles as the
 * stage once its elements are in registers. */
template <int BLOCK, int VEC>
struct pipe_smem {
    uint4 buf[2][geom<BLOCK, VEC>::SIZE / 4];
    uint32_t chunk[geom<BLOCK, VEC>::CHUNKS];
    uint64_t offset;     /* the tile's exclusive prefix */
    uint64_t slot;       /* the next dynamic tile id */
};

__device__ __forceinline__ void cp_async16(void *smem, const void *gmem)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(a), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;" ::: "memory");
}
__device__ __forceinline__ void cp_async_wait_prev()
{
    asm volatile("cp.async.wait_group 1;" ::: "memory");
}

/* Each thread copies exactly the uint4 it will read (j*BLOCK + t), so its
 * own cp.async.wait_group is all the synchronisation the data needs. */
template <int BLOCK, int VEC>
__device__ __forceinline__ void prefetch_tile(const input &in, uint64_t vt,
                                              uint4 *dst)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        unsigned q = j * BLOCK + threadIdx.x;
        cp_async16(dst + q, in.base + (vt >> 2) + q);
    }
}

/* One tile from buf (FULL) or from global memory (a partial tile).
 * LOOKBACK: the fused pass, the offset comes from the predecessors;
 * otherwise (three-phase move) it is off, known from the prefix phase.
 * Returns the tile's count. */
template <class Op, int BLOCK, int VEC, bool FULL, bool LOOKBACK>
__device__ __forceinline__ uint32_t pipe_tile(const Op &op, const input &in,
                                              uint64_t tile, uint64_t n_tiles,
                                              uint64_t *status, uint64_t *d_total,
                                              uint64_t off,
                                              pipe_smem<BLOCK, VEC> &sm,
                                              uint4 *buf)
{
    typedef geom<BLOCK, VEC> G;
    uint64_t vt = tile * (uint64_t)G::SIZE;
    tile_regs<VEC> r;
    if (FULL) {
        cp_async_wait_prev();
#pragma unroll
        for (int j = 0; j < VEC; j++) {
            uint4 u = buf[j * BLOCK + threadIdx.x];
            r.x[j][0] = u.x; r.x[j][1] = u.y; r.x[j][2] = u.z; r.x[j][3] = u.w;
            r.ok[j] = 0xfu;
        }
    } else {
        load_tile<BLOCK, VEC, false>(in, vt, r.x, r.ok);
    }
    rank_local<Op, BLOCK, VEC>(op, r, sm.chunk);
    __syncthreads();     /* chunk counts in; buf read, free to stage into */
    rank_tile<BLOCK, VEC>(r, sm.chunk);
    tile_span sp = span_of(in, vt, G::SIZE);
    if (LOOKBACK && threadIdx.x == 0)
        publish_aggregate(status, tile, r.total);
    uint32_t *stage = (uint32_t *)buf;
    stage_tile<Op, BLOCK, VEC>(op, r, sp.head, stage);
    /* Warp 0 waits on its predecessors only after staging: the wait
     * overlaps the other warps' staging, and the tile's elements are no
     * longer live in registers while the look-back needs them. */
    if (LOOKBACK && threadIdx.x < 32) {
        uint64_t excl = lookback(status, tile, r.total);
        if (threadIdx.x == 0) {
            sm.offset = excl;
            if (tile == n_tiles - 1)
                *d_total = excl + r.total;
        }
    }
    __syncthreads();
    if (LOOKBACK)
        off = sm.offset;
    flush_tile<Op, BLOCK>(op, stage, r.total, sp.valid, off, sp.first);
    return r.total;
}

/* The partial tiles (at most the first and the last) are called, not
 * inlined, so that their extra live state (which lanes are elements) does
 * not raise the register count or cause spills in the full-tile path. */
template <class Op, int BLOCK, int VEC, bool LOOKBACK>
__device__ __noinline__ uint32_t pipe_tile_partial(const Op &op, const input &in,
                                                   uint64_t tile, uint64_t n_tiles,
                                                   uint64_t *status,
                                                   uint64_t *d_total, uint64_t off,
                                                   pipe_smem<BLOCK, VEC> &sm,
                                                   uint4 *buf)
{
    return pipe_tile<Op, BLOCK, VEC, false, LOOKBACK>(op, in, tile, n_tiles, status,
                                                      d_total, off, sm, buf);
}

/* At most 64 registers (4 blocks of 256 per SM). */
static const int MIN_BLOCKS = 4;

/* Persistent blocks, each taking tiles in order from a counter.  The
 * tile's elements sit in registers only briefly, so registers do not bound
 * the bytes in flight: while a tile is ranked, staged, looked back and
 * flushed, the block's next tile is already streaming into shared memory
 * (cp.async).  (Measured: one tile per block, loaded into registers, kept
 * DRAM 34% busy and ran at 0.6x CUB.)  Taking the next id before finishing
 * the current tile keeps the look-back deadlock-free: a tile waits only on
 * lower ids, and the lowest unfinished one is always being processed. */
template <class Op, int BLOCK, int VEC>
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
fused_kernel(Op op_param, input in, uint64_t n_tiles, uint64_t *status,
             unsigned long long *tile_counter, uint64_t *d_total)
{
    typedef geom<BLOCK, VEC> G;
    __shared__ pipe_smem<BLOCK, VEC> sm;
    __shared__ Op sop;
    op_to_smem(op_param, &sop);
    const Op &op = sop;
    if (threadIdx.x == 0)
        sm.slot = atomicAdd(tile_counter, 1ull);
    __syncthreads();
    uint64_t cur = sm.slot;
    unsigned b = 0;
    if (cur < n_tiles) {
        uint64_t vt = cur * (uint64_t)G::SIZE;
        if (vt >= in.lo && vt + G::SIZE <= in.hi)
            prefetch_tile<BLOCK, VEC>(in, vt, sm.buf[0]);
    }
    cp_async_commit();
    while (cur < n_tiles) {
        /* every thread is past the last flush (buf[b ^ 1] is free) and
         * has read sm.slot */
        __syncthreads();
        if (threadIdx.x == 0)
            sm.slot = atomicAdd(tile_counter, 1ull);
        __syncthreads();
        uint64_t nxt = sm.slot;
        uint64_t nvt = nxt * (uint64_t)G::SIZE;
        if (nxt < n_tiles && nvt >= in.lo && nvt + G::SIZE <= in.hi)
            prefetch_tile<BLOCK, VEC>(in, nvt, sm.buf[b ^ 1]);
        cp_async_commit();
        uint64_t vt = cur * (uint64_t)G::SIZE;
        if (vt >= in.lo && vt + G::SIZE <= in.hi)
            pipe_tile<Op, BLOCK, VEC, true, true>(op, in, cur, n_tiles, status,
                                                  d_total, 0, sm, sm.buf[b]);
        else
            pipe_tile_partial<Op, BLOCK, VEC, true>(op, in, cur, n_tiles, status,
                                                    d_total, 0, sm, sm.buf[b]);
        cur = nxt;
        b ^= 1;
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
}

/* ------------------------------------------------------------------ */
/* The three phases: S blocks, each owning a contiguous run of tiles.    */

static const int MAX_SEQ = 4096;     /* sequences; the prefix block's limit */
static const int PREFIX_THREADS = 1024;

template <class Op, int BLOCK, int VEC, bool FULL>
__device__ __forceinline__ uint32_t count_tile(const Op &op, const input &in,
                                               uint64_t vt)
{
    uint32_t x[VEC][4], ok[VEC], c = 0;
    load_tile<BLOCK, VEC, FULL>(in, vt, x, ok);
#pragma unroll
    for (int j = 0; j < VEC; j++)
#pragma unroll
        for (int k = 0; k < 4; k++)
            c += (uint32_t)op.select(x[j][k]) & (ok[j] >> k);
    return c;
}

/* Phase 1: the number selected in each sequence. */
template <class Op, int BLOCK, int VEC>
__global__ void __launch_bounds__(BLOCK)
count_kernel(Op op_param, input in, uint64_t n_tiles, uint64_t tiles_per_seq,
             uint64_t *seq_count)
{
    typedef geom<BLOCK, VEC> G;
    __shared__ uint64_t warp_total[G::WARPS];
    __shared__ Op sop;
    op_to_smem(op_param, &sop);
    __syncthreads();
    const Op &op = sop;
    uint64_t t0 = blockIdx.x * tiles_per_seq;
    uint64_t t1 = t0 + tiles_per_seq < n_tiles ? t0 + tiles_per_seq : n_tiles;
    uint64_t c = 0;
    for (uint64_t t = t0; t < t1; t++) {
        uint64_t vt = t * (uint64_t)G::SIZE;
        if (vt >= in.lo && vt + G::SIZE <= in.hi)
            c += count_tile<Op, BLOCK, VEC, true>(op, in, vt);
        else
            c += count_tile<Op, BLOCK, VEC, false>(op, in, vt);
    }
    c = warp_sum64(c);
    if (lane_id() == 0)
        warp_total[threadIdx.x >> 5] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        uint64_t s = 0;
        for (int w = 0; w < G::WARPS; w++)
            s += warp_total[w];
        seq_count[blockIdx.x] = s;
    }
}

/* Phase 2: exclusive scan of at most MAX_SEQ counts in one block; the
 * grand total goes to *d_total. */
static __global__ void __launch_bounds__(PREFIX_THREADS)
prefix_kernel(const uint64_t *seq_count, uint32_t n_seq, uint64_t *seq_off,
              uint64_t *d_total)
{
    const int IPT = MAX_SEQ / PREFIX_THREADS;
    __shared__ uint64_t warp_total[PREFIX_THREADS / 32];
    uint64_t v[IPT], sum = 0;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        uint32_t k = threadIdx.x * IPT + i;
        v[i] = k < n_seq ? seq_count[k] : 0;
        sum += v[i];
    }
    /* inclusive scan of the thread sums: lanes, then warps */
    uint64_t incl = sum;
    for (int d = 1; d < 32; d <<= 1) {
        uint64_t t = __shfl_up_sync(FULL_MASK, incl, d);
        if (lane_id() >= (unsigned)d)
            incl += t;
    }
    unsigned warp = threadIdx.x >> 5;
    if (lane_id() == 31)
        warp_total[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        uint64_t w = warp_total[lane_id()], wi = w;
        for (int d = 1; d < 32; d <<= 1) {
            uint64_t t = __shfl_up_sync(FULL_MASK, wi, d);
            if (lane_id() >= (unsigned)d)
                wi += t;
        }
        warp_total[lane_id()] = wi - w;
        if (lane_id() == 31)
            *d_total = wi;
    }
    __syncthreads();
    uint64_t run = warp_total[warp] + incl - sum;
#pragma unroll
    for (int i = 0; i < IPT; i++) {
        uint32_t k = threadIdx.x * IPT + i;
        if (k < n_seq)
            seq_off[k] = run;
        run += v[i];
    }
}

/* Phase 3: walk the sequence again, tile by tile, moving at the offset;
 * the next tile of the sequence streams into shared memory meanwhile, as
 * in the fused pass. */
template <class Op, int BLOCK, int VEC>
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
move_kernel(Op op_param, input in, uint64_t n_tiles, uint64_t tiles_per_seq,
            const uint64_t *seq_off)
{
    typedef geom<BLOCK, VEC> G;
    __shared__ pipe_smem<BLOCK, VEC> sm;
    __shared__ Op sop;
    op_to_smem(op_param, &sop);
    const Op &op = sop;
    uint64_t t0 = blockIdx.x * tiles_per_seq;
    uint64_t t1 = t0 + tiles_per_seq < n_tiles ? t0 + tiles_per_seq : n_tiles;
    uint64_t off = seq_off[blockIdx.x];
    unsigned b = 0;
    if (t0 < t1 && t0 * G::SIZE >= in.lo && (t0 + 1) * G::SIZE <= in.hi)
        prefetch_tile<BLOCK, VEC>(in, t0 * G::SIZE, sm.buf[0]);
    cp_async_commit();
    for (uint64_t t = t0; t < t1; t++) {
        __syncthreads();     /* buf[b ^ 1] flushed; sop visible */
        uint64_t n = t + 1;
        if (n < t1 && n * G::SIZE >= in.lo && (n + 1) * G::SIZE <= in.hi)
            prefetch_tile<BLOCK, VEC>(in, n * G::SIZE, sm.buf[b ^ 1]);
        cp_async_commit();
        uint64_t vt = t * (uint64_t)G::SIZE;
        if (vt >= in.lo && vt + G::SIZE <= in.hi)
            off += pipe_tile<Op, BLOCK, VEC, true, false>(op, in, t, n_tiles, 0, 0,
                                                          off, sm, sm.buf[b]);
        else
            off += pipe_tile_partial<Op, BLOCK, VEC, false>(op, in, t, n_tiles, 0, 0,
                                                            off, sm, sm.buf[b]);
        b ^= 1;
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
}

/* ------------------------------------------------------------------ */
/* The register variants (-DSC_TP_REGS): one tile per block for the     */
/* fused pass, tiles loaded straight into registers.  An earlier form    */
/* passed the kernel tests on an H200 and measured latency-bound: 4      */
/* blocks/SM of one 16 KiB tile each keep DRAM 34% busy (fused 0.61x CUB */
/* at 50%).  The default is the cp.async pipelined kernels above.        */

template <int BLOCK, int VEC>
struct tile_smem {
    uint32_t stage[geom<BLOCK, VEC>::SIZE];
    uint32_t chunk[geom<BLOCK, VEC>::CHUNKS];
    uint64_t offset;     /* fused: the tile's exclusive prefix */
    uint64_t tile;       /* fused: the dynamic tile id */
};

template <class Op, int BLOCK, int VEC, bool FULL>
__device__ __forceinline__ void fused_tile_regs(const Op &op, const input &in,
                                           uint64_t tile, uint64_t n_tiles,
                                           uint64_t *status, uint64_t *d_total,
                                           tile_smem<BLOCK, VEC> &sm)
{
    typedef geom<BLOCK, VEC> G;
    uint64_t vt = tile * (uint64_t)G::SIZE;
    tile_regs<VEC> r;
    load_tile<BLOCK, VEC, FULL>(in, vt, r.x, r.ok);
    rank_local<Op, BLOCK, VEC>(op, r, sm.chunk);
    __syncthreads();
    rank_tile<BLOCK, VEC>(r, sm.chunk);
    tile_span sp = span_of(in, vt, G::SIZE);
    if (threadIdx.x == 0)
        publish_aggregate(status, tile, r.total);
    stage_tile<Op, BLOCK, VEC>(op, r, sp.head, sm.stage);
    /* Warp 0 waits on its predecessors only after staging: the wait
     * overlaps the other warps' staging, and the tile's elements are no
     * longer live in registers while the look-back needs them. */
    if (threadIdx.x < 32) {
        uint64_t excl = lookback(status, tile, r.total);
        if (threadIdx.x == 0) {
            sm.offset = excl;
            if (tile == n_tiles - 1)
                *d_total = excl + r.total;
        }
    }
    __syncthreads();
    flush_tile<Op, BLOCK>(op, sm.stage, r.total, sp.valid, sm.offset, sp.first);
}

/* At most 64 registers (4 blocks of 256 per SM): a block spends part of
 * its life staging and flushing, not loading, so several blocks per SM are
 * needed to keep loads in flight. */

/* The partial tiles (at most the first and the last) are called, not
 * inlined, so that their extra live state (which lanes are elements) does
 * not raise the register count or cause spills in the full-tile path. */
template <class Op, int BLOCK, int VEC>
__device__ __noinline__ void fused_tile_regs_partial(const Op &op, const input &in,
                                                uint64_t tile, uint64_t n_tiles,
                                                uint64_t *status,
                                                uint64_t *d_total,
                                                tile_smem<BLOCK, VEC> &sm)
{
    fused_tile_regs<Op, BLOCK, VEC, false>(op, in, tile, n_tiles, status, d_total, sm);
}

template <class Op, int BLOCK, int VEC>
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
fused_kernel_regs(Op op_param, input in, uint64_t n_tiles, uint64_t *status,
             unsigned long long *tile_counter, uint64_t *d_total)
{
    typedef geom<BLOCK, VEC> G;
    __shared__ tile_smem<BLOCK, VEC> sm;
    __shared__ Op sop;
    op_to_smem(op_param, &sop);
    const Op &op = sop;
    if (threadIdx.x == 0)
        sm.tile = atomicAdd(tile_counter, 1ull);
    __syncthreads();
    uint64_t tile = sm.tile;
    uint64_t vt = tile * (uint64_t)G::SIZE;
    if (vt >= in.lo && vt + G::SIZE <= in.hi)
        fused_tile_regs<Op, BLOCK, VEC, true>(op, in, tile, n_tiles, status, d_total, sm);
    else
        fused_tile_regs_partial<Op, BLOCK, VEC>(op, in, tile, n_tiles, status, d_total, sm);
}

/* Phase 3: walk the sequence again, tile by tile, moving at the offset. */
template <class Op, int BLOCK, int VEC, bool FULL>
__device__ __forceinline__ uint32_t move_tile_regs(const Op &op, const input &in,
                                              uint64_t vt, uint64_t off,
                                              tile_smem<BLOCK, VEC> &sm)
{
    typedef geom<BLOCK, VEC> G;
    tile_regs<VEC> r;
    load_tile<BLOCK, VEC, FULL>(in, vt, r.x, r.ok);
    rank_local<Op, BLOCK, VEC>(op, r, sm.chunk);
    __syncthreads();     /* chunk counts in; last tile's flush done */
    rank_tile<BLOCK, VEC>(r, sm.chunk);
    tile_span sp = span_of(in, vt, G::SIZE);
    stage_tile<Op, BLOCK, VEC>(op, r, sp.head, sm.stage);
    __syncthreads();     /* stage full; chunk counts read */
    flush_tile<Op, BLOCK>(op, sm.stage, r.total, sp.valid, off, sp.first);
    return r.total;
}

template <class Op, int BLOCK, int VEC>
__device__ __noinline__ uint32_t move_tile_regs_partial(const Op &op,
                                                   const input &in, uint64_t vt,
                                                   uint64_t off,
                                                   tile_smem<BLOCK, VEC> &sm)
{
    return move_tile_regs<Op, BLOCK, VEC, false>(op, in, vt, off, sm);
}

template <class Op, int BLOCK, int VEC>
__global__ void __launch_bounds__(BLOCK, MIN_BLOCKS)
move_kernel_regs(Op op_param, input in, uint64_t n_tiles, uint64_t tiles_per_seq,
            const uint64_t *seq_off)
{
    typedef geom<BLOCK, VEC> G;
    __shared__ tile_smem<BLOCK, VEC> sm;
    __shared__ Op sop;
    op_to_smem(op_param, &sop);
    __syncthreads();
    const Op &op = sop;
    uint64_t t0 = blockIdx.x * tiles_per_seq;
    uint64_t t1 = t0 + tiles_per_seq < n_tiles ? t0 + tiles_per_seq : n_tiles;
    uint64_t off = seq_off[blockIdx.x];
    for (uint64_t t = t0; t < t1; t++) {
        uint64_t vt = t * (uint64_t)G::SIZE;
        if (vt >= in.lo && vt + G::SIZE <= in.hi)
            off += move_tile_regs<Op, BLOCK, VEC, true>(op, in, vt, off, sm);
        else
            off += move_tile_regs_partial<Op, BLOCK, VEC>(op, in, vt, off, sm);
    }
}

/* ------------------------------------------------------------------ */
/* Host side: scratch layout and launches.                               */

/* [0, 256): tile counter; then one status word per tile (both zeroed by a
 * single memset); then the sequence counts and offsets. */
static inline size_t round256(size_t b) { return (b + 255) & ~(size_t)255; }

static inline size_t scratch_bytes(uint64_t n, uint64_t tile)
{
    uint64_t tiles = (n + 3 + tile - 1) / tile;   /* +3: misalignment */
    return 256 + round256(tiles * 8) + 2 * round256(MAX_SEQ * 8);
}

struct scratch_map {
    unsigned long long *counter;
    uint64_t *status, *seq_count, *seq_off;
    size_t zero_bytes;   /* what the fused pass needs zeroed */
};

static inline scratch_map map_scratch(void *scratch, uint64_t tiles)
{
    char *p = (char *)scratch;
    scratch_map m;
    m.counter = (unsigned long long *)p;
    m.status = (uint64_t *)(p + 256);
    m.zero_bytes = 256 + tiles * 8;
    m.seq_count = (uint64_t *)(p + 256 + round256(tiles * 8));
    m.seq_off = (uint64_t *)((char *)m.seq_count + round256(MAX_SEQ * 8));
    return m;
}

template <class Op, int BLOCK, int VEC>
static int run_fused(const Op &op, const input &in, void *scratch,
                     uint64_t *d_total, cudaStream_t s)
{
    typedef geom<BLOCK, VEC> G;
    uint64_t tiles = n_tiles(in, G::SIZE);
    if (tiles > 0x7fffffffull)
        return (int)cudaErrorInvalidValue;
    int dev = 0, sms = 0, per_sm = 0;
    SCG_CHECK(cudaGetDevice(&dev));
    SCG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    SCG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
#ifndef SC_TP_REGS
        &per_sm, fused_kernel<Op, BLOCK, VEC>, BLOCK, 0));
#else
        &per_sm, fused_kernel_regs<Op, BLOCK, VEC>, BLOCK, 0));
#endif
    uint64_t blocks = (uint64_t)sms * (uint64_t)(per_sm > 0 ? per_sm : 1);
    if (blocks > tiles)
        blocks = tiles;
    scratch_map m = map_scratch(scratch, tiles);
    SCG_CHECK(cudaMemsetAsync(scratch, 0, m.zero_bytes, s));
#ifndef SC_TP_REGS
    fused_kernel<Op, BLOCK, VEC><<<(unsigned)blocks, BLOCK, 0, s>>>(
        op, in, tiles, m.status, m.counter, d_total);
#else
    (void)blocks;
    fused_kernel_regs<Op, BLOCK, VEC><<<(unsigned)tiles, BLOCK, 0, s>>>(
        op, in, tiles, m.status, m.counter, d_total);
#endif
    SCG_CHECK_LAUNCH();
    return 0;
}

/* Sequences: as many as can be resident at once (one wave, so that no SM
 * idles while a second wave runs a few long sequences), at most MAX_SEQ. */
template <class Op, int BLOCK, int VEC>
static int run_three_phase(const Op &op, const input &in, void *scratch,
                           uint64_t *d_total, cudaStream_t s)
{
    typedef geom<BLOCK, VEC> G;
    uint64_t tiles = n_tiles(in, G::SIZE);
    int dev = 0, sms = 0, per_sm = 0;
    SCG_CHECK(cudaGetDevice(&dev));
    SCG_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    SCG_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
#ifndef SC_TP_REGS
        &per_sm, move_kernel<Op, BLOCK, VEC>, BLOCK, 0));
#else
        &per_sm, move_kernel_regs<Op, BLOCK, VEC>, BLOCK, 0));
#endif
    uint64_t want = (uint64_t)sms * (uint64_t)(per_sm > 0 ? per_sm : 1);
    if (want > (uint64_t)MAX_SEQ)
        want = MAX_SEQ;
    if (want > tiles)
        want = tiles;
    uint64_t tps = (tiles + want - 1) / want;
    uint32_t n_seq = (uint32_t)((tiles + tps - 1) / tps);
    scratch_map m = map_scratch(scratch, tiles);
    count_kernel<Op, BLOCK, VEC><<<n_seq, BLOCK, 0, s>>>(op, in, tiles, tps,
                                                         m.seq_count);
    SCG_CHECK_LAUNCH();
    prefix_kernel<<<1, PREFIX_THREADS, 0, s>>>(m.seq_count, n_seq, m.seq_off,
                                                d_total);
    SCG_CHECK_LAUNCH();
#ifndef SC_TP_REGS
    move_kernel<Op, BLOCK, VEC><<<n_seq, BLOCK, 0, s>>>(op, in, tiles, tps,
                                                        m.seq_off);
#else
    move_kernel_regs<Op, BLOCK, VEC><<<n_seq, BLOCK, 0, s>>>(op, in, tiles, tps,
                                                             m.seq_off);
#endif
    SCG_CHECK_LAUNCH();
    return 0;
}

} /* namespace tp */

#endif /* SC_THREE_PHASE_CUH */
