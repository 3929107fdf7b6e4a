/* job.c — an operation applied to streams, chunk by chunk.
 *
 * Each streaming job is three small functions over the pipeline: process
 * a chunk (on the context's device), emit its output, and finish (figures
 * of --count / --total, split's held rejects).  The state carried from
 * chunk to chunk is the job struct below: counts, the scan accumulator,
 * the stream position.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "pipeline.h"
#include "spill.h"


typedef struct job_state {
    sc_ctx *ctx;
    const sc_job *job;
    sc_writer *out;
    sc_writer *rejects;         /* split -r */
    sc_spill *spill;            /* split without -r */
    uint64_t kept, rejected;
    uint64_t carry;             /* scan accumulator */
    sc_status late;             /* an error to report after the output */
} job_state;

/* --indices without --wide: positions are checked, then narrowed. */
static sc_status narrow_indices(job_state *js, sc_slot *s, uint64_t k)
{
    const uint64_t *wide = s->out;
    uint32_t *narrow = s->out;
    uint64_t ok = 0;
    while (ok < k && wide[ok] <= UINT32_MAX) {
        narrow[ok] = (uint32_t)wide[ok];
        ok++;
    }
    s->n_out = (size_t)ok;
    if (ok < k)
        js->late = sc_fail(js->ctx, SC_ERR_RANGE, "position %" PRIu64 " of a "
                           "kept element exceeds 4294967295; use --wide",
                           wide[ok]);
    return SC_OK;
}

static sc_status process(void *arg, sc_slot *s)
{
    job_state *js = arg;
    const sc_job *j = js->job;
    sc_ctx *ctx = js->ctx;
    uint64_t k = 0;
    sc_status st = SC_OK;
    if (js->late) return js->late;      /* nothing after a bad position */
    switch (j->kind) {
    case SC_JOB_GEN:
        st = sc_gen(ctx, &j->gen, s->first, s->out, s->n);
        s->n_out = s->n;
        break;
    case SC_JOB_COMPACT:
        if (j->compact_out == SC_OUT_VALUES || j->compact_out == SC_OUT_COUNT)
            st = sc_compact(ctx, s->in, s->n, &j->pred, s->out, &k);
        else
            st = sc_compact_indices(ctx, s->in, s->n, &j->pred, s->first,
                                    s->out, &k);
        js->kept += k;
        s->n_out = j->compact_out == SC_OUT_COUNT ? 0 : (size_t)k;
        if (st == SC_OK && j->compact_out == SC_OUT_INDICES32)
            st = narrow_indices(js, s, k);
        break;
    case SC_JOB_SPLIT:
        st = sc_split_parts(ctx, s->in, s->n, &j->pred, s->out, s->aux, &k);
        js->kept += k;
        js->rejected += s->n - k;
        s->n_out = j->count_only ? 0 : (size_t)k;
        s->n_aux = j->count_only ? 0 : s->n - (size_t)k;
        break;
    case SC_JOB_SCAN:
        st = sc_scan(ctx, s->in, s->n, j->scan_op, j->inclusive,
                     j->out.wide, s->out, &js->carry);
        s->n_out = j->scan_total ? 0 : s->n;
        break;
    default:
        st = sc_fail(ctx, SC_ERR_USAGE, "not a streaming job");
    }
    return st;
}

static sc_status emit(void *arg, sc_slot *s)
{
    job_state *js = arg;
    sc_status st = SC_OK;
    if (s->n_out) st = sc_writer_write(js->out, s->out, s->n_out);
    if (st == SC_OK && s->n_aux)
        st = js->rejects ? sc_writer_write(js->rejects, s->aux, s->n_aux)
                         : sc_spill_add(js->spill, s->aux, s->n_aux);
    return st;
}

static sc_status print_figures(job_state *js)
{
    const sc_job *j = js->job;
    char line[64];
    int len;
    if (j->kind == SC_JOB_SPLIT && j->count_only)
        len = snprintf(line, sizeof line, "%" PRIu64 " %" PRIu64 "\n",
                       js->kept, js->rejected);
    else if (j->kind == SC_JOB_COMPACT && j->compact_out == SC_OUT_COUNT)
        len = snprintf(line, sizeof line, "%" PRIu64 "\n", js->kept);
    else if (j->kind == SC_JOB_SCAN && j->scan_total)
        len = snprintf(line, sizeof line, "%" PRIu64 "\n", js->carry);
    else
        return SC_OK;
    return sc_writer_write_bytes(js->out, line, (size_t)len);
}

