/* stream_job.h — the streaming jobs (sc-gen, sc-compact, sc-split,
 * sc-scan, sc-stat, sc-split --ranges): the state one carries from chunk
 * to chunk, and what each kind does with it, one small file per kind
 * (gen_job.c, compact_job.c, split_job.c, scan_job.c, stat.c,
 * ranges_job.c).  runner.c runs any of them over the pipeline, reading
 * the job's inputs unless the kind has a source of its own (sc-gen's
 * positions). */
#ifndef SC_STREAM_JOB_H
#define SC_STREAM_JOB_H

#include <stdatomic.h>
#include "stream/stream.h"
#include "jobs/jobs.h"
#include "jobs/spill.h"

typedef struct job_state {
    sc_ctx *ctx;
    const sc_job *job;
    /* The run's phase times (its result's), for every operation it asks
     * for. */
    sc_phase_times *times;
    sc_writer *out;
    sc_writer *rejects;         /* split -r */
    sc_spill *spill;            /* split without -r */
    uint64_t kept, rejected;
    uint64_t carry;             /* scan: the accumulator after the last chunk */
    sc_fsum_state fsum;         /* float sum scan: where it stands */
    int fsum_started;
    sc_reader *reader;          /* the inputs, unless the kind has its own */
    sc_gen_plan plan;           /* gen */
    _Atomic uint64_t made;      /* gen: positions handed out */
    void *own;                  /* the state of a kind with its own (stat) */
    /* Elements in and out for -v when a kind counts them itself (read
     * without the pipeline, or given out other than by emit). */
    uint64_t in_alone, out_alone;
    int counted_alone;
    int source_open;            /* the outputs and the source opened */
} job_state;

/* A kind of streaming job: what each chunk becomes.  The runner
 * (runner.c) opens the outputs and the source, runs the pipeline with
 * process() and emit(), and finishes; a kind with outputs or an ending of
 * its own (sc-stat's report, --ranges' parts) says so with open() and
 * finish().  Every function takes the job's state (a job_state) as op. */
typedef struct sc_job_type {
    sc_job_kind work;
    int need_aux;               /* a buffer for split's rejects */
    /* The carry the first chunk starts from; NULL: the job's carry_in. */
    uint64_t (*first_carry)(const sc_job *j);
    /* Bytes per element of the output buffer, and whether the output's
     * elements are 64-bit. */
    size_t (*out_bytes)(const sc_job *j);
    int (*wide)(const sc_job *j);
    /* Outputs beyond the main one (split's rejects); NULL: none. */
    sc_status (*open_more)(job_state *js);
    /* What the GPU's lanes do with a chunk. */
    void (*describe)(const job_state *js, sc_chunk_work *w);
    /* Worker: a chunk on table b; writer: its results, in order. */
    sc_status (*process)(void *op, sc_slot *s, const sc_backend *b);
    sc_status (*emit)(void *op, sc_slot *s);
    /* The one-line figure of --count or --total into line; 0: none. */
    int (*figures)(const job_state *js, char *line, size_t len);
    /* Where the chunks come from; NULL: the job's inputs, read. */
    sc_status (*open_source)(job_state *js, sc_source *src);
    /* A chunk's reduction and the carry after it, for a kind whose chunks
     * need only the carry before them (scan); NULL for the others. */
    uint64_t (*reduce)(void *op, const sc_slot *s);
    uint64_t (*combine)(void *op, uint64_t carry, uint64_t reduced);
    /* The job's options and outputs, checked before anything is opened;
     * NULL: the outputs alone (sc_check_outputs). */
    sc_status (*check)(sc_ctx *ctx, const sc_job *j);
    /* The outputs and the kind's own state; NULL: the main output, then
     * open_more(). */
    sc_status (*open)(job_state *js);
    /* Whether the CPU takes every chunk; and whether one worker takes
     * them one after another, in stream order (the kind's state is not
     * for several threads at once). */
    int (*cpu_only)(const job_state *js);
    int in_order;
    /* process() sends a chunk it takes on the worker thread to the
     * device itself (through the ops layer, which picks one by the
     * policy), so that a job whose chunks stay on the worker (cpu_only)
     * is not the CPU's alone: -v says no more than the devices that ran,
     * and auto weighs the stream, as for the pipeline's chunks, to start
     * the GPU or not (stat). */
    int worker_device;
    /* Records are looked at through their keys alone (scan, stat): each
     * chunk's are gathered into its aux buffer by sc_job_keys(). */
    int keys;
    /* Elements written after the chunks' (sc-scan --offsets' total), even
     * after a fault in the data; NULL: none. */
    sc_status (*last)(job_state *js);
    /* 1 when the kind read its input itself, without the pipeline (its
     * status in *st); NULL or 0: the pipeline runs. */
    int (*alone)(job_state *js, sc_status *st);
    /* Everything after the chunks, the outputs' commit included; NULL:
     * held rejects, the figures, the commit of out and rejects. */
    sc_status (*finish)(job_state *js, sc_status st);
    void (*free)(job_state *js);
} sc_job_type;

extern const sc_job_type sc_gen_job, sc_compact_job, sc_split_job,
                         sc_scan_job, sc_stat_job, sc_ranges_job,
                         sc_fsum_job, sc_bincount_job;

/* Runs a streaming job of kind t (runner.c). */
sc_status sc_run_stream(sc_ctx *ctx, const sc_job *j, const sc_job_type *t);

/* A cpu_only for the kinds whose GPU kernels take 4-byte elements only:
 * whether the job's elements (those read, or made) are 8 bytes or
 * records, which the CPU's threads then take whatever the device
 * (runner.c). */
int sc_job_elems64(const job_state *js);
/* A cpu_only for the scans, whose kernels take elements of either width
 * but not records, whose keys the host's threads gather (sc_job_keys). */
int sc_job_records(const job_state *js);
/* The same for compaction and split, whose kernels take elements of
 * either width and records of the layouts of sc_record_on_gpu (chunk.h):
 * whether the job's elements are other records. */
int sc_job_records_cpu(const job_state *js);
/* Bytes of one of the job's elements (those read, or made): its record's
 * size, or its type's. */
size_t sc_job_elem_bytes(const sc_job *j);
/* The type conditions and the generator take: the record's key's, or
 * the elements'. */
sc_type sc_job_key_type(const sc_job *j);

/* What a kind with keys looks at in chunk c: its elements, or its
 * records' keys, gathered into its aux buffer. */
void *sc_job_keys(const job_state *js, const sc_chunk *c);

/* Calls CALL on table b until it ran: the GPU hands a chunk to the CPU
 * when it is out of memory.  Needs `ctx` and `st` in scope. */
#define SC_ON(b, CALL) \
    do st = (b)->CALL; while (sc_backend_retry(ctx, &(b), st))

#endif
