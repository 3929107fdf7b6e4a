/* sort_queue.cuh — sort.cu's onesweep sort of 8-byte keys as the other
 * kernel files queue it (sort_records.cu), not part of the C ABI. */
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

#endif
