/* sc_kernels.h — the C ABI between libsc's host code and its CUDA kernels.
 *
 * Host code in lib/ (plain C, built with gcc) calls these; they are defined
 * in the .cu files of kernels/ (built with nvcc).  All pointers named d_* are device
 * pointers.  Every function is asynchronous on the given stream and returns
 * a cudaError_t as int (0 = success); the launch itself is checked.
 * Scratch: device memory of at least the *_scratch(n) bytes, 256-aligned,
 * owned by the caller; it may be reused once the stream has passed the call.
 * Element counts are 64-bit: any n that fits in device memory works, with
 * no padding rule; tails are handled in the kernels.
 */
#ifndef SC_KERNELS_H
#define SC_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include "core/sc.h"
#include "core/sc_hd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CUstream_st *scg_stream;   /* == cudaStream_t */

/* Compaction.  out_kind (sc_emit, sc_hd.h) selects what is written for
 * each kept element. */
/* algo: SCG_ALGO_FUSED is the default, the fastest variant measured (a
 * fused single pass: per-tile count, decoupled look-back, move while on
 * chip); SCG_ALGO_THREE_PHASE the plain three phases (count, prefix, move),
 * the reference the fused pass is tested against. */
enum { SCG_ALGO_FUSED = 0, SCG_ALGO_THREE_PHASE = 1 };
/* What variant algo runs, in words; NULL when there is no such variant. */
const char *scg_select_variant(int algo);

/* Elements of compaction and split are of pred->type: 4 bytes (d_in
 * 4-byte aligned) or 8 (8-byte aligned; else cudaErrorMisalignedAddress).
 * The scratch of n uint32 elements; of n elements of any type. */
size_t scg_compact_scratch(uint64_t n);
size_t scg_select_scratch_type(uint64_t n, uint32_t type);
/* Writes the kept elements (or their positions first_index + i) to d_out in
 * input order and the number kept to *d_count. */
int scg_compact(const void *d_in, uint64_t n, const sc_pred *pred,
                int out_kind, uint64_t first_index, void *d_out,
                uint64_t *d_count, void *d_scratch, int algo, scg_stream s);

/* Stable split: selected to d_sel[0 .. k), rejected to d_rej[0 .. n-k),
 * each in input order; k to *d_selected. */
size_t scg_split_scratch(uint64_t n);
int scg_split(const void *d_in, uint64_t n, const sc_pred *pred,
              void *d_sel, void *d_rej, uint64_t *d_selected,
              void *d_scratch, scg_stream s);
/* The same with a chosen variant (algo as for scg_compact). */
int scg_split_algo(const void *d_in, uint64_t n, const sc_pred *pred,
                   void *d_sel, void *d_rej, uint64_t *d_selected,
                   void *d_scratch, int algo, scg_stream s);

/* Prefix scan of 8-byte elements of type `type` (u64, i64, f64 but
 * their sum, which the host adds in a fixed order), 64-bit outputs. */
int scg_scan64(const void *d_in, uint64_t n, uint32_t type, int op,
               int inclusive, const uint64_t *d_carry_in, void *d_out,
               uint64_t *d_carry_out, void *d_scratch, scg_stream s);

/* Compaction and split of n records of rec_size bytes, 8 or 16 (d_in
 * aligned to it; else cudaErrorMisalignedAddress), tested by a key of
 * pred->type at byte key_off, a multiple of the key's size, inside each;
 * cudaErrorInvalidValue for any other layout.  Records move whole;
 * positions are record positions.  Otherwise as scg_compact and
 * scg_split_algo, which they are with rec_size 0 (key_off then unused);
 * the scratch of n records of rec_size bytes. */
size_t scg_select_scratch_records(uint64_t n, uint32_t rec_size);
int scg_compact_records(const void *d_in, uint64_t n, uint32_t rec_size,
                        uint32_t key_off, const sc_pred *pred, int out_kind,
                        uint64_t first_index, void *d_out, uint64_t *d_count,
                        void *d_scratch, int algo, scg_stream s);
int scg_split_records(const void *d_in, uint64_t n, uint32_t rec_size,
                      uint32_t key_off, const sc_pred *pred, void *d_sel,
                      void *d_rej, uint64_t *d_selected, void *d_scratch,
                      int algo, scg_stream s);

/* What scg_scan runs, in words. */
const char *scg_scan_variant(void);
/* What the sort runs, in words (the bench prints it). */
const char *scg_sort_variant(void);

/* Prefix scan.  op: SC_OP_SUM / MAX / MIN / XOR.  The accumulator starts at
 * *d_carry_in (read on the device, so chunks can be queued back to back) and
 * its final value goes to *d_carry_out (may not alias d_carry_in).  Sum is
 * mod 2^32 unless wide; wide writes uint64 outputs (sum in 64 bits). */
