/* fail.c — a CUDA error as libsc's status: out of device memory is
 * SC_ERR_NOMEM, which sends ops to the CPU; anything else is the
 * device's failure. */
#include "cuda/cuda_internal.h"

sc_status sc_cuda_fail(sc_ctx *ctx, cudaError_t err, const char *what)
{
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();     /* clear it: the device is still usable */
        return sc_fail(ctx, SC_ERR_NOMEM, "CUDA: %s: out of device memory",
                       what);
    }
    return sc_fail(ctx, SC_ERR_DEVICE, "CUDA: %s: %s", what,
                   cudaGetErrorString(err));
}
