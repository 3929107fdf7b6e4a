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
 * whatever it is: a pipe, gzip or text. */
#include <inttypes.h>
#include <stdlib.h>
#include "parts.h"
#include "pipeline.h"
#include "spill.h"
#include "stat.h"
#include "stream_job.h"

typedef struct stat_state {
    sc_ctx *ctx;
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
} stat_state;

/* What is looked at (all, or the blocks --sample takes) goes into the
 * figures and the quantiles' sample. */
static sc_status reduce(stat_state *ss, const uint32_t *x, size_t n)
{
    sc_status st = sc_stat_add(ss->ctx, x, n, ss->acc);
    if (st == SC_OK && ss->quant)
        st = sc_sample_add(ss->ctx, ss->quant, x, n, ss->seen);
    ss->seen += n;
    return st;
}

static sc_status process(void *arg, sc_slot *s, const sc_backend *b)
{
    stat_state *ss = arg;
    if (ss->cpu_only) {         /* the pipeline gives every chunk to the CPU */
        s->c.n_sel = sc_blocks_keep(&ss->blocks, s->c.in, s->c.n, s->c.first);
        return reduce(ss, s->c.in, (size_t)s->c.n_sel);
    }
    sc_ctx *ctx = ss->ctx;
    sc_status st;
    pthread_mutex_lock(&ss->lock);
    SC_ON(b, stat(ctx, s->c.in, s->c.n, ss->acc));
    pthread_mutex_unlock(&ss->lock);
    return st;
}

static sc_status emit(void *arg, sc_slot *s)
{
    stat_state *ss = arg;
    uint64_t n = ss->cpu_only ? s->c.n_sel : s->c.n;
    if (s->on_gpu) {
        pthread_mutex_lock(&ss->lock);
        sc_stat_acc_merge(ss->acc, s->c.stat);
        pthread_mutex_unlock(&ss->lock);
    }
    return ss->keep ? sc_spill_add(ss->keep, s->c.in, (size_t)n) : SC_OK;
}

/* An sc_look_fn: the blocks --sample read in place. */
static sc_status look(void *arg, uint32_t *x, size_t n)
{
    stat_state *ss = arg;
    sc_status st = reduce(ss, x, n);
    return st == SC_OK && ss->keep ? sc_spill_add(ss->keep, x, n) : st;
}

static sc_status stream(stat_state *ss, const sc_job *j, sc_reader *r,
                        uint64_t *in)
{
    sc_ctx *ctx = ss->ctx;
    if (sc_blocks_direct(&ss->blocks, j, r))
        return sc_blocks_read(ctx, j, &ss->blocks, look, ss, in);
    size_t chunk = sc_chunk_bytes(ctx, j->chunk_bytes, sc_reader_size_hint(r),
                                  SC_WORK_STAT);
    sc_pipeline_cfg cfg = { ctx, sc_reader_source(r), chunk / 4,
                            j->chunk_bytes != 0, j->prog ? j->prog : "sc",
                            j->progress, 0 };
    sc_stage_ops ops = { process, emit, ss, 0, 0, { 0 }, ss->cpu_only, 0, NULL,
                         NULL };
    ops.work.work = SC_WORK_STAT;
    sc_pipeline_stats ps = { 0, 0 };
    ctx->phase_threads = ctx->threads > 1 ? ctx->threads - 1 : 1;
    sc_status st = sc_pipeline_run(&cfg, &ops, &ps);
    ctx->phase_threads = 0;
    *in = ps.in;
    return st;
}

/* The report of what was read, even after a data fault. */
static sc_status report(stat_state *ss, const sc_job *j, sc_writer *w)
{
    sc_stats s;
    sc_stat_acc_result(ss->acc, &s);
    sc_status st = sc_stat_print(w, &s);
    if (st == SC_OK && ss->quant && s.count) {
        uint32_t bounds[SC_MAX_PARTS];
        unsigned nb;
        st = sc_sample_bounds(ss->ctx, ss->quant, j->quantiles, bounds, &nb);
        if (st == SC_OK) st = sc_stat_quantiles_print(w, bounds, nb);
    }
    if (st != SC_OK || !ss->keep || s.count == 0) return st;
    sc_stat_hist h;
    if ((st = sc_stat_hist_init(&h, ss->ctx, j->hist_buckets, s.min, s.max)))
        return st;
    st = sc_spill_walk(ss->keep, sc_stat_hist_add, &h);
    if (st == SC_OK) st = sc_stat_hist_print(w, &h);
    sc_stat_hist_free(&h);
    return st;
}

