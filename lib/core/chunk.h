/* chunk.h — one chunk of a stream and the work a streaming job does on
 * it: what the pipeline hands to a device, CPU or GPU alike.  Part of
 * core.h. */
#ifndef SC_CHUNK_H
#define SC_CHUNK_H

#include "core/core.h"

/* Whether the GPU's compaction and split take records of r's layout:
 * every layout sc_record_check admits (a multiple of 4 bytes, 4 ..
 * 4096, the key inside on its own size's boundary), keys in either byte
 * order.  The agent reads those of 4, 8 and 16 bytes with host-order
 * keys directly; the others go through an array of their keys and a
 * gather (kernels/select_keyed.cuh). */
static inline int sc_record_on_gpu(const sc_record *r)
{
    uint32_t ks = (uint32_t)sc_type_size(r->key_type);
    return r->size >= 4 && r->size <= 4096 && r->size % 4 == 0 &&
           ks && r->key_off % ks == 0 && r->key_off + ks <= r->size;
}

/* The layouts the device-array calls (sc_dev.h) take: 8- and 16-byte
 * records in the host's order, which need no scratch beyond what
 * sc_dev_temp() tells for elements. */
static inline int sc_record_on_dev_arrays(const sc_record *r)
{
    return r->size == 8 || r->size == 16;
}

typedef struct sc_chunk_work {
    sc_job_kind work;               /* GEN, COMPACT, SPLIT, SCAN or STAT */
    const sc_pred *pred;        /* COMPACT, SPLIT */
    /* COMPACT, SPLIT: records of this layout (sc_record_on_gpu), their
     * keys big-endian where rec_big_endian; NULL: elements of pred's
     * type */
    const sc_record *rec;
    int rec_big_endian;
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
