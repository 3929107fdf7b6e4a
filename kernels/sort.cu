/* sort.cu — stable LSD radix sort of uint32 keys on bits [lo, hi).
 *
 * One upfront pass counts the digit histograms of every pass at once (the
 * count phase of all passes: a pass's global digit counts do not depend on
 * the order of the keys).  They are scanned into each digit's first output
 * position (the prefix over digits), and each pass whose digit is the same
 * for every key is marked: it would move nothing.
 *
 * Each pass is one kernel (onesweep style): a block takes the next tile,
 * ranks its keys stably by digit, publishes its per-digit counts, places
 * the keys in digit order in shared memory, looks back over its
 * predecessors' counts per digit (the prefix over tiles, decoupled
 * look-back), then writes the keys out so that consecutive threads write
 * consecutive addresses within each digit's run.  A marked pass's blocks
 * leave at once, and each pass finds on the device which buffer holds the
 * keys, so the host waits once, at the end, to learn where they ended.
 *
 * Descending order sorts on the complemented digit, which keeps it stable.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <utility>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "tile_status.cuh"
#include "tile_config.cuh"
#include "sort_rank.cuh"
#include "launch_util.cuh"

namespace {

struct Passes {
    int count;
    sc_order d[MAX_PASSES];
};

/* ---------------- count: all histograms in one read ---------------- */

constexpr int HIST_THREADS = 512;

__device__ __forceinline__ void hist_add(uint32_t (*h)[RADIX],
                                         const Passes &ps, uint32_t k)
{
#pragma unroll
    for (int p = 0; p < MAX_PASSES; p++)
        if (p < ps.count)
            atomicAdd(&h[p][sc_order_digit(&ps.d[p], k)], 1u);
}

__global__ void __launch_bounds__(HIST_THREADS)
hist_kernel(const uint32_t *keys, uint64_t n, int aligned, Passes ps,
            u64 *hist)
{
    __shared__ uint32_t h[MAX_PASSES][RADIX];
    for (int i = threadIdx.x; i < MAX_PASSES * RADIX; i += HIST_THREADS)
        (&h[0][0])[i] = 0;
    __syncthreads();

    uint64_t stride = (uint64_t)gridDim.x * HIST_THREADS;
    uint64_t t = (uint64_t)blockIdx.x * HIST_THREADS + threadIdx.x;
    uint64_t scalar_from = 0;
    if (aligned) {
        const uint4 *k4 = (const uint4 *)keys;
        for (uint64_t i = t; i < n / 4; i += stride) {
            uint4 q = __ldcs(k4 + i);
            hist_add(h, ps, q.x); hist_add(h, ps, q.y);
            hist_add(h, ps, q.z); hist_add(h, ps, q.w);
        }
        scalar_from = n / 4 * 4;
    }
    for (uint64_t i = scalar_from + t; i < n; i += stride)
        hist_add(h, ps, keys[i]);
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

struct PassArgs {
    uint32_t *keys, *alt;   /* the pass reads one, writes the other */
    const int *trivial;     /* [MAX_PASSES], from bins_kernel */
    int pass, passes;
    int *result_is_alt;     /* written by the last pass */
    const uint32_t *in;     /* chosen by the kernel */
    uint32_t *out;
    uint64_t n;
    sc_order dig;
    uint32_t epoch;
    u64 *status;            /* [tile][RADIX] */
    const u64 *bins;        /* [RADIX], this pass */
    uint32_t *tile_counter;
};

/* A pass's shared memory.  Per-warp digit counters and match words are
 * done with before the keys are placed. */
template <int THREADS, int ITEMS>
struct PassShared {
    union {
        struct {
            uint32_t cnt[THREADS / 32][RADIX];
            uint32_t match[THREADS / 32][RADIX];
        } w;
        uint32_t keys[THREADS * ITEMS];
    } sm;
    uint32_t local_start[RADIX];
    u64 global[RADIX];
    uint32_t warp[RADIX / 32];
    uint32_t tile;
};

/* One tile of a pass.  FULL: the tile holds TILE keys, so every bound
 * check folds away (rem is a constant); the last tile runs with them. */
template <int THREADS, int ITEMS, bool FULL>
__device__ __forceinline__ void sort_tile(const PassArgs &a, PassShared<THREADS, ITEMS> &sh,
                                          uint32_t tile, uint32_t tile_n)
{
    constexpr int TILE = THREADS * ITEMS;
    constexpr int WARPS = THREADS / 32;
    int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    uint32_t d = threadIdx.x;       /* the digit this thread looks after */
    uint64_t tile_base = (uint64_t)tile * TILE;
    te::packed_status st = { (uint64_t *)a.status + (d < RADIX ? d : 0), RADIX,
                             2 * a.epoch + 1 };

    /* A warp owns ITEMS*32 consecutive keys; item i of lane l is key
     * i*32 + l of that run, so the order is (item, lane). */
    int first = warp * ITEMS * 32 + lane;      /* within the tile */
    const uint32_t *src = a.in + tile_base + first;
    /* item i is valid iff i*32 < rem: 32-bit compares only */
    const int rem = FULL ? ITEMS * 32 : (int)tile_n - first;
    uint32_t key[ITEMS];
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        key[i] = FULL ? __ldcs(src + i * 32) : i * 32 < rem ? src[i * 32] : 0;

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
            uint32_t dd = sc_order_digit(&a.dig, key[i]);
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
            uint32_t k = sh.sm.keys[j];
            a.out[sh.global[sc_order_digit(&a.dig, k)] + j] = k;
        }
    }
}

