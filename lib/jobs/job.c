/* job.c — sc_run and sc_job_check: a job vetted, then run by its kind's
 * entry in the table, the streaming kinds by one runner (runner.c),
 * sc-rsort by its own (sortjob.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/stream_job.h"

/* The kinds that stream, by sc_job_kind; sc-split --ranges is a kind of
 * its own, and sc-rsort, which reads everything first, is not one. */
static const sc_job_type *const streaming[SC_N_JOB_KINDS] = {
    [SC_JOB_GEN] = &sc_gen_job, [SC_JOB_COMPACT] = &sc_compact_job,
    [SC_JOB_SPLIT] = &sc_split_job, [SC_JOB_SCAN] = &sc_scan_job,
    [SC_JOB_STAT] = &sc_stat_job,
};

static const sc_job_type *job_type(const sc_job *j)
{
    if (j->kind == SC_JOB_SCAN && sc_type_is_float(j->type) &&
        j->scan_op == SC_OP_SUM)
        return &sc_fsum_job;
    if (j->kind == SC_JOB_STAT && j->bincount) return &sc_bincount_job;
    return j->kind == SC_JOB_SPLIT && j->ranges ? &sc_ranges_job
                                                : streaming[j->kind];
}

/* Whether the job's output is its records (not positions or figures). */
static int writes_records(const sc_job *j)
{
    return j->kind == SC_JOB_GEN ||
           (j->kind == SC_JOB_COMPACT && j->compact_out == SC_OUT_VALUES) ||
           (j->kind == SC_JOB_SPLIT && !j->count_only) ||
           (j->kind == SC_JOB_SORT && !j->check &&
            j->compact_out == SC_OUT_VALUES);
}

/* What a job of records may not be (NULL: it is none, or has none).  Only
 * the key is typed: text has no place for the rest of a record. */
static const char *record_fault(const sc_job *j)
{
    if (!j->record.size) return NULL;
    const char *bad = sc_record_fault(&j->record);
    if (bad) return bad;
    if (j->in_fmt == SC_FMT_TEXT ||
        (j->out.fmt == SC_FMT_TEXT && writes_records(j) && !j->out.field))
        return "records are read and written raw, gzip or zstd, not as text "
               "(but for one field)";
    if ((j->kind == SC_JOB_COMPACT || (j->kind == SC_JOB_SPLIT && !j->ranges))
        && j->pred.type != (uint32_t)j->record.key_type)
        return "the condition's type is not the record key's";
    return NULL;
}

/* What a job writing one field of its records may not be (NULL: it is
 * none, or has none): the field is a record's, and positions are no
 * records. */
static const char *field_fault(const sc_job *j)
{
    if (!j->out.field) return NULL;
    const char *bad = sc_field_fault(j->record.size, j->out.field_off,
                                     j->out.field_type);
    if (bad) return bad;
    int positions = (j->kind == SC_JOB_COMPACT || j->kind == SC_JOB_SORT) &&
                    (j->compact_out == SC_OUT_INDICES32 ||
                     j->compact_out == SC_OUT_INDICES64);
    if (positions)
        return "--field and --indices exclude each other (positions are "
               "not records)";
    if (j->kind == SC_JOB_SORT && j->check)
        return "--field and --check exclude each other";
    if (j->out.wide) return "a field is written in its own type, not wide";
    if (j->kind == SC_JOB_SCAN || j->kind == SC_JOB_STAT)
        return "--field is for the tools that write records (sc-scan and "
               "sc-stat write their keys)";
    return NULL;
}

/* What a sort may not be (NULL: nothing): compact_out says whether it
 * writes its elements (or records) or their positions (--indices). */
static const char *sort_fault(const sc_job *j)
{
    if (j->check && j->merge) return "check and merge exclude each other";
    if ((unsigned)j->compact_out > SC_OUT_INDICES64)
        return "invalid sort output";
    if (j->compact_out != SC_OUT_VALUES && j->check)
        return "--indices and --check exclude each other";
    return NULL;
}

/* What sc-stat --bincount and sc-scan --offsets may not be (NULL:
 * nothing). */
