/* inputs.h — the inputs before they are read (inputs.c); their names in
 * messages and their size are in internal.h, for the jobs. */
#ifndef SC_INPUTS_H
#define SC_INPUTS_H

#include "internal.h"

/* A missing, unreadable or directory input, or under auto a file in a
 * format not read, is refused before anything is read, so no tool writes
 * part of a result and then names it. */
sc_status sc_inputs_check(sc_ctx *ctx, const char *const *paths, size_t n,
                          sc_format fmt);
/* Whether an input of this sc_kind is refused under --in auto. */
int sc_kind_refused(int kind);

#endif