template <int THREADS, int ITEMS, bool SPLIT_FULL, int MINB>
__global__ void __launch_bounds__(THREADS, MINB)
sort_pass_kernel(PassArgs a)
{
    constexpr int TILE = THREADS * ITEMS;
    static_assert(THREADS >= RADIX && THREADS % 32 == 0, "one thread per digit");
    __shared__ PassShared<THREADS, ITEMS> sh;
    /* the passes before that moved keys say which buffer holds them */
    int moved = 0;
    for (int q = 0; q < a.pass; q++)
        moved += !a.trivial[q];
    int skip = a.trivial[a.pass];
    if (a.pass == a.passes - 1 && blockIdx.x == 0 && threadIdx.x == 0)
        *a.result_is_alt = (moved + !skip) & 1;
    if (skip)
        return;
    a.in = moved & 1 ? a.alt : a.keys;
    a.out = moved & 1 ? a.keys : a.alt;
    if (threadIdx.x == 0)
        sh.tile = atomicAdd(a.tile_counter, 1u);
    for (int i = threadIdx.x; i < (int)(sizeof sh.sm.w / 4); i += THREADS)
        (&sh.sm.w.cnt[0][0])[i] = 0;
    __syncthreads();
    uint32_t tile = sh.tile;
    uint32_t tile_n = (uint32_t)min((uint64_t)TILE, a.n - (uint64_t)tile * TILE);
    if (SPLIT_FULL && tile_n == TILE)
        sort_tile<THREADS, ITEMS, true>(a, sh, tile, tile_n);
    else
        sort_tile<THREADS, ITEMS, false>(a, sh, tile, tile_n);
}

/* Scratch layout (all offsets 256-aligned):
 *   hist  u64[MAX_PASSES][RADIX]
 *   bins  u64[MAX_PASSES][RADIX]
 *   misc  int trivial[MAX_PASSES] at 0, int result_is_alt at 32,
 *         uint32 tile_counter[MAX_PASSES] at 64
 *   status u64[tiles][RADIX] */
constexpr size_t HIST_OFF = 0;
constexpr size_t BINS_OFF = HIST_OFF + MAX_PASSES * RADIX * 8;
constexpr size_t MISC_OFF = BINS_OFF + MAX_PASSES * RADIX * 8;
constexpr size_t STATUS_OFF = MISC_OFF + 256;

struct SortCfg {
    int threads, items;
    bool split_full;
    void (*kernel)(PassArgs);
};

#ifdef SCG_TUNE
/* Blocks per SM to ask of the register allocator for a tuning tile that
 * names none: keys and ranks take 2*ITEMS registers, about 24 more do the
 * rest.  (The default names its own in tile_config.cuh.) */
constexpr int sort_min_blocks(int threads, int items)
{
    return 65536 / (threads * (2 * items + 24)) > 0
               ? 65536 / (threads * (2 * items + 24)) : 1;
}
#endif

