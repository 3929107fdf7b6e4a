/* jobs.h — what the jobs' files share: the -v report, ending an output,
 * and sc-rsort's job, the one kind that does not stream (job.c looks a
 * job up in the table, runner.c runs the streaming kinds).  The top of
 * libsc: under it stream, ops, io and core. */
#ifndef SC_JOBS_H
#define SC_JOBS_H

#include "ops/ops.h"
#include "io/io.h"
#include "stream/stream.h"

/* What every job ends with (report.c): -v's report on stderr of a run's
 * figures; an output ended (a file is replaced only on success, standard
 * output keeps what came before a data fault). */
void sc_job_report(sc_ctx *ctx, const sc_job *j, const sc_pipeline_stats *ps,
                   double seconds);
/* -v's line for each compressed input the reader decoded: how, and at
 * what rate; called before the reader closes. */
void sc_job_report_inputs(const sc_job *j, const sc_reader *r);
sc_status sc_job_close_output(sc_writer *w, const char *path, sc_status st);
/* A reader of paths[0..n) (n == 0: standard input) in the job's input
 * format, element type and byte order, or of its records (job_io.c). */
sc_status sc_job_open_reader(sc_ctx *ctx, const sc_job *j,
                             const char *const *paths, size_t n,
                             sc_reader **r);
/* The job's writer options for its elements: out, in the job's type and
 * byte order, or for its records (job_io.c). */
sc_writer_opts sc_job_writer_opts(const sc_job *j);

/* sc-rsort's job: reads everything, sorts (in runs past -S), writes
 * (sortjob.c). */
sc_status sc_run_sort(sc_ctx *ctx, const sc_job *job);

#endif
