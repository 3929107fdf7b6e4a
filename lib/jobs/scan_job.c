/* scan_job.c — sc-scan: the running accumulator carried from chunk to
 * chunk (on the device between GPU chunks); or only its final value. */
#include <inttypes.h>
#include <stdio.h>
#include "jobs/stream_job.h"

static size_t out_bytes(const sc_job *j) { return j->out.wide ? 8 : 4; }
static int wide(const sc_job *j) { return j->out.wide; }

static void describe(const job_state *js, sc_chunk_work *w)
{
    const sc_job *j = js->job;
    w->work = SC_JOB_SCAN;
    w->op = j->scan_op;
    w->inclusive = j->inclusive;
    w->wide = j->out.wide;
    w->figures_only = j->scan_total;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    const sc_job *j = js->job;
    sc_ctx *ctx = js->ctx;
    sc_chunk *c = &s->c;
    sc_status st;
    c->carry_out = c->carry_in;
    SC_ON(b, scan(ctx, js->times, c->in, c->n, j->scan_op, j->inclusive,
                  j->out.wide, c->out, &c->carry_out));
    return st;
}

/* For threads that each take a whole chunk: what the chunk adds to the
 * carry, and the carry after it. */
static uint64_t reduce(void *op, const sc_slot *s)
{
    const job_state *js = op;
    const sc_job *j = js->job;
    return sc_scan_reduce(s->c.in, s->c.n, j->scan_op, j->out.wide);
}

static uint64_t combine(void *op, uint64_t carry, uint64_t reduced)
{
    const job_state *js = op;
    const sc_job *j = js->job;
    return sc_scan_combine(j->scan_op, j->out.wide, carry, reduced);
}

static sc_status emit(void *op, sc_slot *s)
{
    job_state *js = op;
    js->carry = s->c.carry_out;
    if (js->job->scan_total) return SC_OK;
    sc_status st = sc_writer_write(js->out, s->c.out, s->c.n);
    s->n_out = st == SC_OK ? s->c.n : 0;
    return st;
}

static int figures(const job_state *js, char *line, size_t len)
{
    if (!js->job->scan_total) return 0;
    return snprintf(line, len, "%" PRIu64 "\n", js->carry);
}

const sc_job_type sc_scan_job = {
    .work = SC_JOB_SCAN, .out_bytes = out_bytes, .wide = wide,
    .describe = describe, .process = process, .emit = emit,
    .figures = figures, .reduce = reduce, .combine = combine,
};
