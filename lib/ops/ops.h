/* ops.h — the ops layer: operations on arrays (sc.h's sc_compact,
 * sc_sort, ...) on the device the policy picks, the device policy itself
 * (policy.c: the only code that decides between the CPU and the GPU and
 * says why under -v), and the cost model behind "auto" (cost.c).  Under
 * it the backends (cpu/, cuda/), io and core; the stream and the jobs
 * reach the devices only through it. */
#ifndef SC_OPS_H
#define SC_OPS_H

#include <stdio.h>
#include "core/core.h"

/* A call with a missing pointer (or a value out of its range) is the
 * caller's mistake: say so rather than crash. Buffers may be NULL when n
 * is 0. */
#define BAD_ARGS(ctx, cond) BAD_CALL(ctx, __func__, cond)
/* The same for the call fn, whose body is shared. */
#define BAD_CALL(ctx, fn, cond)                                               \
    (!(ctx) ? SC_ERR_USAGE                                                    \
     : (cond) ? sc_fail((ctx), SC_ERR_USAGE, "%s: invalid argument", (fn))    \
     : SC_OK)

/* The checks that the host-array and the device-array calls share,
 * each SC_OK or SC_ERR_USAGE with the message set: a scan's operator
 * and `wide` for the type (ops.c); a sort's type and bits (ops.c); a
 * record layout, and pred's type against its key's when pred is given,
 * fn naming the call (ops_records.c). */
sc_status sc_scan_check(sc_ctx *ctx, sc_type type, sc_scan_op op, int wide);
sc_status sc_sort_check(sc_ctx *ctx, sc_type type, unsigned lo_bit,
                        unsigned hi_bit);
sc_status sc_record_check(sc_ctx *ctx, const char *fn, const sc_record *r,
                          const sc_pred *pred);

/* The device arrays' compaction (values, or positions for
 * SC_EMIT_IDX64) and split (op SC_DEV_SPLIT) of elements of pred's type
 * (r NULL) or of records of r's layout, which the caller has checked:
 * queued on q (async) or run and waited for, *count the count's device
 * word or its host one; fn names the public call (ops_dev.c). */
sc_status sc_dev_select(sc_ctx *ctx, const char *fn, sc_dev_op op,
                        const void *d_in, uint64_t n, const sc_record *r,
                        const sc_pred *pred, int out_kind, uint64_t first,
                        void *d_out, void *d_rej, uint64_t *count, int async,
                        const sc_dev_queue *q);

/* c, whose arguments the caller has checked, queued on q (async) or run
 * and waited for with *result holding a scan's carry-in and receiving
 * the count or the final carry (a uint64_t), or a stat's figures (an
 * sc_stats_typed); its arrays' alignment checked first (ops_dev.c). */
sc_status sc_dev_run(sc_ctx *ctx, const sc_dev_call *c, int async,
                     const sc_dev_queue *q, void *result);

/* The device policy (policy.c). */
/* The CPU's table, and the GPU's (NULL in a build without CUDA). */
const sc_backend *sc_ops_cpu(void);
const sc_backend *sc_ops_gpu(void);
/* The table for `bytes` of work w on this context: the CPU's for "cpu";
 * the GPU's for "cuda" (NULL, with the message set, when it cannot
 * start); for "auto", the GPU's when the cost model says it pays, waiting
 * for a start under way only when that pays too. */
const sc_backend *sc_backend_pick(sc_ctx *ctx, sc_job_kind w, uint64_t bytes);
/* Notes that b ran work (NULL: the GPU's lanes): the device -v names. */
void sc_backend_used(sc_ctx *ctx, const sc_backend *b);
/* After *b returned st: 1 when the GPU ran out of memory, with *b now the
 * CPU's table to run the same call again (the one place where the GPU
 * hands work to the CPU); else 0. */
int sc_backend_retry(sc_ctx *ctx, const sc_backend **b, sc_status st);
/* The GPU's table for sc_dev_*'s device arrays, started if need be;
 * NULL, with the message set, when there is none to be had. */
const sc_backend *sc_policy_device_arrays(sc_ctx *ctx);
/* Whether a stream's chunks of work w (known bytes in all, -1 unknown)
 * go to the GPU once it is ready; under "auto" the GPU is then started
 * in the background, and the CPU takes the chunks that come first. */
int sc_policy_stream_gpu(sc_ctx *ctx, sc_job_kind w, int64_t known);
/* A run begins: -v's why and note are then the run's own, not those of
 * an earlier run on the same context. */
void sc_policy_new_run(sc_ctx *ctx);
/* A stream that only the CPU can run (no GPU kernel takes its work): a
 * GPU asked for ("cuda") must still be there, before anything is
 * written (else its error); -v's note, under "cuda" or "auto", says that
 * the host's threads took every chunk. */
