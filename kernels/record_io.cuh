/* record_io.cuh — what kernels of records need: a record's key read as
 * the host reads it (4-byte words, a record being only 4-byte aligned;
 * byte-swapped where big-endian), and whole records moved by index.  The
 * record sort (sort_records.cu) gathers through its sorted words; the
 * gather moves each record once with the widest vector load its size and
 * both arrays' alignment allow, consecutive threads taking consecutive
 * words of the output, so that the writes stream and each record's reads
 * coalesce.
 */
#ifndef SC_RECORD_IO_CUH
#define SC_RECORD_IO_CUH

#include <stdint.h>
#include <algorithm>
#include <cuda_runtime.h>
#include "cuda_check.cuh"
#include "launch_util.cuh"

namespace te {

__device__ __forceinline__ uint32_t bswap_word(uint32_t x)
{
    return __byte_perm(x, 0, 0x0123);
}

/* The key at p, 4 or 8 bytes (wide), in the host's order. */
__device__ __forceinline__ uint64_t record_key_bits(const unsigned char *p,
                                                    bool wide, bool swap)
{
    const uint32_t *w = (const uint32_t *)p;
    uint32_t a = __ldg(w);
    if (!wide)
        return swap ? bswap_word(a) : a;
    uint32_t b = __ldg(w + 1);
    return swap ? (uint64_t)bswap_word(a) << 32 | bswap_word(b)
                : (uint64_t)b << 32 | a;
}

/* A grid-stride kernel's blocks of 256 threads for `work` items. */
static inline cudaError_t record_grid(uint64_t work, unsigned *blocks)
{
    int sms = 0;
    cudaError_t e = sm_count(&sms);
    if (e == cudaSuccess)
        *blocks = (unsigned)std::max<uint64_t>(
            1, std::min<uint64_t>((work + 255) / 256, (uint64_t)sms * 32));
    return e;
}

/* Whole records: output vector t (of V, wpr a record) is vector t % wpr
 * of record at(t / wpr), for the count() records the index holds (known
 * on the device: Index::open reads it there); lg: log2 wpr where a
 * power of 2, else -1. */
template <class V, class Index>
__global__ void gather_records(const unsigned char *recs, Index idx,
                               uint32_t wpr, int lg, unsigned char *out)
{
    const typename Index::view ix = idx.open();
    const V *in = (const V *)recs;
    V *o = (V *)out;
    uint64_t total = ix.count * wpr;
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
         t < total; t += stride) {
        uint64_t r = lg >= 0 ? t >> lg
                   : total <= UINT32_MAX ? (uint64_t)((uint32_t)t / wpr) : t / wpr;
        uint64_t part = t - r * wpr;
        __stcs(o + t, __ldg(in + ix.at(r) * wpr + part));
    }
}

/* Queues that gather of records of `size` bytes, at most max_count of
 * them (it sizes the grid). */
template <class Index>
static int queue_gather_records(const void *recs, uint32_t size, Index idx,
                                uint64_t max_count, void *out, cudaStream_t s)
{
    uintptr_t both = (uintptr_t)recs | (uintptr_t)out;
    unsigned v = size % 16 == 0 && both % 16 == 0 ? 16
               : size % 8 == 0 && both % 8 == 0 ? 8 : 4;
    uint32_t wpr = size / v;
    int lg = (wpr & (wpr - 1)) == 0 ? __builtin_ctz(wpr) : -1;
    unsigned blocks = 0;
    SCG_CHECK(record_grid(max_count * wpr, &blocks));
    const unsigned char *in = (const unsigned char *)recs;
    unsigned char *o = (unsigned char *)out;
    if (v == 16)
        gather_records<uint4, Index><<<blocks, 256, 0, s>>>(in, idx, wpr, lg, o);
    else if (v == 8)
        gather_records<uint2, Index><<<blocks, 256, 0, s>>>(in, idx, wpr, lg, o);
    else
        gather_records<uint32_t, Index><<<blocks, 256, 0, s>>>(in, idx, wpr, lg, o);
    SCG_CHECK_LAUNCH();
    return 0;
}

} /* namespace te */

#endif /* SC_RECORD_IO_CUH */
