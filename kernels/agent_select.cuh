/* agent_select.cuh — the tile engine's agent for "keep some elements, in
 * order": compaction (values or indices) and stable split.  A tile is
 * counted, given its offset, and moved while it is on chip; the offset comes
 * from the decoupled look-back (fused single pass) or from the prefix phase
 * of the plain three phases (three_phase.cuh).
 *
 * An operation ("Op") is a small struct passed by value:
 *   typedef ... out_t;                      what is written (uint32, uint64)
 *   static const bool MOVE_REJECTS;         split: rejects go to op.rej
 *   static const bool IN_SMEM;              copy the Op to shared memory
 *   static const int EPV;                   elements a 16-byte vector (4, 2)
 *   static const int SW;                    out_t words staged an item
 *   out_t *sel, *rej;                       item i at sel[i * SW ..]
 *   bool select(const uint32_t (&v)[4], int k) const;   element k of v
 *   void stage(uint32_t *dst, const uint32_t (&v)[4], int k,
 *              uint32_t local) const;       SW words on chip
 *   out_t value(uint32_t s, uint64_t first) const;      at the final store
 * An 8-byte element moves as two 32-bit words (SW 2, out_t uint32), a
 * 16-byte record as four, so the stage and the flush are the same code for
 * every width.
 * IN_SMEM: kernel parameters cannot be indexed at run time; an Op whose
 * predicate loops over term lists would be copied to the stack per thread,
 * so such an Op is read from one shared copy per block instead.
 *
 * Moving a tile: selected elements are staged in shared memory at their
 * rank, shifted so that the output's 16-byte boundaries fall on 16-byte
 * boundaries of the stage, then written as whole 16-byte vectors (scalar
 * only at the two ends of each run), so the writes cost a quarter of the
 * store instructions and are coalesced whatever was selected.
 *
 * The shift depends on the tile's offset, which the fused pass learns from
 * the look-back, one tile later; so there (UNSHIFTED) the tile is staged at
 * its local ranks, and the flush gathers each output vector word by word
 * from the unaligned stage (measured 4-5 % faster than staging at the shift
 * once the offset is known, which costs a barrier).  The three phases know
 * the offset before the tile and stage at it.
 */
#ifndef SC_AGENT_SELECT_CUH
#define SC_AGENT_SELECT_CUH

#include <stdint.h>
#include <cuda_runtime.h>
#include "warp_scan.cuh"
#include "tile_io.cuh"
#include "tile_status.cuh"

namespace te {

template <int VEC>
struct tile_regs {
    uint32_t x[VEC][4];
    uint32_t ok[VEC];    /* bit k: element k of x[j] is an element */
    uint32_t f[VEC];     /* bit k: element k of x[j] is selected (packed in one
                            register, compaction of values ran 2 % slower,
                            of 32-bit indices 3-4 % faster) */
    uint32_t pre[VEC];   /* selected in the tile before x[j][0] */
    uint32_t total;      /* selected in the tile */
};

/* Shared memory of one block.  The stage holds a tile plus the alignment
 * shifts of its two runs. */
template <class Op, int BLOCK, int VEC>
struct __align__(16) select_smem {
    typedef geom<BLOCK, VEC> G;
    uint32_t stage[G::WORDS + 16];
    uint32_t chunk[G::CHUNKS];
    Op op;               /* when Op::IN_SMEM */
};

/* Ranks inside each 128-element chunk (load j of a warp): each thread
 * counts its four elements of load j into byte j of one word, and one warp
 * scan of that word ranks all VEC chunks at once (a chunk holds at most
 * 128, so no byte carries into the next).  Ballots and population counts
 * per element cost more: population count issues at a quarter of the
 * integer rate.  Lane 31 puts the chunk counts in shared memory; a
 * __syncthreads must follow. */
template <class Op, int BLOCK, int VEC>
__device__ __forceinline__ void rank_local(const Op &op, tile_regs<VEC> &r,
                                           uint32_t *chunk)
{
    typedef geom<BLOCK, VEC> G;
    static_assert(VEC <= 4, "one byte a chunk in a 32-bit word");
    uint32_t packed = 0;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint32_t f = 0, cnt = 0;
#pragma unroll
        for (int k = 0; k < Op::EPV; k++) {
            uint32_t s = (uint32_t)op.select(r.x[j], k) & (r.ok[j] >> k);
            f |= s << k;
            cnt += s;
        }
        r.f[j] = f;
        packed |= cnt << (8 * j);
    }
    uint32_t incl = warp_inclusive<plus<uint32_t>, uint32_t>(packed);
    uint32_t excl = incl - packed;
#pragma unroll
    for (int j = 0; j < VEC; j++)
        r.pre[j] = (excl >> (8 * j)) & 0xffu;
    if (lane_id() == 31) {
#pragma unroll
        for (int j = 0; j < VEC; j++)
            chunk[j * G::WARPS + warp_id()] = (incl >> (8 * j)) & 0xffu;
    }
}

