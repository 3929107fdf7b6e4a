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
#include <type_traits>
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

template <class K, class V = NoVal>
struct SortCfg {
    int threads, items;
    bool split_full;
    void (*kernel[2])(PassArgs<K, V>);  /* [ranked] */
};

#ifdef SCG_TUNE
/* Blocks per SM to ask of the register allocator for a tuning tile that
 * names none: keys (and values) and ranks take (1 + words an item) *
 * ITEMS registers, about 24 more do the rest.  (The defaults name their own in
 * tile_config.cuh.) */
constexpr int sort_min_blocks(int threads, int items, int words)
{
    return 65536 / (threads * ((1 + words) * items + 24)) > 0
               ? 65536 / (threads * ((1 + words) * items + 24)) : 1;
}
#endif

#define SORT_PAIRS_B(K, V, T, I, F, B)                                      \
    { T, I, F, { sort_pass_kernel<T, I, F, B, K, V, false>,                \
                 sort_pass_kernel<T, I, F, B, K, V, true> } }
#define SORT_CFG_B(K, T, I, F, B) SORT_PAIRS_B(K, NoVal, T, I, F, B)
#define SORT_CFG(K, T, I, F) SORT_CFG_B(K, T, I, F, sort_min_blocks(T, I, sizeof(K) / 4))
#define SORT_PAIRS(K, V, T, I) \
    SORT_PAIRS_B(K, V, T, I, true, sort_min_blocks(T, I, (sizeof(K) + sizeof(V)) / 4))
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
/* Keys with values: u64 -> u64 (16-byte records), u64 -> u32 and u32 ->
 * u32 (ranks and record indices); the default tile first. */
#define SORT_PAIRS_DEFAULT(K, V, C) \
    SORT_PAIRS_B(K, V, te::cfg::C::THREADS, te::cfg::C::ITEMS, true, te::cfg::C::MINB)
const SortCfg<uint64_t, uint64_t> pair_cfgs64[] = {
    SORT_PAIRS_DEFAULT(uint64_t, uint64_t, sort_pairs64),
#ifdef SCG_TUNE
    SORT_PAIRS_B(uint64_t, uint64_t, 256, 12, true, 3),
    SORT_PAIRS(uint64_t, uint64_t, 256, 10),
    SORT_PAIRS(uint64_t, uint64_t, 256, 16),
    SORT_PAIRS(uint64_t, uint64_t, 384, 10),
    SORT_PAIRS_B(uint64_t, uint64_t, 256, 20, true, 2),
#endif
};
const SortCfg<uint64_t, uint32_t> pair_cfgs64_32[] = {
    SORT_PAIRS_DEFAULT(uint64_t, uint32_t, sort_pairs64_32),
#ifdef SCG_TUNE
    SORT_PAIRS_B(uint64_t, uint32_t, 256, 15, true, 3),
    SORT_PAIRS(uint64_t, uint32_t, 256, 12),
    SORT_PAIRS(uint64_t, uint32_t, 256, 20),
#endif
};
const SortCfg<uint32_t, uint32_t> pair_cfgs32[] = {
    SORT_PAIRS_DEFAULT(uint32_t, uint32_t, sort_pairs32),
#ifdef SCG_TUNE
    SORT_PAIRS_B(uint32_t, uint32_t, 256, 21, true, 3),
    SORT_PAIRS(uint32_t, uint32_t, 256, 16),
    SORT_PAIRS(uint32_t, uint32_t, 256, 24),
#endif
};
#undef SORT_CFG
#undef SORT_CFG_B
#undef SORT_PAIRS
#undef SORT_PAIRS_B
#undef SORT_PAIRS_DEFAULT

/* Each table, and the tile a bench chose (-1: the device's). */
template <class K, class V = NoVal> struct cfgs;
#define CFG_TABLE(K, V, T)                                                     \
    template <> struct cfgs<K, V> {                                            \
        static const SortCfg<K, V> *table() { return T; }                      \
        static int count() { return (int)(sizeof T / sizeof T[0]); }           \
        static int chosen;                                                     \
    };                                                                         \
    int cfgs<K, V>::chosen = -1;
