/* ablate_select.cu — where the fused select pass spends its time: the same
 * persistent loop (the cp.async ring, one stage, its own shape: 512 x 4
 * uint4 tiles, two blocks an SM, ABL_BLOCK threads; the shipped shapes are
 * tile_config.cuh's) with its steps added one at a time, on 2^28 uint32
 * held on the device, x != 0 kept at 10 / 50 / 90 %.  A research probe
 * for bench/RESULTS.md, not a benchmark of what libsc ships
 * (bench_compact.cu is that).
 *
 *   read      the ring alone (the loads, a checksum)
 *   rank      + the tile's ranks (ballots, a barrier, the chunk scan)
 *   lookback  + warp 0's look-back, the block waiting for it
 *   move      + staging and the flush, at made-up offsets, no look-back
 *   late      move, each tile flushed a tile later (the shipped pass's
 *             order: rank k, flush k-1, stage k), still no look-back
 *   full-late late with the look-back, but no warp of its own: warp 0
 *             finds tile k-1's offset during step k (its predecessors
 *             have had a tile's time to publish) while the block waits
 *   full      all of it in step order: the whole block waits for warp
 *             0's look-back of the tile it has just ranked, then moves
 *             it (checked against the count libsc's scg_compact
 *             returns); bench/RESULTS.md has this probe's figures
 *             ("Where the fused select pass spent its time")
 * Each row prints the look-back's mean rounds (32 tiles a round) and
 * polls per tile where it has one; "ns" is the back-off between polls.
 *
 * Usage: ablate_select [log2 n]   (default 28; n is rounded down to
 * whole tiles)
 */
#include <algorithm>
#include <stdio.h>
#include <vector>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "select_ops.cuh"
#include "select_data.cuh"

using namespace te;

enum { M_READ, M_RANK, M_LOOKBACK, M_MOVE, M_FULL, M_LATE, M_FULL_LATE };
static const char *const mode_name[] = { "read", "rank", "lookback", "move", "full",
                                         "late", "full-late" };

__device__ unsigned long long g_rounds, g_polls, g_sink;

/* warp_lookback of tile_status.cuh with its rounds and polls counted and
 * the back-off a parameter. */
template <unsigned NS>
__device__ uint64_t lookback_counted(const packed_status &st, uint64_t tile)
{
    unsigned lane = lane_id();
    uint64_t excl = 0;
    int64_t p = (int64_t)tile - 1;
    unsigned rounds = 0, polls = 0;
    for (;;) {
        rounds++;
        int64_t q = p - (int64_t)lane;
        uint64_t v = 0;
        int f = q >= 0 ? st.poll((uint64_t)q, v) : (int)ST_PREFIX;
        polls++;
        while (__any_sync(FULL_MASK, f == ST_NONE)) {
            if (NS) __nanosleep(NS);
            polls++;
            if (f == ST_NONE)
                f = st.poll((uint64_t)q, v);
        }
        unsigned pm = __ballot_sync(FULL_MASK, f == ST_PREFIX);
        unsigned stop = pm ? (unsigned)(__ffs(pm) - 1) : 31u;
        excl += warp_reduce<plus<uint64_t>, uint64_t>(lane <= stop ? v : 0);
        if (pm)
            break;
        p -= 32;
    }
    if (lane == 0) {
        atomicAdd(&g_rounds, rounds);
        atomicAdd(&g_polls, polls);
    }
    return excl;
}

/* full-late: warp 0 finds tile's offset into *offset, publishes its
 * prefix (count: its aggregate) and, for the last tile, the total. */
template <unsigned NS>
__device__ void lookback_late(const packed_status &st, uint64_t tile, uint32_t count,
                              uint64_t n_tiles, uint64_t *d_total, uint64_t *offset)
{
    uint64_t excl = tile ? lookback_counted<NS>(st, tile) : 0;
    if (threadIdx.x == 0) {
        if (tile)
            st.publish_prefix(tile, excl + count);
        *offset = excl;
        if (tile == n_tiles - 1)
            *d_total = excl + count;
    }
}

/* The probe's shared memory: a select_smem and the offset warp 0 hands
 * the block. */
template <class Op, int BLOCK, int VEC>
struct abl_smem : select_smem<Op, BLOCK, VEC> {
    uint64_t offset;
};

template <class Op, int BLOCK, int VEC, int STAGES>
struct abl_layout {
    enum { RING_BYTES = STAGES * geom<BLOCK, VEC>::SIZE * 4 };
    static size_t bytes() { return RING_BYTES + sizeof(abl_smem<Op, BLOCK, VEC>); }
};

/* The probe's shape; ABL_BLOCK=480 gives the tile of lookback_warp.cuh's
 * passes (their compute threads) for comparison. */
