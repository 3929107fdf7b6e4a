/* select_keyed.cuh — compaction and split of records of the layouts the
 * agent does not read directly (select_records.cuh says which it does):
 * any size from 4 to 4096 bytes, a multiple of 4, keys big-endian too,
 * inputs on any 4-byte boundary.
 *
 * The select engine is not widened to such records: a tile of 4096-byte
 * records would not fit on chip, and a record of 12 bytes straddles the
 * 16-byte vectors the agent loads.  Instead each record's key is
 * gathered into an array of keys of its type (byte-swapped where it is
 * big-endian: then it is a plain key, tested as an element is), the
 * engine compacts that array to the kept records' positions (32-bit
 * where the records' count allows, else 64-bit), and one gather moves
 * each kept record once, whole, with the widest vector load the size and
 * both arrays' alignment allow, consecutive threads taking consecutive
 * words of the output (as sort_records.cu's gather does).  --indices
 * needs no gather: the engine writes the positions themselves.  A split
 * runs the engine twice on the keys, with the predicate and with its
 * inverse (sc_pred's invert), for the positions of both sides; the keys
 * and positions are 4 or 8 bytes a record against the records' 12 or
 * more, so the second pass costs little beside the gathers, and both
 * passes are the engine's tested compaction of positions.  How many
 * records each side keeps is known on the device only: the gather reads
 * the count there, so nothing waits.
 *
 * Scratch (scg_select_scratch_layout): the keys, the positions of the
 * kept (and of the rejected), a count, then the engine's scratch.
 */
#ifndef SC_SELECT_KEYED_CUH
#define SC_SELECT_KEYED_CUH

#include <stdint.h>
#include <algorithm>
#include <cuda_runtime.h>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "launch_util.cuh"
#include "select_scratch.cuh"
#include "select_ops.cuh"

namespace te {

/* How a record's key is read. */
struct key_read {
    uint32_t size, key_off;
    bool wide, swap;
};

__device__ __forceinline__ uint32_t bswap_word(uint32_t x)
{
    return __byte_perm(x, 0, 0x0123);
}

/* keys[i] = the key of record i as a plain element of its type (read as
 * 4-byte words: a record is only 4-byte aligned). */
template <typename K>
__global__ void gather_keys(const unsigned char *recs, uint64_t n, key_read k, K *keys)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const uint32_t *p = (const uint32_t *)(recs + i * k.size + k.key_off);
        if (sizeof(K) == 4) {
            uint32_t x = __ldg(p);
            keys[i] = (K)(k.swap ? bswap_word(x) : x);
        } else {
            uint32_t a = __ldg(p), b = __ldg(p + 1);
            keys[i] = (K)(k.swap ? (uint64_t)bswap_word(a) << 32 | bswap_word(b)
                                 : (uint64_t)b << 32 | a);
        }
    }
}

/* Whole records by position: output vector t (of V, wpr a record) is
 * vector t % wpr of record pos[t / wpr], for the *count records kept;
 * lg: log2 wpr where a power of 2, else -1. */
template <class V, typename P>
__global__ void move_kept(const unsigned char *recs, const P *pos, const uint64_t *count,
                          uint32_t wpr, int lg, unsigned char *out)
{
    const V *in = (const V *)recs;
    V *o = (V *)out;
    uint64_t total = *count * wpr;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
         t += stride) {
        uint64_t r = lg >= 0 ? t >> lg
                   : total <= UINT32_MAX ? (uint64_t)((uint32_t)t / wpr) : t / wpr;
        uint64_t part = t - r * wpr;
        uint64_t idx = (uint64_t)pos[r];
        __stcs(o + t, __ldg(in + idx * wpr + part));
    }
}

/* The pieces of a keyed run's scratch. */
struct keyed_scratch {
    void *keys, *pos, *pos_rej, *sel_scratch;
    uint64_t *count;
    int pos_kind;   /* SC_EMIT_IDX32 or SC_EMIT_IDX64 */
};

static inline bool narrow_positions(uint64_t n)
{
    return n <= (uint64_t)UINT32_MAX + 1;
}

/* Bytes of the scratch of n records keyed by `type` (split: positions of
 * both sides). */
static inline size_t keyed_scratch_bytes(uint64_t n, uint32_t type, bool split)
{
    uint64_t ks = sc_type_is_64bit(type) ? 8 : 4, ps = narrow_positions(n) ? 4 : 8;
    return round256(n * ks) + (split ? 2 : 1) * round256(n * ps) + 256 +
           scratch_bytes(n * (ks / 4), SEL_MIN_TILE);
}

static inline keyed_scratch map_keyed(void *scr, uint64_t n, uint32_t type, bool split)
{
    uint64_t ks = sc_type_is_64bit(type) ? 8 : 4;
    bool narrow = narrow_positions(n);
    size_t pb = round256(n * (narrow ? 4 : 8));
    char *p = (char *)scr;
    keyed_scratch m;
    m.keys = p;
    p += round256(n * ks);
    m.pos = p;
    p += pb;
    m.pos_rej = split ? p : nullptr;
    p += split ? pb : 0;
    m.count = (uint64_t *)p;
    m.sel_scratch = p + 256;
    m.pos_kind = narrow ? SC_EMIT_IDX32 : SC_EMIT_IDX64;
    return m;
}

