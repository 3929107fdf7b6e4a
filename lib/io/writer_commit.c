/* writer_commit.c — an output put in place when the run succeeds: the
 * temporary renamed over its target (all of a job's files together), or
 * on failure removed, so that a good file is never left truncated. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/replace.h"
#include "io/writer_impl.h"

/* Everything out and the file closed; a temporary is not renamed yet. */
static sc_status seal(sc_writer *w)
{
    sc_status st = w->failed ? SC_ERR_IO : sc_writer_drain(w);
    if (st != SC_OK) sc_writer_stop_threads(w);
    if (w->direct) {
        if (close(w->fd) != 0 && st == SC_OK) st = sc_writer_error(w, errno);
        w->direct = 0;
        w->fd = -1;
    }
    if (st == SC_OK && w->tmp) {
        if (close(w->fd) != 0) st = sc_writer_error(w, errno);
        w->fd = -1;
    }
    return st;
}

/* The temporary is in place: nothing to remove any more. */
static void installed(sc_writer *w)
{
    sc_temp_unregister(w->tmp);
    free(w->tmp);
    w->tmp = NULL;
}

sc_status sc_writer_commit(sc_writer *w)
{
    if (!w) return SC_ERR_USAGE;
    sc_status st = seal(w);
    if (st == SC_OK && w->tmp) {
        if (sc_rename(w->tmp, w->path) == 0)
            installed(w);
        else
            st = sc_fail_errno(w->ctx, SC_ERR_IO, errno, "%s: cannot rename "
                               "temporary file into place", w->path);
    }
    if (st != SC_OK) { sc_writer_abort(w); return st; }
    sc_writer_release(w);
    return SC_OK;
}

/* Commits one by one; after a failure the rest are aborted. */
static sc_status commit_each(sc_writer **w, size_t n)
{
    sc_status st = SC_OK;
    for (size_t k = 0; k < n; k++) {
        if (st == SC_OK) st = sc_writer_commit(w[k]);
        else sc_writer_abort(w[k]);
    }
    return st;
}

sc_status sc_writer_commit_all(sc_writer **w, size_t n)
{
    int all_files = 1;
    for (size_t k = 0; k < n; k++) all_files = all_files && w[k]->tmp;
    /* A device or standard output is written as it goes: nothing of it
     * can be held back, so the files follow one by one. */
    if (!all_files) return commit_each(w, n);
    char **tmps = malloc(2 * n * sizeof *tmps);
    sc_status st = tmps ? SC_OK : sc_fail(w[0]->ctx, SC_ERR_NOMEM,
                                          "out of memory");
    for (size_t k = 0; k < n && st == SC_OK; k++) {
        st = seal(w[k]);
        tmps[k] = w[k]->tmp;
        tmps[n + k] = w[k]->path;
    }
    if (st == SC_OK) st = sc_replace_all(w[0]->ctx, n, tmps, tmps + n);
    free(tmps);
    for (size_t k = 0; k < n; k++) {
        if (st != SC_OK) { sc_writer_abort(w[k]); continue; }
        installed(w[k]);
        sc_writer_release(w[k]);
    }
    return st;
}

sc_status sc_writer_commit_pair(sc_writer *a, sc_writer *b)
{
    sc_writer *w[2] = { a, b };
    return sc_writer_commit_all(w, 2);
}