#ifndef ABL_BLOCK
#define ABL_BLOCK 512
#endif
struct S {
    enum { BLOCK = ABL_BLOCK, VEC = 4, STAGES = 2, MINB = 2 };
};

template <class Op, int MODE, unsigned NS, int BLOCK, int VEC, int STAGES, int MINB>
__global__ void __launch_bounds__(BLOCK, MINB)
ablate_kernel(Op op, input in, uint64_t n_tiles, packed_status st, uint64_t *d_total)
{
    typedef geom<BLOCK, VEC> G;
    typedef abl_layout<Op, BLOCK, VEC, STAGES> L;
    typedef abl_smem<Op, BLOCK, VEC> SM;
    extern __shared__ uint4 dyn[];
    uint4 *ring = dyn;
    SM &sm = *(SM *)((char *)dyn + L::RING_BYTES);
    const uint64_t step = gridDim.x;
    uint64_t tile = blockIdx.x, prev = 0;
    uint32_t sink = 0, prev_count = 0;
    bool have_prev = false;
#pragma unroll
    for (int s = 0; s < STAGES; s++)
        prefetch_if_full<BLOCK, VEC>(in, tile + s * step, n_tiles,
                                     ring + s * (G::SIZE / 4));
    for (unsigned s = 0; tile < n_tiles; tile += step, s = s + 1 == STAGES ? 0 : s + 1) {
        uint4 *buf = ring + s * (G::SIZE / 4);
        cp_async_wait<STAGES - 1>();
        tile_regs<VEC> r;
        read_prefetched<BLOCK, VEC>(buf, r.x, r.ok);
        prefetch_if_full<BLOCK, VEC>(in, tile + STAGES * step, n_tiles, buf);
        if (MODE == M_READ) {
#pragma unroll
            for (int j = 0; j < VEC; j++)
                sink ^= r.x[j][0] ^ r.x[j][1] ^ r.x[j][2] ^ r.x[j][3];
            continue;
        }
        rank_local<Op, BLOCK, VEC>(op, r, sm.chunk);
        __syncthreads();
        rank_tile<BLOCK, VEC>(r, sm.chunk);
        tile_span sp = span_of(in, tile * G::SIZE, G::SIZE);
        uint64_t off = sp.first / 2;
        if (MODE == M_LATE || MODE == M_FULL_LATE) {
            if (MODE == M_FULL_LATE && threadIdx.x == 0)
                st.publish_agg(tile, (uint64_t)r.total);   /* tile 0: its prefix */
            if (have_prev) {
                tile_span pp = span_of(in, prev * G::SIZE, G::SIZE);
                uint64_t po = pp.first / 2;
                if (MODE == M_FULL_LATE) {
                    if (threadIdx.x < 32)
                        lookback_late<NS>(st, prev, prev_count, n_tiles, d_total,
                                          &sm.offset);
                    __syncthreads();
                    po = sm.offset;
                }
                flush_run<Op, BLOCK, true>(op, sm.stage, shift_of(op.sel, po),
                                           prev_count, op.sel, po, pp.first);
            }
            __syncthreads();
            stage_tile<Op, BLOCK, VEC>(op, r, sp.head, 0, r.total, sm.stage);
            prev = tile;
            prev_count = r.total;
            have_prev = true;
            continue;
        }
        if (MODE == M_LOOKBACK || MODE == M_FULL) {
            if (threadIdx.x < 32) {
                if (threadIdx.x == 0)
                    st.publish_agg(tile, (uint64_t)r.total);
                uint64_t excl = tile ? lookback_counted<NS>(st, tile) : 0;
                if (threadIdx.x == 0) {
                    if (tile)
                        st.publish_prefix(tile, excl + r.total);
                    sm.offset = excl;
                    if (tile == n_tiles - 1)
                        *d_total = excl + r.total;
                }
            }
        }
        if (MODE == M_MOVE || MODE == M_FULL)
            stage_tile<Op, BLOCK, VEC>(op, r, sp.head, 0, r.total, sm.stage);
        __syncthreads();
        if (MODE == M_RANK || MODE == M_LOOKBACK) {
            sink += r.total;
            continue;
        }
        if (MODE == M_FULL)
            off = sm.offset;
        flush_run<Op, BLOCK, true>(op, sm.stage, shift_of(op.sel, off), r.total,
                                   op.sel, off, sp.first);
    }
    cp_async_wait<0>();
    if ((MODE == M_LATE || MODE == M_FULL_LATE) && have_prev) {
        tile_span pp = span_of(in, prev * G::SIZE, G::SIZE);
        uint64_t po = pp.first / 2;
        if (MODE == M_FULL_LATE && threadIdx.x < 32)
            lookback_late<NS>(st, prev, prev_count, n_tiles, d_total, &sm.offset);
        __syncthreads();
        if (MODE == M_FULL_LATE)
            po = sm.offset;
        flush_run<Op, BLOCK, true>(op, sm.stage, shift_of(op.sel, po), prev_count,
                                   op.sel, po, pp.first);
    }
    if (sink == 0x9e3779b9u)
        g_sink = sink;
}

