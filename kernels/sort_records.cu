/* sort_records.cu — the stable sort of fixed-size records (4 .. 4096
 * bytes) by a key of any type at any offset, and argsort, on the GPU.
 *
 * Records are not carried through the radix passes.  A record is up to
 * 4096 bytes, and a pass that moved whole records would move all of them
 * every pass; instead each record's key is ranked (sc_hd.h's sc_key,
 * sc_key64; byte-swapped first for big-endian keys) and put above its
 * index in one 64-bit word, rank32 << 32 | index, and those words are
 * sorted by sort.cu's onesweep sort of 8-byte keys (scg_queue_sort64) on
 * the bits of --bits above the index.  The sort is stable and the words
 * start in input order, so equal keys keep their order, descending too
 * (sort.cu complements the digit).  The low halves then hold the
 * permutation, and one gather moves each record once: whole records with
 * the widest vector load the size and alignment allow, consecutive
 * threads taking consecutive words of the output; or for argsort each
 * record's key with its position, or the position alone (elem_order.h's
 * SC_GATHER_*).  An 8-byte key's rank does not fit beside the index: it
 * is sorted as two 32-bit digits, least significant first, the second
 * pass's words made from the first's permutation (the key read again
 * through it), so the second stable pass keeps the first's order among
 * its ties: LSD radix sort with 32-bit digits.  Only the halves that
 * --bits touches are sorted.  Indices are 32 bits: at most 2^32 records.
 *
 * 8-byte records with a 4-byte key in the host's order have a shorter way
 * (SCG_RSORT_DIRECT): the records are u64 words, the key bits [0, 32) or
 * [32, 64) of each, so the 8-byte sort sorts them in place on those bits,
 * with no words and no gather.  A signed key is ranked by flipping its
 * sign bit, a float key in the high half by sc_key64's transform with the
 * masks narrowed to the field; a float key in the low half cannot be
 * (sc_key64 tests bit 63), so it takes the words.
 *
 * 16-byte records with an 8-byte key in the host's order have another
 * (SCG_RSORT_PAIRS): the key and the record's other word are sorted as a
 * key and its value (sort.cu's pairs), the first pass reading them from
 * the records and the last writing them to d_out as records, d_in the
 * passes' second buffer once the first has read it: no words, no gather,
 * as CUB's SortPairs u64 -> u64 but for the records' two arrays.
 *
 * The index variant (SCG_RSORT_INDEX) sorts each record's rank, 4 or 8
 * bytes, with its u32 index as pairs, and gathers through the indices as
 * the words' variant does: one sort where an 8-byte key's words take two,
 * 12 bytes a record a pass where a word takes 8.
 *
 * Where the keys of the last pass ended is known on the device only; the
 * kernels after a sort read sort.cu's flag themselves, so nothing waits
 * between the passes.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "launch_util.cuh"
#include "sort_queue.cuh"
#include "record_io.cuh"

namespace {

/* How a record's key is read and ranked. */
struct RecKey {
    uint32_t size, key_off, key_size, type;
    int swap;
};

/* The rank of the record's key (4-byte keys in the low half). */
__device__ __forceinline__ uint64_t rec_rank(const RecKey &k,
                                             const unsigned char *rec)
{
    uint64_t x = te::record_key_bits(rec + k.key_off, k.key_size == 8, k.swap);
    return k.key_size == 4 ? sc_key_rank(sc_key_of(k.type), (uint32_t)x)
                           : sc_key64_rank(sc_key64_of(k.type), x);
}

/* Where sorted words (or indices) are: alt where the sort's flag says
 * so. */
template <class W>
__device__ __forceinline__ const W *sorted_words(const W *keys, const W *alt,
                                                 const int *flag)
{
    return flag && *flag ? alt : keys;
}

/* words[i] = half h of the rank of record idx << 32 | idx: idx = i for
 * the first pass (prev NULL); for a later one, the record the previous
 * pass put at i (in prev or prev_alt, as its flag says). */
__global__ void words_kernel(const unsigned char *recs, uint64_t n, RecKey k,
                             unsigned half, const uint64_t *prev,
                             const uint64_t *prev_alt, const int *flag,
                             uint64_t *words)
{
    const uint64_t *src = prev ? sorted_words(prev, prev_alt, flag) : nullptr;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        uint32_t idx = src ? (uint32_t)src[i] : (uint32_t)i;
        uint64_t r = rec_rank(k, recs + (uint64_t)idx * k.size);
        words[i] = (uint64_t)(uint32_t)(r >> (32 * half)) << 32 | idx;
    }
}

