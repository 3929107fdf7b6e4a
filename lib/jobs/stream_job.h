/* stream_job.h — the streaming jobs (sc-gen, sc-compact, sc-split,
 * sc-scan): the state one carries from chunk to chunk, and what each kind
 * does with it, one small file per kind behind one table (gen_job.c,
 * compact_job.c, split_job.c, scan_job.c).  job.c runs any of them over
 * the pipeline, reading the job's inputs unless the kind has a source of
 * its own (sc-gen's positions). */
#ifndef SC_STREAM_JOB_H
#define SC_STREAM_JOB_H

#include <stdatomic.h>
#include "pipeline.h"
#include "spill.h"

typedef struct job_state {
    sc_ctx *ctx;
    const sc_job *job;
    sc_writer *out;
    sc_writer *rejects;         /* split -r */
    sc_spill *spill;            /* split without -r */
    uint64_t kept, rejected;
    uint64_t carry;             /* scan: the accumulator after the last chunk */
    sc_reader *reader;          /* the inputs, unless the kind has its own */
    sc_gen_plan plan;           /* gen */
    _Atomic uint64_t made;      /* gen: positions handed out */
} job_state;

typedef struct sc_job_type {
    sc_work work;
    int need_aux;               /* a buffer for split's rejects */
    /* Bytes per element of the output buffer, and whether the output's
     * elements are 64-bit. */
    size_t (*out_bytes)(const sc_job *j);
    int (*wide)(const sc_job *j);
    /* Outputs beyond the main one (split's rejects); NULL: none. */
    sc_status (*open_more)(job_state *js);
    /* What the GPU's lanes do with a chunk. */
    void (*describe)(const job_state *js, sc_chunk_work *w);
    /* Worker: a chunk on table b; writer: its results, in order. */
    sc_status (*process)(job_state *js, sc_slot *s, const sc_backend *b);
    sc_status (*emit)(job_state *js, sc_slot *s);
    /* The one-line figure of --count or --total into line; 0: none. */
    int (*figures)(const job_state *js, char *line, size_t len);
    /* Where the chunks come from; NULL: the job's inputs, read. */
    sc_status (*open_source)(job_state *js, sc_source *src);
    /* A chunk's reduction and the carry after it, for a kind whose chunks
     * need only the carry before them (scan); NULL for the others. */
    uint64_t (*reduce)(const job_state *js, const sc_slot *s);
    uint64_t (*combine)(const job_state *js, uint64_t carry, uint64_t reduced);
} sc_job_type;

extern const sc_job_type sc_gen_job, sc_compact_job, sc_split_job,
                         sc_scan_job;

/* Calls CALL on table b until it ran: the GPU hands a chunk to the CPU
 * when it is out of memory.  Needs `ctx` and `st` in scope. */
#define SC_ON(b, CALL) \
    do st = (b)->CALL; while (sc_backend_retry(ctx, &(b), st))

#endif
