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
#include <stdlib.h>
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
} stat_state;

static sc_status process(void *arg, sc_slot *s, const sc_backend *b)
{
    stat_state *ss = arg;
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
    if (s->on_gpu) {
        pthread_mutex_lock(&ss->lock);
        sc_stat_acc_merge(ss->acc, s->c.stat);
        pthread_mutex_unlock(&ss->lock);
    }
    return ss->keep ? sc_spill_add(ss->keep, s->c.in, s->c.n) : SC_OK;
}

static sc_status stream(stat_state *ss, const sc_job *j, sc_reader *r,
                        uint64_t *in)
{
    sc_ctx *ctx = ss->ctx;
    size_t chunk = sc_chunk_bytes(ctx, j->chunk_bytes, sc_reader_size_hint(r),
                                  SC_WORK_STAT);
    sc_pipeline_cfg cfg = { ctx, r, 0, chunk / 4, j->prog ? j->prog : "sc",
                            j->progress, 0 };
    sc_stage_ops ops = { process, emit, ss, 0, 0, { 0 }, 0 };
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
    if (j->head || j->tail) return sc_stat_ends(ss->ctx, j, r, w, in, out);
    sc_status st = SC_OK;
    if (j->hist_buckets)
        st = sc_spill_open(&ss->keep, ss->ctx, j->tmpdir,
                           j->buffer_bytes ? j->buffer_bytes
                                           : sc_default_buffer_bytes());
    if (st == SC_OK) st = stream(ss, j, r, in);
    if (st == SC_OK || sc_is_data_fault(st)) {
        sc_status s2 = report(ss, j, w);
        if (s2 != SC_OK) st = s2;
    }
    return st;
}

sc_status sc_run_stat(sc_ctx *ctx, const sc_job *j)
{
    if (j->head && j->tail)
        return sc_fail(ctx, SC_ERR_USAGE, "head and tail exclude each other");
    double t0 = sc_now();
    stat_state ss = { ctx, malloc(sizeof(sc_stat_acc)),
                      PTHREAD_MUTEX_INITIALIZER, NULL };
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
    free(ss.acc);
    pthread_mutex_destroy(&ss.lock);
    if (j->verbose) sc_job_report(ctx, j, in, out, sc_now() - t0);
    return st;
}
