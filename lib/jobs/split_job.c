/* split_job.c — sc-split: the selected to the output, the rejected to
 * -r's file or held (spilling past -S) until the end; or the two counts. */
#include <inttypes.h>
#include <stdio.h>
#include "jobs/stream_job.h"

static size_t out_bytes(const sc_job *j) { return sc_job_elem_bytes(j); }
static int wide(const sc_job *j) { (void)j; return 0; }

static sc_status open_more(job_state *js)
{
    const sc_job *j = js->job;
    if (j->count_only) return SC_OK;
    if (j->rejects) {
        sc_writer_opts ro = sc_job_writer_opts(j);
        ro.wide = 0;
        return sc_writer_open(&js->rejects, js->ctx, j->rejects, &ro);
    }
    return sc_spill_open(&js->spill, js->ctx, j->tmpdir,
                         j->buffer_bytes ? j->buffer_bytes
                                         : sc_default_buffer_bytes(),
                         sc_job_elem_bytes(j));
}

static void describe(const job_state *js, sc_chunk_work *w)
{
    w->work = SC_JOB_SPLIT;
    w->pred = &js->job->pred;
    w->rec = js->job->record.size ? &js->job->record : NULL;
    w->figures_only = js->job->count_only;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    sc_ctx *ctx = js->ctx;
    sc_chunk *c = &s->c;
    const sc_job *j = js->job;
    sc_status st;
    int alone = j->count_only && b->counts_alone;
    void *sel = alone ? NULL : c->out, *rej = alone ? NULL : c->aux;
    if (j->record.size)
        SC_ON(b, split_records(ctx, js->times, c->in, c->n, &j->record,
                               j->big_endian, &j->pred, sel, rej,
                               &c->n_sel));
    else
        SC_ON(b, split(ctx, js->times, c->in, c->n, &j->pred, sel, rej,
                       &c->n_sel));
    return st;
}

static sc_status emit(void *op, sc_slot *s)
{
    job_state *js = op;
    sc_chunk *c = &s->c;
    size_t r = c->n - (size_t)c->n_sel;
    js->kept += c->n_sel;
    js->rejected += r;
    if (js->job->count_only) return SC_OK;
    sc_status st = !r ? SC_OK
                 : js->rejects ? sc_writer_write(js->rejects, c->aux, r)
                 : sc_spill_add(js->spill, c->aux, r);
    if (st == SC_OK) st = sc_writer_write(js->out, c->out, (size_t)c->n_sel);
    s->n_out = st == SC_OK ? (size_t)c->n_sel : 0;
    return st;
}

static int figures(const job_state *js, char *line, size_t len)
{
    if (!js->job->count_only) return 0;
    return snprintf(line, len, "%" PRIu64 " %" PRIu64 "\n", js->kept,
                    js->rejected);
}

const sc_job_type sc_split_job = {
    .work = SC_JOB_SPLIT, .need_aux = 1, .out_bytes = out_bytes,
    .wide = wide, .open_more = open_more, .describe = describe,
    .process = process, .emit = emit, .figures = figures,
    .cpu_only = sc_job_records_cpu,
};
