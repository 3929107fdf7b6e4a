/* sort.cu — stable LSD radix sort of 4- or 8-byte keys on bits [lo, hi).
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
 * Keys of a signed or float type are sorted by their rank (sc_hd.h's
 * sc_key, sc_key64): the histogram pass and the first pass that moves
 * keys rank them as they read them, and the last pass that moves them
 * turns them back as it writes, so no pass of its own does either.  One
 * body serves both widths (K); the 8-byte keys take tiles of their own
 * (tile_config.cuh).
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <utility>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "tile_status.cuh"
#include "tile_config.cuh"
#include "sort_pass.cuh"
#include "launch_util.cuh"
#include "sort_queue.cuh"

namespace {

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

template <class K>
struct SortCfg {
    int threads, items;
    bool split_full;
    void (*kernel[2])(PassArgs<K>);     /* [ranked] */
};

#ifdef SCG_TUNE
/* Blocks per SM to ask of the register allocator for a tuning tile that
 * names none: keys and ranks take (1 + words a key) * ITEMS registers,
 * about 24 more do the rest.  (The defaults name their own in
 * tile_config.cuh.) */
constexpr int sort_min_blocks(int threads, int items, int words)
{
    return 65536 / (threads * ((1 + words) * items + 24)) > 0
               ? 65536 / (threads * ((1 + words) * items + 24)) : 1;
}
#endif

#define SORT_CFG_B(K, T, I, F, B) \
    { T, I, F, { sort_pass_kernel<T, I, F, B, K, false>, sort_pass_kernel<T, I, F, B, K, true> } }
#define SORT_CFG(K, T, I, F) SORT_CFG_B(K, T, I, F, sort_min_blocks(T, I, sizeof(K) / 4))
/* 4-byte keys: the default tile, then the one for fast memory (current_cfg). */
const SortCfg<uint32_t> sort_cfgs32[] = {
    SORT_CFG_B(uint32_t, te::cfg::sort::THREADS, te::cfg::sort::ITEMS, true,
               te::cfg::sort::MINB),
    SORT_CFG_B(uint32_t, te::cfg::sort_fast_memory::THREADS,
               te::cfg::sort_fast_memory::ITEMS, true, te::cfg::sort_fast_memory::MINB),
#ifdef SCG_TUNE
    SORT_CFG_B(uint32_t, te::cfg::sort::THREADS, te::cfg::sort::ITEMS, false,
               te::cfg::sort::MINB),
    SORT_CFG(uint32_t, 384, 16, true),
    SORT_CFG(uint32_t, 256, 24, true),
    SORT_CFG(uint32_t, 256, 30, true),
    SORT_CFG_B(uint32_t, 288, 28, true, 3),
    SORT_CFG_B(uint32_t, 320, 24, true, 3),
#endif
};
/* 8-byte keys: one default tile. */
const SortCfg<uint64_t> sort_cfgs64[] = {
    SORT_CFG_B(uint64_t, te::cfg::sort64::THREADS, te::cfg::sort64::ITEMS, true,
               te::cfg::sort64::MINB),
#ifdef SCG_TUNE
    SORT_CFG(uint64_t, 256, 12, true),
    SORT_CFG(uint64_t, 256, 16, true),
    SORT_CFG_B(uint64_t, 256, 22, true, 2),
    SORT_CFG(uint64_t, 384, 12, true),
    SORT_CFG(uint64_t, 512, 8, true),
#endif
};
#undef SORT_CFG
#undef SORT_CFG_B

/* Each width's table, and the tile a bench chose (-1: the device's). */
template <class K> struct cfgs;
template <> struct cfgs<uint32_t> {
    static const SortCfg<uint32_t> *table() { return sort_cfgs32; }
    static int count() { return (int)(sizeof sort_cfgs32 / sizeof sort_cfgs32[0]); }
    static int chosen;
};
template <> struct cfgs<uint64_t> {
    static const SortCfg<uint64_t> *table() { return sort_cfgs64; }
    static int count() { return (int)(sizeof sort_cfgs64 / sizeof sort_cfgs64[0]); }
    static int chosen;
};
int cfgs<uint32_t>::chosen = -1;
int cfgs<uint64_t>::chosen = -1;

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
template <class K>
int current_cfg(uint64_t n)
{
    if (cfgs<K>::chosen >= 0)
        return cfgs<K>::chosen;
    if (sizeof(K) == 8)
        return 0;
    return n >> te::cfg::sort_fast_memory::MIN_KEYS_LG && fast_memory() ? 1 : 0;
}

/* The smallest tile of a width's configurations sizes the scratch for
 * any of them. */
