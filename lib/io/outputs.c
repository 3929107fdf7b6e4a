/* outputs.c — what a job's outputs may not be, checked before anything
 * is written: an input (through -o or standard output), each other, or
 * an empty name. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "io/io.h"
#include "io/replace.h"

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static int is_stdout(const char *path)
{
    return !path || strcmp(path, "-") == 0;
}

/* Where an output goes, when that is a regular file (only a file can be
 * read back while it is written). */
static int output_file(const char *path, struct stat *st)
{
    int r = is_stdout(path) ? fstat(1, st) : stat(path, st);
    return r == 0 && S_ISREG(st->st_mode);
}

/* A streaming tool refuses an output that is also an input, whether named
 * by -o or reached through standard output (cat f >> f): sc(7), OUTPUT
 * FORMATS. */
static sc_status check_not_input(sc_ctx *ctx, const sc_job *j, const char *out,
                                 const char *what)
{
    struct stat os, is;
    if (!output_file(out, &os)) return SC_OK;
    const char *name = is_stdout(out) ? "(standard output)" : out;
    size_t n = j->n_inputs ? j->n_inputs : 1;
    for (size_t i = 0; i < n; i++) {
        const char *in = j->n_inputs ? j->inputs[i] : "-";
        int r = strcmp(in, "-") == 0 ? fstat(0, &is) : stat(in, &is);
        if (r == 0 && same_file(&os, &is))
            return sc_fail(ctx, SC_ERR_SAMEFILE, "%s: %s is also an input", name,
                           what);
    }
    return SC_OK;
}

/* A path as its directory's real path plus its last name: two names for a
 * file that does not exist yet still compare equal. NULL if unknown. */
static char *canonical(const char *path)
{
    char *dir = strdup(path), *base = strdup(path);
    char *real = dir ? realpath(dirname(dir), NULL) : NULL;
    char *out = NULL;
    if (real && base) {
        size_t len = strlen(real) + strlen(base) + 2;
        if ((out = malloc(len))) snprintf(out, len, "%s/%s", real,
                                          basename(base));
    }
    free(real); free(dir); free(base);
    return out;
}

static int same_place(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0) return same_file(&sa, &sb);
    char *ca = canonical(a), *cb = canonical(b);
    int same = ca && cb ? strcmp(ca, cb) == 0 : strcmp(a, b) == 0;
    free(ca); free(cb);
    return same;
}

/* sc-split -r: the rejects need a file of their own, or one group would
 * overwrite or interleave with the other. */
static sc_status check_rejects(sc_ctx *ctx, const sc_job *j)
{
    struct stat os, rs;
    if (is_stdout(j->rejects))
        return sc_fail(ctx, SC_ERR_USAGE, "the rejects file cannot be standard "
                       "output");
    int clash = is_stdout(j->output)
        ? output_file(NULL, &os) && stat(j->rejects, &rs) == 0 &&
          same_file(&os, &rs)
        : same_place(j->output, j->rejects);
    return clash ? sc_fail(ctx, SC_ERR_SAMEFILE, "%s: rejects file is also "
                           "the output", j->rejects) : SC_OK;
}

/* An existing output file the user may not write is refused, as sort -o
 * refuses it (sc_may_replace). */
static sc_status check_writable(sc_ctx *ctx, const char *out)
{
    if (is_stdout(out)) return SC_OK;
    char *target = sc_output_target(out);
    if (!target) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    int bad = sc_may_replace(target);
    int err = errno;
    free(target);
    return bad ? sc_fail_errno(ctx, SC_ERR_IO, err, "%s", out) : SC_OK;
}

sc_status sc_check_outputs(sc_ctx *ctx, const sc_job *j)
{
    sc_status st;
    if ((j->output && !*j->output) || (j->rejects && !*j->rejects))
        return sc_fail(ctx, SC_ERR_USAGE, "an output file name is empty");
    /* Refused before anything is read, which for sc-rsort is long before
     * its output is opened. */
    if ((st = check_writable(ctx, j->output)) ||
        (st = check_writable(ctx, j->rejects)))
        return st;
    /* sc-gen reads nothing; sc-rsort reads everything before it writes. */
    if (j->kind == SC_JOB_GEN || j->kind == SC_JOB_SORT) return SC_OK;
    if ((st = check_not_input(ctx, j, j->output, "output file"))) return st;
    if (j->rejects && (st = check_not_input(ctx, j, j->rejects, "rejects file")))
        return st;
    return j->rejects ? check_rejects(ctx, j) : SC_OK;
}
