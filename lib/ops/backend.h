/* backend.h — what a device provides: the operations on host arrays and,
 * where the device has memory of its own, on device arrays.
 *
 * The array layer (ops.c) picks a table per call: the CPU's is always
 * linked, the CUDA one only in CUDA builds.  Entries return SC_ERR_NOMEM
 * when the device lacks memory for the call, which sends ops.c to the CPU
 * table: that is the one place where "try the GPU, else the CPU" is
 * written. */
#ifndef SC_BACKEND_H
#define SC_BACKEND_H

#include "internal.h"

typedef struct sc_backend {
    const char *name;
    sc_status (*compact)(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                         const sc_pred *pred, int out_kind,
                         uint64_t first_index, void *out, uint64_t *kept);
    sc_status (*split)(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                       const sc_pred *pred, uint32_t *sel, uint32_t *rej,
                       uint64_t *selected);
    sc_status (*scan)(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *out,
                      uint64_t *carry);
    sc_status (*sort)(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending);
    /* sort, handing sorted pieces on as they become final; NULL where
     * the device only has the whole result at the end. */
    sc_status (*sort_ready)(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                            unsigned lo_bit, unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg);
    sc_status (*gen)(sc_ctx *ctx, const sc_gen_plan *plan,
                     uint64_t first_index, uint32_t *out, uint64_t n);
    /* Adds in[0..n)'s figures to acc, which is left as it was on failure
     * (so that the CPU may take the same call again). */
    sc_status (*stat)(sc_ctx *ctx, const uint32_t *in, uint64_t n,
                      sc_stat_acc *acc);
    /* Device arrays; NULL for a device whose memory is the host's. */
    sc_status (*dev_compact)(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                             const sc_pred *pred, uint32_t *d_out,
                             uint64_t *kept);
    sc_status (*dev_scan)(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                          sc_scan_op op, int inclusive, int wide,
                          void *d_out, uint64_t *carry);
    sc_status (*dev_sort)(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                          unsigned lo_bit, unsigned hi_bit, int descending);
} sc_backend;

extern const sc_backend sc_cpu_backend;
#ifdef SC_HAVE_CUDA
extern const sc_backend sc_cuda_backend;
#endif

/* The table for `bytes` of work w on this context: the CPU's for "cpu";
 * the GPU's for "cuda" (NULL, with the message set, when it cannot
 * start); for "auto", the GPU's when the cost model says it pays, waiting
 * for a start under way only when that pays too. */
const sc_backend *sc_backend_pick(sc_ctx *ctx, sc_work w, uint64_t bytes);
/* Notes that b ran work (NULL: the GPU's lanes): the device -v names. */
void sc_backend_used(sc_ctx *ctx, const sc_backend *b);
/* After *b returned st: 1 when the GPU ran out of memory, with *b now the
 * CPU's table to run the same call again (the one place where the GPU
 * hands work to the CPU); else 0. */
int sc_backend_retry(sc_ctx *ctx, const sc_backend **b, sc_status st);

#endif
