/* job.c — a streaming job run over the pipeline, whatever its kind.
 *
 * The kinds (stream_job.h) say what a chunk becomes; this file opens the
 * outputs and the source, runs the pipeline with the kind's functions,
 * and finishes: split's held rejects, the figures of --count / --total,
 * the commit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cost.h"
#include "device.h"
#include "inputs.h"
#include "stream_job.h"

static const sc_job_type *job_type(const sc_job *j)
{
    switch (j->kind) {
    case SC_JOB_GEN: return &sc_gen_job;
    case SC_JOB_COMPACT: return &sc_compact_job;
    case SC_JOB_SPLIT: return &sc_split_job;
    case SC_JOB_SCAN: return &sc_scan_job;
    default: return NULL;
    }
}

/* The pipeline's hooks, bound to the job's kind. */
typedef struct bound_job { job_state *js; const sc_job_type *type; } bound_job;

static sc_status process(void *arg, sc_slot *s, const sc_backend *b)
{
    bound_job *bj = arg;
    return bj->type->process(bj->js, s, b);
}

static sc_status emit(void *arg, sc_slot *s)
{
    bound_job *bj = arg;
    return bj->type->emit(bj->js, s);
}

static uint64_t reduce(void *arg, const sc_slot *s)
{
    bound_job *bj = arg;
    return bj->type->reduce(bj->js, s);
}

static uint64_t combine(void *arg, uint64_t carry, uint64_t reduced)
{
    bound_job *bj = arg;
    return bj->type->combine(bj->js, carry, reduced);
}

static sc_status print_figures(job_state *js, const sc_job_type *t)
{
    char line[64];
    int len = t->figures ? t->figures(js, line, sizeof line) : 0;
    return len > 0 ? sc_writer_write_bytes(js->out, line, (size_t)len) : SC_OK;
}

void sc_job_report(sc_ctx *ctx, const sc_job *j, uint64_t in, uint64_t out,
                   double seconds)
{
    const char *prog = j->prog ? j->prog : "sc";
    static const char *const names[SC_PH_COUNT_OF] = {
        "read", "upload", "count", "prefix", "move", "download", "write" };
    double start = ctx->kind == SC_DEVICE_CUDA ? sc_device_start_seconds(ctx)
                                               : -1;
    if (start >= 0)
        fprintf(stderr, "%s: device: %s, started in %.3f s\n", prog,
                ctx->name, start);
    else
        fprintf(stderr, "%s: device: %s\n", prog, ctx->name);
    if (ctx->chunks_cpu && ctx->chunks_gpu)
        fprintf(stderr, "%s: chunks: %" PRIu64 " on the CPU (before the GPU "
                "was ready), %" PRIu64 " on the GPU\n", prog, ctx->chunks_cpu,
                ctx->chunks_gpu);
    if (ctx->chunk_workers)
        fprintf(stderr, "%s: chunks: %" PRIu64 " of %zu bytes, each read and "
                "processed whole by one of %u threads\n", prog,
                ctx->chunks_cpu, ctx->worker_chunk_bytes, ctx->chunk_workers);
    char gpus[512];
    if (sc_device_usage(ctx, gpus, sizeof gpus))
        fprintf(stderr, "%s: gpus: %s\n", prog, gpus);
    if (ctx->choice[0])
        fprintf(stderr, "%s: why: %s\n", prog, ctx->choice);
    if (ctx->fallback[0])
        fprintf(stderr, "%s: note: %s\n", prog, ctx->fallback);
    fprintf(stderr, "%s: elements: in %" PRIu64 ", out %" PRIu64 "\n", prog,
            in, out);
    fprintf(stderr, "%s: time:", prog);
    for (int k = 0; k < SC_PH_COUNT_OF; k++)
        fprintf(stderr, " %s %.3f s,", names[k], ctx->phase_seconds[k]);
    fprintf(stderr, " total %.3f s\n", seconds);
}

