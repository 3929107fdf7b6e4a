/* progress.h — the -P line on standard error, shared by every job.
 *
 * On a terminal one line rewrites itself (\r) twice a second; otherwise
 * (a log, a pipe) a plain line is written every few seconds instead, so a
 * log is readable and never floods.  A job in phases (sc-rsort: read,
 * sort, merge, write) starts each with sc_progress_phase(); a long call
 * that moves no bytes (a sort) is shown as a note with its elapsed time;
 * a ticker thread redraws while the caller is busy, so the line never
 * stalls.  Every call is thread-safe.
 */
#ifndef SC_PROGRESS_H
#define SC_PROGRESS_H

#include <pthread.h>

typedef struct sc_progress {
    const char *prog;
    const char *verb;       /* "read", "made", "merged", "written" */
    double start, last;     /* of this phase; the last line drawn */
    double bytes, total;    /* of this phase; total < 0 when unknown */
    char note[96];          /* what the caller is busy with, or "" */
    double note_start, note_eta;    /* note_eta < 0: unknown */
    int shown, tty;
    int dirty;              /* figures changed since the last line */
    double interval;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t ticker;
    int ticking, stop;
} sc_progress;

void sc_progress_start(sc_progress *p, const char *prog, const char *verb);
/* Redraws at most every interval; total < 0 when unknown. */
void sc_progress_update(sc_progress *p, double bytes, double total);
/* Adds to this phase's bytes (redraws as update does). */
void sc_progress_add(sc_progress *p, double bytes);
/* Ends the phase's line with its last figures and starts another. */
void sc_progress_phase(sc_progress *p, const char *verb, double total);
/* Shows what the caller is now busy with (NULL: nothing), with its
 * elapsed time and, when eta_s >= 0, the time it should still take. */
void sc_progress_note(sc_progress *p, const char *note, double eta_s);
/* Redraws from a thread of its own until sc_progress_end(); without one
 * (it could not start) the line is drawn only as figures change. */
void sc_progress_tick(sc_progress *p);
/* The last figures and a newline; stops the ticker. */
void sc_progress_end(sc_progress *p, double bytes, double total);
/* The same with the figures it already has. */
void sc_progress_finish(sc_progress *p);
#endif
