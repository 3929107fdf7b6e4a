/* stat.cu — sc-stat's figures on the device: the count phase of the three
 * phases alone, as nothing is moved.  One body for elements of 4 and 8
 * bytes, templated on the element type (its width, rank and zeros).
 *
 * Each thread walks uint4 vectors of the input (grid-stride, 16-byte
 * loads), adds up its elements' sum, zeros, min and max, and puts each
 * element into the HyperLogLog registers of the accumulator (sc_hd.h's
 * rule, the CPU's).  A block reduces its threads' figures with shuffles
 * and merges them into the accumulator with one atomic each.  The input
 * is read once; in a stream the chunk's upload, not this kernel, is what
 * takes the time.
 */
#include <type_traits>
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
 * stays below 2^64 (2^32 elements of at most 2^32 - 1; an 8-byte element
 * adds in its two 32-bit halves, each to a sum of its own, as the CPU's
 * count does), so only the merge into the accumulator needs a carry, and
 * it has one. */
constexpr uint64_t MAX_LAUNCH = (uint64_t)1 << 32;

/* Element type TYPE (sc_type) as the kernel reads it: W, the word of its
 * width; EPV of them in a 16-byte vector; the rank it is figured by (an
 * unsigned type is its own); the bits that make it zero (a float's sign
 * is not one); its min and max in the accumulator. */
template <uint32_t TYPE>
struct elem {
    static constexpr bool WIDE = TYPE == SC_U64 || TYPE == SC_I64 ||
                                 TYPE == SC_F64;
    typedef typename std::conditional<WIDE, u64, uint32_t>::type W;
    static constexpr int EPV = 16 / (int)sizeof(W);
    static constexpr W ZERO_BITS =
        TYPE == SC_F32 || TYPE == SC_F64 ? (W)~(W)0 >> 1 : (W)~(W)0;
    __device__ __forceinline__ static W rank(W x)
    {
        if (TYPE == SC_U32 || TYPE == SC_U64) return x;
        return (W)sc_type_rank(TYPE, x);
    }
    __device__ __forceinline__ static W *min_of_acc(scg_stat_acc *a)
    {
        if constexpr (WIDE) return (W *)&a->min64; else return &a->min;
    }
    __device__ __forceinline__ static W *max_of_acc(scg_stat_acc *a)
    {
        if constexpr (WIDE) return (W *)&a->max64; else return &a->max;
    }
};

/* The sum of the elements' high halves, which only 8-byte elements
 * have. */
template <typename W> struct high_sum {};
template <> struct high_sum<u64> { u64 sum_hi; };

template <typename W>
struct figures : high_sum<W> {
    u64 sum, zeros;
    W min, max;
};

template <typename W>
struct min_of {
    __device__ __forceinline__ static W apply(W a, W b)
    {
        return a < b ? a : b;
    }
};
template <typename W>
struct max_of {
    __device__ __forceinline__ static W apply(W a, W b)
    {
        return a > b ? a : b;
    }
};

/* x into f's sum: whole (4 bytes), or its halves (8). */
template <typename W>
__device__ __forceinline__ void add_sum(figures<W> &f, W x)
{
    if constexpr (sizeof(W) == 8) {
        f.sum += (uint32_t)x;
        f.sum_hi += x >> 32;
    } else {
        f.sum += x;
    }
}

/* The register of each valid element rises to its rank.  Registers fill
 * after a few elements each, and from then on most elements cannot raise
 * theirs: reading it first (volatile: a relaxed load that the atomics
 * never tear; all four issued before any is waited for) skips the atomic
 * then.  A stale read only costs an atomic that changes nothing, but at
 * the start every read is stale, and a run of one value (zeros, a
 * constant) would send every thread's atomic to one word: so of the lanes
 * of a warp holding the same value only the lowest valid one goes on
 * (equal values have equal registers and ranks).  Needs the whole warp. */
template <typename W, int EPV>
__device__ __forceinline__ void sketch(const W (&x)[EPV], uint32_t ok,
                                       uint32_t *reg)
{
    uint32_t *r[EPV];
    uint32_t rank[EPV], seen[EPV];
#pragma unroll
    for (int k = 0; k < EPV; k++) {
        bool valid = ok >> k & 1u;
        uint32_t peers = __match_any_sync(te::FULL_MASK, x[k]) &
                         __ballot_sync(te::FULL_MASK, valid);
        bool lead = valid && !(peers & te::lanemask_lt());
        uint64_t h = sc_hll_hash(x[k]);
        r[k] = reg + sc_hll_reg(h);
        rank[k] = lead ? sc_hll_rank(h) : 0u;
    }
#pragma unroll
    for (int k = 0; k < EPV; k++)
        seen[k] = rank[k] ? *(volatile uint32_t *)r[k] : 0u;
#pragma unroll
    for (int k = 0; k < EPV; k++)
        if (rank[k] > seen[k])
            atomicMax(r[k], rank[k]);
}

/* The valid elements of x: zeros as they are, the rest as their ranks,
 * which x then holds. */
