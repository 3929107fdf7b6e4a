/* sc_dev.h — libsc's calls on arrays in GPU memory, stream-ordered and
 * blocking.  A program includes sc.h, which includes this after the
 * types these calls take. */
#ifndef SC_DEV_H
#define SC_DEV_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Device arrays (CUDA builds with a CUDA context only; SC_ERR_NODEVICE  */
/* otherwise).  Compaction and split take the predicate's type, or      */
/* records of 8 and 16 bytes; stat takes the integer types; scans and   */
/* sorts take every sc_type (the _type calls; those without take        */
/* uint32), but for float sums, which run on host arrays only           */
/* (sc_scan_type); the record sort and argsort take every sc_record     */
/* layout.  Each array is aligned to its elements, or to its records'   */
/* size or 16 bytes where that is less (the largest power of 2 that     */
/* divides the size, up to 16), positions to 8 (SC_ERR_USAGE            */
/* otherwise).                                                          */

/* Stream-ordered calls: each queues its work on the caller's CUDA
 * stream and returns without waiting for the GPU, so that it runs
 * between the caller's own kernels and can be captured in a CUDA graph.
 * Counts and carries are 64-bit words in device memory (a scan of a
 * 32-bit type that is not wide keeps its carries' low 32 bits); output
 * past the count is left as it was.  temp is device scratch of at least
 * sc_dev_temp_bytes_type(op, n, type) bytes (a record sort's:
 * sc_dev_temp_bytes_records(op, n, r)), aligned to 256
 * (cudaMalloc's are), owned by the call's work until it is done on the
 * stream (one temp of the largest size serves a chain of calls on one
 * stream); calls with
 * temps of their own may come from several host threads on several
 * streams at once.  With temp NULL, the context keeps one scratch for all
 * such calls: they must then run one after another (one stream, say),
 * and growing it waits for the device (no graph capture).  q NULL is the
 * default stream and that scratch.  An error found when queuing is
 * returned at once (arguments and the scratch are checked before anything
 * is queued; a launch that fails may follow work of the call's that was
 * queued); one that only the GPU finds (a bad pointer, say) is returned
 * by a later call or by sc_dev_sync(). */
typedef struct sc_dev_queue {
    void *stream;       /* a cudaStream_t; NULL: the default stream */
    void *temp;         /* device scratch, or NULL: the context's */
    size_t temp_bytes;
} sc_dev_queue;
typedef enum sc_dev_op {
    SC_DEV_COMPACT,     /* sc_dev_compact*, sc_dev_indices* */
    SC_DEV_SPLIT,       /* sc_dev_split* */
    SC_DEV_SCAN,
    SC_DEV_SORT,
    SC_DEV_GEN,
    SC_DEV_STAT,
    SC_DEV_SORT_RECORDS,    /* sc_dev_sort_records* */
    SC_DEV_ARGSORT_RECORDS  /* sc_dev_argsort_records* */
} sc_dev_op;
/* Bytes of temp that op needs on n elements of type (0 in a build
 * without CUDA): SC_DEV_SCAN and SC_DEV_SORT need more for 8-byte types
 * than for 4-byte ones, and a scan of i32 or f32 room for a copy of its
 * input; compaction and split need the same for every type and record,
 * and a stat the same for every type and n (its accumulator and
 * figures).  sc_dev_temp_bytes is the same for uint32.  The record
 * sorts' on elements of type are those of records of its size keyed by
 * the whole; sc_dev_temp_bytes_records gives them for r's layout (and the
 * other ops' for its key's type; 0 for no valid layout):
 * SC_DEV_ARGSORT_RECORDS 16 bytes a record and the radix sort's own,
 * which serves a sort to d_out too; SC_DEV_SORT_RECORDS, a sort in place,
 * as much again as the records for the copy that the gather reads (but
 * for 8-byte records with a u32 or i32 key, or an f32 one at 4, which
 * are sorted whole). */
size_t sc_dev_temp_bytes_type(sc_dev_op op, uint64_t n, sc_type type);
size_t sc_dev_temp_bytes(sc_dev_op op, uint64_t n);
size_t sc_dev_temp_bytes_records(sc_dev_op op, uint64_t n,
                                 const sc_record *r);

/* Compaction and split take elements of the predicate's type, 4 or 8
 * bytes, d_in aligned to them.  The kept elements to d_out[0, k), in
 * order; k to *d_kept. */
sc_status sc_dev_compact_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_pred *pred, void *d_out,
                               uint64_t *d_kept, const sc_dev_queue *q);
