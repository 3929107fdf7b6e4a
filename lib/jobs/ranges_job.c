/* ranges_job.c — sc-split --ranges: one pass that cuts the stream into
 * parts by value, part p into the file that -o's pattern names with p.
 *
 * The worker splits each chunk into its parts, one after another
 * (cpu_ranges.c; there is no GPU kernel, so the job is CPU-only as
 * sc-stat is), and the writer appends each part to its file, in input
 * order: memory stays at a few chunks, and a compression buffer per
 * part, whatever the input's length.  The files are replaced together
 * when the run succeeds, or none of them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "parts.h"
#include "pipeline.h"

/* -o's pattern: prefix, the part number (zero-padded to width), suffix. */
typedef struct pattern {
    char *prefix, *suffix;
    int width;
} pattern;

typedef struct ranges_state {
    sc_ctx *ctx;
    const sc_job *job;
    unsigned parts;
    pattern pat;
    char **names;               /* the part files */
    sc_writer **out;            /* one per part; none with count_only */
    sc_writer *figures;         /* count_only: the line of sizes */
    sc_pool *gz_pool;           /* -z: the parts' compression threads */
    uint64_t total[SC_MAX_PARTS];
} ranges_state;

/* A chunk's aux buffer carries its parts' sizes from the worker to the
 * writer: at most SC_MAX_PARTS * 8 bytes, within the smallest chunk. */
_Static_assert(SC_MAX_PARTS * sizeof(uint64_t) <= SC_MIN_CHUNK_BYTES,
               "the parts' sizes fit in the smallest chunk's aux buffer");

static sc_status check_bounds(sc_ctx *ctx, const sc_job *j)
{
    if (j->n_bounds >= SC_MAX_PARTS)
        return sc_fail(ctx, SC_ERR_USAGE, "%zu range bounds: at most %d "
                       "(%d parts)", j->n_bounds, SC_MAX_PARTS - 1,
                       SC_MAX_PARTS);
    if (j->n_bounds && !j->bounds)
        return sc_fail(ctx, SC_ERR_USAGE, "range bounds missing");
    if (j->rejects)
        return sc_fail(ctx, SC_ERR_USAGE, "a split by ranges has no rejects "
                       "file: every element goes to a part");
    for (size_t k = 1; k < j->n_bounds; k++)
        if (j->bounds[k] <= j->bounds[k - 1])
            return sc_fail(ctx, SC_ERR_USAGE, "range bounds must increase: "
                           "%" PRIu32 " follows %" PRIu32, j->bounds[k],
                           j->bounds[k - 1]);
    return SC_OK;
}

/* Copies text[0..len) into a new string, %% read as %. */
static char *unescape(const char *text, size_t len)
{
    char *s = malloc(len + 1), *to = s;
    for (size_t i = 0; s && i < len; i++) {
        *to++ = text[i];
        if (text[i] == '%') i++;
    }
    if (s) *to = '\0';
    return s;
}

static sc_status bad_pattern(sc_ctx *ctx, const char *pat, const char *why)
{
    return sc_fail(ctx, SC_ERR_USAGE, "output name '%s': %s", pat, why);
}

/* One %d or %0Nd (N from 1 to 9), and %% for a percent sign. */
static sc_status parse_pattern(sc_ctx *ctx, const char *pat, pattern *p)
{
    const char *conv = NULL, *after = NULL;
    int width = 0;
    for (const char *c = pat; *c; c++) {
        if (*c != '%') continue;
        if (c[1] == '%') { c++; continue; }
        const char *d = c + 1;
        if (d[0] == '0' && d[1] >= '1' && d[1] <= '9') { width = d[1] - '0';
                                                          d += 2; }
        if (*d != 'd')
            return bad_pattern(ctx, pat, "only %d, %0Nd (N from 1 to 9) and "
                               "%% may follow a %");
        if (conv) return bad_pattern(ctx, pat, "more than one %d");
        conv = c;
        after = d + 1;
        c = d;
    }
    if (!conv)
        return bad_pattern(ctx, pat, "a split by ranges needs a %d in the "
                           "name for the part number");
    p->width = width;
    p->prefix = unescape(pat, (size_t)(conv - pat));
    p->suffix = unescape(after, strlen(after));
    return p->prefix && p->suffix ? SC_OK
                                  : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
}

