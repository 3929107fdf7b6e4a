/* spill.h — sc-split's rejects waiting for the end of the input: in memory
 * up to a limit, then in a temporary file; replayed in order at the end.
 * Elements are of one size, 4 or 8 bytes, given at the open. */
#ifndef SC_SPILL_H
#define SC_SPILL_H
#include "jobs/jobs.h"

typedef struct sc_spill sc_spill;

sc_status sc_spill_open(sc_spill **out, sc_ctx *ctx, const char *dir,
                        size_t limit_bytes, size_t elem_size);
sc_status sc_spill_add(sc_spill *sp, const void *elems, size_t n);
/* Writes everything added, in order, to w. */
sc_status sc_spill_replay(sc_spill *sp, sc_writer *w);
/* Hands everything added, in order, to fn in pieces; stops at an error. */
typedef sc_status (*sc_spill_fn)(void *arg, const void *elems, size_t n);
sc_status sc_spill_walk(sc_spill *sp, sc_spill_fn fn, void *arg);
uint64_t sc_spill_count(const sc_spill *sp);
void sc_spill_close(sc_spill *sp);     /* removes the temporary file */
#endif
