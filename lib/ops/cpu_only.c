/* cpu_only.c — the array operations that only the CPU has: a split by
 * ranges into parts and the sample behind sc-stat --quantiles (no
 * kernel would pay for them), and the float sum scan, whose fixed order
 * carries a double and a block's partial sum from chunk to chunk (the
 * GPU's lanes carry one 64-bit word), and sc-gen of records, the gather
 * of records' keys and sc-stat --bincount (no kernel takes them yet).
 * Compaction and split of records are the backend tables',
 * core/backend.h, and the CPU's runs them here for the host-array calls,
 * ops_records.c; the sort of records and argsort are the tables' too,
 * run on the policy's device (ops.c).  The jobs reach them here, as they
 * reach every device.  (The other scans of 64-bit types are the CPU
 * table's: its scan takes either width.) */
#include <stdlib.h>
#include "cpu/cpu.h"
#include "ops/ops.h"

sc_status sc_split_ranges(sc_ctx *ctx, sc_phase_times *times, const void *in,
                          uint64_t n, const uint64_t *bounds, sc_type type,
                          const sc_record *rec, int big_endian, unsigned nb,
                          void *out, uint64_t *counts)
{
    return sc_cpu_ranges(ctx, times, in, n, bounds, type, rec, big_endian, nb,
                         out, counts);
}

sc_status sc_op_compact_records(sc_ctx *ctx, sc_phase_times *times,
                                const void *in, uint64_t n,
                                const sc_record *rec, int big_endian,
                                const sc_pred *pred, int out_kind,
                                uint64_t first_index, void *out,
                                uint64_t *kept)
{
    return sc_cpu_compact_records(ctx, times, in, n, rec, big_endian, pred,
                                  out_kind, first_index, out, kept);
}

sc_status sc_op_split_records(sc_ctx *ctx, sc_phase_times *times,
                              const void *in, uint64_t n, const sc_record *rec,
                              int big_endian, const sc_pred *pred, void *sel,
                              void *rej, uint64_t *selected)
{
    return sc_cpu_split_records(ctx, times, in, n, rec, big_endian, pred, sel,
                                rej, selected);
}

sc_status sc_gen_records(sc_ctx *ctx, sc_phase_times *times,
                         const sc_gen_plan *plan, const sc_record *rec,
                         int big_endian, uint64_t first_index, void *out,
                         uint64_t n)
{
    return sc_cpu_gen_records(ctx, times, plan, rec, big_endian, first_index,
                              out, n);
}

void sc_gather_keys(sc_ctx *ctx, sc_phase_times *times, const void *in,
                    uint64_t n, const sc_record *rec, int big_endian,
                    void *keys)
{
    sc_cpu_gather_keys(ctx, times, in, n, rec, big_endian, keys);
}

sc_status sc_bincount_add(sc_ctx *ctx, sc_phase_times *times,
                          const void *keys, uint64_t n, unsigned ksize,
                          uint64_t bins, uint64_t *counts, uint64_t *bad)
{
    return sc_cpu_bincount(ctx, times, keys, n, ksize, bins, counts, bad);
}

uint64_t sc_max_key(sc_ctx *ctx, const void *keys, uint64_t n,
                    unsigned ksize)
{
    return sc_cpu_max_key(ctx, keys, n, ksize);
}

sc_status sc_fsum_scan(sc_ctx *ctx, sc_phase_times *times, const void *in,
                       uint64_t n, sc_type type, uint64_t first,
                       int inclusive, int wide, void *out, sc_fsum_state *st)
{
    (void)ctx;
    double t0 = sc_now();
    sc_cpu_fsum(in, type, n, first, inclusive, wide, out, st);
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    return SC_OK;
}

sc_status sc_sample_new(sc_ctx *ctx, sc_sample **out, uint64_t seed,
                        unsigned size)
{
    *out = malloc(sizeof **out);
    if (!*out) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = sc_cpu_sample_init(ctx, *out, SC_SAMPLE_KEEP, seed, size);
    if (st != SC_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

void sc_sample_free(sc_sample *s)
{
    if (!s) return;
    sc_cpu_sample_free(s);
    free(s);
}

sc_status sc_sample_add(sc_ctx *ctx, sc_phase_times *times, sc_sample *s,
                        const void *in, uint64_t n, uint64_t first)
{
    return sc_cpu_sample_add(ctx, times, s, in, n, first);
}

sc_status sc_sample_bounds(sc_ctx *ctx, sc_phase_times *times, sc_sample *s,
                           unsigned parts, uint64_t *bounds, unsigned *nb)
{
    return sc_cpu_sample_bounds(ctx, times, s, parts, bounds, nb);
}