static char *part_name(const pattern *p, unsigned part)
{
    size_t len = strlen(p->prefix) + strlen(p->suffix) + 16;
    char *name = malloc(len);
    if (name) snprintf(name, len, "%s%0*u%s", p->prefix, p->width, part,
                       p->suffix);
    return name;
}

/* The part files' names, each checked as -o is: not an input. */
static sc_status name_parts(ranges_state *rs)
{
    sc_status st = parse_pattern(rs->ctx, rs->job->output, &rs->pat);
    if (st == SC_OK && !(rs->names = calloc(rs->parts, sizeof *rs->names)))
        st = sc_fail(rs->ctx, SC_ERR_NOMEM, "out of memory");
    sc_job one = *rs->job;
    one.rejects = NULL;
    for (unsigned p = 0; p < rs->parts && st == SC_OK; p++) {
        one.output = rs->names[p] = part_name(&rs->pat, p);
        st = one.output ? sc_check_outputs(rs->ctx, &one)
                        : sc_fail(rs->ctx, SC_ERR_NOMEM, "out of memory");
    }
    return st;
}

/* Compression threads and buffers are per writer: shared out among the
 * parts, so that many parts cost no more threads than -j, and about
 * 1 MiB of gzip or 12 MiB of zstd buffers each (sc_writer_share).  One
 * pool serves every part's gzip: the writer thread compresses one part
 * at a time, on all the threads. */
static sc_status open_parts(ranges_state *rs)
{
    sc_ctx *ctx = rs->ctx;
    rs->out = calloc(rs->parts, sizeof *rs->out);
    if (!rs->out) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (rs->job->out.fmt == SC_FMT_GZ &&
        sc_pool_new(&rs->gz_pool, ctx->threads) != SC_OK)
        return sc_fail_errno(ctx, SC_ERR_NOMEM, errno, "cannot start "
                             "compression threads");
    unsigned threads = ctx->threads;
    ctx->threads = threads / rs->parts ? threads / rs->parts : 1;
    sc_writer_opts o = rs->job->out;
    o.wide = 0;
    sc_status st = SC_OK;
    for (unsigned p = 0; p < rs->parts && st == SC_OK; p++) {
        st = sc_writer_open(&rs->out[p], ctx, rs->names[p], &o);
        if (st == SC_OK) sc_writer_share(rs->out[p], rs->parts, rs->gz_pool);
    }
    ctx->threads = threads;
    return st;
}

static sc_status process(void *arg, sc_slot *s, const sc_backend *b)
{
    ranges_state *rs = arg;
    (void)b;    /* CPU-only: there is no GPU kernel for this split */
    return sc_cpu_ranges(rs->ctx, s->c.in, s->c.n, rs->job->bounds,
                         rs->parts - 1, s->c.out, (uint64_t *)s->c.aux);
}

static sc_status emit(void *arg, sc_slot *s)
{
    ranges_state *rs = arg;
    const uint64_t *counts = (const uint64_t *)s->c.aux;
    const uint32_t *at = s->c.out;
    sc_status st = SC_OK;
    for (unsigned p = 0; p < rs->parts && st == SC_OK; p++) {
        rs->total[p] += counts[p];
        if (rs->out && counts[p])
            st = sc_writer_write(rs->out[p], at, (size_t)counts[p]);
        at += counts[p];
    }
    s->n_out = st == SC_OK ? s->c.n : 0;
    return st;
}

/* --count's line: the parts' sizes, in part order. */
static sc_status print_sizes(ranges_state *rs)
{
    char line[SC_MAX_PARTS * 21 + 1];
    size_t len = 0;
    for (unsigned p = 0; p < rs->parts; p++)
        len += (size_t)snprintf(line + len, sizeof line - len, "%s%" PRIu64,
                                p ? " " : "", rs->total[p]);
    line[len++] = '\n';
    return sc_writer_write_bytes(rs->figures, line, len);
}

/* The parts are files: all replaced on success, none after a fault.
 * --count's line still goes out after a fault in the data, as split's. */