/* The index variant's keys and values: each record's rank (K: of 4 or
 * 8 bytes, as the key) and its index. */
template <class K>
__global__ void index_kernel(const unsigned char *recs, uint64_t n, RecKey k,
                             K *keys, uint32_t *idx)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        keys[i] = (K)rec_rank(k, recs + i * k.size);
        idx[i] = (uint32_t)i;
    }
}

/* The sorted words or indices (W: a word with the index in its low half,
 * or the index alone), in keys or in alt where flag says, for
 * record_io.cuh's gather. */
template <class W>
struct sorted_index {
    const W *keys, *alt;
    const int *flag;
    uint64_t n;
    struct view {
        const W *w;
        uint64_t count;
        __device__ __forceinline__ uint64_t at(uint64_t k) const { return (uint32_t)w[k]; }
    };
    __device__ __forceinline__ view open() const
    {
        return view{sorted_words(keys, alt, flag), n};
    }
};

/* Argsort: each record's key as stored with base + its index
 * (SC_KEYPOS_BYTES), or that position alone. */
template <class W>
__global__ void gather_keypos(const unsigned char *recs, const W *keys,
                              const W *alt, const int *flag,
                              uint64_t n, RecKey k, uint64_t base, int kind,
                              unsigned char *out)
{
    const W *w = sorted_words(keys, alt, flag);
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        uint32_t idx = (uint32_t)w[i];
        uint64_t pos = base + idx;
        if (kind == SCG_GATHER_POSITIONS) {
            ((uint64_t *)out)[i] = pos;
            continue;
        }
        const uint32_t *p =
            (const uint32_t *)(recs + (uint64_t)idx * k.size + k.key_off);
        uint4 v = make_uint4(p[0], k.key_size == 8 ? p[1] : 0u, (uint32_t)pos,
                             (uint32_t)(pos >> 32));
        ((uint4 *)out)[i] = v;
    }
}

/* The direct variant's rank of a 4-byte key at key_off of a u64 word
 * (the file's comment says which it takes). */
static sc_key64 field_key(uint32_t key_off, uint32_t type)
{
    sc_key64 k = {0, 0};
    if (type == SC_I32)
        k.sign = (uint64_t)1 << (8 * key_off + 31);
    if (type == SC_F32) {
        k.sign = (uint64_t)1 << 63;
        k.neg = (uint64_t)0x7fffffffu << 32;
    }
    return k;
}

static int sort_direct(void *d_in, uint64_t n, uint32_t key_off, uint32_t type,
                       unsigned lo_bit, unsigned hi_bit, int descending,
                       void *d_out, int *in_input, void *d_scratch,
                       scg_stream s)
{
    *in_input = 1;
    if (n < 2)
        return 0;
    int *d_result = nullptr, alt = 0;
    int err = scg_queue_sort64((uint64_t *)d_in, (uint64_t *)d_out, n,
                               field_key(key_off, type), type != SC_U32,
                               8 * key_off + lo_bit, 8 * key_off + hi_bit,
                               descending, d_scratch, &d_result, s);
    if (err)
        return err;
    SCG_CHECK(cudaMemcpyAsync(&alt, d_result, sizeof alt,
                              cudaMemcpyDeviceToHost, s));
    SCG_CHECK(cudaStreamSynchronize(s));
    *in_input = !alt;
    return 0;
}

/* The gather of n records through the sorted words or indices (keys, or
 * alt where flag says). */
template <class W>
static int queue_gather(const unsigned char *recs, const W *keys,
                        const W *alt, const int *flag, uint64_t n,
                        const RecKey &k, int gather, uint64_t base,
                        void *d_out, scg_stream s)
{
    unsigned blocks = 0;
    if (gather != SCG_GATHER_ITEMS) {
        SCG_CHECK(te::record_grid(n, &blocks));
        gather_keypos<W><<<blocks, 256, 0, s>>>(recs, keys, alt, flag, n, k, base,
                                                gather, (unsigned char *)d_out);
        SCG_CHECK_LAUNCH();
        return 0;
    }
    return te::queue_gather_records(recs, k.size,
                                    sorted_index<W>{keys, alt, flag, n}, n,
                                    d_out, s);
}

/* Scratch of the variants with words or indices: two buffers of n u64
 * (words, or the ranks), two of n u32 (the indices), the sort's. */
struct IndexScratch {
    void *keys, *alt, *vals, *valt, *sort;
    explicit IndexScratch(void *d_scratch, uint64_t n)
    {
        char *p = (char *)d_scratch;
        size_t w = te::round256(n * 8), v = te::round256(n * 4);
        keys = p;
        alt = p + w;
        vals = p + 2 * w;
        valt = p + 2 * w + v;
        sort = p + 2 * w + 2 * v;
    }
};