template <class K>
uint64_t sort_min_tile()
{
    uint64_t m = ~0ull;
    for (int i = 0; i < cfgs<K>::count(); i++)
        m = std::min(m, (uint64_t)cfgs<K>::table()[i].threads * cfgs<K>::table()[i].items);
    return m;
}

} /* namespace */

#ifdef SCG_TUNE
template <class K>
static int tune(int cfg)
{
    if (cfg < -1 || cfg >= cfgs<K>::count())
        return 0;
    cfgs<K>::chosen = cfg;
    const SortCfg<K> &c = cfgs<K>::table()[current_cfg<K>(~0ull)];
    return c.threads << 16 | c.split_full << 15 | c.items;
}

/* Bench only: pick a tile configuration of 4-byte (scg_sort_tune) or
 * 8-byte keys (scg_sort64_tune), or with -1 go back to the device's (for
 * the largest sorts); returns threads << 16 | items, with bit 15 set
 * where full tiles run apart; 0 if none. */
extern "C" int scg_sort_tune(int cfg) { return tune<uint32_t>(cfg); }
extern "C" int scg_sort64_tune(int cfg) { return tune<uint64_t>(cfg); }
#endif

extern "C" const char *scg_sort_variant(void)
{
    static char name[320];
    const SortCfg<uint32_t> &c = sort_cfgs32[0],
                            &big = sort_cfgs32[current_cfg<uint32_t>(~0ull)];
    const SortCfg<uint64_t> &w = sort_cfgs64[current_cfg<uint64_t>(~0ull)];
    char tiles[64];
    if (&big == &c)
        snprintf(tiles, sizeof tiles, "%d threads x %d keys a tile", c.threads, c.items);
    else
        snprintf(tiles, sizeof tiles, "%d threads x %d keys a tile (x %d from 2^%d keys)",
                 c.threads, c.items, big.items, (int)te::cfg::sort_fast_memory::MIN_KEYS_LG);
    snprintf(name, sizeof name, "LSD, %d-bit digits, one histogram pass, then a pass a "
             "digit with look-back (%d tiles a read): %s (8-byte keys: %d x %d), "
             "ranked by shared match words",
             RADIX_BITS, (int)te::cfg::sort::LOOKBACK_BATCH, tiles, w.threads, w.items);
    return name;
}

template <class K>
static size_t scratch_for(uint64_t n)
{
    uint64_t tiles = (n + sort_min_tile<K>() - 1) / sort_min_tile<K>();
    return STATUS_OFF + te::round256(tiles * RADIX * 8);
}

extern "C" size_t scg_sort_scratch(uint64_t n)
{
    return scratch_for<uint32_t>(n);
}

extern "C" size_t scg_sort_scratch_type(uint64_t n, uint32_t type)
{
    return sc_type_is_64bit(type) ? scratch_for<uint64_t>(n) : scratch_for<uint32_t>(n);
}

/* Queues the sort's kernels; where the keys end, known on the device
 * only (passes whose digit is the same for every key are skipped there),
 * goes to *d_result_out: 1 for d_alt. */
template <class K>
static int queue_sort(K *d_keys, K *d_alt, uint64_t n, key_map<K> map,
                      int ranked, unsigned lo_bit, unsigned hi_bit,
                      int descending, void *d_scratch, int **d_result_out,
                      scg_stream s)
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

    const SortCfg<K> &cfg = cfgs<K>::table()[current_cfg<K>(n)];
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
    auto hist_k = ranked ? hist_kernel<K, true> : hist_kernel<K, false>;
    hist_k<<<(unsigned)hist_blocks, HIST_THREADS, 0, s>>>(d_keys, n, aligned, ps, map, hist);
    SCG_CHECK_LAUNCH();
    bins_kernel<<<ps.count, RADIX, 0, s>>>(hist, n, bins, trivial);
    SCG_CHECK_LAUNCH();
    for (int p = 0; p < ps.count; p++) {
        PassArgs<K> a;
        a.keys = d_keys;
        a.alt = d_alt;
        a.trivial = trivial;
        a.pass = p;
        a.passes = ps.count;
        a.result_is_alt = d_result;
        a.n = n;
        a.dig = ps.d[p];
        a.map = map;
        a.rank_in = a.unrank_out = 0;
        a.epoch = (uint32_t)p;
        a.status = status;
        a.bins = bins + p * RADIX;
        a.tile_counter = counters + p;
        cfg.kernel[ranked]<<<(unsigned)tiles, cfg.threads, 0, s>>>(a);
        SCG_CHECK_LAUNCH();
    }
    *d_result_out = d_result;
    return 0;
}