size_t scg_scan_scratch(uint64_t n);
int scg_scan(const uint32_t *d_in, uint64_t n, int op, int inclusive,
             int wide, const uint64_t *d_carry_in, void *d_out,
             uint64_t *d_carry_out, void *d_scratch, scg_stream s);

/* The same for elements of any type (sc_scan_ranks; scan_typed.cu):
 * max and min keep the accumulator as a rank, the carries too; a 32-bit
 * type's d_in is ranked in place.  8-byte types go to scg_scan64 (wide
 * does not apply: their accumulator is 64-bit). */
int scg_scan_type(void *d_in, uint64_t n, uint32_t type, int op,
                  int inclusive, int wide, const uint64_t *d_carry_in,
                  void *d_out, uint64_t *d_carry_out, void *d_scratch,
                  scg_stream s);

/* *d_dst = sc_scan_carry(type, op, *d_src, unrank) (sc_hd.h): a carry
 * of the element's bits to the rank scg_scan_type keeps, or back; d_dst
 * may be d_src. */
int scg_scan_carry(const uint64_t *d_src, uint64_t *d_dst, uint32_t type,
                   int op, int unrank, scg_stream s);

/* Stable LSD radix sort of d_keys on bits [lo_bit, hi_bit), ascending or
 * descending; d_alt has room for n keys.  *result_is_alt (host) is set to
 * 1 when the sorted keys ended in d_alt, else 0.  Returns when the sort is
 * done: it synchronizes the stream to learn where the keys ended. */
size_t scg_sort_scratch(uint64_t n);
int scg_sort(uint32_t *d_keys, uint32_t *d_alt, uint64_t n, unsigned lo_bit,
             unsigned hi_bit, int descending, int *result_is_alt,
             void *d_scratch, scg_stream s);

/* The same for keys of any element type (sc_type): 4- or 8-byte ones,
 * bits [lo_bit, hi_bit) of the key's rank (sc_hd.h's sc_key, sc_key64;
 * hi_bit <= the type's width), the rank made and undone in the passes;
 * d_scratch of scg_sort_scratch_type(n, type) bytes. */
size_t scg_sort_scratch_type(uint64_t n, uint32_t type);
int scg_sort_type(void *d_keys, void *d_alt, uint64_t n, uint32_t type,
                  unsigned lo_bit, unsigned hi_bit, int descending,
                  int *result_is_alt, void *d_scratch, scg_stream s);

/* The same, stream-ordered: no wait; the sorted keys end in d_keys
 * (copied back from d_alt on the device where the passes left them
 * there). */
int scg_sort_keys(uint32_t *d_keys, uint32_t *d_alt, uint64_t n,
                  unsigned lo_bit, unsigned hi_bit, int descending,
                  void *d_scratch, scg_stream s);
int scg_sort_keys_type(void *d_keys, void *d_alt, uint64_t n, uint32_t type,
                       unsigned lo_bit, unsigned hi_bit, int descending,
                       void *d_scratch, scg_stream s);

/* Stable sort of n records of rec_size bytes (a multiple of 4, 4 ..
 * 4096; d_in 4-byte aligned) by a key of key_type at byte key_off (a
 * multiple of the key's size, inside the record), read big-endian where
 * asked, on bits [lo_bit, hi_bit) of the key's rank (sc_key, sc_key64;
 * hi_bit <= the key's width), ascending or descending, ties in input
 * order; cudaErrorInvalidValue for any other layout.  `gather` (as
 * elem_order.h's SC_GATHER_*) says what goes to d_out for each output
 * position: the record, 16 bytes of its key as stored (zero-padded to 8)
 * and its position base + i (d_out 16-byte aligned), or that position as
 * a u64 (8-byte aligned).  algo: SCG_RSORT_WORDS (rank << 32 | index
 * words sorted, then gathered; at most 2^32 records), SCG_RSORT_INDEX
 * (the key's rank and a u32 index sorted as pairs, then gathered; at
 * most 2^32 records), SCG_RSORT_DIRECT (8-byte records with a 4-byte
 * host-order key, as scg_sort_records_direct says, d_in and d_out 8-byte
 * aligned: sorted in place as u64 words, d_out the sort's other buffer),
 * SCG_RSORT_PAIRS (16-byte records with an 8-byte host-order key, as
 * scg_sort_records_pairs says, d_in and d_out 8-byte aligned: the key
 * and the other word sorted as pairs from d_in to d_out, d_in the
 * passes' second buffer), or SCG_RSORT_AUTO, the direct one wherever it
 * applies, else the pairs one wherever it applies, else the words'.  The
 * direct and pairs variants leave d_in sorted or reordered; the others
 * leave it as it was.  Waits for the stream, then *result_in_input says
 * where the result is: 1 in d_in (the direct variant, and the pairs one
 * for n < 2), 0 in d_out.  d_scratch: of scg_sort_records_scratch(n)
 * bytes. */
