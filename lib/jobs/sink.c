/* sink.c — where sc-rsort's sorted items go (merge.h's sc_sink): -u's
 * filter, then the writer or a runs file; with --indices the items are
 * keys with their positions, of which the positions are written.  -m
 * --indices holds its positions (tagged with their input) in a spill
 * until every input's length, and so each input's first position, is
 * known. */
#include <stdlib.h>
#include <string.h>
#include "jobs/merge.h"
#include "jobs/spill.h"
#include "stream/stream.h"

/* Keys with their positions to the positions alone, as uint64_t or (w 4)
 * uint32_t, in place: position i goes where no item after i lies. */
static void keep_positions(void *v, size_t n, unsigned w)
{
    unsigned char *p = v;
    for (size_t i = 0; i < n; i++) {
        uint64_t pos;
        memcpy(&pos, p + i * SC_KEYPOS_BYTES + SC_KEYPOS_AT, sizeof pos);
        uint32_t narrow = (uint32_t)pos;
        if (w == 8) memcpy(p + i * 8, &pos, 8);
        else memcpy(p + i * 4, &narrow, 4);
    }
}

static sc_status write_items(sc_sink *s, const void *v, size_t n)
{
    double t0 = sc_now();
    sc_status st = sc_writer_write(s->w, v, n);
    sc_phase_add(s->times, SC_PH_WRITE, sc_now() - t0);
    s->out += n;
    return st;
}

sc_status sc_sink_put(sc_sink *s, void *v, size_t n)
{
    size_t kept = s->unique ? sc_uniq_apply(s->order, &s->uniq, v, n) : n;
    unsigned shown = s->input_size ? s->input_size : s->order->size;
    if (s->progress)
        sc_progress_add(s->progress, (double)shown * (double)n);
    if (kept == 0) return SC_OK;
    if (s->held) {
        keep_positions(v, kept, 8);
        return sc_spill_add(s->held, v, kept);
    }
    if (s->positions) keep_positions(v, kept, s->positions);
    if (s->to_runs) {
        s->out += kept;
        return sc_runs_append(s->to_runs, v, kept);
    }
    return write_items(s, v, kept);
}

sc_status sc_sink_open(sc_sink *s, sc_ctx *ctx, const sc_job *j,
                       const sc_elem_order *item, unsigned input_size,
                       sc_phase_times *times)
{
    memset(s, 0, sizeof *s);
    s->ctx = ctx;
    s->order = item;
    s->unique = j->unique;
    s->times = times;
    s->input_size = input_size;
    sc_writer_opts o = sc_job_writer_opts(j);
    o.wide = 0;
    if (j->compact_out != SC_OUT_VALUES) {
        /* Positions are unsigned whatever the elements are. */
        int narrow = j->compact_out == SC_OUT_INDICES32;
        s->positions = narrow ? 4 : 8;
        o.type = narrow ? SC_U32 : SC_U64;
        o.record = 0;
        o.field = 0;
    }
    return sc_writer_open(&s->w, ctx, j->output, &o);
}

sc_status sc_positions_fit(sc_ctx *ctx, const sc_job *j, uint64_t n)
{
    if (j->compact_out != SC_OUT_INDICES32 || n <= (uint64_t)UINT32_MAX + 1)
        return SC_OK;
    return sc_fail(ctx, SC_ERR_RANGE, "--indices=32: the input holds more "
                   "than 4294967296 %s, whose positions do not fit; use "
                   "--indices", j->record.size ? "records" : "elements");
}

sc_status sc_sink_hold(sc_sink *s, const char *tmpdir, size_t mem_bytes)
{
    return sc_spill_open(&s->held, s->ctx, tmpdir, mem_bytes,
                         sizeof (uint64_t));
}

/* Tagged positions to positions in the stream, written. */
typedef struct release {
    sc_sink *s;
    const uint64_t *first;      /* each input's first position */
    uint64_t buf[4096];
} release;

static sc_status release_some(void *arg, const void *tagged, size_t n)
{
    release *r = arg;
    const uint64_t *t = tagged;
    sc_status st = SC_OK;
    for (size_t at = 0; st == SC_OK && at < n;) {
        size_t m = n - at < 2048 ? n - at : 2048;
        uint32_t *narrow = (uint32_t *)r->buf;
        for (size_t i = 0; i < m; i++) {
            uint64_t x = t[at + i];
            uint64_t pos = r->first[x >> SC_TAG_SHIFT] +
                           (x & (((uint64_t)1 << SC_TAG_SHIFT) - 1));
            if (r->s->positions == 4) narrow[i] = (uint32_t)pos;
            else r->buf[i] = pos;
        }
        st = write_items(r->s, r->buf, m);
        at += m;
    }
    return st;
}

sc_status sc_sink_release(sc_sink *s, const sc_job *j,
                          const uint64_t *lengths, size_t n)
{
    release *r = malloc(sizeof *r);
    uint64_t *first = malloc((n ? n : 1) * sizeof *first), total = 0;
    sc_status st = r && first ? SC_OK
                 : sc_fail(s->ctx, SC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; st == SC_OK && i < n; i++) {
        first[i] = total;
        total += lengths[i];
    }
    if (st == SC_OK) st = sc_positions_fit(s->ctx, j, total);
    if (st == SC_OK) {
        r->s = s;
        r->first = first;
        st = sc_spill_walk(s->held, release_some, r);
    }
    free(first);
    free(r);
    return st;
}

void sc_sink_close_held(sc_sink *s)
{
    sc_spill_close(s->held);
    s->held = NULL;
}