sc_status sc_policy_cpu_only(sc_ctx *ctx);
/* For a stream whose chunks go to the GPU, with chunks_on_cpu taken by
 * the CPU so far: whether the GPU takes the next one, the CPU takes it
 * while the GPU starts, or the GPU never will (under "cuda" with *st the
 * error; under "auto" with -v's note written and *st SC_OK). */
typedef enum sc_gpu_turn { SC_GPU_NOT_YET, SC_GPU_TAKE, SC_GPU_NEVER } sc_gpu_turn;
sc_gpu_turn sc_policy_gpu_turn(sc_ctx *ctx, uint64_t chunks_on_cpu,
                               sc_status *st);
/* A GPU that could not take a stream after all (st): under "auto" the
 * CPU goes on, -v's note says why, and SC_OK comes back; else st. */
sc_status sc_policy_gpu_lost(sc_ctx *ctx, sc_status st);
/* sc-rsort: starts the GPU in the background while the input is read,
 * under "auto", when a sort of `bytes` would pay for it with `share` of
 * its start still ahead; 1 when it asked for the start. */
int sc_policy_sort_early(sc_ctx *ctx, sc_job_kind w, int64_t bytes,
                         double share);
/* -v's lines on the device: which ran, how long it took to start, what
 * each GPU ran, why auto chose it, and any fallback. */
void sc_policy_report(const sc_ctx *ctx, const char *prog, FILE *f);


/* Whether `bytes` of work w (-1: size unknown) finish sooner on the GPU,
 * `eta` seconds from ready, than on the context's CPU threads.  `streaming`:
 * the CPU works on while the GPU starts, and hands over the rest.  The
 * estimate is written to why (may be NULL). */
int sc_cost_gpu_pays(const sc_ctx *ctx, sc_job_kind w, int64_t bytes, double eta,
                     int streaming, char *why, size_t why_len);
/* The cost model's own kind of work beside sc_job_kind's: a sort that the
 * CPU takes whole, integer keys in place (elements, or 8-byte records as
 * words); SC_JOB_SORT is any other (float keys, other records, argsorts). */
#define SC_COST_SORT_WHOLE ((sc_job_kind)SC_N_JOB_KINDS)
#define SC_N_COST_KINDS (SC_N_JOB_KINDS + 1)
/* The kind of a sort of elements of type t (o NULL), or of items of o
 * (of key type t) gathered as keypos says (SC_GATHER_*):
 * SC_COST_SORT_WHOLE or SC_JOB_SORT. */
sc_job_kind sc_sort_cost_kind(sc_type t, const sc_elem_order *o, int keypos);

/* The operations a run asks for take the run's phase times (core.h),
 * which they add to; NULL: not measured. */

/* sc_sort_type(), with ready() (if not NULL) given the sorted keys:
 * piece by piece while the rest is still sorting where the device can
 * (the CPU), else at the end (ops.c). */
sc_status sc_sort_ready(sc_ctx *ctx, sc_phase_times *times, void *keys,
                        uint64_t n, sc_type type, unsigned lo_bit,
                        unsigned hi_bit, int descending, sc_ready_fn ready,
                        void *arg);

/* The array layer's dispatch of the same (ops.c), and the figures
 * (ops_stat.c): elements of an unsigned type, u32 or u64 (the others'
 * ranks), on the device the policy picks. */
sc_status sc_stat_add(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_stat_acc *acc);

/* sc-stat of elements of a signed, float or 64-bit type: what it keeps
 * beyond the unsigned state, which takes their ranks (sc_key, sc_key64):
 * the zeros, and the float sum in its fixed order.  sc_stat_add_type()
 * counts x[0..n), elements of t->type at positions first.. of what is
 * looked at, in stream order, and leaves x ranked (ops_stat.c); the ranks
 * go to the device the policy picks (sc_stat_add), the float sum's fixed
 * order stays on the host's thread. */
typedef struct sc_stat_typed {
    sc_type type;
    uint64_t zeros;
    sc_fsum_state fsum;
} sc_stat_typed;
sc_status sc_stat_add_type(sc_ctx *ctx, sc_phase_times *times, void *x,
                           uint64_t n, uint64_t first, sc_stat_typed *t,
                           sc_stat_acc *acc);

/* Split into separate selected and rejected buffers, elements of pred's
 * type (sc_split()'s own step). */
sc_status sc_split_parts(sc_ctx *ctx, const void *in, uint64_t n,
                         const sc_pred *pred, void *sel, void *rej,
                         uint64_t *selected);

/* Bytes per chunk: the one asked for, or the device's default, but never
 * more than a known input needs (rounded up to 4 KiB). */
size_t sc_chunk_bytes(const sc_ctx *ctx, size_t asked, int64_t known,
                      sc_job_kind w);

/* st, or when st is SC_OK and the context asked for "cuda", whether its
 * GPU started: a job calls it before it commits its outputs, so that a
 * context started in the background (sc_ctx_new_background) fails a job
 * that never needed the GPU, such as one of empty input, as sc_ctx_new
 * would have failed it (ctx.c). */
