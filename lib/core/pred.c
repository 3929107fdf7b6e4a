/* pred.c — building predicates from the conditions of the tools'
 * predicate options (sc-compact(1), sc-split(1); libsc(3), Predicates).
 *
 * Bounds conditions fold into one interval so evaluation costs the same
 * however many are given; != and mask terms are kept as lists.  The
 * interval is narrowed in the type's rank order (sc_hd.h's sc_key) and
 * kept as sc_pred_eval reads elements: the rank with its sign bit
 * flipped back, so that a signed interval is one circular interval of
 * unsigned numbers.
 */
#include <string.h>
#include "core/core.h"

static int is_32bit(sc_type t)
{
    return t == SC_U32 || t == SC_I32 || t == SC_F32;
}

sc_status sc_pred_all_type(sc_pred *p, sc_type t)
{
    if (!p || !is_32bit(t)) return SC_ERR_USAGE;
    memset(p, 0, sizeof *p);
    sc_key k = sc_key_of((uint32_t)t);
    p->type = (uint32_t)t;
    p->key_neg = k.neg;
    p->lo = 0 ^ k.sign;
    p->hi = UINT32_MAX ^ k.sign;
    return SC_OK;
}

void sc_pred_all(sc_pred *p) { sc_pred_all_type(p, SC_U32); }

static uint32_t f32_bits(int negative_zero) { return negative_zero ? 0x80000000u : 0u; }

static int f32_is_nan(uint32_t v) { return (v & 0x7fffffffu) > 0x7f800000u; }
static int f32_is_zero(uint32_t v) { return (v & 0x7fffffffu) == 0; }

/* As sc_pred_eval reads x (floats as signed integers order). */
static uint32_t pred_space(const sc_pred *p, uint32_t x)
{
    return x ^ (p->key_neg & (0u - (x >> 31)));
}

sc_status sc_pred_default_type(sc_pred *p, sc_type t)
{
    sc_status st = sc_pred_all_type(p, t);
    if (st) return st;
    p->ne[p->n_ne++] = 0;
    if (t == SC_F32) p->ne[p->n_ne++] = pred_space(p, f32_bits(1));
    return SC_OK;
}

void sc_pred_default(sc_pred *p) { sc_pred_default_type(p, SC_U32); }

static void set_empty(sc_pred *p)
{
    p->empty = 1;
    p->lo = 1;
    p->hi = 0;
}

/* Narrows the interval to ranks [lo, hi]. */
static void narrow(sc_pred *p, uint32_t lo, uint32_t hi)
{
    if (p->empty) return;
    uint32_t sign = sc_key_of(p->type).sign;
    uint32_t cur_lo = p->lo ^ sign, cur_hi = p->hi ^ sign;
    if (lo > cur_lo) cur_lo = lo;
    if (hi < cur_hi) cur_hi = hi;
    if (cur_lo > cur_hi) { set_empty(p); return; }
    p->lo = cur_lo ^ sign;
    p->hi = cur_hi ^ sign;
}

/* A float condition: a NaN value admits nothing (but != admits all),
 * any other bound excludes the NaNs, and a zero bound stands for both
 * zeros.  Returns 1 when the condition is settled here. */
static int float_cmp(sc_pred *p, sc_cmp cmp, uint32_t *v)
{
    sc_key k = sc_key_of(SC_F32);
    if (f32_is_nan(*v)) {
        if (cmp != SC_NE) set_empty(p);
        return 1;
    }
    if (cmp == SC_NE) {
        if (!f32_is_zero(*v)) return 0;
        if (p->n_ne + 2 > SC_PRED_MAX_TERMS) return -1;
        p->ne[p->n_ne++] = pred_space(p, f32_bits(0));
        p->ne[p->n_ne++] = pred_space(p, f32_bits(1));
        return 1;
    }
    narrow(p, sc_key_rank(k, 0xff800000u), sc_key_rank(k, 0x7f800000u));
    if (!f32_is_zero(*v)) return 0;
    if (cmp == SC_EQ) {
        narrow(p, sc_key_rank(k, f32_bits(1)), sc_key_rank(k, f32_bits(0)));
        return 1;
    }
    /* Below or from zero start at -0; up to or above it end at +0. */
    *v = f32_bits(cmp == SC_LT || cmp == SC_GE);
    return 0;
}

sc_status sc_pred_add_cmp(sc_pred *p, sc_cmp cmp, uint32_t v)
{
    if (!p || (unsigned)cmp > SC_GE) return SC_ERR_USAGE;
    if (p->type == SC_F32) {
        int done = float_cmp(p, cmp, &v);
        if (done < 0) return SC_ERR_USAGE;
        if (done) return SC_OK;
    }
    uint32_t r = sc_key_rank(sc_key_of(p->type), v);
    switch (cmp) {
    case SC_EQ: narrow(p, r, r); break;
    case SC_LE: narrow(p, 0, r); break;
    case SC_GE: narrow(p, r, UINT32_MAX); break;
    case SC_LT:
        if (r == 0) set_empty(p); else narrow(p, 0, r - 1);
        break;
    case SC_GT:
        if (r == UINT32_MAX) set_empty(p); else narrow(p, r + 1, UINT32_MAX);
        break;
    case SC_NE:
        if (p->n_ne >= SC_PRED_MAX_TERMS) return SC_ERR_USAGE;
        p->ne[p->n_ne++] = pred_space(p, v);
        break;
    }
    return SC_OK;
}

/* lo <= x <= hi in the type; lo above hi admits nothing. */
sc_status sc_pred_add_range(sc_pred *p, uint32_t lo, uint32_t hi)
{
    sc_status st = sc_pred_add_cmp(p, SC_GE, lo);
    return st ? st : sc_pred_add_cmp(p, SC_LE, hi);
}

sc_status sc_pred_add_mask(sc_pred *p, uint32_t mask)
{
    if (!p || p->type == SC_F32) return SC_ERR_USAGE;
    if (p->n_mask >= SC_PRED_MAX_TERMS) return SC_ERR_USAGE;
    p->mask[p->n_mask++] = mask;
    return SC_OK;
}

int sc_pred_test(const sc_pred *p, uint32_t x) { return sc_pred_eval(p, x); }