static size_t out_bytes_per_elem(const sc_job *j)
{
    switch (j->kind) {
    case SC_JOB_COMPACT:
        return j->compact_out == SC_OUT_VALUES || j->compact_out == SC_OUT_COUNT
            ? 4 : 8;
    case SC_JOB_SCAN: return j->out.wide ? 8 : 4;
    default: return 4;
    }
}

void sc_job_report(sc_ctx *ctx, const sc_job *j, uint64_t in, uint64_t out,
                   double seconds)
{
    const char *prog = j->prog ? j->prog : "sc";
    static const char *const names[SC_PH_COUNT_OF] = {
        "read", "upload", "count", "prefix", "move", "download", "write" };
    fprintf(stderr, "%s: device: %s\n", prog, ctx->name);
    if (ctx->fallback[0])
        fprintf(stderr, "%s: note: %s\n", prog, ctx->fallback);
    fprintf(stderr, "%s: elements: in %" PRIu64 ", out %" PRIu64 "\n", prog,
            in, out);
    fprintf(stderr, "%s: time:", prog);
    for (int k = 0; k < SC_PH_COUNT_OF; k++)
        fprintf(stderr, " %s %.3f s,", names[k], ctx->phase_seconds[k]);
    fprintf(stderr, " total %.3f s\n", seconds);
}

static sc_status open_outputs(job_state *js)
{
    sc_ctx *ctx = js->ctx;
    const sc_job *j = js->job;
    sc_status st;
    if ((st = sc_check_outputs(ctx, j))) return st;
    sc_writer_opts o = j->out;
    o.wide = (j->kind == SC_JOB_COMPACT && j->compact_out == SC_OUT_INDICES64)
          || (j->kind == SC_JOB_SCAN && j->out.wide);
    if ((st = sc_writer_open(&js->out, ctx, j->output, &o))) return st;
    if (j->kind != SC_JOB_SPLIT || j->count_only) return SC_OK;
    if (j->rejects) {
        sc_writer_opts ro = j->out;
        ro.wide = 0;
        return sc_writer_open(&js->rejects, ctx, j->rejects, &ro);
    }
    return sc_spill_open(&js->spill, ctx, j->tmpdir,
                         j->buffer_bytes ? j->buffer_bytes : sc_default_buffer_bytes());
}

int sc_is_data_fault(sc_status st)
{
    return st == SC_ERR_PARTIAL || st == SC_ERR_GZIP || st == SC_ERR_TEXT ||
           st == SC_ERR_RANGE || st == SC_ERR_OPEN || st == SC_ERR_IO;
}

/* Ends one output: a file is replaced only on success; standard output
 * keeps what was decoded before a data fault, so that is flushed too. */
sc_status sc_job_close_output(sc_writer *w, const char *path, sc_status st)
{
    int to_stdout = !path || strcmp(path, "-") == 0;
    if (st == SC_OK) return sc_writer_commit(w);
    if (to_stdout && sc_is_data_fault(st)) {
        sc_status c = sc_writer_commit(w);
        return c == SC_OK ? st : c;
    }
    sc_writer_abort(w);
    return st;
}

/* Everything after the chunks: held rejects, figures, commit. */
static sc_status finish(job_state *js, sc_status st)
{
    const sc_job *j = js->job;
    /* After a data fault what was decoded still goes out in full. */
    if (st == SC_OK || sc_is_data_fault(st)) {
        sc_status r = js->spill ? sc_spill_replay(js->spill, js->out) : SC_OK;
        if (r == SC_OK) r = print_figures(js);
        if (r != SC_OK) st = r;
    }
    if (st == SC_OK) st = js->late;
    if (js->rejects) st = sc_job_close_output(js->rejects, j->rejects, st);
    if (js->out) st = sc_job_close_output(js->out, j->output, st);
    sc_spill_close(js->spill);
    return st;
}

/* A small input gets a chunk its size: pinned host memory and device
 * buffers cost time to set up, which short runs would otherwise pay for
 * a whole chunk; and a -c larger than the input would only waste memory. */
