/* compact_job.c — sc-compact: kept values, their positions, or a count. */
#include <inttypes.h>
#include <stdio.h>
#include "jobs/stream_job.h"

static int indices(const sc_job *j)
{
    return j->compact_out == SC_OUT_INDICES32 ||
           j->compact_out == SC_OUT_INDICES64;
}

/* Values are the type's; positions are made 64-bit wide and narrowed on
 * output, except where a chunk's positions fit in 32 bits (the GPU's
 * lanes and the CPU make those narrow themselves). */
static size_t out_bytes(const sc_job *j)
{
    return indices(j) ? 8 : sc_job_elem_bytes(j);
}
static int wide(const sc_job *j) { return j->compact_out == SC_OUT_INDICES64; }

static void describe(const job_state *js, sc_chunk_work *w)
{
    const sc_job *j = js->job;
    w->work = SC_JOB_COMPACT;
    w->pred = &j->pred;
    w->rec = j->record.size ? &j->record : NULL;
    w->out_kind = j->compact_out == SC_OUT_INDICES32 ? SC_EMIT_IDX32
                : j->compact_out == SC_OUT_INDICES64 ? SC_EMIT_IDX64
                : SC_EMIT_VALUES;
    w->figures_only = j->compact_out == SC_OUT_COUNT;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    job_state *js = op;
    const sc_job *j = js->job;
    sc_ctx *ctx = js->ctx;
    sc_chunk *c = &s->c;
    sc_status st;
    /* A device that makes 32-bit positions itself (the CPU) does so where the chunk's all fit,
     * so that the writer thread has none to narrow. */
    int narrow = b->emits_idx32 && j->compact_out == SC_OUT_INDICES32 &&
                 c->first + c->n <= (uint64_t)UINT32_MAX + 1;
    int kind = !indices(j) ? SC_EMIT_VALUES
             : narrow ? SC_EMIT_IDX32 : SC_EMIT_IDX64;
    void *out = j->compact_out == SC_OUT_COUNT && b->counts_alone ? NULL
                                                                 : c->out;
    if (j->record.size)
        SC_ON(b, compact_records(ctx, js->times, c->in, c->n, &j->record,
                                 j->big_endian, &j->pred, kind, c->first,
                                 out, &c->n_sel));
    else
        SC_ON(b, compact(ctx, js->times, c->in, c->n, &j->pred, kind,
                         c->first, out, &c->n_sel));
    c->out_wide = j->compact_out == SC_OUT_INDICES32 && !narrow;
    return st;
}

/* --indices without --wide: the first position past 2^32 - 1 ends the
 * output, after the ones before it. */
static sc_status narrow_indices(job_state *js, sc_slot *s)
{
    const uint64_t *wide_pos = s->c.out;
    uint32_t *narrow = s->c.out;
    uint64_t ok = 0, k = s->c.n_sel;
    while (ok < k && wide_pos[ok] <= UINT32_MAX) {
        narrow[ok] = (uint32_t)wide_pos[ok];
        ok++;
    }
    s->c.n_sel = ok;
    if (ok == k) return SC_OK;
    sc_status st = sc_writer_write(js->out, narrow, (size_t)ok);
    s->n_out = st == SC_OK ? (size_t)ok : 0;
    return st != SC_OK ? st
         : sc_fail(js->ctx, SC_ERR_RANGE, "position %" PRIu64 " of a kept "
                   "element exceeds 4294967295; use --wide", wide_pos[ok]);
}

static sc_status emit(void *op, sc_slot *s)
{
    job_state *js = op;
    sc_chunk *c = &s->c;
    js->kept += c->n_sel;
    if (js->job->compact_out == SC_OUT_COUNT) return SC_OK;
    sc_status st = c->out_wide ? narrow_indices(js, s) : SC_OK;
    if (st == SC_OK) st = sc_writer_write(js->out, c->out, (size_t)c->n_sel);
    s->n_out = st == SC_OK ? (size_t)c->n_sel : 0;
    return st;
}

static int figures(const job_state *js, char *line, size_t len)
{
    if (js->job->compact_out != SC_OUT_COUNT) return 0;
    return snprintf(line, len, "%" PRIu64 "\n", js->kept);
}

const sc_job_type sc_compact_job = {
    .work = SC_JOB_COMPACT, .out_bytes = out_bytes, .wide = wide,
    .describe = describe, .process = process, .emit = emit,
    .figures = figures, .cpu_only = sc_job_records_cpu,
};
