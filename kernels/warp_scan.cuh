/* warp_scan.cuh — the warp layer of the tile engine: reductions and scans
 * over the 32 lanes of a warp, for any associative, commutative operator.
 *
 * The operator is a functor type with apply(a, b) and identity(); plus<T>
 * covers the counts of compaction and split, scan.cu adds max, min, xor.
 */
#ifndef SC_WARP_SCAN_CUH
#define SC_WARP_SCAN_CUH

#include <stdint.h>
#include <cuda_runtime.h>

namespace te {

static const unsigned FULL_MASK = 0xffffffffu;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & 31u; }
__device__ __forceinline__ unsigned warp_id() { return threadIdx.x >> 5; }

__device__ __forceinline__ uint32_t lanemask_lt()
{
    uint32_t m;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
    return m;
}

template <typename T> struct plus {
    typedef T type;
    __device__ __forceinline__ static T apply(T a, T b) { return a + b; }
    __device__ __forceinline__ static T identity() { return 0; }
};

template <class OP, typename T>
__device__ __forceinline__ T warp_reduce(T v)
{
    for (int d = 16; d > 0; d >>= 1)
        v = OP::apply(v, __shfl_xor_sync(FULL_MASK, v, d));
    return v;
}

/* Inclusive scan over the lanes (Kogge-Stone: 5 shuffles). */
template <class OP, typename T>
__device__ __forceinline__ T warp_inclusive(T v)
{
    unsigned lane = lane_id();
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        T t = __shfl_up_sync(FULL_MASK, v, d);
        if (lane >= (unsigned)d)
            v = OP::apply(v, t);
    }
    return v;
}

/* Exclusive from inclusive: one more shuffle, identity in lane 0. */
template <class OP, typename T>
__device__ __forceinline__ T warp_exclusive_of(T incl)
{
    T e = __shfl_up_sync(FULL_MASK, incl, 1);
    return lane_id() == 0 ? OP::identity() : e;
}

} /* namespace te */

#endif /* SC_WARP_SCAN_CUH */
