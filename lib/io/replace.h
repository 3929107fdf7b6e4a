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
 * moves it into place): ".NAME.sc-XXXXXX", or ".sc-XXXXXX" when that
 * would pass the directory's longest name. The name goes in *tmp (free
 * it); returns the descriptor, or -1 with errno. */
int sc_temp_beside(const char *target, char **tmp);

/* rename(2); SC_TEST_FAIL_RENAME=N makes the N-th call in the process
 * fail with EACCES, for tests of what a failed rename leaves. */
int sc_rename(const char *from, const char *to);

/* Renames tmp1 over path1 and tmp2 over path2, both or neither: path1 is
 * kept as a hard-linked backup until path2 is in place, and put back if
 * that fails. On failure the temporaries are still there for the caller
 * to remove, and the message names the file that could not be replaced. */
sc_status sc_replace_pair(sc_ctx *ctx, const char *tmp1, const char *path1,
                          const char *tmp2, const char *path2);
/* The same for n files (sc-split --ranges' parts): every path keeps a
 * backup until the last is in place, and on a failed rename those
 * already replaced are put back. */
sc_status sc_replace_all(sc_ctx *ctx, size_t n, char *const *tmps,
                         char *const *paths);
#endif
