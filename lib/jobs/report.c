/* report.c — what every kind of job ends with: -v's report on stderr,
 * and the end of an output (a file is replaced only on success). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "jobs/jobs.h"

/* Whether the job holds data in memory up to -S (then in -T): sc-rsort,
 * sc-split's held rejects, sc-stat --hist's kept input. */
static int holds_data(const sc_job *j)
{
    switch (j->kind) {
    case SC_JOB_SORT: return !j->merge && !j->check;
    case SC_JOB_SPLIT: return !j->rejects && !j->count_only && !j->ranges;
    case SC_JOB_STAT: return j->hist_buckets && !j->head && !j->tail;
    default: return 0;
    }
}

/* -S's default and the memory limit it is a quarter of. */
static void report_memory(const sc_job *j, const char *prog)
{
    if (j->buffer_bytes || !holds_data(j)) return;
    const char *what;
    uint64_t limit = sc_memory_limit(&what);
    fprintf(stderr, "%s: memory: -S's default %zu MiB, a quarter of %" PRIu64
            " MiB (%s), at least %zu MiB\n", prog,
            sc_default_buffer_bytes() >> 20, limit >> 20, what,
            SC_LEAST_BUFFER_BYTES >> 20);
}

void sc_job_report(sc_ctx *ctx, const sc_job *j, const sc_pipeline_stats *ps,
                   double seconds)
{
    const char *prog = j->prog ? j->prog : "sc";
    static const char *const names[SC_N_PHASES] = {
        "read", "upload", "count", "prefix", "move", "download", "write" };
    sc_policy_report(ctx, prog, stderr);
    report_memory(j, prog);
    if (ps->chunks_cpu && ps->chunks_gpu)
        fprintf(stderr, "%s: chunks: %" PRIu64 " on the CPU (before the GPU "
                "was ready), %" PRIu64 " on the GPU\n", prog, ps->chunks_cpu,
                ps->chunks_gpu);
    if (ps->chunk_workers)
        fprintf(stderr, "%s: chunks: %" PRIu64 " of %zu bytes, each read and "
                "processed whole by one of %u threads\n", prog,
                ps->chunks_cpu, ps->worker_chunk_bytes, ps->chunk_workers);
    fprintf(stderr, "%s: %s: in %" PRIu64 ", out %" PRIu64 "\n", prog,
            j->record.size ? "records" : "elements", ps->in, ps->out);
    fprintf(stderr, "%s: time:", prog);
    for (int k = 0; k < SC_N_PHASES; k++)
        fprintf(stderr, " %s %.3f s,", names[k],
                sc_phase_seconds(&ps->phases, (sc_phase)k));
    fprintf(stderr, " total %.3f s\n", seconds);
}

void sc_job_report_inputs(const sc_job *j, const sc_reader *r)
{
    const char *prog = j->prog ? j->prog : "sc";
    const sc_decoding *d;
    for (size_t i = 0; r && (d = sc_reader_decoding(r, i)); i++) {
        char how[96];
        sc_decoding_how(d, how, sizeof how);
        /* MiB, as -P's line and the SIZE suffixes count. */
        double mb = (double)d->bytes / 1048576.0;
        double s = d->seconds + (d->claims_to - d->claims_from);
        fprintf(stderr, "%s: input %s: %s, %.1f MiB decoded at %.0f MiB/s\n",
                prog, d->name, how, mb, s > 0 ? mb / s : 0);
    }
}

/* Standard output keeps what was decoded before a data fault, so that is
 * flushed too. */
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