static sc_status open_outputs(job_state *js, const sc_job_type *t)
{
    sc_ctx *ctx = js->ctx;
    const sc_job *j = js->job;
    sc_status st;
    if ((st = sc_check_outputs(ctx, j))) return st;
    sc_writer_opts o = j->out;
    o.wide = t->wide(j);
    if ((st = sc_writer_open(&js->out, ctx, j->output, &o))) return st;
    return t->open_more ? t->open_more(js) : SC_OK;
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
static sc_status finish(job_state *js, const sc_job_type *t, sc_status st)
{
    const sc_job *j = js->job;
    st = sc_ctx_settle(js->ctx, st);
    /* After a data fault what was decoded still goes out in full. */
    if (st == SC_OK || sc_is_data_fault(st)) {
        sc_status r = js->spill ? sc_spill_replay(js->spill, js->out) : SC_OK;
        if (r == SC_OK) r = print_figures(js, t);
        if (r != SC_OK) st = r;
    }
    if (js->rejects && st == SC_OK) {
        /* sc-split -r: both files are replaced, or neither. */
        st = sc_writer_commit_pair(js->rejects, js->out);
        js->rejects = js->out = NULL;
    }
    if (js->rejects) st = sc_job_close_output(js->rejects, j->rejects, st);
    if (js->out) st = sc_job_close_output(js->out, j->output, st);
    sc_spill_close(js->spill);
    return st;
}

/* A small input gets a chunk its size: pinned host memory and device
 * buffers cost time to set up, which short runs would otherwise pay for
 * a whole chunk; and a -c larger than the input would only waste memory. */
size_t sc_chunk_bytes(const sc_ctx *ctx, size_t asked, int64_t known,
                      sc_work w)
{
    int gpu = ctx->policy == SC_POLICY_CUDA ||
              (ctx->policy == SC_POLICY_AUTO &&
               sc_cost_gpu_pays(ctx, w, known, sc_device_eta(ctx), 1, NULL, 0));
    size_t chunk = asked ? asked
                 : gpu ? SC_DEFAULT_CHUNK_GPU : SC_DEFAULT_CHUNK_CPU;
    if (known >= 0 && (uint64_t)known < chunk) {
        uint64_t fit = ((uint64_t)known + 4095) & ~(uint64_t)4095;
        chunk = fit ? (size_t)fit : SC_MIN_CHUNK_BYTES;
    }
    return chunk;
}

/* Where the chunks come from: the job's inputs, read, unless its kind
 * makes its own (sc-gen). */
static sc_status open_source(job_state *js, const sc_job_type *t,
                             sc_source *src)
{
    const sc_job *j = js->job;
    if (t->open_source) return t->open_source(js, src);
    sc_status st = sc_reader_open(&js->reader, js->ctx, j->inputs,
                                  j->n_inputs, j->in_fmt);
    if (st == SC_OK) *src = sc_reader_source(js->reader);
    return st;
}

/* What the tools' option parsing already rules out, checked again for
 * library callers. */
static sc_status check_job(sc_ctx *ctx, const sc_job *j)
{
    const char *bad = NULL;
    if ((unsigned)j->kind > SC_JOB_STAT) bad = "invalid job kind";
    else if ((unsigned)j->in_fmt > SC_FMT_ZST) bad = "invalid input format";
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

sc_status sc_job_check(sc_ctx *ctx, const sc_job *j)
{
    if (!ctx) return SC_ERR_USAGE;
    if (!j) return sc_fail(ctx, SC_ERR_USAGE, "sc_job_check: no job");
    sc_status st = check_job(ctx, j);
    int ranges = j->kind == SC_JOB_SPLIT && j->ranges;
    if (st == SC_OK)
        st = ranges ? sc_ranges_check(ctx, j) : sc_check_outputs(ctx, j);
    if (st == SC_OK && j->kind != SC_JOB_GEN)
        st = sc_inputs_check(ctx, j->inputs, j->n_inputs, j->in_fmt);
    return st;
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
    if (j->kind == SC_JOB_SPLIT && j->ranges) return sc_run_ranges(ctx, j);
    double t0 = sc_now();
    const sc_job_type *t = job_type(j);
    job_state js;
    memset(&js, 0, sizeof js);
    js.ctx = ctx;
    js.job = j;
    js.carry = j->carry_in;
    sc_source src = { 0 };
    sc_status st = open_outputs(&js, t);
    if (st == SC_OK) st = open_source(&js, t, &src);
    sc_pipeline_stats ps = { 0, 0 };
    if (st == SC_OK) {
        bound_job bj = { &js, t };
        /* Only a scan's chunks need the one before, and only its carry. */
        sc_stage_ops ops = { process, emit, &bj, t->out_bytes(j), t->need_aux,
                             { 0 }, 0, !t->reduce, t->reduce ? reduce : NULL,
                             t->reduce ? combine : NULL };
        t->describe(&js, &ops.work);
        size_t chunk = sc_chunk_bytes(ctx, j->chunk_bytes,
                                      src.size_hint(src.self), t->work);
        sc_pipeline_cfg cfg = { ctx, src, chunk / 4, j->chunk_bytes != 0,
                                j->prog ? j->prog : "sc", j->progress,
                                j->carry_in };
        ctx->phase_threads = ctx->threads > 1 ? ctx->threads - 1 : 1;
        st = sc_pipeline_run(&cfg, &ops, &ps);
        ctx->phase_threads = 0;
    }
    sc_reader_close(js.reader);
    st = finish(&js, t, st);
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
    job->sample_seed = 1;
}
