/* chunk.h — one chunk of a stream and the work a streaming job does on
 * it: what the pipeline hands to a device, CPU or GPU alike.  Part of
 * core.h. */
#ifndef SC_CHUNK_H
#define SC_CHUNK_H

#include "core/core.h"

/* Whether the GPU's kernels take records of r's layout, their keys read
 * big-endian or not: records of 8 or 16 bytes in the host's order (the
 * others are the CPU's whatever the device). */
static inline int sc_record_on_gpu(const sc_record *r, int big_endian)
{
    return !big_endian && (r->size == 8 || r->size == 16);
}

typedef struct sc_chunk_work {
    sc_job_kind work;               /* GEN, COMPACT, SPLIT, SCAN or STAT */
    const sc_pred *pred;        /* COMPACT, SPLIT */
    /* COMPACT, SPLIT: records of this layout, keys in the host's order
     * (sc_record_on_gpu); NULL: elements of pred's type */
    const sc_record *rec;
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