/* A grid-stride kernel's blocks of 256 threads for `work` items. */
static inline cudaError_t keyed_grid(uint64_t work, unsigned *blocks)
{
    int sms = 0;
    cudaError_t e = sm_count(&sms);
    if (e == cudaSuccess)
        *blocks = (unsigned)std::max<uint64_t>(
            1, std::min<uint64_t>((work + 255) / 256, (uint64_t)sms * 32));
    return e;
}

static inline int queue_keys(const void *d_in, uint64_t n, const key_read &k, void *keys,
                             cudaStream_t s)
{
    unsigned blocks = 0;
    SCG_CHECK(keyed_grid(n, &blocks));
    const unsigned char *recs = (const unsigned char *)d_in;
    if (k.wide)
        gather_keys<uint64_t><<<blocks, 256, 0, s>>>(recs, n, k, (uint64_t *)keys);
    else
        gather_keys<uint32_t><<<blocks, 256, 0, s>>>(recs, n, k, (uint32_t *)keys);
    SCG_CHECK_LAUNCH();
    return 0;
}

template <class V>
static int queue_move_as(const void *d_in, const keyed_scratch &m, const void *pos,
                         const uint64_t *count, uint32_t wpr, int lg, uint64_t n, void *d_out,
                         cudaStream_t s)
{
    unsigned blocks = 0;
    SCG_CHECK(keyed_grid(n * wpr, &blocks));
    const unsigned char *recs = (const unsigned char *)d_in;
    unsigned char *out = (unsigned char *)d_out;
    if (m.pos_kind == SC_EMIT_IDX32)
        move_kept<V, uint32_t><<<blocks, 256, 0, s>>>(recs, (const uint32_t *)pos, count, wpr,
                                                      lg, out);
    else
        move_kept<V, uint64_t><<<blocks, 256, 0, s>>>(recs, (const uint64_t *)pos, count, wpr,
                                                      lg, out);
    SCG_CHECK_LAUNCH();
    return 0;
}

/* The records at positions pos[0 .. *count) of d_in to d_out, in order;
 * n bounds *count (it sizes the grid). */
static int queue_move(const void *d_in, uint32_t rec_size, const keyed_scratch &m,
                      const void *pos, const uint64_t *count, uint64_t n, void *d_out,
                      cudaStream_t s)
{
    uintptr_t both = (uintptr_t)d_in | (uintptr_t)d_out;
    unsigned v = rec_size % 16 == 0 && both % 16 == 0 ? 16
               : rec_size % 8 == 0 && both % 8 == 0 ? 8 : 4;
    uint32_t wpr = rec_size / v;
    int lg = (wpr & (wpr - 1)) == 0 ? __builtin_ctz(wpr) : -1;
    if (v == 16)
        return queue_move_as<uint4>(d_in, m, pos, count, wpr, lg, n, d_out, s);
    if (v == 8)
        return queue_move_as<uint2>(d_in, m, pos, count, wpr, lg, n, d_out, s);
    return queue_move_as<uint32_t>(d_in, m, pos, count, wpr, lg, n, d_out, s);
}

/* Compaction of n > 0 records of any layout (the arguments checked):
 * positions (out_kind an index) straight from the engine, or the kept
 * records gathered by their positions. */
static int compact_keyed(const void *d_in, uint64_t n, uint32_t rec_size, uint32_t key_off,
                         int big_endian, const sc_pred &pred, int out_kind,
                         uint64_t first_index, void *d_out, uint64_t *d_count, void *d_scratch,
                         int algo, cudaStream_t s)
{
    keyed_scratch m = map_keyed(d_scratch, n, pred.type, false);
    key_read k = {rec_size, key_off, sc_type_is_64bit(pred.type) != 0, big_endian != 0};
    int rc = queue_keys(d_in, n, k, m.keys, s);
    if (rc)
        return rc;
    if (out_kind != SC_EMIT_VALUES)
        return scg_compact(m.keys, n, &pred, out_kind, first_index, d_out, d_count,
                           m.sel_scratch, algo, s);
    rc = scg_compact(m.keys, n, &pred, m.pos_kind, 0, m.pos, d_count, m.sel_scratch, algo, s);
    return rc ? rc : queue_move(d_in, rec_size, m, m.pos, d_count, n, d_out, s);
}

/* Split of n > 0 records of any layout: the positions of the selected
 * (their count to *d_selected) and of the rejected, then both gathers. */
static int split_keyed(const void *d_in, uint64_t n, uint32_t rec_size, uint32_t key_off,
                       int big_endian, const sc_pred &pred, void *d_sel, void *d_rej,
                       uint64_t *d_selected, void *d_scratch, int algo, cudaStream_t s)
{
    keyed_scratch m = map_keyed(d_scratch, n, pred.type, true);
    key_read k = {rec_size, key_off, sc_type_is_64bit(pred.type) != 0, big_endian != 0};
    sc_pred inverse = pred;
    inverse.invert ^= 1u;
    int rc = queue_keys(d_in, n, k, m.keys, s);
    if (!rc)
        rc = scg_compact(m.keys, n, &pred, m.pos_kind, 0, m.pos, d_selected, m.sel_scratch,
                         algo, s);
    if (!rc)
        rc = scg_compact(m.keys, n, &inverse, m.pos_kind, 0, m.pos_rej, m.count,
                         m.sel_scratch, algo, s);
    if (!rc)
        rc = queue_move(d_in, rec_size, m, m.pos, d_selected, n, d_sel, s);
    return rc ? rc : queue_move(d_in, rec_size, m, m.pos_rej, m.count, n, d_rej, s);
}

} /* namespace te */

#endif /* SC_SELECT_KEYED_CUH */
