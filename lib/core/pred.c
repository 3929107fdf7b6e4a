/* pred.c — building predicates from the conditions of the tools'
 * predicate options (sc-compact(1), sc-split(1); libsc(3), Predicates).
 *
 * Bounds conditions fold into one interval [lo, hi] so evaluation costs the
 * same however many are given; != and mask terms are kept as lists.
 */
#include <string.h>
#include "core/core.h"

void sc_pred_all(sc_pred *p)
{
    memset(p, 0, sizeof *p);
    p->lo = 0;
    p->hi = UINT32_MAX;
}

void sc_pred_default(sc_pred *p)
{
    sc_pred_all(p);
    p->ne[p->n_ne++] = 0;
}

static void narrow(sc_pred *p, uint32_t lo, uint32_t hi)
{
    if (lo > p->lo) p->lo = lo;
    if (hi < p->hi) p->hi = hi;
    if (p->lo > p->hi) { p->empty = 1; p->lo = 1; p->hi = 0; }
}

sc_status sc_pred_add_cmp(sc_pred *p, sc_cmp cmp, uint32_t v)
{
    switch (cmp) {
    case SC_EQ: narrow(p, v, v); break;
    case SC_LE: narrow(p, 0, v); break;
    case SC_GE: narrow(p, v, UINT32_MAX); break;
    case SC_LT:
        if (v == 0) p->empty = 1; else narrow(p, 0, v - 1);
        break;
    case SC_GT:
        if (v == UINT32_MAX) p->empty = 1; else narrow(p, v + 1, UINT32_MAX);
        break;
    case SC_NE:
        if (p->n_ne >= SC_PRED_MAX_TERMS) return SC_ERR_USAGE;
        p->ne[p->n_ne++] = v;
        break;
    default:
        return SC_ERR_USAGE;
    }
    if (p->empty) { p->lo = 1; p->hi = 0; }
    return SC_OK;
}

sc_status sc_pred_add_range(sc_pred *p, uint32_t lo, uint32_t hi)
{
    if (lo > hi) p->empty = 1;
    narrow(p, lo, hi);
    if (p->empty) { p->lo = 1; p->hi = 0; }
    return SC_OK;
}

sc_status sc_pred_add_mask(sc_pred *p, uint32_t mask)
{
    if (p->n_mask >= SC_PRED_MAX_TERMS) return SC_ERR_USAGE;
    p->mask[p->n_mask++] = mask;
    return SC_OK;
}

int sc_pred_test(const sc_pred *p, uint32_t x) { return sc_pred_eval(p, x); }