sc_status sc_ctx_settle(sc_ctx *ctx, sc_status st);

/* The operations only the CPU has (cpu_only.c).  A split of in[0..n),
 * elements of type, by value into nb + 1 parts, part k holding
 * bounds[k-1] <= x < bounds[k], each in input order, one after another
 * into out, their sizes into counts; elements are compared as their
 * ranks (sc_type_rank), the bounds are ranks already.  With rec (not
 * NULL, size not 0): records cut by their key, of type, read big-endian
 * when asked, and moved whole. */
sc_status sc_split_ranges(sc_ctx *ctx, sc_phase_times *times, const void *in,
                          uint64_t n, const uint64_t *bounds, sc_type type,
                          const sc_record *rec, int big_endian, unsigned nb,
                          void *out, uint64_t *counts);
/* sc-gen of records of rec's layout (sc.h's sc_record), as the backend
 * table's gen does elements: the key, of the plan's type, made
 * big-endian when asked (cpu/cpu.h's sc_cpu_gen_records; cpu_only.c).
 * Compaction and split of records are the tables' compact_records and
 * split_records (core/backend.h); sc_op_compact_records and
 * sc_op_split_records run the CPU's, for sc.h's calls on host arrays. */
sc_status sc_op_compact_records(sc_ctx *ctx, sc_phase_times *times,
                                const void *in, uint64_t n,
                                const sc_record *rec, int big_endian,
                                const sc_pred *pred, int out_kind,
                                uint64_t first_index, void *out,
                                uint64_t *kept);
sc_status sc_op_split_records(sc_ctx *ctx, sc_phase_times *times,
                              const void *in, uint64_t n, const sc_record *rec,
                              int big_endian, const sc_pred *pred, void *sel,
                              void *rej, uint64_t *selected);
sc_status sc_gen_records(sc_ctx *ctx, sc_phase_times *times,
                         const sc_gen_plan *plan, const sc_record *rec,
                         int big_endian, uint64_t first_index, void *out,
                         uint64_t n);
/* sc-rsort of records, and argsort (--indices) of records or elements,
 * on the device the policy picks for a sort of n * o->size bytes (the
 * backend table's sort_records; more than 2^32 items: the CPU's). */
sc_status sc_op_sort_records(sc_ctx *ctx, sc_phase_times *times, const void *in,
                             uint64_t n, const sc_elem_order *o, int keypos,
                             uint64_t base, sc_ready_fn ready, void *arg);
/* sc-scan and sc-stat of records look at their keys: those of in[0..n),
 * records of rec's layout, read big-endian when asked, gathered into
 * keys[0..n), elements of the key's type (which cannot fail); and
 * sc-stat --bincount's
 * counts of keys[0..n), unsigned of ksize bytes, all below bins (*bad:
 * n, else the first position of one that is not), and their greatest
 * (cpu/cpu.h's sc_cpu_gather_keys, sc_cpu_bincount; cpu_only.c). */
void sc_gather_keys(sc_ctx *ctx, sc_phase_times *times, const void *in,
                    uint64_t n, const sc_record *rec, int big_endian,
                    void *keys);
sc_status sc_bincount_add(sc_ctx *ctx, sc_phase_times *times,
                          const void *keys, uint64_t n, unsigned ksize,
                          uint64_t bins, uint64_t *counts, uint64_t *bad);
uint64_t sc_max_key(sc_ctx *ctx, const void *keys, uint64_t n,
                    unsigned ksize);
/* The float sum scan of in[0..n) of type (f32 or f64), stream positions
 * first.. on, into elements of type (f32 with wide: doubles), from and
 * to *st (cpu_only.c). */
sc_status sc_fsum_scan(sc_ctx *ctx, sc_phase_times *times, const void *in,
                       uint64_t n, sc_type type, uint64_t first,
                       int inclusive, int wide, void *out, sc_fsum_state *st);
/* A uniform sample of a stream's elements, of fixed size, the same
 * whatever the chunks, threads or order of the calls (cpu/cpu.h); its
 * elements are unsigned numbers of `size` bytes (4 or 8): ranks. */
typedef struct sc_sample sc_sample;
sc_status sc_sample_new(sc_ctx *ctx, sc_sample **out, uint64_t seed,
                        unsigned size);
void sc_sample_free(sc_sample *s);
/* Adds in[0..n), the elements at stream positions first, first + 1, ... */
sc_status sc_sample_add(sc_ctx *ctx, sc_phase_times *times, sc_sample *s,
                        const void *in, uint64_t n, uint64_t first);
/* Bounds cutting the sampled values into `parts` parts of about equal
 * count (at most parts - 1, strictly increasing); their number in *nb. */
sc_status sc_sample_bounds(sc_ctx *ctx, sc_phase_times *times, sc_sample *s,
                           unsigned parts, uint64_t *bounds, unsigned *nb);

#endif
