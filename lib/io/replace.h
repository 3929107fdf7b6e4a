/* replace.h — how an output file replaces its target: where the target
 * really is (through symbolic links, dangling ones too), a temporary
 * beside it whose name always fits, renames (with a test hook), and two
 * or more files replaced together or not at all (sc-split -r, --ranges). */
#ifndef SC_REPLACE_H
#define SC_REPLACE_H
#include "io/io.h"

/* The file -o names, through symbolic links: the link stays a link, and
 * a dangling one gets its target created, as cp and sort -o do. NULL when
 * out of memory. Free it. */
char *sc_output_target(const char *path);

/* Creates a temporary file beside target (same directory, so a rename
 * moves it into place): ".NAME.sc-PID-START-XXXXXX", or ".sc-..." when
 * that would pass the directory's longest name (sc_temp_open), registered
 * for removal on signals. The name goes in *tmp (free it); returns the
 * descriptor, or -1 with errno. */
int sc_temp_beside(const char *target, char **tmp);
/* Removes the temporaries that runs killed while writing target left
 * beside it (sc_temp_sweep), and no others. */
void sc_sweep_beside(const char *target);

/* 0 when the file at target may be replaced: it does not exist, is not a
 * regular file (written in place), or the user may write it; else -1
 * with errno (EACCES: a file of mode 0444 for a user other than root;
 * ELOOP: symbolic links in a loop).
 * A rename would replace it all the same, but sort -o refuses it, and a
 * file made read-only is one its owner meant to keep. */
int sc_may_replace(const char *target);

/* rename(2); SC_TEST_FAIL_RENAME=N makes the N-th call in the process
 * fail with EACCES, for tests of what a failed rename leaves. */
int sc_rename(const char *from, const char *to);

/* Renames tmps[k] over paths[k] for all n files, all or none (sc-split
 * -r's pair, --ranges' parts): every path but the last is kept as a
 * hard-linked backup until the last is in place, and on a failed rename
 * those already replaced are put back. On failure the temporaries not yet
 * renamed are still there for the caller to remove, and the message names
 * the file that could not be replaced.  A lock on the first path's
 * directory makes two runs replacing the same files take turns. */
sc_status sc_replace_all(sc_ctx *ctx, size_t n, char *const *tmps,
                         char *const *paths);
#endif
