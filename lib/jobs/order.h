/* order.h — what is judged by sc-rsort's key order alone (sc_elem_order,
 * core/elem_order.h, over elements or records of any key type): order
 * checks (-C, -m) and -u's filter of equal keys. */
#ifndef SC_ORDER_H
#define SC_ORDER_H

#include <string.h>
#include "jobs/jobs.h"

/* The order of the job's items (core/elem_order.h): its records by
 * their key (read big-endian where the job says so), or its elements;
 * its -r and --bits (hi_bit made explicit). */
void sc_elem_order_init(sc_elem_order *o, const sc_job *j);

/* Where a stream's order check stands: the key before, and the
 * zero-based position of the next item in the named input. */
typedef struct sc_order_cursor {
    const char *name;
    uint64_t pos;
    uint64_t prev;
    int has_prev;
    int strict;             /* -C -u: equal keys are disorder too */
} sc_order_cursor;

/* Checks v[0..n) continue the cursor's order and advances it. SC_OK, or
 * SC_ERR_UNSORTED with "NAME: disorder at element P: X after Y" (for
 * records: "at record P: key X after key Y"). */
sc_status sc_order_check(sc_ctx *ctx, const sc_elem_order *o,
                         sc_order_cursor *c, const void *v, size_t n);

/* -u: of each run of equal keys the first; the state carries over from
 * call to call, so a run of equal keys may span calls. */
typedef struct sc_uniq {
    int has_last;
    uint64_t last_rank;
} sc_uniq;

/* Drops from the sorted v[0..n), in place, the elements whose key equals
 * the one kept before; returns how many are left. */
size_t sc_uniq_apply(const sc_elem_order *o, sc_uniq *u, void *v, size_t n);

#endif
