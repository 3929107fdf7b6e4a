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
#include "record_io.cuh"

namespace te {

/* How a record's key is read. */
struct key_read {
    uint32_t size, key_off;
    bool wide, swap;
};

/* keys[i] = the key of record i as a plain element of its type. */
template <typename K>
__global__ void gather_keys(const unsigned char *recs, uint64_t n, key_read k, K *keys)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        keys[i] = (K)record_key_bits(recs + i * k.size + k.key_off, sizeof(K) == 8, k.swap);
}

/* The kept records' positions pos[0 .. *count), for record_io.cuh's
 * gather. */
template <typename P>
struct kept_index {
    const P *pos;
    const uint64_t *count;
    struct view {
        const P *pos;
        uint64_t count;
        __device__ __forceinline__ uint64_t at(uint64_t r) const { return (uint64_t)pos[r]; }
    };
    __device__ __forceinline__ view open() const { return view{pos, *count}; }
};

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

static inline int queue_keys(const void *d_in, uint64_t n, const key_read &k, void *keys,
                             cudaStream_t s)
{
    unsigned blocks = 0;
    SCG_CHECK(record_grid(n, &blocks));
    const unsigned char *recs = (const unsigned char *)d_in;
    if (k.wide)
        gather_keys<uint64_t><<<blocks, 256, 0, s>>>(recs, n, k, (uint64_t *)keys);
    else
        gather_keys<uint32_t><<<blocks, 256, 0, s>>>(recs, n, k, (uint32_t *)keys);
    SCG_CHECK_LAUNCH();
    return 0;
}

/* The records at positions pos[0 .. *count) of d_in to d_out, in order;
 * n bounds *count (it sizes the grid). */
static int queue_move(const void *d_in, uint32_t rec_size, const keyed_scratch &m,
                      const void *pos, const uint64_t *count, uint64_t n, void *d_out,
                      cudaStream_t s)
{
    if (m.pos_kind == SC_EMIT_IDX32)
        return queue_gather_records(d_in, rec_size,
                                    kept_index<uint32_t>{(const uint32_t *)pos, count}, n,
                                    d_out, s);
    return queue_gather_records(d_in, rec_size,
                                kept_index<uint64_t>{(const uint64_t *)pos, count}, n, d_out, s);
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
