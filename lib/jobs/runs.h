/* runs.h — sorted runs, one after another in a single temporary file
 * (one file whatever the number of runs: one descriptor, one entry in
 * the table of files removed on signals). */
#ifndef SC_RUNS_H
#define SC_RUNS_H

#include "jobs/jobs.h"

typedef struct sc_runs sc_runs;

/* Runs of elements of `size` bytes (4 or 8). */
sc_status sc_runs_open(sc_runs **out, sc_ctx *ctx, const char *dir,
                       unsigned size);
/* Another runs file in rs's directory: a merge pass's output. */
sc_status sc_runs_open_beside(sc_runs **out, const sc_runs *rs);
sc_status sc_runs_add(sc_runs *rs, const void *v, size_t n);
/* A run written piece by piece: begin it, then append to it. */
sc_status sc_runs_begin(sc_runs *rs);
sc_status sc_runs_append(sc_runs *rs, const void *v, size_t n);
size_t sc_runs_count(const sc_runs *rs);
/* Elements in run i. */
uint64_t sc_runs_length(const sc_runs *rs, size_t i);
/* n elements from element off of the file on (runs follow one another). */
sc_status sc_runs_read(const sc_runs *rs, uint64_t off, void *v,
                       size_t n);
/* rs takes next's runs and file; next, now holding rs's old ones, is
 * closed. */
void sc_runs_replace(sc_runs *rs, sc_runs *next);
/* Removes the file; NULL is fine. */
void sc_runs_close(sc_runs *rs);

#endif
