/* nocuda.c — the CUDA backend's entry points in a build without CUDA:
 * "auto" then quietly means the CPU, and "cuda" is an error. */
#include <stdlib.h>
#include "internal.h"

int sc_cuda_available(void) { return 0; }

sc_status sc_cuda_open(sc_ctx *ctx, int index)
{
    (void)index;
    return sc_fail(ctx, SC_ERR_NODEVICE,
                   "no CUDA device: this build of libsc has no CUDA support");
}

void sc_cuda_close(sc_ctx *ctx) { (void)ctx; }

void *sc_host_alloc(sc_ctx *ctx, size_t bytes)
{
    (void)ctx;
    return sc_big_alloc(bytes);
}

void sc_host_free(sc_ctx *ctx, void *p) { (void)ctx; free(p); }

#define UNREACHABLE(ctx) \
    sc_fail(ctx, SC_ERR_NODEVICE, "this build of libsc has no CUDA support")

sc_status sc_cuda_compact(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                          const sc_pred *pred, int out_kind,
                          uint64_t first_index, void *out, uint64_t *kept)
{
    (void)in; (void)n; (void)pred; (void)out_kind; (void)first_index;
    (void)out; (void)kept;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_split(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                        const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                        uint64_t *selected)
{
    (void)in; (void)n; (void)pred; (void)sel; (void)rej; (void)selected;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                       sc_scan_op op, int inclusive, int wide, void *out,
                       uint64_t *carry)
{
    (void)in; (void)n; (void)op; (void)inclusive; (void)wide; (void)out;
    (void)carry;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                       unsigned lo_bit, unsigned hi_bit, int descending)
{
    (void)keys; (void)n; (void)lo_bit; (void)hi_bit; (void)descending;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_gen(sc_ctx *ctx, const sc_gen_plan *plan,
                      uint64_t first_index, uint32_t *out, uint64_t n)
{
    (void)plan; (void)first_index; (void)out; (void)n;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_dev_compact(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                              const sc_pred *pred, uint32_t *d_out,
                              uint64_t *kept)
{
    (void)d_in; (void)n; (void)pred; (void)d_out; (void)kept;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                           sc_scan_op op, int inclusive, int wide,
                           void *d_out, uint64_t *carry)
{
    (void)d_in; (void)n; (void)op; (void)inclusive; (void)wide; (void)d_out;
    (void)carry;
    return UNREACHABLE(ctx);
}
sc_status sc_cuda_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                           unsigned lo_bit, unsigned hi_bit, int descending)
{
    (void)d_keys; (void)n; (void)lo_bit; (void)hi_bit; (void)descending;
    return UNREACHABLE(ctx);
}
