/* cpu.h — the CPU backend: every operation as an instance of the three
 * phases on the context's thread pool (phases.c), the table of them
 * (sc_cpu_backend), and the CPU-only operations (split by ranges, the
 * quantiles' sample).  Under it only core. */
#ifndef SC_CPU_H
#define SC_CPU_H

#include "core/core.h"

extern const sc_backend sc_cpu_backend;

/* The entries of sc_cpu_backend (core/backend.h); each adds its phases'
 * time to times (NULL: none).  Compaction and split take elements of
 * their predicate's type, 4 or 8 bytes. */
sc_status sc_cpu_compact(sc_ctx *ctx, sc_phase_times *times, const void *in,
                         uint64_t n, const sc_pred *pred, int out_kind,
                         uint64_t first_index, void *out, uint64_t *kept);
sc_status sc_cpu_split(sc_ctx *ctx, sc_phase_times *times, const void *in,
                       uint64_t n, const sc_pred *pred, void *sel, void *rej,
                       uint64_t *selected);
/* The same of records of rec's layout (NULL or size 0: elements), whose
 * key, pred's type, is read big-endian when asked; whole records move. */
sc_status sc_cpu_compact_records(sc_ctx *ctx, sc_phase_times *times,
                                 const void *in, uint64_t n,
                                 const sc_record *rec, int big_endian,
                                 const sc_pred *pred, int out_kind,
                                 uint64_t first_index, void *out,
                                 uint64_t *kept);
sc_status sc_cpu_split_records(sc_ctx *ctx, sc_phase_times *times,
                               const void *in, uint64_t n,
                               const sc_record *rec, int big_endian,
                               const sc_pred *pred, void *sel, void *rej,
                               uint64_t *selected);
/* The keys of in[0..n), records of rec's layout, read big-endian when
 * asked, into keys[0..n), elements of the key's type in the host's
 * order (cpu_keys.c); it cannot fail. */
void sc_cpu_gather_keys(sc_ctx *ctx, sc_phase_times *times, const void *in,
                        uint64_t n, const sc_record *rec, int big_endian,
                        void *keys);
/* Adds to counts[x] one for each x of keys[0..n), unsigned numbers of
 * ksize bytes (4 or 8), all below bins; *bad is then n, else the first
 * position of one that is not (counts are then partial).  sc_cpu_max_key:
 * the greatest of them (0 for none). */
sc_status sc_cpu_bincount(sc_ctx *ctx, sc_phase_times *times,
                          const void *keys, uint64_t n, unsigned ksize,
                          uint64_t bins, uint64_t *counts, uint64_t *bad);
uint64_t sc_cpu_max_key(sc_ctx *ctx, const void *keys, uint64_t n,
                        unsigned ksize);
/* in: elements of type, 4 or 8 bytes. */
sc_status sc_cpu_scan(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_scan_op op, int inclusive,
                      int wide, void *out, uint64_t *carry);
/* The fixed-order float sum (cpu_fsum.c; core.h's sc_fsum_state); out
 * NULL: the sum alone.  Scans in[0..n), elements of type (f32 or f64) at
 * stream positions first.., into floats (wide: doubles). */
void sc_cpu_fsum(const void *in, sc_type type, uint64_t n, uint64_t first,
                 int inclusive, int wide, void *out, sc_fsum_state *st);
/* Elements of any type by bits [lo_bit, hi_bit) of their ranks (sc_key,
 * sc_key64), hi_bit <= the type's width. */
sc_status sc_cpu_sort(sc_ctx *ctx, sc_phase_times *times, void *keys,
                      uint64_t n, sc_type type, unsigned lo_bit,
                      unsigned hi_bit, int descending);
sc_status sc_cpu_sort_ready(sc_ctx *ctx, sc_phase_times *times, void *keys,
                            uint64_t n, sc_type type, unsigned lo_bit,
                            unsigned hi_bit, int descending,
                            sc_ready_fn ready, void *arg);