/* After the barrier, in every warp (a few shuffles, cheaper than another
 * barrier): the tile's chunk counts scanned two to a word, lane l holding
 * chunk l in the low half and chunk 32 + l in the high half (each half
 * sums to at most 32 x 128), so one warp scan serves all 64 chunks and
 * each of the thread's chunks is one shuffle away.  off[j]: the exclusive
 * prefix of the thread's chunk j; returns the tile's count. */
template <int BLOCK, int VEC>
__device__ __forceinline__ uint32_t chunk_offsets(const uint32_t *chunk, uint32_t (&off)[VEC])
{
    typedef geom<BLOCK, VEC> G;
    static_assert(G::CHUNKS <= 64, "two chunks a lane");
    unsigned lane = lane_id(), warp = warp_id();
    uint32_t mine = (lane < (unsigned)G::CHUNKS ? chunk[lane] : 0u) |
                    (lane + 32 < (unsigned)G::CHUNKS ? chunk[lane + 32] << 16 : 0u);
    uint32_t incl = warp_inclusive<plus<uint32_t>, uint32_t>(mine);
    uint32_t excl = incl - mine;
    uint32_t last = __shfl_sync(FULL_MASK, incl, 31);
    uint32_t low_total = last & 0xffffu;
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        unsigned c = j * G::WARPS + warp;
        uint32_t e = __shfl_sync(FULL_MASK, excl, c & 31u);
        off[j] = c < 32 ? (e & 0xffffu) : low_total + (e >> 16);
    }
    return low_total + (last >> 16);
}

/* r.pre into tile-local ranks; r.total the tile's count. */
template <int BLOCK, int VEC>
__device__ __forceinline__ void rank_tile(tile_regs<VEC> &r, const uint32_t *chunk)
{
    uint32_t off[VEC];
    r.total = chunk_offsets<BLOCK, VEC>(chunk, off);
#pragma unroll
    for (int j = 0; j < VEC; j++)
        r.pre[j] += off[j];
}

/* Output vectors are 16 bytes: E elements of out_t. */
template <typename T> struct vec_of;
template <> struct vec_of<uint32_t> { enum { E = 4 }; typedef uint4 stage_t; typedef uint4 out_v; };
template <> struct vec_of<uint64_t> { enum { E = 2 }; typedef uint2 stage_t; typedef ulonglong2 out_v; };

/* In PTX: the compiler otherwise splits these into scalar stores, as it
 * cannot see the alignment that the shift arithmetic guarantees. */
__device__ __forceinline__ void store_vec(uint32_t *p, const uint32_t (&o)[4])
{
    asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "l"(p), "r"(o[0]), "r"(o[1]), "r"(o[2]), "r"(o[3]) : "memory");
}
__device__ __forceinline__ void store_vec(uint64_t *p, const uint64_t (&o)[2])
{
    asm volatile("st.global.v2.u64 [%0], {%1, %2};"
                 :: "l"(p), "l"(o[0]), "l"(o[1]) : "memory");
}

/* Elements between the 16-byte boundary at or before &out[pos] and it. */
template <typename T>
__device__ __forceinline__ uint32_t shift_of(const T *out, uint64_t pos)
{
    return (uint32_t)(((uintptr_t)out / sizeof(T) + pos) & (vec_of<T>::E - 1));
}

/* Selected elements to stage[as + SW rank]; with MOVE_REJECTS the
 * rejected ones to stage[rb + ar + SW rank among rejects], rb the first
 * vector boundary past the selected run (all in stage words). */
