/* backend.h — what a device provides: the operations on host arrays and,
 * where the device has memory of its own, on device arrays.  Part of
 * core.h: the CPU (cpu/) and the GPU (cuda/) each fill one table, and
 * the device policy (ops/policy.c) picks one per call.  Entries return
 * SC_ERR_NOMEM when the device lacks memory for the call, which sends
 * the call to the CPU's table.  The entries that a run calls add the time
 * of each phase to the run's `times` (core.h; NULL: not measured). */
#ifndef SC_BACKEND_H
#define SC_BACKEND_H

#include "core/core.h"

typedef struct sc_lanes sc_lanes;

/* One call on the caller's device arrays (ops_dev.c): the work (GEN;
 * COMPACT and SPLIT of elements or of records, w.rec; SCAN, SORT and STAT
 * of w.type's elements, SORT with its bits; SORT_RECORDS and
 * ARGSORT_RECORDS of w.rec's records), the arrays, and the device words
 * of a stream-ordered call. */
typedef struct sc_dev_call {
    sc_dev_op op;
    sc_chunk_work w;
    uint64_t n, first;
    const void *in;             /* SORT: the keys, sorted in place */
    void *out;                  /* STAT: the figures, an sc_stats_typed;
                                 * SORT_RECORDS: in for a sort in place */
    void *rej;                  /* SPLIT */
    unsigned lo_bit, hi_bit;    /* SORT */
    int descending;
    const uint64_t *d_carry_in; /* SCAN; NULL: the op's identity */
    uint64_t *d_result;         /* the count, or the final carry */
} sc_dev_call;

typedef struct sc_backend {
    const char *name;
    /* compact() writes 32-bit positions itself (SC_EMIT_IDX32); else a
     * caller asks for 64-bit ones and narrows them. */
    int emits_idx32;
    /* compact() and split() and their records' forms count alone, moving
     * nothing, where out (split: sel and rej) is NULL. */
    int counts_alone;
    /* Elements (in, out's values, sel, rej) of pred's type, 4 or 8
     * bytes. */
    sc_status (*compact)(sc_ctx *ctx, sc_phase_times *times, const void *in,
                         uint64_t n, const sc_pred *pred, int out_kind,
                         uint64_t first_index, void *out, uint64_t *kept);
    sc_status (*split)(sc_ctx *ctx, sc_phase_times *times, const void *in,
                       uint64_t n, const sc_pred *pred, void *sel, void *rej,
                       uint64_t *selected);
    /* The same of records of rec's layout, whose key (pred's type) is
     * read big-endian when asked; whole records move.  The GPU's table
     * takes the layouts of sc_record_on_gpu only (the jobs send the
     * others to the CPU's). */
    sc_status (*compact_records)(sc_ctx *ctx, sc_phase_times *times,
                                 const void *in, uint64_t n,
                                 const sc_record *rec, int big_endian,
                                 const sc_pred *pred, int out_kind,
                                 uint64_t first_index, void *out,
                                 uint64_t *kept);
    sc_status (*split_records)(sc_ctx *ctx, sc_phase_times *times,
                               const void *in, uint64_t n,
                               const sc_record *rec, int big_endian,
                               const sc_pred *pred, void *sel, void *rej,
                               uint64_t *selected);
    sc_status (*scan)(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_scan_op op, int inclusive,
                      int wide, void *out, uint64_t *carry);
    /* Elements of any type, by bits [lo_bit, hi_bit) of their ranks
     * (sc_key, sc_key64), which it makes and undoes itself. */
    sc_status (*sort)(sc_ctx *ctx, sc_phase_times *times, void *keys,
                      uint64_t n, sc_type type, unsigned lo_bit,
                      unsigned hi_bit, int descending);
    /* The same, handing sorted pieces on as they become final; NULL
     * where the device only has the whole result at the end. */
    sc_status (*sort_ready)(sc_ctx *ctx, sc_phase_times *times, void *keys,
                            uint64_t n, sc_type type, unsigned lo_bit,
                            unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg);
    /* sc-rsort of records, and argsort (--indices) of records or
     * elements: n items of o's layout, ordered by o's key, gathered as
     * keypos says (SC_GATHER_*, positions counted from base), handed to
     * ready piece by piece, or with ready NULL written to the array arg
     * (not in).  The GPU's takes at most 2^32 items (ops.c sends more to
     * the CPU's). */
    sc_status (*sort_records)(sc_ctx *ctx, sc_phase_times *times,
                              const void *in, uint64_t n,
                              const sc_elem_order *o, int keypos,
                              uint64_t base, sc_ready_fn ready, void *arg);
    /* out: elements of the plan's type; the GPU's table makes 32-bit
     * ones only (sc_gen() sends 64-bit ones to the CPU's). */
    sc_status (*gen)(sc_ctx *ctx, sc_phase_times *times,
                     const sc_gen_plan *plan, uint64_t first_index,
                     void *out, uint64_t n);
    /* Adds in[0..n)'s figures to acc, which is left as it was on failure
     * (so that the CPU may take the same call again): elements of an
     * unsigned type, u32 or u64 (the ranks of the others). */
    sc_status (*stat)(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_stat_acc *acc);
    /* Device arrays, which only the library's user calls, unmeasured;
     * NULL for a device whose memory is the host's.  dev_queue queues c
     * on q's stream and returns; dev_block runs it on the default
     * stream with the context's scratch and waits once, result (a
     * uint64_t) holding SCAN's carry-in and receiving the count or the
     * final carry, or for STAT receiving the sc_stats_typed (d_carry_in,
     * d_result and out are not used).  dev_temp: the scratch c needs,
     * from its op, n, w.type and w.rec (and SORT_RECORDS in place or
     * not), not its arrays. */
    sc_status (*dev_queue)(sc_ctx *ctx, const sc_dev_call *c,
                           const sc_dev_queue *q);
    sc_status (*dev_block)(sc_ctx *ctx, const sc_dev_call *c, void *result);
    sc_status (*dev_sync)(sc_ctx *ctx, void *stream);
    size_t (*dev_temp)(const sc_dev_call *c);
    /* The device's side of the chunk pipeline: lanes that queue chunks
     * and finish them later (the GPU's, cuda.h); NULL for the CPU, whose
     * side is the pipeline's own threads.  Host buffers the lanes use are
     * pinned first. */
    sc_status (*lanes_open)(sc_ctx *ctx, sc_phase_times *times,
                            sc_lanes **out, unsigned count, size_t elems,
                            const sc_chunk_work *w);
    sc_status (*lanes_submit)(sc_lanes *l, unsigned i, sc_chunk *c,
                              int chain);
    sc_status (*lanes_finish)(sc_lanes *l, unsigned i, sc_chunk *c);
    void (*lanes_close)(sc_lanes *l);
    int (*pin)(sc_ctx *ctx, void *p, size_t bytes);
    void (*unpin)(sc_ctx *ctx, void *p);
} sc_backend;

#endif