/* The positions first_index + i of the kept elements, as uint64. */
sc_status sc_dev_indices_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_pred *pred, uint64_t first_index,
                               uint64_t *d_pos, uint64_t *d_kept,
                               const sc_dev_queue *q);
/* Stable split: the passing elements to d_sel, the others to d_rej,
 * each in order; how many passed to *d_selected. */
sc_status sc_dev_split_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                             const sc_pred *pred, void *d_sel, void *d_rej,
                             uint64_t *d_selected, const sc_dev_queue *q);
/* Records (sc_record) of 8 or 16 bytes whose key is in the host's byte
 * order, tested by pred of the key's type; other layouts are
 * SC_ERR_USAGE here (sc_compact_records and the like take them on host
 * arrays).  Whole records move, as sc_compact_records moves them; d_in,
 * d_out, d_sel and d_rej are aligned to the record's size and must not
 * overlap.  Positions are those of records, as uint64.  A stable split,
 * as sc_dev_split: the passing records to d_sel, the others to d_rej. */
sc_status sc_dev_compact_records_async(sc_ctx *ctx, const void *d_in,
                                       uint64_t n, const sc_record *r,
                                       const sc_pred *pred, void *d_out,
                                       uint64_t *d_kept,
                                       const sc_dev_queue *q);
sc_status sc_dev_compact_records_indices_async(sc_ctx *ctx, const void *d_in,
                                               uint64_t n, const sc_record *r,
                                               const sc_pred *pred,
                                               uint64_t first_index,
                                               uint64_t *d_pos,
                                               uint64_t *d_kept,
                                               const sc_dev_queue *q);
sc_status sc_dev_split_records_async(sc_ctx *ctx, const void *d_in,
                                     uint64_t n, const sc_record *r,
                                     const sc_pred *pred, void *d_sel,
                                     void *d_rej, uint64_t *d_selected,
                                     const sc_dev_queue *q);
/* Prefix scan of n elements of type, as sc_scan_type: the same
 * operators, `wide` for 32-bit types, the same outputs and carries, the
 * carries as 64-bit words in device memory (the element's bits, or with
 * `wide` a sum's or xor's in the 64-bit type); but float sums are
 * SC_ERR_USAGE (their fixed order is the host's).  From *d_carry_in
 * (NULL: op's identity) to d_out; the final accumulator to *d_carry_out,
 * which must not be d_carry_in (NULL: not written).  d_in may be d_out
 * unless wide; it is read only. */
sc_status sc_dev_scan_type_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                                 sc_type type, sc_scan_op op, int inclusive,
                                 int wide, const uint64_t *d_carry_in,
                                 void *d_out, uint64_t *d_carry_out,
                                 const sc_dev_queue *q);
/* The same of uint32 (d_out uint64 when wide). */
sc_status sc_dev_scan_async(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                            sc_scan_op op, int inclusive, int wide,
                            const uint64_t *d_carry_in, void *d_out,
                            uint64_t *d_carry_out, const sc_dev_queue *q);
/* Stable LSD radix sort of d_keys in place, n elements of type, as
 * sc_sort_type: on bits [lo_bit, hi_bit) of their ranks (hi_bit at most
 * the type's width; signed integers by value, floats by totalOrder). */
sc_status sc_dev_sort_type_async(sc_ctx *ctx, void *d_keys, uint64_t n,
                                 sc_type type, unsigned lo_bit,
                                 unsigned hi_bit, int descending,
                                 const sc_dev_queue *q);
sc_status sc_dev_sort_async(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                            unsigned lo_bit, unsigned hi_bit, int descending,
                            const sc_dev_queue *q);
/* Stable sort of n records of r's layout (every one sc_sort_records
 * takes: 4 to SC_RECORD_MAX bytes, a key of any type at any offset, in
 * the host's byte order) by the key, as sc_sort_records: ascending (floats
 * by totalOrder) or descending, equal keys in their order.  In place
 * (d_out NULL), or to d_out (room for n records, not overlapping d_recs,
 * which is then left as it was).  At most 2^32 records (SC_ERR_USAGE
 * past that). */
sc_status sc_dev_sort_records_async(sc_ctx *ctx, void *d_recs, uint64_t n,
                                    const sc_record *r, int descending,
                                    void *d_out, const sc_dev_queue *q);
/* Argsort, as sc_argsort_records: d_idx[k] (room for n uint64, not
 * overlapping d_recs) is the position in d_recs of the record that
 * sc_dev_sort_records puts at k; d_recs is read only. */