static const char *counts_fault(const sc_job *j)
{
    if (j->kind == SC_JOB_STAT && j->bincount) {
        if (j->type != SC_U32 && j->type != SC_U64)
            return "bincount takes an unsigned type (u32, u64)";
        if (j->hist_buckets || j->head || j->tail || j->quantiles ||
            j->sample)
            return "bincount goes with no other figure, head, tail or "
                   "sample";
    }
    if (j->kind == SC_JOB_SCAN && j->offsets && (j->inclusive || j->scan_total))
        return "offsets exclude inclusive and total";
    return NULL;
}

/* What the tools' option parsing already rules out, checked again for
 * library callers. */
static sc_status check_job(sc_ctx *ctx, const sc_job *j)
{
    const char *bad = record_fault(j);
    if (!bad) bad = field_fault(j);
    if (bad) return sc_fail(ctx, SC_ERR_USAGE, "%s", bad);
    if ((unsigned)j->kind > SC_JOB_STAT) bad = "invalid job kind";
    else if ((unsigned)j->in_fmt > SC_FMT_ZST) bad = "invalid input format";
    else if (sc_type_size(j->type) == 0)
        bad = "invalid element type";
    else if (j->kind == SC_JOB_SCAN && j->out.wide &&
             sc_type_size(j->type) == 8)
        bad = "wide scan output needs a 32-bit type";
    else if (j->kind == SC_JOB_SCAN && j->scan_op == SC_OP_XOR &&
             sc_type_is_float(j->type))
        bad = "xor takes an integer type";
    else if (j->chunk_bytes % SC_MIN_CHUNK_BYTES)
        bad = "chunk size is not a multiple of 4 KiB";
    else if (j->n_inputs && !j->inputs) bad = "inputs missing";
    else if (j->kind == SC_JOB_SCAN && (unsigned)j->scan_op > SC_OP_XOR)
        bad = "invalid scan operator";
    else if (j->kind == SC_JOB_COMPACT &&
             (unsigned)j->compact_out > SC_OUT_COUNT)
        bad = "invalid compact output";
    else if (j->kind == SC_JOB_SORT) bad = sort_fault(j);
    else bad = counts_fault(j);
    if (bad) return sc_fail(ctx, SC_ERR_USAGE, "%s", bad);
    if (j->kind == SC_JOB_GEN) return sc_gen_params_check(ctx, &j->gen);
    return sc_inputs_named(ctx, j->inputs, j->n_inputs);
}

/* A job of records is of its key's type: *own, a copy that says so, is
 * the job then. */
static const sc_job *keyed(const sc_job *j, sc_job *own)
{
    if (!j->record.size || j->type == j->record.key_type) return j;
    *own = *j;
    own->type = j->record.key_type;
    return own;
}

sc_status sc_job_check(sc_ctx *ctx, const sc_job *j)
{
    if (!ctx) return SC_ERR_USAGE;
    if (!j) return sc_fail(ctx, SC_ERR_USAGE, "sc_job_check: no job");
    sc_job own;
    j = keyed(j, &own);
    sc_status st = check_job(ctx, j);
    const sc_job_type *t = st == SC_OK ? job_type(j) : NULL;
    if (st == SC_OK)
        st = t && t->check ? t->check(ctx, j) : sc_check_outputs(ctx, j);
    if (st == SC_OK && j->kind != SC_JOB_GEN)
        st = sc_inputs_check(ctx, j->inputs, j->n_inputs, j->in_fmt);
    return st;
}

sc_status sc_run(sc_ctx *ctx, const sc_job *j)
{
    if (!ctx) return SC_ERR_USAGE;
    if (!j) return sc_fail(ctx, SC_ERR_USAGE, "sc_run: no job");
    sc_job own;
    j = keyed(j, &own);
    sc_status bad = check_job(ctx, j);
    if (bad) return bad;
    sc_policy_new_run(ctx);
    const sc_job_type *t = job_type(j);
    if (t) return sc_run_stream(ctx, j, t);
    return (bad = sc_check_outputs(ctx, j)) ? bad : sc_run_sort(ctx, j);
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
    job->hi_bit = 0;
    job->sample_seed = 1;
}