static sc_status run(stat_state *ss, const sc_job *j, sc_reader *r,
                     sc_writer *w, uint64_t *in, uint64_t *out)
{
    /* A GPU asked for must be there before anything is written: --head
     * and --tail stream on the CPU, the figures go out at the end. */
    if (j->head || j->tail) {
        sc_status st = sc_ctx_settle(ss->ctx, SC_OK);
        return st == SC_OK ? sc_stat_ends(ss->ctx, j, r, w, in, out) : st;
    }
    sc_status st = SC_OK;
    if (j->hist_buckets)
        st = sc_spill_open(&ss->keep, ss->ctx, j->tmpdir,
                           j->buffer_bytes ? j->buffer_bytes
                                           : sc_default_buffer_bytes());
    sc_blocks_init(&ss->blocks, j->sample, j->sample_seed);
    if (st == SC_OK && j->quantiles) {
        if (!(ss->quant = malloc(sizeof *ss->quant)))
            st = sc_fail(ss->ctx, SC_ERR_NOMEM, "out of memory");
        else if ((st = sc_sample_init(ss->ctx, ss->quant, SC_SAMPLE_KEEP,
                                      j->sample_seed)) != SC_OK) {
            free(ss->quant);
            ss->quant = NULL;
        }
    }
    ss->cpu_only = ss->quant || !ss->blocks.all;
    if (st == SC_OK) st = stream(ss, j, r, in);
    st = sc_ctx_settle(ss->ctx, st);
    if (st == SC_OK || sc_is_data_fault(st)) {
        sc_status s2 = report(ss, j, w);
        if (s2 != SC_OK) st = s2;
    }
    return st;
}

static sc_status check_stat(sc_ctx *ctx, const sc_job *j)
{
    if (j->head && j->tail)
        return sc_fail(ctx, SC_ERR_USAGE, "head and tail exclude each other");
    if (j->quantiles > SC_MAX_PARTS)
        return sc_fail(ctx, SC_ERR_USAGE, "%" PRIu32 " quantiles: at most %d",
                       j->quantiles, SC_MAX_PARTS);
    if (!(j->sample >= 0 && j->sample <= 1))
        return sc_fail(ctx, SC_ERR_USAGE, "a sample must be a fraction from "
                       "0 to 1");
    return SC_OK;
}

sc_status sc_run_stat(sc_ctx *ctx, const sc_job *j)
{
    sc_status bad = check_stat(ctx, j);
    if (bad) return bad;
    double t0 = sc_now();
    stat_state ss = { ctx, malloc(sizeof(sc_stat_acc)),
                      PTHREAD_MUTEX_INITIALIZER, NULL, NULL, { 1, 0, 0 }, 0,
                      0 };
    if (!ss.acc) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_stat_acc_init(ss.acc);
    sc_writer_opts o = { SC_FMT_TEXT, 6, 0 };   /* a report is text */
    sc_writer *w = NULL;
    sc_reader *r = NULL;
    uint64_t in = 0, out = 0;
    sc_status st = sc_check_outputs(ctx, j);
    if (st == SC_OK) st = sc_writer_open(&w, ctx, j->output, &o);
    if (st == SC_OK)
        st = sc_reader_open(&r, ctx, j->inputs, j->n_inputs, j->in_fmt);
    if (st == SC_OK) st = run(&ss, j, r, w, &in, &out);
    sc_reader_close(r);
    if (w) st = sc_job_close_output(w, j->output, st);
    sc_spill_close(ss.keep);
    if (ss.quant) sc_sample_free(ss.quant);
    free(ss.quant);
    free(ss.acc);
    pthread_mutex_destroy(&ss.lock);
    if (j->verbose) sc_job_report(ctx, j, in, out, sc_now() - t0);
    return st;
}