#define SORT_CFG_B(T, I, F, B) { T, I, F, sort_pass_kernel<T, I, F, B> }
#define SORT_CFG(T, I, F) SORT_CFG_B(T, I, F, sort_min_blocks(T, I))
const SortCfg sort_cfgs[] = {
    SORT_CFG_B(te::cfg::sort::THREADS, te::cfg::sort::ITEMS, true,
               te::cfg::sort::MINB),
    SORT_CFG_B(te::cfg::sort_fast_memory::THREADS, te::cfg::sort_fast_memory::ITEMS,
               true, te::cfg::sort_fast_memory::MINB),
#ifdef SCG_TUNE
    SORT_CFG_B(te::cfg::sort::THREADS, te::cfg::sort::ITEMS, false,
               te::cfg::sort::MINB),
    SORT_CFG(384, 16, true),
    SORT_CFG(256, 24, true),
    SORT_CFG(256, 30, true),
    SORT_CFG_B(288, 28, true, 3),
    SORT_CFG_B(320, 24, true, 3),
#endif
};
#undef SORT_CFG
#undef SORT_CFG_B
int sort_cfg = -1;      /* -1: the current device's (current_cfg) */

/* Whether the current device's memory reaches sort_fast_memory's peak
 * rate (clock x bus width, asked of the driver once a device). */
bool fast_memory()
{
    static int known[64];       /* 1 + the answer; 0: not yet asked */
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64)
        return false;
    int k = __atomic_load_n(&known[dev], __ATOMIC_RELAXED);
    if (k)
        return k == 2;
    int khz = 0, bits = 0;
    double gbs = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess &&
        cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, dev) == cudaSuccess)
        gbs = 2.0 * khz * 1e3 * (bits / 8) / 1e9;     /* double data rate */
    bool fast = gbs >= te::cfg::sort_fast_memory::MIN_GBS;
    __atomic_store_n(&known[dev], fast ? 2 : 1, __ATOMIC_RELAXED);
    return fast;
}

/* The configuration a sort of n keys runs on the current device. */
int current_cfg(uint64_t n)
{
    if (sort_cfg >= 0)
        return sort_cfg;
    return n >> te::cfg::sort_fast_memory::MIN_KEYS_LG && fast_memory() ? 1 : 0;
}

/* The largest tile over the configurations sizes the scratch for any. */
uint64_t sort_min_tile()
{
    uint64_t m = ~0ull;
    for (const SortCfg &c : sort_cfgs)
        m = std::min(m, (uint64_t)c.threads * c.items);
    return m;
}

} /* namespace */

#ifdef SCG_TUNE
static int cfg_tag(const SortCfg &c)
{
    return c.threads << 16 | c.split_full << 15 | c.items;
}

/* Bench only: pick a tile configuration, or with -1 go back to the
 * device's (for the largest sorts); returns threads << 16 | items, with
 * bit 15 set where full tiles run apart; 0 if none. */
extern "C" int scg_sort_tune(int cfg)
{
    if (cfg < -1 || cfg >= (int)(sizeof sort_cfgs / sizeof sort_cfgs[0]))
        return 0;
    sort_cfg = cfg;
    return cfg_tag(sort_cfgs[current_cfg(~0ull)]);
}
#endif

extern "C" const char *scg_sort_variant(void)
{
    static char name[256];
    const SortCfg &c = sort_cfgs[0], &big = sort_cfgs[current_cfg(~0ull)];
    char tiles[64];
    if (&big == &c)
        snprintf(tiles, sizeof tiles, "%d threads x %d keys a tile", c.threads, c.items);
    else
        snprintf(tiles, sizeof tiles, "%d threads x %d keys a tile (x %d from 2^%d keys)",
                 c.threads, c.items, big.items, (int)te::cfg::sort_fast_memory::MIN_KEYS_LG);
    snprintf(name, sizeof name, "LSD, %d-bit digits, one histogram pass, then a pass a "
             "digit with look-back (%d tiles a read): %s, ranked by shared match words",
             RADIX_BITS, (int)te::cfg::sort::LOOKBACK_BATCH, tiles);
    return name;
}

extern "C" size_t scg_sort_scratch(uint64_t n)
{
    uint64_t tiles = (n + sort_min_tile() - 1) / sort_min_tile();
    return STATUS_OFF + te::round256(tiles * RADIX * 8);
}

/* Queues the sort's kernels; where the keys end, known on the device
 * only (passes whose digit is the same for every key are skipped there),
 * goes to *d_result_out: 1 for d_alt. */
