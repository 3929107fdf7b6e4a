/* scan_job.c — sc-scan: the running accumulator carried from chunk to
 * chunk (on the device between GPU chunks); or only its final value.
 * Max and min of a signed or float type carry a rank (sc_scan_ranks),
 * ranked from the job's carry_in and written back for --total; float
 * sums are a kind of their own (sc_fsum_job), on the CPU, in order.
 * Elements of an 8-byte type have a 64-bit accumulator and are never
 * widened; so have records' keys, gathered chunk by chunk on the host's
 * threads (sc_job_keys).  --offsets writes the total after the exclusive
 * scan's values. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "jobs/stream_job.h"

static int elems64(const sc_job *j) { return sc_type_size(j->type) == 8; }
static size_t out_bytes(const sc_job *j)
{
    return j->out.wide ? 8 : sc_type_size(j->type);
}
static int wide(const sc_job *j) { return j->out.wide; }
/* Whether the accumulator is 64-bit (sc_scan_combine's `wide`). */
static int acc64(const sc_job *j) { return j->out.wide || elems64(j); }

static void describe(const job_state *js, sc_chunk_work *w)
{
    const sc_job *j = js->job;
    w->work = SC_JOB_SCAN;
    w->op = j->scan_op;
    w->inclusive = j->inclusive;
    w->wide = j->out.wide;
    w->type = j->type;
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
    const void *in = sc_job_keys(js, c);
    SC_ON(b, scan(ctx, js->times, in, c->n, j->type, j->scan_op,
                  j->inclusive, j->out.wide, c->out, &c->carry_out));
    return st;
}

/* For threads that each take a whole chunk: what the chunk adds to the
 * carry, and the carry after it.  Records' keys are gathered here and
 * again by process(), from the chunk that the core's cache still
 * holds. */
static uint64_t reduce(void *op, const sc_slot *s)
{
    const job_state *js = op;
    const sc_job *j = js->job;
    return sc_scan_reduce_type(sc_job_keys(js, &s->c), s->c.n, j->type,
                               j->scan_op, j->out.wide);
}

static uint64_t combine(void *op, uint64_t carry, uint64_t reduced)
{
    const job_state *js = op;
    const sc_job *j = js->job;
    return sc_scan_combine(j->scan_op, acc64(j), carry, reduced);
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

static uint64_t first_carry(const sc_job *j)
{
    return sc_scan_carry_rank(j->type, j->scan_op, j->carry_in, 0);
}

/* The accumulator c as a value of *t: the output's type, but a double
 * for a float sum (sc_type_wide(SC_F64) is itself). */
static uint64_t total_value(const sc_job *j, uint64_t c, sc_type *t)
{
    *t = j->type;
    if (sc_scan_ranks((uint32_t)*t, (int)j->scan_op)) {
        c = sc_scan_carry_rank(*t, j->scan_op, c, 1);
        if (j->out.wide) c = sc_widen((uint32_t)*t, (uint32_t)c);
    }
    if (j->out.wide || (sc_type_is_float(*t) && j->scan_op == SC_OP_SUM))
        *t = sc_type_wide(*t);
    return c;
}

/* The accumulator c, as --total prints it, and a newline. */
static int total_line(const sc_job *j, uint64_t c, char *line, size_t len)
{
    sc_type t;
    c = total_value(j, c, &t);
    char v[SC_VALUE_CHARS];
    sc_value_format(t, c, v);
    return snprintf(line, len, "%s\n", v);
}

/* --offsets: the accumulator c after the exclusive scan's values, as one
 * more of them (an f32 sum's double rounded as they are). */
static sc_status write_total(job_state *js, uint64_t c)
{
    const sc_job *j = js->job;
    if (!j->offsets) return SC_OK;
    sc_type t, out = j->out.wide ? sc_type_wide(j->type) : j->type;
    c = total_value(j, c, &t);
    if (sc_type_size(out) == 8) return sc_writer_write(js->out, &c, 1);
    uint32_t narrow = (uint32_t)c;
    if (t == SC_F64) {
        double d;
        memcpy(&d, &c, 8);
        float f = (float)d;
        memcpy(&narrow, &f, 4);
    }
    return sc_writer_write(js->out, &narrow, 1);
}

static sc_status last(job_state *js) { return write_total(js, js->carry); }

static int figures(const job_state *js, char *line, size_t len)
{
    if (!js->job->scan_total) return 0;
    return total_line(js->job, js->carry, line, len);
}

const sc_job_type sc_scan_job = {
    .work = SC_JOB_SCAN, .out_bytes = out_bytes, .wide = wide,
    .first_carry = first_carry,
    .describe = describe, .process = process, .emit = emit,
    .figures = figures, .reduce = reduce, .combine = combine,
    .cpu_only = sc_job_records, .keys = 1, .last = last,
};

/* Float sums: the carry is the double's bits, and a block's partial sum
 * goes from chunk to chunk with it, so the chunks run in order. */
static sc_status fsum_process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    const sc_job *j = js->job;
    (void)b;
    if (!js->fsum_started) {
        memcpy(&js->fsum.carry, &js->carry, 8);
        js->fsum_started = 1;
    }
    sc_chunk *c = &s->c;
    return sc_fsum_scan(js->ctx, js->times, sc_job_keys(js, c), c->n,
                        j->type, c->first, j->inclusive, j->out.wide, c->out,
                        &js->fsum);
}

static sc_status fsum_emit(void *op, sc_slot *s)
{
    job_state *js = op;
    if (js->job->scan_total) return SC_OK;
    sc_status st = sc_writer_write(js->out, s->c.out, s->c.n);
    s->n_out = st == SC_OK ? s->c.n : 0;
    return st;
}

/* The total's double's bits.  Before any chunk the total is the
 * carry-in, a NaN made +nan as every NaN sum is. */
static uint64_t fsum_total(const job_state *js)
{
    sc_fsum_state st = js->fsum;
    if (!js->fsum_started) memcpy(&st.carry, &js->carry, 8);
    double total = sc_fsum_total(&st);
    uint64_t c;
    memcpy(&c, &total, 8);
    return c;
}

static int fsum_figures(const job_state *js, char *line, size_t len)
{
    if (!js->job->scan_total) return 0;
    return total_line(js->job, fsum_total(js), line, len);
}

static sc_status fsum_last(job_state *js)
{
    return write_total(js, fsum_total(js));
}

static int fsum_cpu_only(const job_state *js) { (void)js; return 1; }

const sc_job_type sc_fsum_job = {
    .work = SC_JOB_SCAN, .out_bytes = out_bytes, .wide = wide,
    .process = fsum_process, .emit = fsum_emit, .figures = fsum_figures,
    .cpu_only = fsum_cpu_only, .in_order = 1, .keys = 1, .last = fsum_last,
};