/* The variant with words: passes over the rank's 32-bit halves that
 * [lo_bit, hi_bit) touches, then the gather. */
static int sort_words(const unsigned char *recs, uint64_t n, const RecKey &k,
                      unsigned lo_bit, unsigned hi_bit, int descending,
                      int gather, uint64_t base, void *d_out,
                      void *d_scratch, scg_stream s)
{
    IndexScratch b(d_scratch, n);
    uint64_t *words = (uint64_t *)b.keys, *alt = (uint64_t *)b.alt;
    void *sort_scratch = b.sort;
    const int *flag = nullptr;
    unsigned blocks = 0;
    SCG_CHECK(te::record_grid(n, &blocks));
    for (unsigned h = 0; h < k.key_size / 4; h++) {
        unsigned plo = std::max(lo_bit, 32 * h), phi = std::min(hi_bit, 32 * h + 32);
        if (plo >= phi)
            continue;
        const uint64_t *prev = flag ? words : nullptr;
        words_kernel<<<blocks, 256, 0, s>>>(recs, n, k, h, prev, alt, flag,
                                            words);
        SCG_CHECK_LAUNCH();
        if (n < 2)
            continue;
        int *d_result = nullptr;
        int err = scg_queue_sort64(words, alt, n, sc_key64{0, 0}, 0,
                                   32 + plo - 32 * h, 32 + phi - 32 * h,
                                   descending, sort_scratch, &d_result, s);
        if (err)
            return err;
        flag = d_result;
    }
    return queue_gather(recs, words, alt, flag, n, k, gather, base, d_out, s);
}

/* The index variant: each record's rank (K) with its index sorted as
 * pairs on [lo_bit, hi_bit), then the gather through the indices. */
template <class K>
static int sort_index(const unsigned char *recs, uint64_t n, const RecKey &k,
                      unsigned lo_bit, unsigned hi_bit, int descending,
                      int gather, uint64_t base, void *d_out,
                      void *d_scratch, scg_stream s)
{
    IndexScratch b(d_scratch, n);
    K *keys = (K *)b.keys, *alt = (K *)b.alt;
    uint32_t *vals = (uint32_t *)b.vals, *valt = (uint32_t *)b.valt;
    unsigned blocks = 0;
    SCG_CHECK(te::record_grid(n, &blocks));
    index_kernel<K><<<blocks, 256, 0, s>>>(recs, n, k, keys, vals);
    SCG_CHECK_LAUNCH();
    int *flag = nullptr;
    if (n >= 2) {
        int err = scg_queue_pairs(keys, alt, vals, valt, n, lo_bit, hi_bit,
                                  descending, b.sort, &flag, s);
        if (err)
            return err;
    }
    return queue_gather<uint32_t>(recs, vals, valt, flag, n, k, gather, base,
                                  d_out, s);
}

/* The pairs variant: 16-byte records, the key one u64 word, the other
 * word its value, sorted by the passes straight from d_in to d_out
 * (sort_queue.cuh's scg_queue_record_pairs), d_in the second buffer. */
static int sort_pairs16(void *d_in, uint64_t n, uint32_t key_off, uint32_t type,
                        unsigned lo_bit, unsigned hi_bit, int descending,
                        void *d_out, void *d_scratch, scg_stream s)
{
    IndexScratch b(d_scratch, n);
    return scg_queue_record_pairs((const uint64_t *)d_in, key_off / 8,
                                  (uint64_t *)d_out, (uint64_t *)b.keys,
                                  (uint64_t *)d_in, n, sc_key64_of(type),
                                  type != SC_U64, lo_bit, hi_bit, descending,
                                  b.sort, s);
}

}  // namespace

extern "C" size_t scg_sort_records_scratch(uint64_t n)
{
    return 2 * te::round256(n * 8) + 2 * te::round256(n * 4) +
           std::max(scg_sort_scratch_type(n, SC_U64), scg_sort_pairs_scratch(n));
}

extern "C" int scg_sort_records_pairs(uint32_t rec_size, uint32_t key_off,
                                      uint32_t key_type, int big_endian,
                                      int gather)
{
    return rec_size == 16 && key_type <= SC_F64 && sc_type_is_64bit(key_type) &&
           (key_off == 0 || key_off == 8) && !big_endian &&
           gather == SCG_GATHER_ITEMS;
}

