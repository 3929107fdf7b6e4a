/* stat.c — sc-stat's job: one pass of the chunk pipeline reducing every
 * chunk into a mergeable state, then the report.  A chunk is reduced on
 * the worker thread (the CPU's table, or the GPU's when it has no lanes)
 * or on the GPU's lanes, whose figures the writer thread merges in; the
 * figures are the same whichever device takes which chunk.
 *
 * --hist needs min and max before it can count, so the input is kept
 * while it streams by (the writer thread adds each chunk to a spill: in
 * memory up to a quarter of RAM, then in a temporary file) and counted
 * into buckets once the pass is over.  The input itself is read once,
 * whatever it is: a pipe, gzip or text.  Records are looked at through
 * their keys (sc_job_keys, gathered on the CPU), as elements of the key's
 * type.  Chunks that stay on the worker thread (typed, sampled, records)
 * still reach the policy's device: reduce() hands them to the ops layer
 * (sc_stat_add, sc_stat_add_type). */
#include <inttypes.h>
#include <stdlib.h>
#include "stream/stream.h"
#include "jobs/spill.h"
#include "jobs/stat.h"
#include "jobs/stream_job.h"

typedef struct stat_state {
    sc_ctx *ctx;
    sc_phase_times *times;      /* the run's */
    sc_stat_acc *acc;
    /* The worker and the writer both add to acc: the pipeline gives a
     * chunk to the CPU only before the lanes open, but nothing here
     * should depend on that. */
    pthread_mutex_t lock;
    sc_spill *keep;             /* --hist */
    sc_sample *quant;           /* --quantiles */
    sc_blocks blocks;           /* --sample */
    uint64_t seen;              /* elements looked at: the sample's positions */
    /* --sample and --quantiles take the elements in stream order, so
     * every chunk stays on the worker thread. */
    int cpu_only;
    /* A failure to keep (a full -T) is no fault of the input's: nothing
     * may be reported after it, as the histogram would miss what was
     * lost. */
    sc_status keep_st;
    /* Elements of a signed, float or 64-bit type: ranked on the worker
     * thread in stream order (their float sum has one), the ranks then
     * figured on the policy's device. */
    int typed;
    sc_stat_typed t;
} stat_state;

/* What is looked at (all, or the blocks --sample takes) goes into the
 * figures and the quantiles' sample. */
static sc_status reduce(stat_state *ss, void *x, size_t n)
{
    sc_status st = ss->typed
        ? sc_stat_add_type(ss->ctx, ss->times, x, n, ss->seen, &ss->t, ss->acc)
        : sc_stat_add(ss->ctx, ss->times, x, n, SC_U32, ss->acc);
    if (st == SC_OK && ss->quant)
        st = sc_sample_add(ss->ctx, ss->times, ss->quant, x, n, ss->seen);
    ss->seen += n;
    return st;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    stat_state *ss = js->own;
    if (ss->cpu_only) {         /* every chunk on the worker thread */
        void *x = sc_job_keys(js, &s->c);
        s->c.n_sel = sc_blocks_keep(&ss->blocks, x, s->c.n, s->c.first);
        return reduce(ss, x, (size_t)s->c.n_sel);
    }
    sc_ctx *ctx = ss->ctx;
    sc_status st;
    pthread_mutex_lock(&ss->lock);
    SC_ON(b, stat(ctx, ss->times, s->c.in, s->c.n, SC_U32, ss->acc));
    pthread_mutex_unlock(&ss->lock);
    return st;
}

static sc_status keep(stat_state *ss, const void *x, size_t n)
{
    sc_status st = ss->keep ? sc_spill_add(ss->keep, x, n) : SC_OK;
    if (st != SC_OK && ss->keep_st == SC_OK) ss->keep_st = st;
    return st;
}

static sc_status emit(void *op, sc_slot *s)
{
    job_state *js = op;
    stat_state *ss = js->own;
    uint64_t n = ss->cpu_only ? s->c.n_sel : s->c.n;
    if (s->on_gpu) {
        pthread_mutex_lock(&ss->lock);
        sc_stat_acc_merge(ss->acc, s->c.stat);
        pthread_mutex_unlock(&ss->lock);
    }
    /* What process() looked at: records' keys are in aux. */
    return keep(ss, js->job->record.size ? s->c.aux : s->c.in, (size_t)n);
}

/* An sc_look_fn: the blocks --sample read in place. */
static sc_status look(void *arg, void *x, size_t n)
{
    stat_state *ss = arg;
    sc_status st = reduce(ss, x, n);
    return st == SC_OK ? keep(ss, x, n) : st;
}

/* A sample that took no block of the stream looks at its first block
 * (stat_sample.c), also after a fault in the data. */
static sc_status look_untaken(stat_state *ss, sc_status st)
{
    void *x;
    size_t n = sc_blocks_untaken(&ss->blocks, &x);
    if (!n || (st != SC_OK && !sc_is_data_fault(st))) return st;
    sc_status looked = look(ss, x, n);
    return looked != SC_OK ? looked : st;
}

/* The report of what was read, even after a data fault.  The histogram
 * is counted first: reading back what --hist kept can fail, and then no
 * line of the report goes out. */
