/* gen_job.c — sc-gen: each chunk's elements made from their positions,
 * which are all its source hands out. */
#include <string.h>
#include "jobs/stream_job.h"

/* Bytes an element takes: 4, or 8 for the 64-bit types; or a record's. */
static size_t elem_size(const sc_job *j) { return sc_job_elem_bytes(j); }

static size_t out_bytes(const sc_job *j) { return elem_size(j); }
static int wide(const sc_job *j) { (void)j; return 0; }

/* The next chunk's positions, up to max: the pipeline sets its first
 * one, and the elements are made from it by process(). */
static sc_status positions(void *self, void *buf, size_t max, size_t *got)
{
    job_state *js = self;
    (void)buf;
    uint64_t made = atomic_load(&js->made);
    uint64_t left = js->job->gen_count - made;
    *got = left < max ? (size_t)left : max;
    atomic_store(&js->made, made + *got);
    return SC_OK;
}

/* In bytes written, the unit the pipeline sizes chunks by. */
static int64_t bytes_in_all(const void *self)
{
    const job_state *js = self;
    uint64_t n = js->job->gen_count, size = elem_size(js->job);
    /* The bytes would not fit an int64_t from 2^63 on; from 2^62 on,
     * "huge" is all the cost model needs to know. */
    const uint64_t huge = (uint64_t)1 << 62;
    return n < huge / size ? (int64_t)(n * size) : (int64_t)huge;
}

static uint64_t bytes_made(const void *self)
{
    const job_state *js = self;
    return elem_size(js->job) * atomic_load(&js->made);
}

static sc_status no_fault(void *self) { (void)self; return SC_OK; }

/* The writer writes the job's type (or its records, whose key's type it
 * is), the plan makes the generator's. */
static sc_status check(sc_ctx *ctx, const sc_job *j)
{
    if (j->gen.type != sc_job_key_type(j))
        return sc_fail(ctx, SC_ERR_USAGE, "generator type %s differs from "
                       "the job's %s type %s", sc_type_name(j->gen.type),
                       j->record.size ? "key" : "element",
                       sc_type_name(sc_job_key_type(j)));
    return sc_check_outputs(ctx, j);
}

static sc_status open_source(job_state *js, sc_source *src)
{
    sc_gen_plan_make(&js->plan, &js->job->gen);
    sc_source s = { positions, bytes_in_all, bytes_made, no_fault, NULL,
                    NULL, NULL, NULL, js, "made", 0 };
    *src = s;
    return SC_OK;
}

static void describe(const job_state *js, sc_chunk_work *w)
{
    w->work = SC_JOB_GEN;
    w->plan = &js->plan;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    sc_ctx *ctx = js->ctx;
    const sc_job *j = js->job;
    sc_status st;
    if (j->record.size)
        return sc_gen_records(ctx, js->times, &js->plan, &j->record,
                              j->big_endian, s->c.first, s->c.out, s->c.n);
    SC_ON(b, gen(ctx, js->times, &js->plan, s->c.first, s->c.out, s->c.n));
    return st;
}

static sc_status emit(void *op, sc_slot *s)
{
    job_state *js = op;
    sc_status st = sc_writer_write(js->out, s->c.out, s->c.n);
    s->n_out = st == SC_OK ? s->c.n : 0;
    return st;
}

const sc_job_type sc_gen_job = {
    .work = SC_JOB_GEN, .out_bytes = out_bytes, .wide = wide,
    .describe = describe, .process = process, .emit = emit,
    .open_source = open_source, .check = check, .cpu_only = sc_job_elems64,
};