extern "C" int scg_sort_records_direct(uint32_t rec_size, uint32_t key_off,
                                       uint32_t key_type, int big_endian,
                                       int gather)
{
    return rec_size == 8 && !big_endian && gather == SCG_GATHER_ITEMS &&
           (key_type == SC_U32 || key_type == SC_I32 ||
            (key_type == SC_F32 && key_off == 4));
}

extern "C" const char *scg_sort_records_variant(int algo)
{
    switch (algo) {
    case SCG_RSORT_WORDS:
        return "rank << 32 | index words sorted by the 8-byte onesweep sort "
               "(an 8-byte key: two passes, low half first), then one gather "
               "of the records";
    case SCG_RSORT_DIRECT:
        return "direct: 8-byte records sorted in place as u64 words on the "
               "key's bits, no gather";
    case SCG_RSORT_PAIRS:
        return "pairs: 16-byte records with an 8-byte host-order key, the key "
               "and the other 8 bytes carried through the onesweep passes, "
               "read from and written to records by the first and last";
    case SCG_RSORT_INDEX:
        return "index: the key's rank (4 or 8 bytes) and a u32 index sorted "
               "as pairs by the onesweep passes, then one gather of the records";
    case SCG_RSORT_AUTO:
        return "direct for 8-byte records with a 4-byte host-order key (but "
               "an f32 at offset 0), pairs for 16-byte records with an 8-byte "
               "host-order key, else rank << 32 | index words and a gather";
    }
    return nullptr;
}

extern "C" int scg_sort_records(void *d_in, uint64_t n, uint32_t rec_size,
                                uint32_t key_off, uint32_t key_type,
                                int big_endian, unsigned lo_bit,
                                unsigned hi_bit, int descending, int gather,
                                uint64_t base, void *d_out,
                                int *result_in_input, void *d_scratch,
                                int algo, scg_stream s)
{
    unsigned ks = key_type <= SC_F64 ? (sc_type_is_64bit(key_type) ? 8 : 4) : 0;
    if (!result_in_input || !ks || rec_size % 4 || rec_size < 4 ||
        rec_size > 4096 || key_off % ks || key_off + ks > rec_size ||
        lo_bit >= hi_bit || hi_bit > 8 * ks || gather < SCG_GATHER_ITEMS ||
        gather > SCG_GATHER_POSITIONS || algo < SCG_RSORT_AUTO ||
        algo > SCG_RSORT_INDEX)
        return (int)cudaErrorInvalidValue;
    unsigned out_align = gather == SCG_GATHER_KEYPOS ? 16
                       : gather == SCG_GATHER_POSITIONS ? 8 : 4;
    if ((uintptr_t)d_in % 4 || (uintptr_t)d_out % out_align)
        return (int)cudaErrorMisalignedAddress;
    int direct = scg_sort_records_direct(rec_size, key_off, key_type,
                                         big_endian, gather);
    int pairs = scg_sort_records_pairs(rec_size, key_off, key_type, big_endian,
                                       gather);
    if ((algo == SCG_RSORT_DIRECT && !direct) || (algo == SCG_RSORT_PAIRS && !pairs))
        return (int)cudaErrorInvalidValue;
    /* the direct and pairs variants' records are u64 words */
    int words_aligned = ((uintptr_t)d_in | (uintptr_t)d_out) % 8 == 0;
    if ((algo == SCG_RSORT_DIRECT || algo == SCG_RSORT_PAIRS) && !words_aligned)
        return (int)cudaErrorMisalignedAddress;
    if (algo == SCG_RSORT_AUTO)
        algo = direct && words_aligned ? SCG_RSORT_DIRECT
             : pairs && words_aligned ? SCG_RSORT_PAIRS : SCG_RSORT_WORDS;
    if (algo == SCG_RSORT_DIRECT)
        return sort_direct(d_in, n, key_off, key_type, lo_bit, hi_bit,
                           descending, d_out, result_in_input, d_scratch, s);
    *result_in_input = 0;
    if (algo == SCG_RSORT_PAIRS) {
        *result_in_input = n < 2;
        int err = n < 2 ? 0 : sort_pairs16(d_in, n, key_off, key_type, lo_bit,
                                           hi_bit, descending, d_out,
                                           d_scratch, s);
        if (err)
            return err;
        SCG_CHECK(cudaStreamSynchronize(s));
        return 0;
    }
    if (n > ((uint64_t)1 << 32))
        return (int)cudaErrorInvalidValue;
    if (n == 0)
        return 0;
    RecKey k = {rec_size, key_off, ks, key_type, big_endian != 0};
    const unsigned char *recs = (const unsigned char *)d_in;
    int err = algo == SCG_RSORT_WORDS
        ? sort_words(recs, n, k, lo_bit, hi_bit, descending, gather, base,
                     d_out, d_scratch, s)
        : ks == 8
        ? sort_index<uint64_t>(recs, n, k, lo_bit, hi_bit, descending, gather,
                               base, d_out, d_scratch, s)
        : sort_index<uint32_t>(recs, n, k, lo_bit, hi_bit, descending, gather,
                               base, d_out, d_scratch, s);
    if (err)
        return err;
    SCG_CHECK(cudaStreamSynchronize(s));
    return 0;
}

