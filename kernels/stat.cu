/* stat.cu — sc-stat's figures on the device: the count phase of the three
 * phases alone, as nothing is moved.
 *
 * Each thread walks uint4 vectors of the input (grid-stride, 16-byte
 * loads), adds up its elements' sum, zeros, min and max, and puts each
 * element into the HyperLogLog registers of the accumulator (sc_hd.h's
 * rule, the CPU's).  A block reduces its threads' figures with shuffles
 * and merges them into the accumulator with one atomic each.  The input
 * is read once; in a stream the chunk's upload, not this kernel, is what
 * takes the time.
 */
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "tile_io.cuh"
#include "warp_scan.cuh"

namespace {

typedef unsigned long long u64;

constexpr int BLOCK = 256;
/* Enough blocks of BLOCK threads to fill today's largest GPUs, few enough
 * that the blocks' atomics on the accumulator's few shared words cost
 * nothing beside the read. */
constexpr unsigned MAX_BLOCKS = 1024;
/* Elements per launch at most: every partial sum inside a launch then
 * stays below 2^64 (2^32 elements of at most 2^32 - 1), so only the
 * merge into the accumulator needs a carry, and it has one. */
constexpr uint64_t MAX_LAUNCH = (uint64_t)1 << 32;

struct figures {
    u64 sum, zeros;
    uint32_t min, max;
};

struct min_of {
    __device__ __forceinline__ static uint32_t apply(uint32_t a, uint32_t b)
    {
        return a < b ? a : b;
    }
};
struct max_of {
    __device__ __forceinline__ static uint32_t apply(uint32_t a, uint32_t b)
    {
        return a > b ? a : b;
    }
};

/* The register of each valid element rises to its rank.  Registers fill
 * after a few elements each, and from then on most elements cannot raise
 * theirs: reading it first (volatile: a relaxed load that the atomics
 * never tear; all four issued before any is waited for) skips the atomic
 * then.  A stale read only costs an atomic that changes nothing, but at
 * the start every read is stale, and a run of one value (zeros, a
 * constant) would send every thread's atomic to one word: so of the lanes
 * of a warp holding the same value only the lowest valid one goes on
 * (equal values have equal registers and ranks).  Needs the whole warp. */
__device__ __forceinline__ void sketch(const uint32_t (&x)[4], uint32_t ok,
                                       uint32_t *reg)
{
    uint32_t *r[4];
    uint32_t rank[4], seen[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        bool valid = ok >> k & 1u;
        uint32_t peers = __match_any_sync(te::FULL_MASK, x[k]) &
                         __ballot_sync(te::FULL_MASK, valid);
        bool lead = valid && !(peers & te::lanemask_lt());
        uint64_t h = sc_hll_hash(x[k]);
        r[k] = reg + sc_hll_reg(h);
        rank[k] = lead ? sc_hll_rank(h) : 0u;
    }
#pragma unroll
    for (int k = 0; k < 4; k++)
        seen[k] = rank[k] ? *(volatile uint32_t *)r[k] : 0u;
#pragma unroll
    for (int k = 0; k < 4; k++)
        if (rank[k] > seen[k])
            atomicMax(r[k], rank[k]);
}

__device__ __forceinline__ void take(figures &f, const uint32_t (&x)[4],
                                     uint32_t ok, uint32_t *reg)
{
#pragma unroll
    for (int k = 0; k < 4; k++) {
        if (!(ok >> k & 1u)) continue;
        f.sum += x[k];
        f.zeros += x[k] == 0;
        f.min = min_of::apply(f.min, x[k]);
        f.max = max_of::apply(f.max, x[k]);
    }
    sketch(x, ok, reg);
}

/* Vector q of the aligned view: whole, or the part of it that is input
 * (the first and last vectors of a misaligned or odd-length array, none
 * of one past the end), read element by element so that no byte outside
 * the array is touched. */
__device__ __forceinline__ uint32_t load_vec(const te::input &in, uint64_t q,
                                             uint32_t (&x)[4])
{
    uint64_t v0 = 4 * q;
    if (v0 >= in.lo && v0 + 4 <= in.hi) {
        uint4 u = __ldcs(in.base + q);
        x[0] = u.x; x[1] = u.y; x[2] = u.z; x[3] = u.w;
        return 0xfu;
    }
    const uint32_t *s = (const uint32_t *)in.base;
    uint32_t ok = 0;
#pragma unroll
    for (int k = 0; k < 4; k++) {
        bool inside = v0 + k >= in.lo && v0 + k < in.hi;
        x[k] = inside ? s[v0 + k] : 0u;
        ok |= (uint32_t)inside << k;
    }
    return ok;
}

/* The block's figures into the accumulator.  The sum's low word carries
 * into sum_hi exactly: each atomicAdd returns the word it added to, and
 * the addition wrapped when the result is below it. */
__device__ __forceinline__ void merge_block(figures f, scg_stat_acc *acc)
{
    __shared__ figures part[BLOCK / 32];
    f.sum = te::warp_reduce<te::plus<u64>, u64>(f.sum);
    f.zeros = te::warp_reduce<te::plus<u64>, u64>(f.zeros);
    f.min = te::warp_reduce<min_of, uint32_t>(f.min);
    f.max = te::warp_reduce<max_of, uint32_t>(f.max);
    if (te::lane_id() == 0) part[te::warp_id()] = f;
    __syncthreads();
    if (threadIdx.x != 0) return;
    for (int w = 1; w < BLOCK / 32; w++) {
        f.sum += part[w].sum;
        f.zeros += part[w].zeros;
        f.min = min_of::apply(f.min, part[w].min);
        f.max = max_of::apply(f.max, part[w].max);
    }
    u64 old = atomicAdd((u64 *)&acc->sum, f.sum);
    if (old + f.sum < old) atomicAdd((u64 *)&acc->sum_hi, 1ull);
    atomicAdd((u64 *)&acc->zeros, f.zeros);
    atomicMin(&acc->min, f.min);
    atomicMax(&acc->max, f.max);
}

__global__ void __launch_bounds__(BLOCK)
stat_kernel(te::input in, scg_stat_acc *acc)
{
    figures f = { 0, 0, 0xffffffffu, 0 };
    uint64_t vecs = (in.hi + 3) / 4;
    uint64_t stride = (uint64_t)gridDim.x * BLOCK;
    /* q0, the warp's first vector, is the same for all its lanes: every
     * lane runs every turn, as the sketch's votes need; a lane past the
     * end has no elements (load_vec reads nothing there). */
    for (uint64_t q0 = (uint64_t)blockIdx.x * BLOCK + (threadIdx.x & ~31u);
         q0 < vecs; q0 += stride) {
        uint32_t x[4];
        uint32_t ok = load_vec(in, q0 + te::lane_id(), x);
        take(f, x, ok, acc->reg);
    }
    merge_block(f, acc);      /* every thread: the shuffles need them all */
}

} /* namespace */

extern "C" int scg_stat_reset(scg_stat_acc *d_acc, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!d_acc)
        return (int)cudaErrorInvalidValue;
    SCG_CHECK(cudaMemsetAsync(d_acc, 0, sizeof *d_acc, s));
    /* min starts above every element: all ones. */
    SCG_CHECK(cudaMemsetAsync(&d_acc->min, 0xff, sizeof d_acc->min, s));
    return 0;
}

extern "C" int scg_stat(const uint32_t *d_in, uint64_t n, scg_stat_acc *d_acc,
                        scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!d_acc || (n && !d_in))
        return (int)cudaErrorInvalidValue;
    for (uint64_t off = 0; off < n; off += MAX_LAUNCH) {
        uint64_t len = n - off < MAX_LAUNCH ? n - off : MAX_LAUNCH;
        te::input in = te::make_input(d_in + off, len);
        uint64_t vecs = (in.hi + 3) / 4;
        uint64_t blocks = (vecs + BLOCK - 1) / BLOCK;
        if (blocks > MAX_BLOCKS)
            blocks = MAX_BLOCKS;
        stat_kernel<<<(unsigned)blocks, BLOCK, 0, s>>>(in, d_acc);
        SCG_CHECK_LAUNCH();
    }
    return 0;
}