static int queue_sort(uint32_t *d_keys, uint32_t *d_alt, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending,
                      void *d_scratch, int **d_result_out, scg_stream s)
{

    Passes ps;
    ps.count = 0;
    for (unsigned lo = lo_bit; lo < hi_bit; lo += RADIX_BITS) {
        unsigned bits = std::min(hi_bit - lo, (unsigned)RADIX_BITS);
        sc_order_init(&ps.d[ps.count++], lo, lo + bits, descending);
    }

    char *scr = (char *)d_scratch;
    u64 *hist = (u64 *)(scr + HIST_OFF);
    u64 *bins = (u64 *)(scr + BINS_OFF);
    int *trivial = (int *)(scr + MISC_OFF);
    uint32_t *counters = (uint32_t *)(scr + MISC_OFF + 64);
    u64 *status = (u64 *)(scr + STATUS_OFF);

    const SortCfg &cfg = sort_cfgs[current_cfg(n)];
    uint64_t tile = (uint64_t)cfg.threads * cfg.items;
    uint64_t tiles = (n + tile - 1) / tile;
    if (tiles > 0x7fffffffu)
        return (int)cudaErrorInvalidValue;
    int *d_result = (int *)(scr + MISC_OFF + 32);
    SCG_CHECK(cudaMemsetAsync(scr, 0, STATUS_OFF + tiles * RADIX * 8, s));
    int aligned = ((uintptr_t)d_keys & 15) == 0;
    int sms = 0;
    SCG_CHECK(te::sm_count(&sms));
    uint64_t hist_blocks = std::min<uint64_t>((n + HIST_THREADS * 16 - 1) / (HIST_THREADS * 16),
                                              (uint64_t)sms * 4);
    /* per-block shared counters are 32-bit */
    hist_blocks = std::max<uint64_t>(hist_blocks, n >> 31);
    hist_kernel<<<(unsigned)hist_blocks, HIST_THREADS, 0, s>>>(d_keys, n, aligned, ps, hist);
    SCG_CHECK_LAUNCH();
    bins_kernel<<<ps.count, RADIX, 0, s>>>(hist, n, bins, trivial);
    SCG_CHECK_LAUNCH();
    for (int p = 0; p < ps.count; p++) {
        PassArgs a;
        a.keys = d_keys;
        a.alt = d_alt;
        a.trivial = trivial;
        a.pass = p;
        a.passes = ps.count;
        a.result_is_alt = d_result;
        a.n = n;
        a.dig = ps.d[p];
        a.epoch = (uint32_t)p;
        a.status = status;
        a.bins = bins + p * RADIX;
        a.tile_counter = counters + p;
        cfg.kernel<<<(unsigned)tiles, cfg.threads, 0, s>>>(a);
        SCG_CHECK_LAUNCH();
    }
    *d_result_out = d_result;
    return 0;
}

extern "C" int scg_sort(uint32_t *d_keys, uint32_t *d_alt, uint64_t n,
                        unsigned lo_bit, unsigned hi_bit, int descending,
                        int *result_is_alt, void *d_scratch, scg_stream s)
{
    if (!result_is_alt || lo_bit >= hi_bit || hi_bit > 32)
        return (int)cudaErrorInvalidValue;
    *result_is_alt = 0;
    if (n <= 1)
        return 0;
    int *d_result = NULL;
    int err = queue_sort(d_keys, d_alt, n, lo_bit, hi_bit, descending,
                         d_scratch, &d_result, s);
    if (err) return err;
    SCG_CHECK(cudaMemcpyAsync(result_is_alt, d_result, sizeof *result_is_alt,
                              cudaMemcpyDeviceToHost, s));
    SCG_CHECK(cudaStreamSynchronize(s));
    return 0;
}

/* The sorted keys back from d_alt where the passes left them there: a
 * grid that reads the flag and, where it is 0, returns at once. */
__global__ void keys_back_kernel(uint32_t *keys, const uint32_t *alt,
                                 uint64_t n, const int *result_is_alt)
{
    if (!*result_is_alt) return;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        keys[i] = alt[i];
}

extern "C" int scg_sort_keys(uint32_t *d_keys, uint32_t *d_alt, uint64_t n,
                             unsigned lo_bit, unsigned hi_bit, int descending,
                             void *d_scratch, scg_stream s)
{
    if (lo_bit >= hi_bit || hi_bit > 32)
        return (int)cudaErrorInvalidValue;
    if (n <= 1)
        return 0;
    int *d_result = NULL;
    int err = queue_sort(d_keys, d_alt, n, lo_bit, hi_bit, descending,
                         d_scratch, &d_result, s);
    if (err) return err;
    int sms = 0;
    SCG_CHECK(te::sm_count(&sms));
    uint64_t blocks = std::min<uint64_t>((n + 255) / 256, (uint64_t)sms * 8);
    keys_back_kernel<<<(unsigned)blocks, 256, 0, s>>>(d_keys, d_alt, n,
                                                      d_result);
    SCG_CHECK_LAUNCH();
    return 0;
}