template <class Op, int BLOCK, int VEC>
__device__ __forceinline__ void stage_tile(const Op &op, const tile_regs<VEC> &r,
                                           uint32_t head, uint32_t as,
                                           uint32_t rb_ar, uint32_t *stage)
{
#pragma unroll
    for (int j = 0; j < VEC; j++) {
        uint32_t below = r.pre[j];
#pragma unroll
        for (int k = 0; k < Op::EPV; k++) {
            uint32_t e = (uint32_t)(j * BLOCK + threadIdx.x) * Op::EPV + k;
            uint32_t local = e - head;
            uint32_t sel = (r.f[j] >> k) & 1;
            if (sel)
                op.stage(stage + as + below * Op::SW, r.x[j], k, local);
            else if (Op::MOVE_REJECTS && ((r.ok[j] >> k) & 1))
                op.stage(stage + rb_ar + (local - below) * Op::SW, r.x[j], k, local);
            below += sel;
        }
    }
}

/* E words from s[0 .. E), s at any alignment, by scalar reads.  The
 * lanes of a warp read E consecutive words each: word c of every lane in
 * one step would fall in every E-th bank only (an E-way conflict), so lane
 * l reads word (c + rot) % E in step c, rot = l / (32 / E), which puts each
 * step's 32 words in 32 banks; the words are rotated back in registers by
 * selects, log2(E) steps (an array indexed at run time would go to local
 * memory). */
template <int E>
__device__ __forceinline__ void gather_words(const uint32_t *s, uint32_t (&w)[E])
{
    unsigned rot = lane_id() / (32 / E);
#pragma unroll
    for (int c = 0; c < E; c++)
        w[c] = s[(c + rot) & (E - 1)];
#pragma unroll
    for (int b = 1; b < E; b <<= 1) {
        bool on = (rot & b) != 0;
        uint32_t t[E];
#pragma unroll
        for (int e = 0; e < E; e++)
            t[e] = on ? w[(e - b) & (E - 1)] : w[e];
#pragma unroll
        for (int e = 0; e < E; e++)
            w[e] = t[e];
    }
}

/* Writes cnt staged items to out[pos ..], where a is shift_of(out, pos):
 * thread t takes vectors t, t + BLOCK, ... of the output's 16-byte grid
 * (from out + pos - a); whole vectors go out as one 16-byte store.  Item
 * q is at stage[a + q], stage 16-byte aligned, so a whole vector's items
 * are one aligned vector of the stage; or, UNSHIFTED, at stage[q], at any
 * alignment, gathered word by word. */
template <class Op, int BLOCK, bool UNSHIFTED>
__device__ __forceinline__ void flush_run(const Op &op, const uint32_t *stage,
                                          uint32_t a, uint32_t cnt,
                                          typename Op::out_t *out, uint64_t pos,
                                          uint64_t first)
{
    typedef typename Op::out_t T;
    typedef vec_of<T> V;
    const int E = V::E;
    const uint32_t d = UNSHIFTED ? a : 0;   /* item of index i: stage[i - d] */
    uint32_t nv = (a + cnt + E - 1) / E;
    T *vbase = out + pos - a;       /* 16-byte aligned */
    for (uint32_t v = threadIdx.x; v < nv; v += BLOCK) {
        uint32_t i0 = v * E;        /* index of the vector's first */
        if (i0 >= a && i0 + E <= a + cnt) {
            T o[E];
            if (UNSHIFTED) {
                uint32_t w[E];
                gather_words<E>(stage + (i0 - a), w);
#pragma unroll
                for (int c = 0; c < E; c++)
                    o[c] = op.value(w[c], first);
            } else {
                typename V::stage_t s = *(const typename V::stage_t *)(stage + i0);
                const uint32_t *sv = (const uint32_t *)&s;
#pragma unroll
                for (int c = 0; c < E; c++)
                    o[c] = op.value(sv[c], first);
            }
            store_vec(vbase + i0, o);
        } else {
#pragma unroll
            for (int c = 0; c < E; c++) {
                uint32_t i = i0 + c;
                if (i >= a && i < a + cnt)
                    vbase[i] = op.value(stage[i - d], first);
            }
        }
    }
}

/* The three phases' move of a tile at a known offset, once rank_local and
 * its barrier are done: the tile's ranks, stage at the output's shift,
 * barrier, flush.  Returns the tile's count.  The next tile's barrier
 * after rank_local is what lets the stage and chunk be written again:
 * every thread has flushed by then. */
