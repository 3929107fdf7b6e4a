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
#include "jobs/stream_job.h"

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
    uint64_t ranks[SC_MAX_PARTS];   /* the bounds' (sc_type_rank) */
} ranges_state;

/* A chunk's aux buffer carries its parts' sizes from the worker to the
 * writer: at most SC_MAX_PARTS * 8 bytes, within the smallest chunk. */
_Static_assert(SC_MAX_PARTS * sizeof(uint64_t) <= SC_MIN_CHUNK_BYTES,
               "the parts' sizes fit in the smallest chunk's aux buffer");

static sc_status check_bounds(sc_ctx *ctx, const sc_job *j)
{
    sc_type t = sc_job_key_type(j);    /* the bounds' type */
    if (j->n_bounds >= SC_MAX_PARTS)
        return sc_fail(ctx, SC_ERR_USAGE, "%zu range bounds: at most %d "
                       "(%d parts)", j->n_bounds, SC_MAX_PARTS - 1,
                       SC_MAX_PARTS);
    if (j->n_bounds && !j->bounds)
        return sc_fail(ctx, SC_ERR_USAGE, "range bounds missing");
    if (j->rejects)
        return sc_fail(ctx, SC_ERR_USAGE, "a split by ranges has no rejects "
                       "file: every element goes to a part");
    /* A library caller's bound of a 32-bit type must be one. */
    for (size_t k = 0; sc_type_size(t) == 4 && k < j->n_bounds; k++)
        if (j->bounds[k] > UINT32_MAX)
            return sc_fail(ctx, SC_ERR_USAGE, "range bound %zu (0x%" PRIx64
                           ") is beyond 32 bits, the width of %s", k + 1,
                           j->bounds[k], sc_type_name(t));
    uint32_t type = (uint32_t)t;
    for (size_t k = 1; k < j->n_bounds; k++)
        if (sc_type_rank(type, j->bounds[k]) <=
            sc_type_rank(type, j->bounds[k - 1])) {
            char a[SC_VALUE_CHARS], b[SC_VALUE_CHARS];
            sc_value_format(t, j->bounds[k], a);
            sc_value_format(t, j->bounds[k - 1], b);
            return sc_fail(ctx, SC_ERR_USAGE, "range bounds must increase: "
                           "%s follows %s", a, b);
        }
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
    sc_writer_opts o = sc_job_writer_opts(rs->job);
    o.wide = 0;
    sc_status st = SC_OK;
    for (unsigned p = 0; p < rs->parts && st == SC_OK; p++)
        st = sc_writer_open_shared(&rs->out[p], ctx, rs->names[p], &o,
                                   rs->parts, rs->gz_pool);
    return st;
}

static sc_status process(void *op, sc_slot *s, const sc_backend *b)
{
    const job_state *js = op;
    ranges_state *rs = js->own;
    (void)b;    /* CPU-only: there is no GPU kernel for this split */
    const sc_job *j = rs->job;
    return sc_split_ranges(rs->ctx, js->times, s->c.in, s->c.n, rs->ranks,
                           sc_job_key_type(j), &j->record, j->big_endian,
                           rs->parts - 1, s->c.out, (uint64_t *)s->c.aux);
}

static sc_status emit(void *op, sc_slot *s)
{
    const job_state *js = op;
    ranges_state *rs = js->own;
    const uint64_t *counts = (const uint64_t *)s->c.aux;
    const unsigned char *at = s->c.out;
    size_t size = sc_job_elem_bytes(rs->job);
    sc_status st = SC_OK;
    for (unsigned p = 0; p < rs->parts && st == SC_OK; p++) {
        rs->total[p] += counts[p];
        if (rs->out && counts[p])
            st = sc_writer_write(rs->out[p], at, (size_t)counts[p]);
        at += counts[p] * size;
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
static sc_status finish(job_state *js, sc_status st)
{
    ranges_state *rs = js->own;
    if (!rs) return st;
    st = sc_ctx_settle(rs->ctx, st);
    if (rs->figures) {
        if (js->source_open && (st == SC_OK || sc_is_data_fault(st))) {
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

static ranges_state *state_new(sc_ctx *ctx, const sc_job *j)
{
    ranges_state *rs = calloc(1, sizeof *rs);
    if (!rs) return NULL;
    rs->ctx = ctx;
    rs->job = j;
    rs->parts = (unsigned)j->n_bounds + 1;
    /* Bounds beyond the most are refused by check_bounds. */
    for (size_t k = 0; j->bounds && k < j->n_bounds && k < SC_MAX_PARTS; k++)
        rs->ranks[k] = sc_type_rank((uint32_t)sc_job_key_type(j),
                                    j->bounds[k]);
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

static sc_status check(sc_ctx *ctx, const sc_job *j)
{
    ranges_state *rs = state_new(ctx, j);
    if (!rs) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = check_outputs(rs);
    state_free(rs);
    return st;
}

/* The part files (count_only: -o's line of sizes). */
static sc_status open(job_state *js)
{
    ranges_state *rs = state_new(js->ctx, js->job);
    if (!rs) return sc_fail(js->ctx, SC_ERR_NOMEM, "out of memory");
    js->own = rs;
    sc_status st = check_outputs(rs);
    if (st != SC_OK) return st;
    if (!js->job->count_only) return open_parts(rs);
    sc_writer_opts text = { .fmt = SC_FMT_TEXT, .level = 6 };
    return sc_writer_open(&rs->figures, rs->ctx, js->job->output, &text);
}

static int cpu_only(const job_state *js) { (void)js; return 1; }

static size_t out_bytes(const sc_job *j) { return sc_job_elem_bytes(j); }

static void release(job_state *js)
{
    if (js->own) state_free(js->own);
}

const sc_job_type sc_ranges_job = {
    .work = SC_JOB_SPLIT, .need_aux = 1, .out_bytes = out_bytes,
    .process = process, .emit = emit, .check = check, .open = open,
    .cpu_only = cpu_only, .in_order = 1, .finish = finish, .free = release,
};
