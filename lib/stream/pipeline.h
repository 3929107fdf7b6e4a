/* pipeline.h — the chunk pipeline every streaming job runs on.
 *
 * A reader thread fills slots, the worker (the caller's thread) hands
 * each chunk to a device, and a writer thread emits the results in input
 * order; then the slot goes back to the reader.  So reading, computing
 * and writing overlap, and memory stays bounded by a few slots of a
 * chunk each (4, and 2 more per GPU past the first) whatever the input
 * length.
 *
 * The device is chosen chunk by chunk: the CPU (the job's process()) or
 * the GPU's lanes, which queue the chunk and let the writer collect it.
 * Under "auto" the GPU starts in the background when the cost model says
 * it pays, and the CPU takes the chunks that come before it is ready.
 * The pipeline knows no job kind: only the work's description, and the
 * source its chunks come from (source.h).
 */
#ifndef SC_PIPELINE_H
#define SC_PIPELINE_H

#include "backend.h"
#include "chunk.h"
#include "source.h"

typedef struct sc_slot {
    sc_chunk c;
    size_t n_out;           /* elements the emit wrote, for -v */
    int on_gpu;             /* queued on the lanes: the writer finishes it */
    int pinned;
} sc_slot;

typedef struct sc_stage_ops {
    /* Worker thread: the chunk on table b (the CPU's, or the GPU's
     * synchronous one when lanes could not be had). */
    sc_status (*process)(void *op, sc_slot *s, const sc_backend *b);
    /* Writer thread, in input order. */
    sc_status (*emit)(void *op, sc_slot *s);
    void *op;
    size_t out_bytes_per_elem;      /* 0: no output buffer */
    int need_aux;
    sc_chunk_work work;             /* what the GPU does with a chunk */
    int cpu_only;                   /* no GPU path: the CPU takes all */
} sc_stage_ops;

typedef struct sc_pipeline_cfg {
    sc_ctx *ctx;
    sc_source source;
    size_t chunk_elems;
    const char *prog;
    int progress;
    uint64_t carry_in;      /* the first chunk's carry (scan) */
} sc_pipeline_cfg;

/* Elements in and out, for -v. */
typedef struct sc_pipeline_stats { uint64_t in, out; } sc_pipeline_stats;

sc_status sc_pipeline_run(const sc_pipeline_cfg *cfg, const sc_stage_ops *ops,
                          sc_pipeline_stats *stats);

#endif
