/* scan_typed.cu — scans of signed and float elements (sc_scan_type) on
 * the u32 scan of scan.cu: max and min run on the elements' ranks
 * (sc_key: the order as unsigned numbers), written back as the elements
 * (widened with `wide`); an i32 wide sum runs on x + 2^31 (the sign bit
 * flipped: unsigned, so the wide scan zero-extends it) and takes the
 * 2^31 a term back out of each output and of the carry; an i32 wide
 * xor of the zero-extended elements becomes that of the sign-extended
 * ones by setting the high word wherever the low word's sign bit is
 * the elements' (not the carry's).  The input array is the caller's
 * scratch: ranked in place. */
#include <cuda_runtime.h>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "launch_util.cuh"

namespace {

__global__ void rank_in(uint32_t *v, uint64_t n, sc_key k)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        v[i] = sc_key_rank(k, v[i]);
}

/* Ranks back to elements, in place, 32 or 64 bits an output. */
__global__ void unrank_out(void *out, uint64_t n, uint32_t type, int wide)
{
    sc_key k = sc_key_of(type);
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        if (wide) {
            uint64_t *o = (uint64_t *)out;
            o[i] = sc_widen(type, sc_key_unrank(k, (uint32_t)o[i]));
        } else {
            uint32_t *o = (uint32_t *)out;
            o[i] = sc_key_unrank(k, o[i]);
        }
    }
}

/* Output i held (i + inclusive) terms of 2^31 too many; the carry n. */
__global__ void unbias_out(uint64_t *out, uint64_t n, int inclusive,
                           uint64_t *carry)
{
    uint64_t i0 = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    for (uint64_t i = i0; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] -= (i + (uint64_t)inclusive) << 31;
    if (i0 == 0) *carry -= n << 31;
}

__device__ __forceinline__ uint64_t sign_fixed(uint64_t z, uint64_t carry)
{
    return z ^ ((((z ^ carry) >> 31) & 1) ? 0xffffffff00000000ull : 0);
}

__global__ void sign_extend_xor(uint64_t *out, uint64_t n, const uint64_t *carry_in,
                                uint64_t *carry_out)
{
    uint64_t c = *carry_in;
    uint64_t i0 = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    for (uint64_t i = i0; i < n; i += (uint64_t)gridDim.x * blockDim.x)
        out[i] = sign_fixed(out[i], c);
    if (i0 == 0) *carry_out = sign_fixed(*carry_out, c);
}

__global__ void carry_kernel(const uint64_t *src, uint64_t *dst, uint32_t type,
                             int op, int unrank)
{
    *dst = sc_scan_carry(type, op, *src, unrank);
}

unsigned grid_for(uint64_t n)
{
    int sms = 0;
    if (te::sm_count(&sms) != 0 || sms <= 0) sms = 1;
    uint64_t blocks = (n + 255) / 256, most = (uint64_t)sms * 8;
    return (unsigned)(blocks < most ? blocks : most);
}

} /* namespace */

extern "C" int scg_scan_type(void *d_in_, uint64_t n, uint32_t type, int op,
                             int inclusive, int wide, const uint64_t *d_carry_in,
                             void *d_out, uint64_t *d_carry_out, void *d_scratch,
                             scg_stream stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (sc_type_is_64bit(type))
        return scg_scan64(d_in_, n, type, op, inclusive, d_carry_in, d_out, d_carry_out,
                          d_scratch, stream);
    uint32_t *d_in = (uint32_t *)d_in_;
    int ranks = sc_scan_ranks(type, op);
    int rewrites = sc_scan_rewrites_input(type, op, wide);
    int sxor = type == SC_I32 && wide && op == SC_OP_XOR;
    if (n == 0 || (!rewrites && !sxor))
        return scg_scan(d_in, n, op, inclusive, wide, d_carry_in, d_out, d_carry_out,
                        d_scratch, stream);
    unsigned grid = grid_for(n);
    if (sxor) {
        int err = scg_scan(d_in, n, op, inclusive, wide, d_carry_in, d_out, d_carry_out,
                           d_scratch, stream);
        if (err) return err;
        sign_extend_xor<<<grid, 256, 0, s>>>((uint64_t *)d_out, n, d_carry_in,
                                             d_carry_out);
        SCG_CHECK_LAUNCH();
        return 0;
    }
    rank_in<<<grid, 256, 0, s>>>(d_in, n, ranks ? sc_key_of(type) : sc_key_of(SC_I32));
    SCG_CHECK_LAUNCH();
    int err = scg_scan(d_in, n, op, inclusive, wide, d_carry_in, d_out, d_carry_out,
                       d_scratch, stream);
    if (err) return err;
    if (ranks)
        unrank_out<<<grid, 256, 0, s>>>(d_out, n, type, wide);
    else
        unbias_out<<<grid, 256, 0, s>>>((uint64_t *)d_out, n, inclusive, d_carry_out);
    SCG_CHECK_LAUNCH();
    return 0;
}

extern "C" int scg_scan_carry(const uint64_t *d_src, uint64_t *d_dst, uint32_t type,
                              int op, int unrank, scg_stream stream)
{
    carry_kernel<<<1, 1, 0, (cudaStream_t)stream>>>(d_src, d_dst, type, op, unrank);
    SCG_CHECK_LAUNCH();
    return 0;
}