size_t sc_chunk_bytes(const sc_ctx *ctx, size_t asked, int64_t known)
{
    size_t chunk = asked ? asked
                 : ctx->cuda ? SC_DEFAULT_CHUNK_GPU : SC_DEFAULT_CHUNK_CPU;
    if (known >= 0 && (uint64_t)known < chunk) {
        uint64_t fit = ((uint64_t)known + 4095) & ~(uint64_t)4095;
        chunk = fit ? (size_t)fit : SC_MIN_CHUNK_BYTES;
    }
    return chunk;
}

static int64_t known_input(const sc_job *j, const sc_reader *r)
{
    if (r) return sc_reader_size_hint(r);
    return j->gen_count < ((uint64_t)1 << 60) ? (int64_t)(j->gen_count * 4)
                                               : (int64_t)1 << 62;
}

/* What the tools' option parsing already rules out, checked again for
 * library callers. */
static sc_status check_job(sc_ctx *ctx, const sc_job *j)
{
    const char *bad = NULL;
    if ((unsigned)j->kind > SC_JOB_STAT) bad = "invalid job kind";
    else if ((unsigned)j->in_fmt > SC_FMT_TEXT) bad = "invalid input format";
    else if (j->chunk_bytes % SC_MIN_CHUNK_BYTES)
        bad = "chunk size is not a multiple of 4 KiB";
    else if (j->n_inputs && !j->inputs) bad = "inputs missing";
    else if (j->kind == SC_JOB_SCAN && (unsigned)j->scan_op > SC_OP_XOR)
        bad = "invalid scan operator";
    else if (j->kind == SC_JOB_COMPACT &&
             (unsigned)j->compact_out > SC_OUT_COUNT)
        bad = "invalid compact output";
    else if (j->kind == SC_JOB_SORT && j->check && j->merge)
        bad = "check and merge exclude each other";
    if (bad) return sc_fail(ctx, SC_ERR_USAGE, "%s", bad);
    return j->kind == SC_JOB_GEN ? sc_gen_params_check(ctx, &j->gen) : SC_OK;
}

sc_status sc_run(sc_ctx *ctx, const sc_job *j)
{
    if (!ctx) return SC_ERR_USAGE;
    if (!j) return sc_fail(ctx, SC_ERR_USAGE, "sc_run: no job");
    sc_status bad = check_job(ctx, j);
    if (bad) return bad;
    if (j->kind == SC_JOB_SORT)
        return (bad = sc_check_outputs(ctx, j)) ? bad : sc_run_sort(ctx, j);
    if (j->kind == SC_JOB_STAT) return sc_run_stat(ctx, j);
    double t0 = sc_now();
    job_state js = { ctx, j, NULL, NULL, NULL, 0, 0, 0, SC_OK };
    js.carry = j->carry_in;
    sc_reader *r = NULL;
    sc_status st = open_outputs(&js);
    if (st == SC_OK && j->kind != SC_JOB_GEN)
        st = sc_reader_open(&r, ctx, j->inputs, j->n_inputs, j->in_fmt);
    sc_pipeline_stats ps = { 0, 0 };
    if (st == SC_OK) {
        size_t chunk = sc_chunk_bytes(ctx, j->chunk_bytes, known_input(j, r));
        sc_pipeline_cfg cfg = { ctx, r, j->gen_count, chunk / 4,
                                j->prog ? j->prog : "sc", j->progress };
        sc_stage_ops ops = { process, emit, &js, out_bytes_per_elem(j),
                             j->kind == SC_JOB_SPLIT };
        ctx->phase_threads = ctx->threads > 1 ? ctx->threads - 1 : 1;
        st = sc_pipeline_run(&cfg, &ops, &ps);
        ctx->phase_threads = 0;
    }
    sc_reader_close(r);
    st = finish(&js, st);
    /* The elements the run gave out, wherever they went: --count's figure,
     * and split's rejects, held or in their own file. */
    uint64_t out = j->kind == SC_JOB_COMPACT ? js.kept
                 : j->kind == SC_JOB_SPLIT ? js.kept + js.rejected : ps.out;
    if (j->verbose) sc_job_report(ctx, j, ps.in, out, sc_now() - t0);
    return st;
}

void sc_job_init(sc_job *job, sc_job_kind kind)
{
    memset(job, 0, sizeof *job);
    job->kind = kind;
    job->in_fmt = SC_FMT_AUTO;
    job->out.fmt = SC_FMT_RAW;
    job->out.level = 6;
    sc_gen_params_default(&job->gen);
    sc_pred_default(&job->pred);
    job->scan_op = SC_OP_SUM;
    job->lo_bit = 0;
    job->hi_bit = 32;
}