template <class Op, int BLOCK, int VEC, class SM>
__device__ __forceinline__ uint32_t move_tile_rest(const Op &op, const input &in,
                                                   tile_regs<VEC> &r, uint64_t tile,
                                                   uint64_t off, SM &sm)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    const uint32_t SW = Op::SW;
    rank_tile<BLOCK, VEC>(r, sm.chunk);
    tile_span sp = span_of(in, (uint64_t)tile * G::SIZE, G::SIZE);
    const uint32_t E = vec_of<typename Op::out_t>::E;
    uint32_t as = shift_of(op.sel, off * SW), ar = 0, rb = 0;
    uint64_t rej_off = sp.first - off;   /* rejected before the tile */
    if (Op::MOVE_REJECTS) {
        ar = shift_of(op.rej, rej_off * SW);
        rb = (as + r.total * SW + E - 1) / E * E;
    }
    stage_tile<Op, BLOCK, VEC>(op, r, sp.head, as, rb + ar, sm.stage);
    __syncthreads();
    flush_run<Op, BLOCK, false>(op, sm.stage, as, r.total * SW, op.sel, off * SW,
                                sp.first);
    if (Op::MOVE_REJECTS)
        flush_run<Op, BLOCK, false>(op, sm.stage + rb, ar, (sp.valid - r.total) * SW,
                                    op.rej, rej_off * SW, sp.first);
    return r.total;
}

/* A whole tile, loaded into r. */
template <class Op, int BLOCK, int VEC, class SM>
__device__ __forceinline__ uint32_t move_tile(const Op &op, const input &in,
                                              tile_regs<VEC> &r, uint64_t tile,
                                              uint64_t off, SM &sm)
{
    rank_local<Op, BLOCK, VEC>(op, r, sm.chunk);
    __syncthreads();     /* chunk counts in; the last flush is done */
    return move_tile_rest<Op, BLOCK, VEC>(op, in, r, tile, off, sm);
}

/* A partial tile (at most the first and the last of the array): loaded with
 * per-element tests and called, not inlined, so that its extra live state
 * does not cost the full-tile path registers. */
template <class Op, int BLOCK, int VEC, class SM>
__device__ __noinline__ uint32_t move_partial_tile(const Op &op, const input &in,
                                                   uint64_t tile, uint64_t off, SM &sm)
{
    tile_regs<VEC> r;
    load_tile<BLOCK, VEC, false, Op::EPV>(in, tile * (uint64_t)geom<BLOCK, VEC, Op::EPV>::SIZE,
                                          r.x, r.ok);
    return move_tile<Op, BLOCK, VEC>(op, in, r, tile, off, sm);
}

template <class Op>
__device__ __forceinline__ const Op &op_in_smem(const Op &param, Op *sop)
{
    if (!Op::IN_SMEM)
        return param;
    /* one thread, by plain assignment: a run-time index into the parameter
     * would bring the per-thread stack copy back */
    if (threadIdx.x == 0)
        *sop = param;
    return *sop;
}

/* ------------------------------------------------------------------ */
/* The fused single pass, persistent: the block ranks tile k, publishes  */
/* its count, flushes tile k-1 and stages tile k, while STAGES tiles are */
/* in flight into a shared-memory ring (cp.async).  Tile k-1's offset    */
/* comes from warp 0 during step k, the block waiting: by then its       */
/* predecessors have had a tile's time to publish.  EARLY: warp 0 reads  */
/* the look-back's first round at the top of step k, before the tile's   */
/* ranks, and uses it after them.                                        */

/* Compaction stages each tile at the other end of the stage from the one
 * before (fused_step); 496 more words let two tiles of half kept or less
 * share it, and still fit three 384-thread blocks an SM. */
enum { TWO_ENDS_EXTRA = 496 };
template <class Op, int BLOCK, int VEC>
struct __align__(16) fused_smem {
    typedef geom<BLOCK, VEC> G;
    enum { STAGE_WORDS = G::WORDS + 16 + (Op::MOVE_REJECTS ? 0 : TWO_ENDS_EXTRA) };
    uint32_t stage[STAGE_WORDS];
    uint32_t chunk[G::CHUNKS];
    uint64_t offset;     /* the staged tile's, from warp 0 */
    Op op;               /* when Op::IN_SMEM */
};