enum { SCG_GATHER_ITEMS = 0, SCG_GATHER_KEYPOS = 1, SCG_GATHER_POSITIONS = 2 };
enum { SCG_RSORT_AUTO = 0, SCG_RSORT_WORDS = 1, SCG_RSORT_DIRECT = 2,
       SCG_RSORT_PAIRS = 3, SCG_RSORT_INDEX = 4 };
size_t scg_sort_records_scratch(uint64_t n);
int scg_sort_records_direct(uint32_t rec_size, uint32_t key_off,
                            uint32_t key_type, int big_endian, int gather);
int scg_sort_records_pairs(uint32_t rec_size, uint32_t key_off,
                           uint32_t key_type, int big_endian, int gather);
/* What algo runs, in words; NULL for no such variant. */
const char *scg_sort_records_variant(int algo);
int scg_sort_records(void *d_in, uint64_t n, uint32_t rec_size,
                     uint32_t key_off, uint32_t key_type, int big_endian,
                     unsigned lo_bit, unsigned hi_bit, int descending,
                     int gather, uint64_t base, void *d_out,
                     int *result_in_input, void *d_scratch, int algo,
                     scg_stream s);
/* The same sort queued on s with nothing waited for (a stream-ordered
 * call, which a graph capture takes), the variant AUTO's, on the key's
 * every bit, the result in d_out always: d_in is read only, or d_out is
 * d_in for a sort in place (gather SCG_GATHER_ITEMS).  The direct
 * variant's layouts need d_in and d_out 8-byte aligned; at most 2^32
 * records.  d_scratch: of scg_queue_sort_records_scratch(n, ...,
 * in_place) bytes, more than scg_sort_records_scratch(n) for the copy of
 * the records that an in-place gather reads. */
size_t scg_queue_sort_records_scratch(uint64_t n, uint32_t rec_size,
                                      uint32_t key_off, uint32_t key_type,
                                      int big_endian, int gather,
                                      int in_place);
int scg_queue_sort_records(const void *d_in, uint64_t n, uint32_t rec_size,
                           uint32_t key_off, uint32_t key_type,
                           int big_endian, int descending, int gather,
                           uint64_t base, void *d_out, void *d_scratch,
                           scg_stream s);

/* d_out[k] = sc_gen_plan_element(plan, first_index + k). */
int scg_gen(const sc_gen_plan *plan, uint64_t first_index, uint32_t *d_out,
            uint64_t n, scg_stream s);

/* sc-stat's figures on the device (stat.cu): reset an accumulator, then
 * add any number of arrays to it, in any order; download it and merge it
 * into the host's sc_stat_acc.  The sum is exact in 128 bits (sum_hi
 * counts the carries out of sum); the sketch's registers are those of
 * sc_hd.h, a 32-bit word each so that atomicMax can merge them.  min and
 * max are those of 4-byte elements, min64 and max64 of 8-byte ones: the
 * width's own words, so that each width's atomics are of its size.  The
 * element count is the caller's: it is the n it passed. */
typedef struct scg_stat_acc {
    uint64_t sum, sum_hi, zeros;
    uint32_t min, max;
    uint32_t reg[SC_HLL_REGS];
    uint64_t min64, max64;
} scg_stat_acc;
int scg_stat_reset(scg_stat_acc *d_acc, scg_stream s);
/* Elements of `type`, d_in aligned to their size: their ranks (sc_type_rank)
 * are summed and compared, their sketch is of the ranks, and zeros counts
 * the elements that are zero (both zeros of a float).  An unsigned type is
 * its own rank: a u32 or u64 call on ranks made elsewhere figures them as
 * given. */
int scg_stat_type(const void *d_in, uint64_t n, uint32_t type,
                  scg_stat_acc *d_acc, scg_stream s);
/* scg_stat_type of u32 elements. */
int scg_stat(const uint32_t *d_in, uint64_t n, scg_stat_acc *d_acc,
             scg_stream s);
/* What sc_stat_type() reports of n elements of an integer type that an
 * accumulator took (one block, on the device): *d_out, sc_hd.h's
 * estimate of its sketch, the elements' min and max, the sum less the
 * ranks' bias. */
int scg_stat_figures(const scg_stat_acc *d_acc, uint64_t n, uint32_t type,
                     sc_stats_typed *d_out, scg_stream s);

#ifdef __cplusplus
}
#endif
#endif /* SC_KERNELS_H */