CFG_TABLE(uint32_t, NoVal, sort_cfgs32)
CFG_TABLE(uint64_t, NoVal, sort_cfgs64)
CFG_TABLE(uint64_t, uint64_t, pair_cfgs64)
CFG_TABLE(uint64_t, uint32_t, pair_cfgs64_32)
CFG_TABLE(uint32_t, uint32_t, pair_cfgs32)
#undef CFG_TABLE

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
template <class K, class V = NoVal>
int current_cfg(uint64_t n)
{
    if (cfgs<K, V>::chosen >= 0)
        return cfgs<K, V>::chosen;
    if (sizeof(K) == 8 || !std::is_same<V, NoVal>::value)
        return 0;
    return n >> te::cfg::sort_fast_memory::MIN_KEYS_LG && fast_memory() ? 1 : 0;
}

/* The smallest tile of a table sizes the scratch for any of its
 * configurations. */
template <class K, class V = NoVal>
uint64_t sort_min_tile()
{
    uint64_t m = ~0ull;
    for (int i = 0; i < cfgs<K, V>::count(); i++)
        m = std::min(m, (uint64_t)cfgs<K, V>::table()[i].threads *
                            cfgs<K, V>::table()[i].items);
    return m;
}

} /* namespace */

#ifdef SCG_TUNE
template <class K, class V = NoVal>
static int tune(int cfg)
{
    if (cfg < -1 || cfg >= cfgs<K, V>::count())
        return 0;
    cfgs<K, V>::chosen = cfg;
    const SortCfg<K, V> &c = cfgs<K, V>::table()[current_cfg<K, V>(~0ull)];
    return c.threads << 16 | c.split_full << 15 | c.items;
}

/* Bench only: pick a tile configuration of 4-byte (scg_sort_tune) or
 * 8-byte keys (scg_sort64_tune), or of pairs (scg_sort_pairs_tune: which
 * 0 for u64 -> u64, 1 for u64 -> u32, 2 for u32 -> u32), or with -1 go
 * back to the device's (for the largest sorts); returns threads << 16 |
 * items, with bit 15 set where full tiles run apart; 0 if none. */
extern "C" int scg_sort_tune(int cfg) { return tune<uint32_t>(cfg); }
extern "C" int scg_sort64_tune(int cfg) { return tune<uint64_t>(cfg); }
extern "C" int scg_sort_pairs_tune(int which, int cfg)
{
    return which == 0 ? tune<uint64_t, uint64_t>(cfg)
         : which == 1 ? tune<uint64_t, uint32_t>(cfg)
         : which == 2 ? tune<uint32_t, uint32_t>(cfg) : 0;
}
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

