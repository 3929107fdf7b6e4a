/* order.h — what is judged by sc-rsort's key order alone (sc_order, in
 * sc_hd.h, which the GPU's sort shares): order checks (-C, -m) and -u's
 * filter of equal keys. */
#ifndef SC_ORDER_H
#define SC_ORDER_H

#include "jobs/jobs.h"

/* Where a stream's order check stands: the element before, and the
 * zero-based position of the next element in the named input. */
typedef struct sc_order_cursor {
    const char *name;
    uint64_t pos;
    uint32_t prev;
    int has_prev;
    int strict;             /* -C -u: equal keys are disorder too */
} sc_order_cursor;

/* Checks v[0..n) continue the cursor's order and advances it. SC_OK, or
 * SC_ERR_UNSORTED with "NAME: disorder at element P: X after Y". */
sc_status sc_order_check(sc_ctx *ctx, const sc_order *o, sc_order_cursor *c,
                         const uint32_t *v, size_t n);

/* -u: of each run of equal keys the first; the state carries over from
 * call to call, so a run of equal keys may span calls. */
typedef struct sc_uniq {
    int has_last;
    uint32_t last_rank;
} sc_uniq;

/* Drops from the sorted v[0..n), in place, the elements whose key equals
 * the one kept before; returns how many are left. */
size_t sc_uniq_apply(const sc_order *o, sc_uniq *u, uint32_t *v, size_t n);

#endif
