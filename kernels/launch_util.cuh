/* launch_util.cuh — the host side of the kernels' launches: how scratch
 * is laid out and how large a grid the current device takes.
 */
#ifndef SC_LAUNCH_UTIL_CUH
#define SC_LAUNCH_UTIL_CUH

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime.h>

namespace te {

/* Each region of a kernel's scratch starts 256-byte aligned, as the
 * scratch itself is (sc_kernels.h). */
static inline size_t round256(size_t b) { return (b + 255) & ~(size_t)255; }

/* The current device's multiprocessors. */
static inline cudaError_t sm_count(int *sms)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    return e != cudaSuccess ? e
                            : cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, dev);
}

/* A persistent pass's grid: as many blocks of `threads` as fit at once
 * with `smem` bytes of dynamic shared memory each, at most `tiles`. */
template <class K>
static inline cudaError_t persistent_grid(K kernel, int threads, size_t smem,
                                          uint64_t tiles, unsigned *blocks)
{
    int sms = 0, per_sm = 0;
    cudaError_t e = sm_count(&sms);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)smem);
    if (e == cudaSuccess)
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
    if (e != cudaSuccess)
        return e;
    if (per_sm < 1)
        return cudaErrorInvalidConfiguration;
    uint64_t b = (uint64_t)sms * (uint64_t)per_sm;
    *blocks = (unsigned)(b < tiles ? b : tiles);
    return cudaSuccess;
}

} /* namespace te */

#endif /* SC_LAUNCH_UTIL_CUH */