template <class E>
__device__ __forceinline__ void take(figures<typename E::W> &f,
                                     typename E::W (&x)[E::EPV], uint32_t ok,
                                     uint32_t *reg)
{
#pragma unroll
    for (int k = 0; k < E::EPV; k++) {
        if (!(ok >> k & 1u)) continue;
        typename E::W r = E::rank(x[k]);
        add_sum(f, r);
        f.zeros += (x[k] & E::ZERO_BITS) == 0;
        f.min = min_of<typename E::W>::apply(f.min, r);
        f.max = max_of<typename E::W>::apply(f.max, r);
    }
#pragma unroll
    for (int k = 0; k < E::EPV; k++) x[k] = E::rank(x[k]);
    sketch(x, ok, reg);
}

/* Vector q of the aligned view: whole, or the part of it that is input
 * (the first and last vectors of a misaligned or odd-length array, none
 * of one past the end), read element by element so that no byte outside
 * the array is touched. */
template <class E>
__device__ __forceinline__ uint32_t load_vec(const te::input &in, uint64_t q,
                                             typename E::W (&x)[E::EPV])
{
    typedef typename E::W W;
    uint64_t v0 = (uint64_t)E::EPV * q;
    if (v0 >= in.lo && v0 + E::EPV <= in.hi) {
        uint4 u = __ldcs(in.base + q);
        if constexpr (E::EPV == 4) {
            x[0] = u.x; x[1] = u.y; x[2] = u.z; x[3] = u.w;
        } else {
            x[0] = (W)u.y << 32 | u.x;
            x[1] = (W)u.w << 32 | u.z;
        }
        return (1u << E::EPV) - 1;
    }
    const W *s = (const W *)in.base;
    uint32_t ok = 0;
#pragma unroll
    for (int k = 0; k < E::EPV; k++) {
        bool inside = v0 + k >= in.lo && v0 + k < in.hi;
        x[k] = inside ? s[v0 + k] : (W)0;
        ok |= (uint32_t)inside << k;
    }
    return ok;
}

/* The block's figures into the accumulator.  The sum's low word carries
 * into sum_hi exactly: each atomicAdd returns the word it added to, and
 * the addition wrapped when the result is below it.  8-byte elements add
 * their high halves' sum shifted by 32 bits, its top into sum_hi. */
__device__ __forceinline__ void add_carried(scg_stat_acc *acc, u64 v, u64 hi)
{
    u64 old = atomicAdd((u64 *)&acc->sum, v);
    if (old + v < old) hi++;
    if (hi) atomicAdd((u64 *)&acc->sum_hi, hi);
}

template <class E>
__device__ __forceinline__ void merge_block(figures<typename E::W> f,
                                            scg_stat_acc *acc)
{
    typedef typename E::W W;
    __shared__ figures<W> part[BLOCK / 32];
    f.sum = te::warp_reduce<te::plus<u64>, u64>(f.sum);
    if constexpr (E::WIDE)
        f.sum_hi = te::warp_reduce<te::plus<u64>, u64>(f.sum_hi);
    f.zeros = te::warp_reduce<te::plus<u64>, u64>(f.zeros);
    f.min = te::warp_reduce<min_of<W>, W>(f.min);
    f.max = te::warp_reduce<max_of<W>, W>(f.max);
    if (te::lane_id() == 0) part[te::warp_id()] = f;
    __syncthreads();
    if (threadIdx.x != 0) return;
    for (int w = 1; w < BLOCK / 32; w++) {
        f.sum += part[w].sum;
        if constexpr (E::WIDE) f.sum_hi += part[w].sum_hi;
        f.zeros += part[w].zeros;
        f.min = min_of<W>::apply(f.min, part[w].min);
        f.max = max_of<W>::apply(f.max, part[w].max);
    }
    if constexpr (E::WIDE) {
        add_carried(acc, f.sum, 0);
        add_carried(acc, f.sum_hi << 32, f.sum_hi >> 32);
    } else {
        u64 old = atomicAdd((u64 *)&acc->sum, f.sum);
        if (old + f.sum < old) atomicAdd((u64 *)&acc->sum_hi, 1ull);
    }
    atomicAdd((u64 *)&acc->zeros, f.zeros);
    atomicMin(E::min_of_acc(acc), f.min);
    atomicMax(E::max_of_acc(acc), f.max);
}

template <uint32_t TYPE>
__global__ void __launch_bounds__(BLOCK)
stat_kernel(te::input in, scg_stat_acc *acc)
{
    typedef elem<TYPE> E;
    typedef typename E::W W;
    figures<W> f;
    if constexpr (E::WIDE) f.sum_hi = 0;
    f.sum = 0;
    f.zeros = 0;
    f.min = (W)~(W)0;
    f.max = 0;
    uint64_t vecs = (in.hi + E::EPV - 1) / E::EPV;
    uint64_t stride = (uint64_t)gridDim.x * BLOCK;
    /* q0, the warp's first vector, is the same for all its lanes: every
     * lane runs every turn, as the sketch's votes need; a lane past the
     * end has no elements (load_vec reads nothing there). */
    for (uint64_t q0 = (uint64_t)blockIdx.x * BLOCK + (threadIdx.x & ~31u);
         q0 < vecs; q0 += stride) {
        W x[E::EPV];
        uint32_t ok = load_vec<E>(in, q0 + te::lane_id(), x);
        take<E>(f, x, ok, acc->reg);
    }
    merge_block<E>(f, acc);   /* every thread: the shuffles need them all */
}

