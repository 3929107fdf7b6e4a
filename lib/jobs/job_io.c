/* job_io.c — what every job reads and writes its elements with: the
 * reader and the writer options in the job's format, element type and
 * byte order, or records. */
#include "jobs/jobs.h"

sc_status sc_job_open_reader(sc_ctx *ctx, const sc_job *j,
                             const char *const *paths, size_t n,
                             sc_reader **r)
{
    sc_status st = sc_reader_open(r, ctx, paths, n, j->in_fmt);
    if (st == SC_OK) st = sc_reader_set_type(*r, j->type, j->big_endian);
    if (st == SC_OK) st = sc_reader_set_record(*r, j->record.size);
    if (st != SC_OK && *r) {
        sc_reader_close(*r);
        *r = NULL;
    }
    return st;
}

sc_writer_opts sc_job_writer_opts(const sc_job *j)
{
    sc_writer_opts o = j->out;
    o.type = j->type;
    o.big_endian = j->big_endian;
    o.record = j->record.size;
    return o;
}
