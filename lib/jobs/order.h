/* order.h — what is judged by sc-rsort's key order alone: the order over
 * elements of any type (sc_order or sc_order64, in sc_hd.h, which the
 * GPU's sort shares), order checks (-C, -m) and -u's filter of equal
 * keys. */
#ifndef SC_ORDER_H
#define SC_ORDER_H

#include <string.h>
#include "jobs/jobs.h"

/* sc-rsort's order: elements of `size` bytes (4 or 8) of `type`, ranked
 * by o32 or o64 as wide as they are. */
typedef struct sc_elem_order {
    unsigned size;
    sc_type type;
    sc_order o32;
    sc_order64 o64;
} sc_elem_order;

/* The job's type, -r and --bits. */
void sc_elem_order_init(sc_elem_order *o, const sc_job *j);

/* The rank of an element whose bits are x: elements sort by it, ties
 * kept in order. */
static inline uint64_t sc_elem_rank_of(const sc_elem_order *o, uint64_t x)
{
    return o->size == 8 ? sc_order64_rank(&o->o64, x)
                        : sc_order_rank(&o->o32, (uint32_t)x);
}

static inline uint64_t sc_elem_rank(const sc_elem_order *o, const void *v,
                                    size_t i)
{
    return sc_elem_rank_of(o, sc_elem_bits(v, i, o->size));
}

/* Where a stream's order check stands: the element before, and the
 * zero-based position of the next element in the named input. */
typedef struct sc_order_cursor {
    const char *name;
    uint64_t pos;
    uint64_t prev;
    int has_prev;
    int strict;             /* -C -u: equal keys are disorder too */
} sc_order_cursor;

/* Checks v[0..n) continue the cursor's order and advances it. SC_OK, or
 * SC_ERR_UNSORTED with "NAME: disorder at element P: X after Y". */
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