template <class Op, int BLOCK, int VEC, int STAGES>
struct fused_layout {
    typedef geom<BLOCK, VEC> G;
    enum { RING_BYTES = STAGES * G::WORDS * 4 };
    static size_t bytes() { return RING_BYTES + sizeof(fused_smem<Op, BLOCK, VEC>); }
};

/* The pass's state between tiles: the staged tile. */
struct fused_pass {
    packed_status st;
    uint64_t n_tiles;
    uint64_t *d_total;
    uint64_t prev;       /* the staged tile */
    uint32_t prev_count; /* its count */
    uint32_t prev_base;  /* the stage word of its first item */
    bool have_prev;
    uint64_t early;      /* EARLY, warp 0: its first look-back round's word */
};

/* Warp 0 finds the staged tile's offset, publishes its inclusive prefix
 * (and the total, for the last tile); the block waits for it. */
template <bool EARLY>
__device__ __forceinline__ uint64_t staged_offset(const fused_pass &fp, uint64_t &offset)
{
    if (threadIdx.x < 32) {
        uint64_t excl = 0;
        if (fp.prev)
            excl = EARLY ? warp_lookback_primed<plus<uint64_t> >(fp.st, fp.prev, fp.early)
                         : warp_lookback<plus<uint64_t> >(fp.st, fp.prev);
        if (threadIdx.x == 0) {
            if (fp.prev)
                fp.st.publish_prefix(fp.prev, excl + fp.prev_count);
            offset = excl;
            if (fp.prev == fp.n_tiles - 1)
                *fp.d_total = excl + fp.prev_count;
        }
    }
    __syncthreads();
    return offset;
}

/* The staged tile written out at its offset. */
template <class Op, int BLOCK, int VEC, bool EARLY, class SM>
__device__ __forceinline__ void flush_staged(const Op &op, const input &in,
                                             const fused_pass &fp, SM &sm)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    const uint32_t SW = Op::SW;
    uint64_t off = staged_offset<EARLY>(fp, sm.offset);
    uint32_t c = fp.prev_count;
    tile_span sp = span_of(in, fp.prev * G::SIZE, G::SIZE);
    flush_run<Op, BLOCK, true>(op, sm.stage + fp.prev_base, shift_of(op.sel, off * SW),
                               c * SW, op.sel, off * SW, sp.first);
    if (Op::MOVE_REJECTS) {
        uint64_t rej_off = sp.first - off;
        flush_run<Op, BLOCK, true>(op, sm.stage + c * SW, shift_of(op.rej, rej_off * SW),
                                   (sp.valid - c) * SW, op.rej, rej_off * SW, sp.first);
    }
}

/* One tile loaded into r: rank it, publish its count, flush the staged
 * tile, stage this one at its local ranks: selected items at
 * stage[SW rank], rejects at stage[SW (count + rank among rejects)].
 * Returns the tile's count. */
template <class Op, int BLOCK, int VEC, bool EARLY, class SM>
__device__ __forceinline__ uint32_t fused_step(const Op &op, const input &in,
                                               tile_regs<VEC> &r, uint64_t tile,
                                               fused_pass &fp, SM &sm)
{
    typedef geom<BLOCK, VEC, Op::EPV> G;
    const uint32_t SW = Op::SW;
    rank_local<Op, BLOCK, VEC>(op, r, sm.chunk);
    __syncthreads();                    /* chunk counts in; the last stage too */
    rank_tile<BLOCK, VEC>(r, sm.chunk);
    if (threadIdx.x == 0)
        fp.st.publish_agg(tile, (uint64_t)r.total);     /* tile 0: its prefix */
    uint32_t head = span_of(in, tile * G::SIZE, G::SIZE).head;
    uint32_t base = 0;
    if (!Op::MOVE_REJECTS) {
        /* The staged tile is at one end of the stage, this one goes to the
         * other: where both fit, this one is staged before the wait for
         * the look-back, and the barrier before staging is saved (the
         * tile that was at this end was flushed before this step's first
         * barrier): faster than one end at 10 and 50 % kept, most for
         * 32-bit indices, the same at 90 % (bench/RESULTS.md, "Figures
         * behind the kernels' comments"). */
        base = fp.prev_base == 0 && fp.have_prev ? (uint32_t)SM::STAGE_WORDS - r.total * SW
                                                 : 0;
        bool early = fp.have_prev &&
                     (fp.prev_count + r.total) * SW <= (uint32_t)SM::STAGE_WORDS;
        if (early) {
            stage_tile<Op, BLOCK, VEC>(op, r, head, base, r.total * SW, sm.stage);
            flush_staged<Op, BLOCK, VEC, EARLY>(op, in, fp, sm);
            fp.prev_base = base;
            return r.total;
        }
    }
    if (fp.have_prev)
        flush_staged<Op, BLOCK, VEC, EARLY>(op, in, fp, sm);
    __syncthreads();                    /* the stage is free, chunk read */
    stage_tile<Op, BLOCK, VEC>(op, r, head, base, r.total * SW, sm.stage);
    fp.prev_base = base;
    return r.total;
}