typedef sel_op<pred_range, uint32_t, false, false> op_t;

template <int MODE, unsigned NS>
static void launch(const op_t &op, const input &in, uint64_t tiles, void *scr,
                   uint64_t *d_total)
{
    typedef abl_layout<op_t, S::BLOCK, S::VEC, S::STAGES> L;
    void (*k)(op_t, input, uint64_t, packed_status, uint64_t *) =
        ablate_kernel<op_t, MODE, NS, S::BLOCK, S::VEC, S::STAGES, S::MINB>;
    int sms = 0, per_sm = 0;
    SCG_CHECK_DIE(sm_count(&sms));
    SCG_CHECK_DIE(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       (int)L::bytes()));
    SCG_CHECK_DIE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, S::BLOCK,
                                                                L::bytes()));
    uint64_t blocks = std::min<uint64_t>((uint64_t)sms * per_sm, tiles);
    scratch_map m = map_scratch(scr, tiles);
    packed_status st = { m.status, 1, 1 };
    SCG_CHECK_DIE(cudaMemsetAsync(scr, 0, m.zero_bytes));
    op_t o = op;
    input i = in;
    void *args[] = { &o, &i, &tiles, &st, &d_total };
    SCG_CHECK_DIE(cudaLaunchCooperativeKernel((const void *)k, dim3((unsigned)blocks),
                                              dim3(S::BLOCK), args, L::bytes(), 0));
}

