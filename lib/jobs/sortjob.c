/* sortjob.c — sc-rsort's job.
 *
 * Sorting reads everything into one buffer and sorts it with sc_sort()
 * (on the GPU through small pinned stages, cuda_sort.c: nothing is pinned
 * in proportion to the input).  Past -S the buffer is sorted as a run
 * whenever it fills, the runs go to a temporary file (runs.c), and at the
 * end they are merged (merge.c) with the same result.  The output is
 * opened only after all input is read, so -o may name an input.  -m merges inputs sorted
 * already, -C only checks the order; both stream.
 *
 * Records, and --indices of records or elements, are sorted by
 * sc_op_sort_records on the policy's device (their keys ranked and
 * sorted with their positions, then the records gathered); with --indices the runs and the merge carry
 * each key with its position (SC_KEYPOS_BYTES) and the sink writes the
 * positions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jobs/merge.h"
#include "stream/stream.h"

#define MIN_SORT_ELEMS ((size_t)1024)

#define SORT_READ_BYTES ((size_t)64 << 20)

typedef struct sort_state {
    sc_ctx *ctx;
    const sc_job *job;
    sc_elem_order order;    /* of the input's elements or records */
    sc_elem_order item;     /* of what runs and the sink carry */
    int by_records;         /* sorted by sc_op_sort_records */
    int keypos;             /* --indices: keys with their positions */
    uint64_t buf_first;     /* the input position of buf[0] */
    unsigned size;          /* bytes an element (or record) */
    size_t limit;           /* elements sorted in one piece (-S) */
    size_t chunk;           /* elements per read from a stream, per put */
    size_t read_chunk;      /* elements per read into the buffer */
    unsigned char *buf;
    size_t len, cap;        /* in elements */
    sc_runs *runs;          /* NULL until the input outgrows the buffer */
    sc_fault fault;         /* a data fault, reported after the output */
    uint64_t in;
    sc_pipeline_stats result;   /* -v: what the run did */
    sc_progress progress;   /* -P: read, sorted runs, merged, written */
    double total_bytes;     /* -P: of all inputs, < 0 when unknown */
    uint64_t run_elems;     /* -P: what the merge will read */
    size_t spilled;         /* -v: runs written past -S */
    double sort_rate;       /* -P: bytes a second of the last sort, or 0 */
    int gpu_asked;          /* the GPU was started while reading */
    sc_job_kind cost_kind;  /* the cost model's kind of this sort */
} sort_state;

/* Under "auto" the GPU starts in the background while the input is read
 * when a sort of bytes would pay for it with a share of its start still
 * ahead: for an input of known size, all of the start; for a pipe, whose
 * size shows only at its end, half of it, checked as the input grows, so
 * that a large pipe finds the GPU ready when the sort decides (ops.c).
 * A start costs no wait, only a core's time.  -m and -C only stream. */
static void start_gpu_early(sort_state *ss, int64_t bytes, double share)
{
    const sc_job *j = ss->job;
    if (ss->gpu_asked || j->merge || j->check) return;
    ss->gpu_asked = sc_policy_sort_early(ss->ctx, ss->cost_kind, bytes, share);
}

/* known: the input's bytes, where known before reading (else -1). */
static void state_init(sort_state *ss, sc_ctx *ctx, const sc_job *j,
                       int64_t known)
{
    memset(ss, 0, sizeof *ss);
    ss->ctx = ctx;
    ss->job = j;
    sc_elem_order_init(&ss->order, j);
    ss->size = ss->order.size;
    ss->keypos = j->compact_out != SC_OUT_VALUES;
    ss->by_records = j->record.size || ss->keypos;
    ss->item = ss->order;
    if (ss->keypos) sc_elem_order_keypos(&ss->order, &ss->item);
    ss->cost_kind = sc_sort_cost_kind(ss->order.type, &ss->order,
                                      ss->keypos);
    ss->limit = (j->buffer_bytes ? j->buffer_bytes : sc_default_buffer_bytes())
              / ss->size;
    /* Runs past -S go to -T: what killed runs left there goes first. */
    sc_temp_sweep_dir(sc_temp_dir(j->tmpdir));
    if (ss->limit < MIN_SORT_ELEMS) ss->limit = MIN_SORT_ELEMS;
    ss->chunk = sc_chunk_bytes(ctx, j->chunk_bytes, known, ss->cost_kind)
              / ss->size;
    /* Nothing overlaps the read of a sort's buffer, so a regular file is
     * read in large pieces that the reader's threads share (a 4 MiB read
     * kept four of them busy: 0.18 s a GiB on the 16-core GPU machine). */
    ss->read_chunk = known >= 0 && ss->chunk < SORT_READ_BYTES / ss->size
                   ? SORT_READ_BYTES / ss->size : ss->chunk;
    start_gpu_early(ss, known, 1.0);
    sc_progress_start(&ss->progress, j->prog, "read");
    ss->total_bytes = (double)known;
}