template <class Op, int BLOCK, int VEC, int STAGES, bool EARLY, class SM>
__device__ __forceinline__ void fused_compute(const Op &op, const input &in,
                                              fused_pass &fp, uint4 *ring, SM &sm)
{
    const int EPV = Op::EPV;
    typedef geom<BLOCK, VEC, EPV> G;
    const uint64_t step = gridDim.x, n_tiles = fp.n_tiles;
    uint64_t tile = blockIdx.x;
#pragma unroll
    for (int s = 0; s < STAGES; s++)
        prefetch_if_full<BLOCK, VEC, EPV>(in, tile + s * step, n_tiles, ring + s * G::VECS);
    for (unsigned s = 0; tile < n_tiles; tile += step, s = s + 1 == STAGES ? 0 : s + 1) {
        uint4 *buf = ring + s * G::VECS;
        uint64_t refill = tile + STAGES * step;
        cp_async_wait<STAGES - 1>();
        if (EARLY && threadIdx.x < 32 && fp.have_prev)
            fp.early = fp.st.first_word(fp.prev);
        /* A partial tile (at most the first and the last of the array) is
         * loaded with per-element tests.  Both paths are inlined: with the
         * partial one a call, the loop had a stack frame and spills. */
        uint32_t c;
        tile_regs<VEC> r;
        if (tile_full(in, tile * G::SIZE, G::SIZE)) {
            read_prefetched<BLOCK, VEC, EPV>(buf, r.x, r.ok);
            /* this thread's part of buf is in registers: refill it */
            prefetch_if_full<BLOCK, VEC, EPV>(in, refill, n_tiles, buf);
            c = fused_step<Op, BLOCK, VEC, EARLY>(op, in, r, tile, fp, sm);
        } else {
            prefetch_if_full<BLOCK, VEC, EPV>(in, refill, n_tiles, buf);
            load_tile<BLOCK, VEC, false, EPV>(in, tile * G::SIZE, r.x, r.ok);
            c = fused_step<Op, BLOCK, VEC, EARLY>(op, in, r, tile, fp, sm);
        }
        fp.prev = tile;
        fp.prev_count = c;
        fp.have_prev = true;
    }
    cp_async_wait<0>();
    if (fp.have_prev) {
        if (EARLY && threadIdx.x < 32)
            fp.early = fp.st.first_word(fp.prev);
        __syncthreads();                /* the last stage in */
        flush_staged<Op, BLOCK, VEC, EARLY>(op, in, fp, sm);
    }
}

template <class Op, int BLOCK, int VEC, int STAGES, int MINB, bool EARLY>
__global__ void __launch_bounds__(BLOCK, MINB)
fused_select_kernel(Op op_param, input in, uint64_t n_tiles, packed_status st,
                    uint64_t *d_total)
{
    typedef fused_layout<Op, BLOCK, VEC, STAGES> L;
    typedef fused_smem<Op, BLOCK, VEC> SM;
    extern __shared__ uint4 dyn[];
    SM &sm = *(SM *)((char *)dyn + L::RING_BYTES);
    const Op &op = op_in_smem(op_param, &sm.op);
    __syncthreads();     /* the Op copy */
    fused_pass fp = { st, n_tiles, d_total, 0, 0, 0, false, 0 };
    fused_compute<Op, BLOCK, VEC, STAGES, EARLY>(op, in, fp, dyn, sm);
}

} /* namespace te */

#endif /* SC_AGENT_SELECT_CUH */