template <class K, class V = NoVal>
static size_t scratch_for(uint64_t n)
{
    uint64_t tiles = (n + sort_min_tile<K, V>() - 1) / sort_min_tile<K, V>();
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

size_t scg_sort_pairs_scratch(uint64_t n)
{
    return std::max({scratch_for<uint64_t, uint64_t>(n), scratch_for<uint64_t, uint32_t>(n),
                     scratch_for<uint32_t, uint32_t>(n)});
}

/* Queues the sort's kernels; where the keys end, known on the device
 * only (passes whose digit is the same for every key are skipped there),
 * goes to *d_result_out: 1 for d_alt.  va: the values that go with the
 * keys (sort_pass.cuh's ValArgs; with rec_kin, the keys are read from
 * there). */
template <class K, class V = NoVal>
static int queue_sort(K *d_keys, K *d_alt, const ValArgs<K, V> &va, uint64_t n,
                      key_map<K> map, int ranked, unsigned lo_bit,
                      unsigned hi_bit, int descending, void *d_scratch,
                      int **d_result_out, scg_stream s)
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

    const SortCfg<K, V> &cfg = cfgs<K, V>::table()[current_cfg<K, V>(n)];
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
    const K *hist_keys = d_keys;
    if constexpr (!std::is_same<V, NoVal>::value)
        if (va.rec_kin) {
            hist_k = ranked ? hist_kernel<K, true, 2> : hist_kernel<K, false, 2>;
            hist_keys = va.rec_kin;
        }
    hist_k<<<(unsigned)hist_blocks, HIST_THREADS, 0, s>>>(hist_keys, n, aligned, ps, map, hist);
    SCG_CHECK_LAUNCH();
    bins_kernel<<<ps.count, RADIX, 0, s>>>(hist, n, bins, trivial);
    SCG_CHECK_LAUNCH();
    for (int p = 0; p < ps.count; p++) {
        PassArgs<K, V> a;
        static_cast<ValArgs<K, V> &>(a) = va;
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
    return queue_sort<uint64_t>(d_keys, d_alt, ValArgs<uint64_t, NoVal>(), n, map,
                                ranked, lo_bit, hi_bit, descending, d_scratch,
                                d_result, s);
}

/* Keys that are their own ranks with u32 values. */
template <class K>
static int queue_index_pairs(K *d_keys, K *d_alt, uint32_t *d_vals,
                             uint32_t *d_valt, uint64_t n, unsigned lo_bit,
                             unsigned hi_bit, int descending, void *d_scratch,
                             int **d_result, scg_stream s)
{
    ValArgs<K, uint32_t> va = {};
    va.vals = d_vals;
    va.valt = d_valt;
    return queue_sort<K, uint32_t>(d_keys, d_alt, va, n,
                                   key_map<K>::of(sizeof(K) == 8 ? SC_U64 : SC_U32), 0, lo_bit,
                                   hi_bit, descending, d_scratch, d_result, s);
}

int scg_queue_pairs(uint64_t *d_keys, uint64_t *d_alt, uint32_t *d_vals,
                    uint32_t *d_valt, uint64_t n, unsigned lo_bit,
                    unsigned hi_bit, int descending, void *d_scratch,
                    int **d_result, scg_stream s)
{
    return queue_index_pairs(d_keys, d_alt, d_vals, d_valt, n, lo_bit, hi_bit,
                             descending, d_scratch, d_result, s);
}

int scg_queue_pairs(uint32_t *d_keys, uint32_t *d_alt, uint32_t *d_vals,
                    uint32_t *d_valt, uint64_t n, unsigned lo_bit,
                    unsigned hi_bit, int descending, void *d_scratch,
                    int **d_result, scg_stream s)
{
    return queue_index_pairs(d_keys, d_alt, d_vals, d_valt, n, lo_bit, hi_bit,
                             descending, d_scratch, d_result, s);
}

int scg_queue_record_pairs(const uint64_t *d_in, int key_word, uint64_t *d_out,
                           uint64_t *d_a, uint64_t *d_b, uint64_t n,
                           sc_key64 key, int ranked, unsigned lo_bit,
                           unsigned hi_bit, int descending, void *d_scratch,
                           scg_stream s)
{
    ValArgs<uint64_t, uint64_t> va = {};
    /* the second pass that moves the records writes d_b: by then the
     * first has read d_in, which may be d_b */
    va.vals = d_b + n;
    va.valt = d_a + n;
    va.rec_kin = d_in + key_word;
    va.rec_vin = d_in + (1 - key_word);
    va.rec_kout = d_out + key_word;
    va.rec_vout = d_out + (1 - key_word);
    key_map<uint64_t> map;
    map.k = key;
    int *d_result = nullptr;
    return queue_sort<uint64_t, uint64_t>(d_b, d_a, va, n, map, ranked, lo_bit,
                                          hi_bit, descending, d_scratch,
                                          &d_result, s);
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
    int err = queue_sort<K>(keys, alt, ValArgs<K, NoVal>(), n, key_map<K>::of(type),
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