static sc_status report(stat_state *ss, const sc_job *j, sc_writer *w)
{
    const sc_stat_acc *acc = ss->acc;
    sc_stat_hist h;
    memset(&h, 0, sizeof h);
    int hist = ss->keep && acc->count;
    sc_status st = hist ? sc_stat_hist_count(&h, ss->ctx, j->type,
                                             j->hist_buckets, acc->min,
                                             acc->max, ss->keep)
                        : SC_OK;
    if (st == SC_OK) st = sc_stat_print(w, acc, ss->typed ? &ss->t : NULL);
    if (st == SC_OK && ss->quant && acc->count) {
        uint64_t bounds[SC_MAX_PARTS];
        unsigned nb;
        st = sc_sample_bounds(ss->ctx, ss->times, ss->quant, j->quantiles,
                              bounds, &nb);
        if (st == SC_OK) st = sc_stat_quantiles_print(w, j->type, bounds, nb);
    }
    if (st == SC_OK && hist) st = sc_stat_hist_print(w, &h);
    if (hist) sc_stat_hist_free(&h);
    return st;
}

static sc_status check(sc_ctx *ctx, const sc_job *j)
{
    if (j->head && j->tail)
        return sc_fail(ctx, SC_ERR_USAGE, "head and tail exclude each other");
    if (j->quantiles > SC_MAX_PARTS)
        return sc_fail(ctx, SC_ERR_USAGE, "%" PRIu32 " quantiles: at most %d",
                       j->quantiles, SC_MAX_PARTS);
    if (!(j->sample >= 0 && j->sample <= 1))
        return sc_fail(ctx, SC_ERR_USAGE, "a sample must be a fraction from "
                       "0 to 1");
    return sc_check_outputs(ctx, j);
}

/* The report's writer (text), and what --hist, --quantiles and --sample
 * keep while the stream goes by. */
static sc_status open(job_state *js)
{
    sc_ctx *ctx = js->ctx;
    const sc_job *j = js->job;
    stat_state *ss = calloc(1, sizeof *ss);
    if (!ss || !(ss->acc = malloc(sizeof *ss->acc))) {
        free(ss);
        return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    }
    js->own = ss;
    ss->ctx = ctx;
    ss->times = js->times;
    pthread_mutex_init(&ss->lock, NULL);
    sc_stat_acc_init(ss->acc);
    unsigned size = sc_type_size(j->type);
    sc_status st = sc_blocks_init(ctx, &ss->blocks, j->sample, j->sample_seed,
                                  size);
    /* A report is text; --head and --tail write elements of the type. */
    sc_writer_opts o = { .fmt = SC_FMT_TEXT, .level = 6, .type = j->type };
    if (st == SC_OK) st = sc_writer_open(&js->out, ctx, j->output, &o);
    if (st != SC_OK || j->head || j->tail) return st;
    if (j->hist_buckets)
        st = sc_spill_open(&ss->keep, ctx, j->tmpdir,
                           j->buffer_bytes ? j->buffer_bytes
                                           : sc_default_buffer_bytes(),
                           size);
    if (st == SC_OK && j->quantiles)
        st = sc_sample_new(ctx, &ss->quant, j->sample_seed, size);
    ss->typed = j->type != SC_U32;
    ss->t.type = j->type;
    ss->cpu_only = ss->quant || !ss->blocks.all || ss->typed ||
                   j->record.size;
    return st;
}

static int cpu_only(const job_state *js)
{
    const stat_state *ss = js->own;
    return ss->cpu_only;
}

/* --head and --tail stream on the CPU, and --sample of a file reads only
 * its blocks: neither through the pipeline. */
static int alone(job_state *js, sc_status *st)
{
    stat_state *ss = js->own;
    const sc_job *j = js->job;
    js->counted_alone = 1;
    if (j->head || j->tail) {
        /* A GPU asked for must be there before anything is written: the
         * ends go out as they are read. */
        *st = sc_ctx_settle(js->ctx, SC_OK);
        if (*st == SC_OK)
            *st = sc_stat_ends(js->ctx, j, js->reader, js->out,
                               &js->in_alone, &js->out_alone);
        return 1;
    }
    if (sc_blocks_direct(&ss->blocks, j, js->reader)) {
        *st = sc_blocks_read(js->ctx, js->times, j, &ss->blocks, look, ss,
                             &js->in_alone);
        return 1;
    }
    js->counted_alone = 0;
    return 0;
}

/* The report of what was read, even after a data fault (not after
 * --head or --tail, whose output is the elements). */
static sc_status finish(job_state *js, sc_status st)
{
    const sc_job *j = js->job;
    stat_state *ss = js->own;
    /* The pipeline's blocks; those read in place (alone) took one. */
    if (js->source_open && !js->counted_alone) st = look_untaken(ss, st);
    st = sc_ctx_settle(js->ctx, st);
    if (ss && ss->keep_st != SC_OK) st = ss->keep_st;
    else if (js->source_open && !j->head && !j->tail &&
             (st == SC_OK || sc_is_data_fault(st))) {
        sc_status s2 = report(js->own, j, js->out);
        if (s2 != SC_OK) st = s2;
    }
    return js->out ? sc_job_close_output(js->out, j->output, st) : st;
}

static void release(job_state *js)
{
    stat_state *ss = js->own;
    if (!ss) return;
    sc_spill_close(ss->keep);
    sc_blocks_free(&ss->blocks);
    sc_sample_free(ss->quant);
    free(ss->acc);
    pthread_mutex_destroy(&ss->lock);
    free(ss);
}

const sc_job_type sc_stat_job = {
    .work = SC_JOB_STAT, .process = process, .emit = emit, .check = check,
    .open = open, .cpu_only = cpu_only, .in_order = 1, .worker_device = 1,
    .alone = alone,
    .finish = finish, .free = release, .keys = 1,
};
