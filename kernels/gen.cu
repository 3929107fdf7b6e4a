/* gen.cu — the generator on the device.  Each element is the shared
 * sc_gen_plan_element() of lib/sc_hd.h, so the bits equal the CPU's by
 * construction.  The work is two 64-bit hash rounds per element (integer
 * multiply bound, not memory bound), so a plain grid-stride loop with
 * coalesced 4-byte stores is enough. */
#include "sc_kernels.h"
#include "cuda_check.cuh"

#define GEN_BLOCK 256
#define GEN_MAX_BLOCKS 8192u

static __global__ void __launch_bounds__(GEN_BLOCK)
gen_kernel(sc_gen_plan plan, uint64_t first_index, uint32_t *out, uint64_t n)
{
    uint64_t stride = (uint64_t)gridDim.x * GEN_BLOCK;
    for (uint64_t i = (uint64_t)blockIdx.x * GEN_BLOCK + threadIdx.x; i < n;
         i += stride)
        out[i] = sc_gen_plan_element(&plan, first_index + i);
}

extern "C" int scg_gen(const sc_gen_plan *plan, uint64_t first_index,
                       uint32_t *d_out, uint64_t n, scg_stream stream)
{
    if (!plan || (n && !d_out))
        return (int)cudaErrorInvalidValue;
    if (n == 0)
        return 0;
    uint64_t blocks = (n + GEN_BLOCK - 1) / GEN_BLOCK;
    if (blocks > GEN_MAX_BLOCKS)
        blocks = GEN_MAX_BLOCKS;
    gen_kernel<<<(unsigned)blocks, GEN_BLOCK, 0, (cudaStream_t)stream>>>(
        *plan, first_index, d_out, n);
    SCG_CHECK_LAUNCH();
    return 0;
}
