/* runner.c — one streaming job run over the pipeline, whatever its kind:
 * the outputs and the source opened, the pipeline run with the kind's
 * functions, then the ending (split's held rejects, the figures of
 * --count / --total, the commit) and -v's report. */
#include <stdio.h>
#include <string.h>
#include "io/io.h"
#include "jobs/stream_job.h"

static sc_status print_figures(job_state *js, const sc_job_type *t)
{
    char line[64];
    int len = t->figures ? t->figures(js, line, sizeof line) : 0;
    return len > 0 ? sc_writer_write_bytes(js->out, line, (size_t)len) : SC_OK;
}

static sc_status open_outputs(job_state *js, const sc_job_type *t)
{
    const sc_job *j = js->job;
    sc_writer_opts o = sc_job_writer_opts(j);
    o.wide = t->wide(j);
    /* Positions are unsigned whatever the elements are, records too;
     * figures are text. */
    if (j->kind == SC_JOB_COMPACT && j->compact_out != SC_OUT_VALUES) {
        o.type = SC_U32;
        o.record = 0;
    }
    if (j->count_only || t->keys) o.record = 0;
    if (!o.record) o.field = 0;
    sc_status st = sc_writer_open(&js->out, js->ctx, j->output, &o);
    if (st != SC_OK) return st;
    return t->open_more ? t->open_more(js) : SC_OK;
}

/* Everything after the chunks: held rejects, figures, commit. */
static sc_status finish(job_state *js, const sc_job_type *t, sc_status st)
{
    const sc_job *j = js->job;
    st = sc_ctx_settle(js->ctx, st);
    /* After a data fault what was decoded still goes out in full; an
     * input that could not be opened (missing, a directory) is found
     * before anything is read, so no figure goes out for it. */
    if (js->source_open && (st == SC_OK || sc_is_data_fault(st))) {
        sc_status r = js->spill ? sc_spill_replay(js->spill, js->out) : SC_OK;
        if (r == SC_OK && t->last) r = t->last(js);
        if (r == SC_OK) r = print_figures(js, t);
        if (r != SC_OK) st = r;
    }
    if (js->rejects && st == SC_OK) {
        /* sc-split -r: both files are replaced, or neither. */
        st = sc_writer_commit_pair(js->rejects, js->out);
        js->rejects = js->out = NULL;
    }
    if (js->rejects) st = sc_job_close_output(js->rejects, j->rejects, st);
    if (js->out) st = sc_job_close_output(js->out, j->output, st);
    sc_spill_close(js->spill);
    return st;
}

/* Where the chunks come from: the job's inputs, read, unless its kind
 * makes its own (sc-gen). */
static sc_status open_source(job_state *js, const sc_job_type *t,
                             sc_source *src)
{
    const sc_job *j = js->job;
    if (t->open_source) return t->open_source(js, src);
    sc_status st = sc_job_open_reader(js->ctx, j, j->inputs, j->n_inputs,
                                      &js->reader);
    if (st == SC_OK) *src = sc_reader_source(js->reader);
    return st;
}

/* The type of the elements a chunk holds: those read, or made. */
static sc_type elem_type(const sc_job *j)
{
    return j->kind == SC_JOB_GEN ? j->gen.type : j->type;
}

size_t sc_job_elem_bytes(const sc_job *j)
{
    return j->record.size ? j->record.size : sc_type_size(elem_type(j));
}

sc_type sc_job_key_type(const sc_job *j)
{
    return j->record.size ? j->record.key_type : j->type;
}

int sc_job_elems64(const job_state *js)
{
    return js->job->record.size || sc_type_size(elem_type(js->job)) == 8;
}

int sc_job_records(const job_state *js)
{
    return js->job->record.size != 0;
}

int sc_job_records_cpu(const job_state *js)
{
    const sc_job *j = js->job;
    return j->record.size && !sc_record_on_gpu(&j->record, j->big_endian);
}

void *sc_job_keys(const job_state *js, const sc_chunk *c)
{
    const sc_job *j = js->job;
    if (!j->record.size) return c->in;
    sc_gather_keys(js->ctx, js->times, c->in, c->n, &j->record, j->big_endian,
                   c->aux);
    return c->aux;
}