sc_status sc_dev_argsort_records_async(sc_ctx *ctx, const void *d_recs,
                                       uint64_t n, const sc_record *r,
                                       int descending, uint64_t *d_idx,
                                       const sc_dev_queue *q);
/* d_out[k] = element first_index + k, as sc_gen() makes it; 32-bit
 * types only (SC_ERR_USAGE for the others, which sc_gen() makes). */
sc_status sc_dev_gen_async(sc_ctx *ctx, const sc_gen_params *g,
                           uint64_t first_index, uint32_t *d_out, uint64_t n,
                           const sc_dev_queue *q);
/* sc_stat_type()'s figures of d_in[0..n), elements of an integer type
 * (u32, i32, u64, i64; SC_ERR_USAGE for the float types, whose sum's
 * fixed order is sc_stat_type()'s on the host), aligned to their size,
 * into *d_figs in device memory: the same bytes as sc_stat_type() gives
 * on the host. */
sc_status sc_dev_stat_async(sc_ctx *ctx, const void *d_in, uint64_t n,
                            sc_type type, sc_stats_typed *d_figs,
                            const sc_dev_queue *q);
/* Waits for the work queued on stream (NULL: the default stream): SC_OK,
 * or the fault the GPU found. */
sc_status sc_dev_sync(sc_ctx *ctx, void *stream);

/* Blocking calls: the same work on the default stream (the legacy one,
 * so that it follows the caller's copies and kernels there) with the
 * context's scratch, waited for once; counts and carries on the host. */
sc_status sc_dev_compact(sc_ctx *ctx, const void *d_in, uint64_t n,
                         const sc_pred *pred, void *d_out, uint64_t *kept);
sc_status sc_dev_indices(sc_ctx *ctx, const void *d_in, uint64_t n,
                         const sc_pred *pred, uint64_t first_index,
                         uint64_t *d_pos, uint64_t *kept);
sc_status sc_dev_split(sc_ctx *ctx, const void *d_in, uint64_t n,
                       const sc_pred *pred, void *d_sel, void *d_rej,
                       uint64_t *selected);
sc_status sc_dev_compact_records(sc_ctx *ctx, const void *d_in, uint64_t n,
                                 const sc_record *r, const sc_pred *pred,
                                 void *d_out, uint64_t *kept);
sc_status sc_dev_compact_records_indices(sc_ctx *ctx, const void *d_in,
                                         uint64_t n, const sc_record *r,
                                         const sc_pred *pred,
                                         uint64_t first_index,
                                         uint64_t *d_pos, uint64_t *kept);
sc_status sc_dev_split_records(sc_ctx *ctx, const void *d_in, uint64_t n,
                               const sc_record *r, const sc_pred *pred,
                               void *d_sel, void *d_rej, uint64_t *selected);
/* *carry holds the carry-in and receives the final accumulator. */
sc_status sc_dev_scan_type(sc_ctx *ctx, const void *d_in, uint64_t n,
                           sc_type type, sc_scan_op op, int inclusive,
                           int wide, void *d_out, uint64_t *carry);
sc_status sc_dev_scan(sc_ctx *ctx, const uint32_t *d_in, uint64_t n,
                      sc_scan_op op, int inclusive, int wide, void *d_out,
                      uint64_t *carry);
sc_status sc_dev_sort_type(sc_ctx *ctx, void *d_keys, uint64_t n,
                           sc_type type, unsigned lo_bit, unsigned hi_bit,
                           int descending);
sc_status sc_dev_sort(sc_ctx *ctx, uint32_t *d_keys, uint64_t n,
                      unsigned lo_bit, unsigned hi_bit, int descending);
sc_status sc_dev_sort_records(sc_ctx *ctx, void *d_recs, uint64_t n,
                              const sc_record *r, int descending,
                              void *d_out);
sc_status sc_dev_argsort_records(sc_ctx *ctx, const void *d_recs, uint64_t n,
                                 const sc_record *r, int descending,
                                 uint64_t *d_idx);
sc_status sc_dev_gen(sc_ctx *ctx, const sc_gen_params *g,
                     uint64_t first_index, uint32_t *d_out, uint64_t n);
/* The figures to *figs on the host. */
sc_status sc_dev_stat(sc_ctx *ctx, const void *d_in, uint64_t n,
                      sc_type type, sc_stats_typed *figs);

#ifdef __cplusplus
}
#endif
#endif /* SC_DEV_H */