/* scg_stat_figures: the registers' histogram in shared memory, then one
 * thread's arithmetic, sc_hd.h's as the host's. */
constexpr int FIG_BLOCK = 1024;

__global__ void __launch_bounds__(FIG_BLOCK)
figures_kernel(const scg_stat_acc *acc, uint64_t n, uint32_t type,
               sc_stats_typed *out)
{
    __shared__ uint32_t hist[SC_HLL_Q + 2];
    for (int k = threadIdx.x; k < SC_HLL_Q + 2; k += FIG_BLOCK) hist[k] = 0;
    __syncthreads();
    for (unsigned k = threadIdx.x; k < SC_HLL_REGS; k += FIG_BLOCK)
        atomicAdd(&hist[acc->reg[k]], 1u);
    __syncthreads();
    if (threadIdx.x != 0) return;
    double c[SC_HLL_Q + 2];
    for (int k = 0; k < SC_HLL_Q + 2; k++) c[k] = hist[k];
    bool wide = sc_type_is_64bit(type);
    uint64_t lo = wide ? acc->min64 : acc->min;
    uint64_t hi = wide ? acc->max64 : acc->max;
    sc_stats_typed f;
    memset(&f, 0, sizeof f);
    f.type = (sc_type)type;
    f.count = n;
    if (n) {
        f.zeros = acc->zeros;
        f.min = sc_type_unrank(type, lo);
        f.max = sc_type_unrank(type, hi);
        f.sum = acc->sum;
        f.sum_hi = acc->sum_hi;
        sc_stat_unbias(type, n, &f.sum, &f.sum_hi);
        f.distinct = sc_hll_distinct(c, n, lo, hi);
    }
    *out = f;
}

} /* namespace */

extern "C" int scg_stat_reset(scg_stat_acc *d_acc, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!d_acc)
        return (int)cudaErrorInvalidValue;
    SCG_CHECK(cudaMemsetAsync(d_acc, 0, sizeof *d_acc, s));
    /* min starts above every element: all ones, in both widths. */
    SCG_CHECK(cudaMemsetAsync(&d_acc->min, 0xff, sizeof d_acc->min, s));
    SCG_CHECK(cudaMemsetAsync(&d_acc->min64, 0xff, sizeof d_acc->min64, s));
    return 0;
}

template <uint32_t TYPE>
static int stat_launch(const void *d_in, uint64_t n, scg_stat_acc *d_acc,
                       cudaStream_t s)
{
    typedef typename elem<TYPE>::W W;
    const W *in0 = (const W *)d_in;
    for (uint64_t off = 0; off < n; off += MAX_LAUNCH) {
        uint64_t len = n - off < MAX_LAUNCH ? n - off : MAX_LAUNCH;
        te::input in = te::make_input(in0 + off, len);
        uint64_t vecs = (in.hi + elem<TYPE>::EPV - 1) / elem<TYPE>::EPV;
        uint64_t blocks = (vecs + BLOCK - 1) / BLOCK;
        if (blocks > MAX_BLOCKS)
            blocks = MAX_BLOCKS;
        stat_kernel<TYPE><<<(unsigned)blocks, BLOCK, 0, s>>>(in, d_acc);
        SCG_CHECK_LAUNCH();
    }
    return 0;
}

extern "C" int scg_stat_type(const void *d_in, uint64_t n, uint32_t type,
                             scg_stat_acc *d_acc, scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (!d_acc || (n && !d_in))
        return (int)cudaErrorInvalidValue;
    switch (type) {
    case SC_U32: return stat_launch<SC_U32>(d_in, n, d_acc, s);
    case SC_I32: return stat_launch<SC_I32>(d_in, n, d_acc, s);
    case SC_F32: return stat_launch<SC_F32>(d_in, n, d_acc, s);
    case SC_U64: return stat_launch<SC_U64>(d_in, n, d_acc, s);
    case SC_I64: return stat_launch<SC_I64>(d_in, n, d_acc, s);
    case SC_F64: return stat_launch<SC_F64>(d_in, n, d_acc, s);
    default: return (int)cudaErrorInvalidValue;
    }
}

extern "C" int scg_stat(const uint32_t *d_in, uint64_t n, scg_stat_acc *d_acc,
                        scg_stream stream)
{
    return scg_stat_type(d_in, n, SC_U32, d_acc, stream);
}

extern "C" int scg_stat_figures(const scg_stat_acc *d_acc, uint64_t n,
                                uint32_t type, sc_stats_typed *d_out,
                                scg_stream stream)
{
    if (!d_acc || !d_out || type >= SC_TYPE_COUNT)
        return (int)cudaErrorInvalidValue;
    figures_kernel<<<1, FIG_BLOCK, 0, (cudaStream_t)stream>>>(d_acc, n, type,
                                                               d_out);
    SCG_CHECK_LAUNCH();
    return 0;
}