/* Grows the buffer towards the limit: to the input's size when known
 * (one allocation, no copy), else by doubling. */
static sc_status grow(sort_state *ss, const sc_reader *r)
{
    size_t cap = ss->cap * 2;
    if (ss->cap == 0) {
        int64_t hint = sc_reader_size_hint(r);
        /* One more than the input holds, so its end is seen without
         * growing again. */
        cap = hint >= 0 ? (size_t)hint / ss->size + 1 : ss->chunk;
    }
    if (cap > ss->limit) cap = ss->limit;
    unsigned char *buf = sc_big_alloc(cap * ss->size);
    if (!buf) return sc_fail(ss->ctx, SC_ERR_NOMEM, "out of memory for %zu "
                             "elements; try a smaller -S", cap);
    if (ss->len) memcpy(buf, ss->buf, ss->len * ss->size);
    free(ss->buf);
    ss->buf = buf;
    ss->cap = cap;
    return SC_OK;
}

/* Reads up to max elements; a data fault is noted and reads as the end. */
static sc_status read_some(sort_state *ss, sc_reader *r, void *dst,
                           size_t max, size_t *got)
{
    double t0 = sc_now();
    sc_status st = sc_reader_read(r, dst, max, got);
    sc_phase_add(&ss->result.phases, SC_PH_READ, sc_now() - t0);
    ss->in += *got;
    if (ss->total_bytes < 0)
        start_gpu_early(ss, (int64_t)ss->size * (int64_t)ss->in, 0.5);
    if (ss->job->progress)
        sc_progress_update(&ss->progress, (double)ss->size * (double)ss->in,
                           ss->total_bytes);
    st = sc_fault_note(&ss->fault, ss->ctx, st);
    /* --indices=32 fails as soon as a position would not fit: not a
     * fault to write what came before, nothing is written. */
    return st == SC_OK ? sc_positions_fit(ss->ctx, ss->job, ss->in) : st;
}

/* Reads until the input ends (*ended) or the buffer holds limit elements. */
static sc_status fill(sort_state *ss, sc_reader *r, int *ended)
{
    for (;;) {
        sc_status st = SC_OK;
        if (ss->len == ss->cap) {
            if (ss->cap == ss->limit) return SC_OK;
            if ((st = grow(ss, r)) != SC_OK) return st;
        }
        size_t want = ss->cap - ss->len, got;
        if (want > ss->read_chunk) want = ss->read_chunk;
        if ((st = read_some(ss, r, ss->buf + ss->len * ss->size, want,
                            &got)) != SC_OK)
            return st;
        if (got == 0) { *ended = 1; return SC_OK; }
        ss->len += got;
    }
}

/* sc_sort_ready (ready may be NULL), shown under -P as a note with its time so far and, from
 * the speed of the sort before it, the time it should still take. */
static sc_status sort_buffer(sort_state *ss, const char *what,
                             sc_ready_fn ready, void *arg)
{
    const sc_job *j = ss->job;
    double bytes = (double)ss->size * (double)ss->len, t0 = sc_now();
    if (j->progress) {
        char note[96];
        snprintf(note, sizeof note, "%s (%.1f MiB)", what, bytes / 1048576.0);
        sc_progress_note(&ss->progress, note,
                         ss->sort_rate > 0 ? bytes / ss->sort_rate : -1);
    }
    sc_status st = ss->by_records
        ? sc_op_sort_records(ss->ctx, &ss->result.phases, ss->buf, ss->len,
                             &ss->order, ss->keypos, ss->buf_first, ready, arg)
        : sc_sort_ready(ss->ctx, &ss->result.phases, ss->buf, ss->len,
                        j->type, j->lo_bit, j->hi_bit, j->reverse, ready,
                        arg);
    double took = sc_now() - t0;
    if (took > 0 && bytes > 0) ss->sort_rate = bytes / took;
    if (j->progress) sc_progress_note(&ss->progress, NULL, -1);
    return st;
}