/* Whether sc_cpu_sort_records sorts items of o whole, as words (8-byte
 * records with a 4-byte key in the host's order, gathered whole), rather
 * than ranking them and gathering by position. */
int sc_cpu_sorts_whole(const sc_elem_order *o, int keypos);
/* in[0..n), items of o (records, or elements), sorted stably by o's
 * rank and handed to ready in pieces, in order (cpu_rsort.c): what
 * keypos (core/elem_order.h's SC_GATHER_*) says, whole items, each
 * item's key and its position, base + its index (SC_KEYPOS_BYTES), or
 * the positions alone.  ready NULL: arg is an array for all n of them,
 * gathered into it at once (not in place: arg is not in). */
sc_status sc_cpu_sort_records(sc_ctx *ctx, sc_phase_times *times,
                              const void *in, uint64_t n,
                              const sc_elem_order *o, int keypos,
                              uint64_t base, sc_ready_fn ready, void *arg);
sc_status sc_cpu_gen(sc_ctx *ctx, sc_phase_times *times,
                     const sc_gen_plan *plan, uint64_t first_index,
                     void *out, uint64_t n);
/* Records of rec's layout (NULL or size 0: elements, as sc_cpu_gen),
 * each its key, the plan's element of its position, and that position in
 * its other words (cpu_gen.c); big_endian: every word big-endian. */
sc_status sc_cpu_gen_records(sc_ctx *ctx, sc_phase_times *times,
                             const sc_gen_plan *plan, const sc_record *rec,
                             int big_endian, uint64_t first_index, void *out,
                             uint64_t n);
/* Adds in[0..n), elements of type u32 or u64, to acc on the thread
 * pool. */
sc_status sc_cpu_stat(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_stat_acc *acc);

/* Stable split of in[0..n), elements of type, into nb + 1 parts: part
 * p holds the x with exactly p bounds at or below its rank (bounds are
 * ranks, sc_type_rank, and increase strictly).  out gets the parts one
 * after another, each in input order; counts[p] their sizes.  With rec
 * (not NULL, size not 0) in holds records cut by their key, of type,
 * read big-endian when asked, and moved whole. */
sc_status sc_cpu_ranges(sc_ctx *ctx, sc_phase_times *times, const void *in,
                        uint64_t n, const uint64_t *bounds, sc_type type,
                        const sc_record *rec, int big_endian, unsigned nb,
                        void *out, uint64_t *counts);

/* A uniform sample without replacement of a stream's elements, of fixed
 * size: the `keep` elements whose positions hash lowest (a bottom-k
 * sample).  The positions alone decide, so the sample is the same
 * whatever the chunks, threads or order of the calls; memory stays
 * about 1.5 * keep * 16 bytes whatever the stream's length. */
typedef struct sc_sample_item { uint64_t h, v; } sc_sample_item;
typedef struct sc_sample {
    sc_sample_item *items;
    unsigned size;          /* the elements' bytes: 4 or 8 */
    size_t len, cap, keep;
    uint64_t limit;         /* a hash above it can no longer be kept */
    uint64_t salt;
} sc_sample;

#define SC_SAMPLE_KEEP ((size_t)1 << 20)

sc_status sc_cpu_sample_init(sc_ctx *ctx, sc_sample *s, size_t keep,
                             uint64_t seed, unsigned size);
void sc_cpu_sample_free(sc_sample *s);
/* What ops.h's sc_sample_add and sc_sample_bounds say, on s in place.
 * The bounds are above the smallest value, and fewer where values
 * repeat. */
sc_status sc_cpu_sample_add(sc_ctx *ctx, sc_phase_times *times, sc_sample *s,
                            const void *in, uint64_t n, uint64_t first);
sc_status sc_cpu_sample_bounds(sc_ctx *ctx, sc_phase_times *times,
                               sc_sample *s, unsigned parts, uint64_t *bounds,
                               unsigned *nb);


#endif