int scg_queue_sort64(uint64_t *d_keys, uint64_t *d_alt, uint64_t n,
                     sc_key64 key, int ranked, unsigned lo_bit,
                     unsigned hi_bit, int descending, void *d_scratch,
                     int **d_result, scg_stream s)
{
    key_map<uint64_t> map;
    map.k = key;
    return queue_sort<uint64_t>(d_keys, d_alt, n, map, ranked, lo_bit, hi_bit,
                                descending, d_scratch, d_result, s);
}

/* The sorted keys back from d_alt where the passes left them there: a
 * grid that reads the flag and, where it is 0, returns at once. */
template <class K>
__global__ void keys_back_kernel(K *keys, const K *alt, uint64_t n,
                                 const int *result_is_alt)
{
    if (!*result_is_alt) return;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        keys[i] = alt[i];
}

/* Queues the sort of either width; with keys_back, the keys end in
 * d_keys, else *d_result_out says where. */
template <class K>
static int queue_typed(void *d_keys, void *d_alt, uint64_t n, uint32_t type,
                       unsigned lo_bit, unsigned hi_bit, int descending,
                       void *d_scratch, int keys_back, int **d_result_out,
                       scg_stream s)
{
    K *keys = (K *)d_keys, *alt = (K *)d_alt;
    int err = queue_sort<K>(keys, alt, n, key_map<K>::of(type),
                            type != SC_U32 && type != SC_U64, lo_bit, hi_bit,
                            descending, d_scratch, d_result_out, s);
    if (err || !keys_back) return err;
    int sms = 0;
    SCG_CHECK(te::sm_count(&sms));
    uint64_t blocks = std::min<uint64_t>((n + 255) / 256, (uint64_t)sms * 8);
    keys_back_kernel<K><<<(unsigned)blocks, 256, 0, s>>>(keys, alt, n, *d_result_out);
    SCG_CHECK_LAUNCH();
    return 0;
}

/* Checks the arguments and queues the sort (nothing for n < 2). */
static int queue_checked(void *d_keys, void *d_alt, uint64_t n, uint32_t type,
                         unsigned lo_bit, unsigned hi_bit, int descending,
                         void *d_scratch, int keys_back, int **d_result,
                         scg_stream s)
{
    unsigned width = sc_type_is_64bit(type) ? 64 : 32;
    if (type > SC_F64 || lo_bit >= hi_bit || hi_bit > width)
        return (int)cudaErrorInvalidValue;
    *d_result = NULL;
    if (n <= 1)
        return 0;
    return width == 64
        ? queue_typed<uint64_t>(d_keys, d_alt, n, type, lo_bit, hi_bit, descending,
                                d_scratch, keys_back, d_result, s)
        : queue_typed<uint32_t>(d_keys, d_alt, n, type, lo_bit, hi_bit, descending,
                                d_scratch, keys_back, d_result, s);
}

extern "C" int scg_sort_type(void *d_keys, void *d_alt, uint64_t n, uint32_t type,
                             unsigned lo_bit, unsigned hi_bit, int descending,
                             int *result_is_alt, void *d_scratch, scg_stream s)
{
    if (!result_is_alt)
        return (int)cudaErrorInvalidValue;
    *result_is_alt = 0;
    int *d_result = NULL;
    int err = queue_checked(d_keys, d_alt, n, type, lo_bit, hi_bit, descending,
                            d_scratch, 0, &d_result, s);
    if (err || !d_result) return err;
    SCG_CHECK(cudaMemcpyAsync(result_is_alt, d_result, sizeof *result_is_alt,
                              cudaMemcpyDeviceToHost, s));
    SCG_CHECK(cudaStreamSynchronize(s));
    return 0;
}

extern "C" int scg_sort(uint32_t *d_keys, uint32_t *d_alt, uint64_t n,
                        unsigned lo_bit, unsigned hi_bit, int descending,
                        int *result_is_alt, void *d_scratch, scg_stream s)
{
    return scg_sort_type(d_keys, d_alt, n, SC_U32, lo_bit, hi_bit, descending,
                         result_is_alt, d_scratch, s);
}

extern "C" int scg_sort_keys_type(void *d_keys, void *d_alt, uint64_t n,
                                  uint32_t type, unsigned lo_bit, unsigned hi_bit,
                                  int descending, void *d_scratch, scg_stream s)
{
    int *d_result = NULL;
    return queue_checked(d_keys, d_alt, n, type, lo_bit, hi_bit, descending,
                         d_scratch, 1, &d_result, s);
}

extern "C" int scg_sort_keys(uint32_t *d_keys, uint32_t *d_alt, uint64_t n,
                             unsigned lo_bit, unsigned hi_bit, int descending,
                             void *d_scratch, scg_stream s)
{
    return scg_sort_keys_type(d_keys, d_alt, n, SC_U32, lo_bit, hi_bit,
                              descending, d_scratch, s);
}
