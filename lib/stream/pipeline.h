/* pipeline.h — the chunk pipeline every streaming job runs on.
 *
 * A reader thread fills slots, the worker (the caller's thread) hands
 * each chunk to a device, and a writer thread emits the results in input
 * order; then the slot goes back to the reader.  So reading, computing
 * and writing overlap, and memory stays bounded by a few slots of a
 * chunk each (4, and 2 more per GPU past the first; with whole chunks per
 * thread, one more per thread) whatever the input length.
 *
 * Where the CPU takes every chunk of work whose chunks are independent,
 * or linked only by a carry (a scan), read from regular files or made
 * (sc-gen), threads take whole chunks instead: each reads its chunk and
 * processes it alone, while the data is in its core's cache, and the
 * writer puts them back in input order.
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

#include "io/io.h"
#include "stream/source.h"

/* What a slot brings the writer: a chunk, or the end of the stream (the
 * input's end, or a failure to read or process the chunk it stands in
 * for), which comes in input order like the chunks before it. */
typedef enum sc_slot_kind {
    SC_SLOT_CHUNK, SC_SLOT_END, SC_SLOT_READ_FAILED, SC_SLOT_WORK_FAILED
} sc_slot_kind;

typedef struct sc_slot {
    sc_chunk c;
    uint64_t seq;           /* input order */
    sc_slot_kind kind;
    sc_status status;       /* why the stream ends here */
    sc_claim claim;         /* workers: a read left to the slot's thread */
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
    size_t in_bytes_per_elem;       /* the input's elements: 4 or 8 */
    size_t out_bytes_per_elem;      /* 0: no output buffer */
    int need_aux;
    sc_chunk_work work;             /* what the GPU does with a chunk */
    int cpu_only;                   /* no GPU path: the CPU takes all */
    /* A chunk's result does not depend on the chunks before it (a scan's
     * does, through its carry): on the CPU, threads take whole chunks. */
    int independent;
    /* Or it depends on them only through a carry (a scan): threads take
     * whole chunks too, each reducing its own, then taking the carry
     * before it in turn and passing on combine(carry, its reduction)
     * before it processes the chunk.  NULL: no such carry. */
    uint64_t (*reduce)(void *op, const sc_slot *s);
    uint64_t (*combine)(void *op, uint64_t carry, uint64_t reduced);
} sc_stage_ops;

typedef struct sc_pipeline_cfg {
    sc_ctx *ctx;
    sc_source source;
    size_t chunk_elems;     /* of ops->in_bytes_per_elem bytes each */
    int chunk_fixed;        /* asked for (-c): the workers keep to it */
    const char *prog;
    int progress;
    uint64_t carry_in;      /* the first chunk's carry (scan) */
} sc_pipeline_cfg;

/* What a run did, for -v: elements in and out; chunks on each device;
 * where threads took whole chunks (workers.c), how many threads and the
 * chunk's bytes (0 when one chunk at a time); the time of each phase,
 * the pipeline's reads and writes and that of every operation the run
 * asks for (its process() passes `phases` on to them). */
typedef struct sc_pipeline_stats {
    uint64_t in, out;
    uint64_t chunks_cpu, chunks_gpu;
    unsigned chunk_workers;
    size_t worker_chunk_bytes;
    sc_phase_times phases;
} sc_pipeline_stats;

/* Runs the stream, counting into *stats, which the caller has zeroed
 * (its phases may hold the run's time before the stream already). */
sc_status sc_pipeline_run(const sc_pipeline_cfg *cfg, const sc_stage_ops *ops,
                          sc_pipeline_stats *stats);

#endif