static sc_status stream(job_state *js, const sc_job_type *t,
                        const sc_source *src, sc_pipeline_stats *ps)
{
    const sc_job *j = js->job;
    sc_ctx *ctx = js->ctx;
    /* Only a scan's chunks need the one before, and only its carry. */
    sc_stage_ops ops = {
        .process = t->process, .emit = t->emit, .op = js,
        .in_bytes_per_elem = sc_job_elem_bytes(j),
        .out_bytes_per_elem = t->out_bytes ? t->out_bytes(j) : 0,
        .need_aux = t->need_aux || (t->keys && j->record.size),
        .cpu_only = t->cpu_only ? t->cpu_only(js) : 0,
        .independent = !t->reduce && !t->in_order, .reduce = t->reduce,
        .combine = t->combine,
    };
    int64_t known = src->size_hint(src->self);
    sc_status st = SC_OK;
    if (ops.cpu_only && !t->worker_device)
        st = sc_policy_cpu_only(ctx);
    else if (ops.cpu_only)
        /* The worker's chunks each go to the device the policy picks:
         * under auto the stream's size decides, as for the pipeline's,
         * whether the GPU is started (in the background) for them to find
         * ready, and -v says why even when no chunk comes. */
        (void)sc_policy_stream_gpu(ctx, t->work, known);
    if (st != SC_OK) return st;
    if (t->describe) t->describe(js, &ops.work);
    else ops.work.work = t->work;
    size_t chunk = sc_chunk_bytes(ctx, j->chunk_bytes, known, t->work);
    sc_pipeline_cfg cfg = { ctx, *src, chunk / ops.in_bytes_per_elem,
                            j->chunk_bytes != 0,
                            j->prog ? j->prog : "sc", j->progress,
                            t->first_carry ? t->first_carry(j) : j->carry_in };
    return sc_pipeline_run(&cfg, &ops, ps);
}

sc_status sc_run_stream(sc_ctx *ctx, const sc_job *j, const sc_job_type *t)
{
    double t0 = sc_now();
    job_state js;
    memset(&js, 0, sizeof js);
    js.ctx = ctx;
    js.job = j;
    js.carry = t->first_carry ? t->first_carry(j) : j->carry_in;
    sc_source src;
    memset(&src, 0, sizeof src);
    sc_pipeline_stats ps;
    memset(&ps, 0, sizeof ps);
    js.times = &ps.phases;
    sc_status st = t->check ? t->check(ctx, j) : sc_check_outputs(ctx, j);
    if (st == SC_OK) st = t->open ? t->open(&js) : open_outputs(&js, t);
    if (st == SC_OK) st = open_source(&js, t, &src);
    js.source_open = st == SC_OK;
    if (st == SC_OK && !(t->alone && t->alone(&js, &st)))
        st = stream(&js, t, &src, &ps);
    /* An input refused for its kind only when the read reached it (a
     * pipe) is a fault after the data before it; with no data before it,
     * the whole input was refused, as a regular file is before anything
     * is read: no figure, nothing kept. */
    if (st == SC_ERR_FORMAT && js.reader && !sc_reader_decoded(js.reader))
        js.source_open = 0;
    if (j->verbose) sc_job_report_inputs(j, js.reader);
    sc_reader_close(js.reader);
    st = t->finish ? t->finish(&js, st) : finish(&js, t, st);
    /* The elements the run gave out, wherever they went: --count's figure,
     * split's rejects, held or in their own file, and --bincount's counts,
     * written at the end. */
    if (js.counted_alone) {
        ps.in = js.in_alone;
        ps.out = js.out_alone;
    } else if (j->kind == SC_JOB_COMPACT ||
               (j->kind == SC_JOB_STAT && j->bincount)) {
        ps.out = js.kept;
    } else if (j->kind == SC_JOB_SPLIT && !j->ranges) {
        ps.out = js.kept + js.rejected;
    }
    if (j->verbose) sc_job_report(ctx, j, &ps, sc_now() - t0);
    if (t->free) t->free(&js);
    return st;
}