typedef struct sorted_out {
    sc_sink *sink;
    size_t piece;               /* elements a put at most */
    unsigned size;              /* bytes an element */
} sorted_out;

/* An sc_ready_fn: sorted items to the output, a chunk a put, so that -P
 * sees a slow output move. */
static sc_status put_sorted(void *arg, void *keys, uint64_t n)
{
    sorted_out *o = arg;
    sc_status st = SC_OK;
    for (uint64_t at = 0; st == SC_OK && at < n; at += o->piece)
        st = sc_sink_put(o->sink, (unsigned char *)keys + at * o->size,
                         n - at < o->piece ? n - at : o->piece);
    return st;
}

/* Where a sorted run goes, piece by piece. */
typedef struct run_out {
    sc_runs *runs;
    const sc_elem_order *item;
    int unique;
    sc_uniq uniq;
    uint64_t n;
} run_out;

/* An sc_ready_fn: sorted items to the run being written.  Duplicates
 * within a run never reach the output: -u drops them now. */
static sc_status put_run(void *arg, void *items, uint64_t n)
{
    run_out *o = arg;
    size_t kept = o->unique ? sc_uniq_apply(o->item, &o->uniq, items, n) : n;
    o->n += kept;
    return sc_runs_append(o->runs, items, kept);
}

/* The buffer's elements, sorted, as the next run; the buffer empties. */
static sc_status spill_run(sort_state *ss)
{
    char what[48];
    snprintf(what, sizeof what, "sorting run %zu",
             (ss->runs ? sc_runs_count(ss->runs) : 0) + 1);
    sc_status st = ss->runs ? SC_OK
                 : sc_runs_open(&ss->runs, ss->ctx, ss->job->tmpdir,
                                ss->item.size);
    run_out o = { ss->runs, &ss->item, ss->job->unique, { 0, 0 }, 0 };
    if (st == SC_OK) st = sc_runs_begin(ss->runs);
    if (st == SC_OK) st = sort_buffer(ss, what, put_run, &o);
    ss->run_elems += o.n;
    ss->spilled++;
    ss->buf_first += ss->len;
    ss->len = 0;
    return st;
}

/* Reads all input: the buffer keeps the last piece, runs the rest. */
static sc_status read_all(sort_state *ss, sc_reader *r)
{
    int ended = 0;
    sc_status st;
    while ((st = fill(ss, r, &ended)) == SC_OK && !ended) {
        /* The buffer is full: one more element says whether it must go
         * out as a run (an input of exactly -S stays in memory). */
        unsigned char next[SC_RECORD_MAX];
        size_t got;
        if ((st = read_some(ss, r, next, 1, &got)) != SC_OK || got == 0)
            break;
        if ((st = spill_run(ss)) != SC_OK) break;
        memcpy(ss->buf + ss->len++ * ss->size, next, ss->size);
    }
    return st;
}

/* Sorts what memory holds into the sink, or with runs, spills it as the
 * last run and merges them all. */
static sc_status write_sorted(sort_state *ss, sc_sink *sink)
{
    const sc_job *j = ss->job;
    if (!ss->runs) {
        /* The output is written while the sort finishes (cpu_sort.c):
         * one phase for both. */
        if (j->progress)
            sc_progress_phase(&ss->progress, "sorted and written",
                              (double)ss->size * (double)ss->len);
        sorted_out o = { sink, ss->chunk, ss->item.size };
        return sort_buffer(ss, "sorting in memory", put_sorted, &o);
    }
    sc_status st = ss->len ? spill_run(ss) : SC_OK;
    if (j->progress)
        sc_progress_phase(&ss->progress, "merged",
                          (double)ss->size * (double)ss->run_elems);
    /* The merge's buffers take the sort buffer's place. */
    free(ss->buf);
    ss->buf = NULL;
    ss->cap = 0;
    return st == SC_OK ? sc_merge_runs(ss->runs, &ss->item, sink,
                                       ss->limit * ss->size) : st;
}

static sc_status open_sink(sort_state *ss, sc_sink *sink)
{
    return sc_sink_open(sink, ss->ctx, ss->job, &ss->item, ss->size,
                        &ss->result.phases);
}

/* Ends the output: a data fault is reported after everything decoded
 * before it went out. */
static sc_status close_sink(sort_state *ss, sc_sink *sink, sc_status st)
{
    if (st == SC_OK) st = sc_fault_raise(&ss->fault, ss->ctx);
    st = sc_ctx_settle(ss->ctx, st);
    return sink->w ? sc_job_close_output(sink->w, ss->job->output, st) : st;
}