template <int MODE, unsigned NS>
static void row(const char *what, int keep, const op_t &op, const input &in,
                uint64_t tiles, void *scr, uint64_t *d_total, uint64_t want,
                double copy_ms, double bytes, uint64_t n)
{
    const int RUNS = 20;
    cudaEvent_t a, b;
    SCG_CHECK_DIE(cudaEventCreate(&a));
    SCG_CHECK_DIE(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++)
        launch<MODE, NS>(op, in, tiles, scr, d_total);
    unsigned long long zero = 0;
    SCG_CHECK_DIE(cudaMemcpyToSymbol(g_rounds, &zero, 8));
    SCG_CHECK_DIE(cudaMemcpyToSymbol(g_polls, &zero, 8));
    std::vector<float> t(RUNS);
    for (int i = 0; i < RUNS; i++) {
        SCG_CHECK_DIE(cudaEventRecord(a));
        launch<MODE, NS>(op, in, tiles, scr, d_total);
        SCG_CHECK_DIE(cudaEventRecord(b));
        SCG_CHECK_DIE(cudaEventSynchronize(b));
        SCG_CHECK_DIE(cudaEventElapsedTime(&t[i], a, b));
    }
    std::sort(t.begin(), t.end());
    double ms = 0.5 * (t[RUNS / 2 - 1] + t[RUNS / 2]);
    unsigned long long rounds = 0, polls = 0;
    SCG_CHECK_DIE(cudaMemcpyFromSymbol(&rounds, g_rounds, 8));
    SCG_CHECK_DIE(cudaMemcpyFromSymbol(&polls, g_polls, 8));
    const char *check = "";
    if (MODE == M_FULL || MODE == M_FULL_LATE) {
        uint64_t got = 0;
        SCG_CHECK_DIE(cudaMemcpy(&got, d_total, 8, cudaMemcpyDeviceToHost));
        check = got == want ? "  count ok" : "  COUNT WRONG";
    }
    double per = (double)RUNS * (double)(tiles - 1);
    /* the floor: bytes at the copy's rate, which moved 8 bytes an element */
    double floor_ms = copy_ms * bytes / (8.0 * (double)n);
    printf("%-9s %5u %4d%% %8.3f %7.1f%% %7.2f %7.2f%s\n", what, NS, keep, ms,
           100.0 * floor_ms / ms,
           rounds / per, polls / per, check);
    SCG_CHECK_DIE(cudaEventDestroy(a));
    SCG_CHECK_DIE(cudaEventDestroy(b));
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 28;
    /* whole tiles: every tile runs the full-tile path */
    uint64_t n = (1ull << lg) / geom<S::BLOCK, S::VEC>::SIZE * geom<S::BLOCK, S::VEC>::SIZE;
    uint32_t *d_in, *d_out;
    uint64_t *d_total, *d_cnt;
    void *scr;
    SCG_CHECK_DIE(cudaMalloc(&d_in, n * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_out, n * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_total, 8));
    SCG_CHECK_DIE(cudaMalloc(&d_cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&scr, scg_compact_scratch(n)));
    input in = make_input(d_in, n);
    uint64_t tiles = n_tiles(in, geom<S::BLOCK, S::VEC>::SIZE);
    cudaEvent_t a, b;
    SCG_CHECK_DIE(cudaEventCreate(&a));
    SCG_CHECK_DIE(cudaEventCreate(&b));
    SCG_CHECK_DIE(cudaMemcpy(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice));
    SCG_CHECK_DIE(cudaEventRecord(a));
    for (int i = 0; i < 10; i++)
        SCG_CHECK_DIE(cudaMemcpyAsync(d_out, d_in, n * 4, cudaMemcpyDeviceToDevice));
    SCG_CHECK_DIE(cudaEventRecord(b));
    SCG_CHECK_DIE(cudaEventSynchronize(b));
    float copy10 = 0;
    SCG_CHECK_DIE(cudaEventElapsedTime(&copy10, a, b));
    double copy_ms = copy10 / 10.0;   /* 8 bytes moved per element */
    printf("n = %llu (2^%d in whole tiles), tiles of %d, copy %.3f ms; %% floor = "
           "bytes read + written at the copy's rate\n", (unsigned long long)n, lg,
           geom<S::BLOCK, S::VEC>::SIZE, copy_ms);
    printf("%-9s %5s %5s %8s %8s %7s %7s\n", "mode", "ns", "keep", "ms", "% floor",
           "rounds", "polls");
    sc_pred pred = {};
    pred.lo = 1;
    pred.hi = 0xffffffffu;
    pred_range range;
    range_of(pred, range);
    op_t op = { range, d_out, 0, 0 };
    const int keeps[] = { 10, 50, 90 };
    for (int keep : keeps) {
        uint64_t kb = (uint64_t)((double)keep / 100.0 * 18446744073709551615.0);
        fill_kernel<<<4096, 256>>>(d_in, n, kb);
        SCG_CHECK_DIE(cudaGetLastError());
        SCG_CHECK_DIE((cudaError_t)scg_compact(d_in, n, &pred, SC_EMIT_VALUES, 0, d_out,
                                               d_cnt, scr, SCG_ALGO_FUSED, 0));
        uint64_t want = 0;
        SCG_CHECK_DIE(cudaMemcpy(&want, d_cnt, 8, cudaMemcpyDeviceToHost));
        double rd = 4.0 * n, moved = rd + 4.0 * want;
        row<M_READ, 64>(mode_name[M_READ], keep, op, in, tiles, scr, d_total, want, copy_ms, rd, n);
        row<M_RANK, 64>(mode_name[M_RANK], keep, op, in, tiles, scr, d_total, want, copy_ms, rd, n);
        row<M_LOOKBACK, 64>(mode_name[M_LOOKBACK], keep, op, in, tiles, scr, d_total, want, copy_ms, rd, n);
        row<M_MOVE, 64>(mode_name[M_MOVE], keep, op, in, tiles, scr, d_total, want, copy_ms, moved, n);
        row<M_LATE, 64>(mode_name[M_LATE], keep, op, in, tiles, scr, d_total, want, copy_ms, moved, n);
        row<M_FULL_LATE, 64>(mode_name[M_FULL_LATE], keep, op, in, tiles, scr, d_total, want, copy_ms, moved, n);
        row<M_FULL, 64>(mode_name[M_FULL], keep, op, in, tiles, scr, d_total, want, copy_ms, moved, n);
        row<M_FULL, 0>(mode_name[M_FULL], keep, op, in, tiles, scr, d_total, want, copy_ms, moved, n);
        row<M_FULL, 256>(mode_name[M_FULL], keep, op, in, tiles, scr, d_total, want, copy_ms, moved, n);
        double t3 = 0;
        {
            const int R = 20;
            std::vector<float> t(R);
            for (int i = 0; i < R + 3; i++) {
                SCG_CHECK_DIE(cudaEventRecord(a));
                SCG_CHECK_DIE((cudaError_t)scg_compact(d_in, n, &pred, SC_EMIT_VALUES, 0,
                                                       d_out, d_cnt, scr,
                                                       SCG_ALGO_THREE_PHASE, 0));
                SCG_CHECK_DIE(cudaEventRecord(b));
                SCG_CHECK_DIE(cudaEventSynchronize(b));
                if (i >= 3)
                    SCG_CHECK_DIE(cudaEventElapsedTime(&t[i - 3], a, b));
            }
            std::sort(t.begin(), t.end());
            t3 = 0.5 * (t[R / 2 - 1] + t[R / 2]);
        }
        printf("%-9s %5s %4d%% %8.3f   (libsc's three phases, for comparison)\n",
               "3-phase", "-", keep, t3);
    }
    return 0;
}
