/* gen_job.c — sc-gen: each chunk's elements made from their positions. */
#include <string.h>
#include "stream_job.h"

static size_t out_bytes(const sc_job *j) { (void)j; return 4; }
static int wide(const sc_job *j) { (void)j; return 0; }

static void describe(const job_state *js, sc_chunk_work *w)
{
    w->work = SC_WORK_GEN;
    w->plan = &js->plan;
}

static sc_status process(job_state *js, sc_slot *s, const sc_backend *b)
{
    sc_ctx *ctx = js->ctx;
    sc_status st;
    SC_ON(b, gen(ctx, &js->plan, s->c.first, s->c.out, s->c.n));
    return st;
}

static sc_status emit(job_state *js, sc_slot *s)
{
    sc_status st = sc_writer_write(js->out, s->c.out, s->c.n);
    s->n_out = st == SC_OK ? s->c.n : 0;
    return st;
}

const sc_job_type sc_gen_job = {
    SC_WORK_GEN, 0, out_bytes, wide, NULL, describe, process, emit, NULL
};