/* r: the inputs, opened (and checked) before the state was made. */
static sc_status sort_inputs(sort_state *ss, sc_sink *sink, sc_reader *r)
{
    const sc_job *j = ss->job;
    sc_status st = read_all(ss, r);
    if (j->verbose) sc_job_report_inputs(j, r);
    sc_reader_close(r);
    if (st == SC_OK) st = open_sink(ss, sink);
    if (j->progress) sink->progress = &ss->progress;
    if (st == SC_OK) st = write_sorted(ss, sink);
    st = close_sink(ss, sink, st);
    if (j->verbose && ss->spilled)
        fprintf(stderr, "%s: runs: %zu sorted runs of at most %.1f MiB (-S), "
                "merged from a temporary file\n", j->prog ? j->prog : "sc",
                ss->spilled, (double)ss->limit * ss->size / (1 << 20));
    free(ss->buf);
    sc_runs_close(ss->runs);
    return st;
}

static sc_status merge_inputs(sort_state *ss, sc_sink *sink)
{
    const sc_job *j = ss->job;
    sc_status st = open_sink(ss, sink);
    sc_read_meter meter = { j->progress ? &ss->progress : NULL,
                            ss->total_bytes, 0, &ss->result.phases };
    if (st == SC_OK)
        st = sc_merge_inputs(ss->ctx, j, j->inputs, j->n_inputs,
                             &ss->order, sink, ss->limit * ss->size,
                             &ss->fault,
                             &meter);
    ss->in = meter.elems;
    return close_sink(ss, sink, st);
}

static sc_status check_inputs(sort_state *ss)
{
    const sc_job *j = ss->job;
    sc_read_meter meter = { j->progress ? &ss->progress : NULL,
                            ss->total_bytes, 0, &ss->result.phases };
    sc_status st = sc_check_inputs(ss->ctx, j, j->inputs, j->n_inputs,
                                   &ss->order, j->unique, ss->chunk,
                                   &ss->fault, &meter);
    ss->in = meter.elems;
    return st == SC_OK ? sc_fault_raise(&ss->fault, ss->ctx) : st;
}

sc_status sc_run_sort(sc_ctx *ctx, const sc_job *given)
{
    double t0 = sc_now();
    /* The job with its bit range made explicit, and its type a record's
     * key's. */
    sc_job bits = *given;
    const sc_job *job = &bits;
    if (bits.record.size) bits.type = bits.record.key_type;
    unsigned width = 8 * sc_type_size(job->type);
    if (!bits.hi_bit) bits.hi_bit = width;
    if (job->lo_bit >= job->hi_bit || job->hi_bit > width)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid bit range %u:%u for %s",
                       job->lo_bit, job->hi_bit, sc_type_name(job->type));
    sort_state ss;
    sc_sink sink;
    memset(&sink, 0, sizeof sink);
    /* -C and -m open each input as they reach it; a sort opens them all
     * at once, and learns their size from that. */
    int streams = job->check || job->merge;
    sc_reader *r = NULL;
    sc_status st = streams ? SC_OK
                 : sc_job_open_reader(ctx, job, job->inputs, job->n_inputs,
                                      &r);
    if (st != SC_OK) return st;
    state_init(&ss, ctx, job, streams ? sc_inputs_size(job->inputs,
                                                       job->n_inputs,
                                                       job->in_fmt)
                                      : sc_reader_size_hint(r));
    if (job->progress) sc_progress_tick(&ss.progress);
    /* -C and -m stream on the CPU: a GPU asked for must be there before
     * they write anything; a sort waits for it only to sort. */
    if (streams) st = sc_ctx_settle(ctx, SC_OK);
    if (st == SC_OK)
        st = job->check ? check_inputs(&ss)
           : job->merge ? merge_inputs(&ss, &sink) : sort_inputs(&ss, &sink, r);
    else
        sc_reader_close(r);
    /* A sort's last phase has its own figures; -C and -m only read. */
    if (job->progress && streams)
        sc_progress_end(&ss.progress, (double)ss.size * (double)ss.in,
                        ss.total_bytes);
    else if (job->progress)
        sc_progress_finish(&ss.progress);
    if (job->verbose) {
        ss.result.in = ss.in;
        ss.result.out = sink.out;
        sc_job_report(ctx, job, &ss.result, sc_now() - t0);
    }
    return st;
}