/* The stream-ordered form (sc_dev_sort_records_async and the like): the
 * same kernels with nothing waited for, the result always in d_out. */
namespace {

/* The direct variant's result into keys where the sort left it in alt
 * (flag, known on the device only). */
__global__ void take_alt(uint64_t *keys, const uint64_t *alt, const int *flag,
                         uint64_t n)
{
    if (!*flag)
        return;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        keys[i] = alt[i];
}

/* Where an in-place sort of the words' variant keeps its copy of the
 * records, after scg_sort_records_scratch's. */
static size_t copy_at(uint64_t n) { return te::round256(scg_sort_records_scratch(n)); }

}  // namespace

extern "C" size_t scg_queue_sort_records_scratch(uint64_t n, uint32_t rec_size,
                                                 uint32_t key_off,
                                                 uint32_t key_type,
                                                 int big_endian, int gather,
                                                 int in_place)
{
    int copy = in_place && !scg_sort_records_direct(rec_size, key_off, key_type,
                                                    big_endian, gather);
    return copy_at(n) + (copy ? te::round256(n * rec_size) : 0);
}

extern "C" int scg_queue_sort_records(const void *d_in, uint64_t n,
                                      uint32_t rec_size, uint32_t key_off,
                                      uint32_t key_type, int big_endian,
                                      int descending, int gather,
                                      uint64_t base, void *d_out,
                                      void *d_scratch, scg_stream s)
{
    unsigned ks = key_type <= SC_F64 ? (sc_type_is_64bit(key_type) ? 8 : 4) : 0;
    int in_place = d_in == d_out;
    if (!ks || rec_size % 4 || rec_size < 4 || rec_size > 4096 ||
        key_off % ks || key_off + ks > rec_size || gather < SCG_GATHER_ITEMS ||
        gather > SCG_GATHER_POSITIONS || n > ((uint64_t)1 << 32) ||
        (in_place && gather != SCG_GATHER_ITEMS))
        return (int)cudaErrorInvalidValue;
    int direct = scg_sort_records_direct(rec_size, key_off, key_type,
                                         big_endian, gather);
    if ((uintptr_t)d_in % 4 || (uintptr_t)d_out % (direct ? 8 : 4) ||
        (direct && (uintptr_t)d_in % 8))
        return (int)cudaErrorMisalignedAddress;
    if (n == 0)
        return 0;
    if (direct) {
        uint64_t *keys = (uint64_t *)d_out;
        uint64_t *alt = (uint64_t *)d_scratch;
        if (!in_place)
            SCG_CHECK(cudaMemcpyAsync(keys, d_in, n * 8,
                                      cudaMemcpyDeviceToDevice, s));
        if (n < 2)
            return 0;
        int *flag = nullptr;
        int err = scg_queue_sort64(keys, alt, n, field_key(key_off, key_type),
                                   key_type != SC_U32, 8 * key_off,
                                   8 * key_off + 32, descending,
                                   (char *)d_scratch + te::round256(n * 8),
                                   &flag, s);
        if (err)
            return err;
        unsigned blocks = 0;
        SCG_CHECK(te::record_grid(n, &blocks));
        take_alt<<<blocks, 256, 0, s>>>(keys, alt, flag, n);
        SCG_CHECK_LAUNCH();
        return 0;
    }
    const unsigned char *recs = (const unsigned char *)d_in;
    if (in_place) {
        /* the gather reads the records as they were */
        void *copy = (char *)d_scratch + copy_at(n);
        SCG_CHECK(cudaMemcpyAsync(copy, d_in, n * rec_size,
                                  cudaMemcpyDeviceToDevice, s));
        recs = (const unsigned char *)copy;
    }
    RecKey k = {rec_size, key_off, ks, key_type, big_endian != 0};
    return sort_words(recs, n, k, 0, 8 * ks, descending, gather, base, d_out,
                      d_scratch, s);
}
