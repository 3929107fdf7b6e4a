/* bincount_job.c — sc-stat --bincount[=N]: the count of each value 0 ..
 * N-1 of the elements (or records' keys), unsigned, written at the end
 * as u64 elements in the output's format.  The counts are the job's
 * memory, 8 bytes a bin: all of them from the start when N is given,
 * else grown to the greatest value seen + 1, chunk by chunk.  Chunks are
 * counted on the CPU, one after another, each on the pool's threads. */
#include <inttypes.h>
#include <stdlib.h>
#include "jobs/stream_job.h"

typedef struct bin_state {
    uint64_t *counts;
    uint64_t bins;              /* counts' length */
    int out_of_range;           /* a value >= N: nothing is written */
} bin_state;

/* Room for `bins` counts, the new ones 0; `why` says what asked. */
static sc_status grow(sc_ctx *ctx, bin_state *bs, uint64_t bins,
                      const char *why)
{
    const char *what;
    uint64_t limit = sc_memory_limit(&what) / sizeof *bs->counts;
    uint64_t *c = bins <= limit && bins <= SIZE_MAX / sizeof *c
                ? realloc(bs->counts, (size_t)bins * sizeof *c) : NULL;
    if (!c)
        return sc_fail(ctx, SC_ERR_NOMEM, "%" PRIu64 " counts of --bincount "
                       "(%s) do not fit in memory (8 bytes each)", bins, why);
    memset(c + bs->bins, 0, (size_t)(bins - bs->bins) * sizeof *c);
    bs->counts = c;
    bs->bins = bins;
    return SC_OK;
}

static sc_status open(job_state *js)
{
    const sc_job *j = js->job;
    bin_state *bs = calloc(1, sizeof *bs);
    if (!bs) return sc_fail(js->ctx, SC_ERR_NOMEM, "out of memory");
    js->own = bs;
    sc_status st = j->bins ? grow(js->ctx, bs, j->bins, "N") : SC_OK;
    sc_writer_opts o = sc_job_writer_opts(j);
    o.type = SC_U64;
    o.record = 0;
    return st == SC_OK ? sc_writer_open(&js->out, js->ctx, j->output, &o) : st;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    const sc_job *j = js->job;
    bin_state *bs = js->own;
    sc_chunk *c = &s->c;
    (void)b;
    const void *x = sc_job_keys(js, c);
    unsigned size = sc_type_size(j->type);
    sc_status st = SC_OK;
    if (!j->bins && c->n) {
        uint64_t top = sc_max_key(js->ctx, x, c->n, size);
        if (top >= bs->bins)
            st = top == UINT64_MAX ? sc_fail(js->ctx, SC_ERR_NOMEM,
                                             "2^64 counts of --bincount "
                                             "(the value 2^64-1) do not fit "
                                             "in memory")
                                   : grow(js->ctx, bs, top + 1, "max + 1");
    }
    uint64_t bad = c->n;
    if (st == SC_OK)
        st = sc_bincount_add(js->ctx, js->times, x, c->n, size, bs->bins,
                             bs->counts, &bad);
    if (st != SC_OK || bad == c->n) return st;
    bs->out_of_range = 1;
    return sc_fail(js->ctx, SC_ERR_RANGE, "%s %" PRIu64 ": value %" PRIu64
                   " is not below --bincount's %" PRIu64,
                   j->record.size ? "record" : "element", c->first + bad,
                   sc_elem_bits(x, bad, size), bs->bins);
}

static sc_status emit(void *op, sc_slot *s)
{
    (void)op;
    s->n_out = 0;
    return SC_OK;
}

/* The counts, after a fault in the data too (those of what was read),
 * but never after a value out of range. */
static sc_status finish(job_state *js, sc_status st)
{
    const sc_job *j = js->job;
    bin_state *bs = js->own;
    st = sc_ctx_settle(js->ctx, st);
    if (js->source_open && bs && !bs->out_of_range &&
        (st == SC_OK || sc_is_data_fault(st))) {
        sc_status w = sc_writer_write(js->out, bs->counts, (size_t)bs->bins);
        if (w != SC_OK) st = w;
        else js->kept = bs->bins;       /* -v's out: the counts */
    }
    if (js->out && bs && bs->out_of_range) {
        /* Nothing at all, not even a compressed stream's empty frame. */
        sc_writer_abort(js->out);
        return st;
    }
    return js->out ? sc_job_close_output(js->out, j->output, st) : st;
}

static void release(job_state *js)
{
    bin_state *bs = js->own;
    if (!bs) return;
    free(bs->counts);
    free(bs);
}

static int cpu_only(const job_state *js) { (void)js; return 1; }

const sc_job_type sc_bincount_job = {
    .work = SC_JOB_STAT, .open = open, .process = process, .emit = emit,
    .finish = finish, .free = release, .cpu_only = cpu_only, .in_order = 1,
    .keys = 1,
};
