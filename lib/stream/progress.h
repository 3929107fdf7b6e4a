/* progress.h — the -P line on standard error, shared by every job. */
#ifndef SC_PROGRESS_H
#define SC_PROGRESS_H

typedef struct sc_progress {
    const char *prog;
    const char *verb;       /* "read" or "made" */
    double start, last;
    int shown;
} sc_progress;

void sc_progress_start(sc_progress *p, const char *prog, const char *verb);
/* Redraws at most twice a second; total < 0 when unknown. */
void sc_progress_update(sc_progress *p, double bytes, double total);
/* The last figures and a newline, if anything was shown. */
void sc_progress_end(sc_progress *p, double bytes, double total);
#endif
