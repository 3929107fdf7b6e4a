/* pipeline.h — the chunk pipeline every streaming job runs on.
 *
 * Three threads and a few slots: the reader fills a slot's input, the
 * worker (the caller's thread) runs the operation on it, the writer
 * thread emits its output; then the slot goes back to the reader.  So
 * reading, computing and writing overlap, and memory stays bounded by
 * SLOTS chunks whatever the input length.
 */
#ifndef SC_PIPELINE_H
#define SC_PIPELINE_H

#include "internal.h"

typedef struct sc_slot {
    uint32_t *in;
    size_t n;               /* input elements */
    uint64_t first;         /* stream position of in[0] */
    void *out;
    size_t n_out;
    uint32_t *aux;          /* split: the rejects */
    size_t n_aux;
} sc_slot;

typedef struct sc_stage_ops {
    sc_status (*process)(void *op, sc_slot *s);     /* worker thread */
    sc_status (*emit)(void *op, sc_slot *s);        /* writer thread */
    void *op;
    size_t out_bytes_per_elem;      /* 0: no output buffer */
    int need_aux;
} sc_stage_ops;

typedef struct sc_pipeline_cfg {
    sc_ctx *ctx;
    sc_reader *reader;      /* NULL: generate gen_total positions */
    uint64_t gen_total;
    size_t chunk_elems;
    const char *prog;
    int progress;
} sc_pipeline_cfg;

/* Elements in and out, for -v. */
typedef struct sc_pipeline_stats { uint64_t in, out; } sc_pipeline_stats;

sc_status sc_pipeline_run(const sc_pipeline_cfg *cfg, const sc_stage_ops *ops,
                          sc_pipeline_stats *stats);

#endif