static sc_status finish(ranges_state *rs, sc_status st)
{
    st = sc_ctx_settle(rs->ctx, st);
    if (rs->figures) {
        if (st == SC_OK || sc_is_data_fault(st)) {
            sc_status f = print_sizes(rs);
            if (f != SC_OK) st = f;
        }
        return sc_job_close_output(rs->figures, rs->job->output, st);
    }
    unsigned opened = 0;
    while (rs->out && opened < rs->parts && rs->out[opened]) opened++;
    if (st == SC_OK && opened == rs->parts)
        return sc_writer_commit_all(rs->out, rs->parts);
    for (unsigned p = 0; p < opened; p++) sc_writer_abort(rs->out[p]);
    return st;
}

static sc_status stream(ranges_state *rs, sc_reader *r, uint64_t *in)
{
    sc_ctx *ctx = rs->ctx;
    const sc_job *j = rs->job;
    size_t chunk = sc_chunk_bytes(ctx, j->chunk_bytes, sc_reader_size_hint(r),
                                  SC_WORK_SPLIT);
    sc_pipeline_cfg cfg = { ctx, sc_reader_source(r), chunk / 4,
                            j->chunk_bytes != 0, j->prog ? j->prog : "sc",
                            j->progress, 0 };
    sc_stage_ops ops = { process, emit, rs, 4, 1, { 0 }, 1, 0, NULL, NULL };
    ops.work.work = SC_WORK_SPLIT;
    sc_pipeline_stats ps = { 0, 0 };
    ctx->phase_threads = ctx->threads > 1 ? ctx->threads - 1 : 1;
    sc_status st = sc_pipeline_run(&cfg, &ops, &ps);
    ctx->phase_threads = 0;
    *in = ps.in;
    return st;
}

/* What the job's options and outputs allow, before anything is opened:
 * the bounds, and the part files' names (count_only: -o's). */
static sc_status check_outputs(ranges_state *rs)
{
    const sc_job *j = rs->job;
    sc_status st = check_bounds(rs->ctx, j);
    if (st != SC_OK) return st;
    if (j->count_only) return sc_check_outputs(rs->ctx, j);
    if (!j->output || strcmp(j->output, "-") == 0)
        return sc_fail(rs->ctx, SC_ERR_USAGE, "a split by ranges writes "
                       "files: it needs an output name with a %%d for the "
                       "part number");
    return name_parts(rs);
}

static sc_status open_all(ranges_state *rs, sc_reader **r)
{
    const sc_job *j = rs->job;
    sc_status st = check_outputs(rs);
    if (st != SC_OK) return st;
    if (j->count_only) {
        sc_writer_opts text = { SC_FMT_TEXT, 6, 0 };
        st = sc_writer_open(&rs->figures, rs->ctx, j->output, &text);
    } else {
        st = open_parts(rs);
    }
    return st ? st : sc_reader_open(r, rs->ctx, j->inputs, j->n_inputs,
                                    j->in_fmt);
}

static ranges_state *state_new(sc_ctx *ctx, const sc_job *j)
{
    ranges_state *rs = calloc(1, sizeof *rs);
    if (!rs) return NULL;
    rs->ctx = ctx;
    rs->job = j;
    rs->parts = (unsigned)j->n_bounds + 1;
    return rs;
}

static void state_free(ranges_state *rs)
{
    for (unsigned p = 0; rs->names && p < rs->parts; p++) free(rs->names[p]);
    free(rs->names);
    free(rs->out);
    sc_pool_free(rs->gz_pool);
    free(rs->pat.prefix);
    free(rs->pat.suffix);
    free(rs);
}

sc_status sc_ranges_check(sc_ctx *ctx, const sc_job *j)
{
    ranges_state *rs = state_new(ctx, j);
    if (!rs) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = check_outputs(rs);
    state_free(rs);
    return st;
}

sc_status sc_run_ranges(sc_ctx *ctx, const sc_job *j)
{
    double t0 = sc_now();
    ranges_state *rs = state_new(ctx, j);
    if (!rs) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_reader *r = NULL;
    uint64_t in = 0;
    sc_status st = open_all(rs, &r);
    if (st == SC_OK) st = stream(rs, r, &in);
    sc_reader_close(r);
    st = finish(rs, st);
    if (j->verbose) sc_job_report(ctx, j, in, in, sc_now() - t0);
    state_free(rs);
    return st;
}
