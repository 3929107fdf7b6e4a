/* chunk.h — one chunk of a stream and the work a streaming job does on
 * it: what the pipeline hands to a device, CPU or GPU alike.  Part of
 * core.h. */
#ifndef SC_CHUNK_H
#define SC_CHUNK_H

#include "core/core.h"

typedef struct sc_chunk_work {
    sc_job_kind work;               /* GEN, COMPACT, SPLIT, SCAN or STAT */
    const sc_pred *pred;        /* COMPACT, SPLIT */
    int out_kind;               /* COMPACT: sc_emit wanted */
    sc_scan_op op;              /* SCAN */
    int inclusive, wide;
    sc_type type;               /* SCAN: the elements' (sc_scan_ranks) */
    const sc_gen_plan *plan;    /* GEN */
    int figures_only;           /* only counts or the total are wanted */
} sc_chunk_work;

typedef struct sc_chunk {
    void *in;                   /* elements of the job's type; NULL for GEN */
    size_t n;                   /* elements in (GEN: to make) */
    uint64_t first;             /* stream position of in[0] */
    void *out;                  /* results: kept, selected, scanned, made */
    void *aux;                  /* SPLIT: the rejected */
    uint64_t n_sel;             /* COMPACT: kept; SPLIT: selected */
    int out_wide;               /* positions came 64-bit where 32 were asked */
    uint64_t carry_in, carry_out;   /* SCAN: the accumulator around it */
    sc_stat_acc *stat;          /* STAT, from the lanes: the chunk's figures */
} sc_chunk;

#endif
