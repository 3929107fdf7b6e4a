/* sort_queue.cuh — sort.cu's onesweep sorts of 8-byte keys and of keys
 * with values as the other kernel files queue them (sort_records.cu), not
 * part of the C ABI. */
#ifndef SC_SORT_QUEUE_CUH
#define SC_SORT_QUEUE_CUH

#include <stdint.h>
#include "sc_kernels.h"

/* Queues the stable sort of d_keys[0 .. n), n >= 2, on bits [lo_bit,
 * hi_bit) of their ranks under `key` (ranked: signed or float keys, made
 * and undone in the passes; else the keys are their own ranks),
 * descending or not, d_alt the other buffer, d_scratch of
 * scg_sort_scratch_type(n, SC_U64) bytes.  Where the keys end is known on
 * the device only: *d_result points at an int that is 1 once they are in
 * d_alt.  Nothing waits. */
int scg_queue_sort64(uint64_t *d_keys, uint64_t *d_alt, uint64_t n,
                     sc_key64 key, int ranked, unsigned lo_bit,
                     unsigned hi_bit, int descending, void *d_scratch,
                     int **d_result, scg_stream s);

/* The same sort of keys that are their own ranks (u64 or u32) with a
 * u32 value each (d_vals, d_valt the values' two buffers: they end in the
 * one that goes with the keys' buffer); d_scratch of
 * scg_sort_pairs_scratch(n) bytes. */
int scg_queue_pairs(uint64_t *d_keys, uint64_t *d_alt, uint32_t *d_vals,
                    uint32_t *d_valt, uint64_t n, unsigned lo_bit,
                    unsigned hi_bit, int descending, void *d_scratch,
                    int **d_result, scg_stream s);
int scg_queue_pairs(uint32_t *d_keys, uint32_t *d_alt, uint32_t *d_vals,
                    uint32_t *d_valt, uint64_t n, unsigned lo_bit,
                    unsigned hi_bit, int descending, void *d_scratch,
                    int **d_result, scg_stream s);

/* Queues the stable sort of n >= 2 16-byte records, each two u64 words,
 * key_word (0 or 1) the key, the other its value, from d_in to d_out
 * (distinct), the passes between going through d_a and d_b, each of 2n
 * words; d_b may be d_in, which is then lost.  key, ranked, lo_bit,
 * hi_bit, descending as scg_queue_sort64's. */
int scg_queue_record_pairs(const uint64_t *d_in, int key_word, uint64_t *d_out,
                           uint64_t *d_a, uint64_t *d_b, uint64_t n,
                           sc_key64 key, int ranked, unsigned lo_bit,
                           unsigned hi_bit, int descending, void *d_scratch,
                           scg_stream s);

/* Scratch for any of the sorts of pairs of n keys. */
size_t scg_sort_pairs_scratch(uint64_t n);

#endif
