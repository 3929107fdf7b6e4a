/* pred.c — building predicates from the conditions of the tools'
 * predicate options (sc-compact(1), sc-split(1); libsc(3), Predicates).
 *
 * Bounds conditions fold into one interval so evaluation costs the same
 * however many are given; != and mask terms are kept as lists.  The
 * interval is narrowed in the type's rank order (sc_hd.h's sc_key) and
 * kept as sc_pred_eval reads elements: the rank with its sign bit
 * flipped back, so that a signed interval is one circular interval of
 * unsigned numbers.  One implementation serves both widths: words are
 * 64-bit, a 32-bit type's in the low half, and `top` is the width's
 * greatest word.
 */
#include <string.h>
#include "core/core.h"

static unsigned width_of(uint32_t type)
{
    return 8 * sc_type_size((sc_type)type);
}

static uint64_t top_of(uint32_t type)
{
    return width_of(type) == 64 ? UINT64_MAX : UINT32_MAX;
}

/* The sign bit of the width (a float's too). */
static uint64_t sign_bit(uint32_t type) { return top_of(type) ^ (top_of(type) >> 1); }

/* What flips a type's bits into its rank's (sc_key's sign). */
static uint64_t rank_sign(uint32_t type)
{
    return width_of(type) == 64 ? sc_key64_of(type).sign : sc_key_of(type).sign;
}

static uint64_t rank(uint32_t type, uint64_t v)
{
    if (width_of(type) == 64) return sc_key64_rank(sc_key64_of(type), v);
    return sc_key_rank(sc_key_of(type), (uint32_t)v);
}

sc_status sc_pred_all_type(sc_pred *p, sc_type t)
{
    if (!p || sc_type_size(t) == 0) return SC_ERR_USAGE;
    memset(p, 0, sizeof *p);
    p->type = (uint32_t)t;
    p->key_neg = width_of(t) == 64 ? sc_key64_of(t).neg : sc_key_of(t).neg;
    p->lo = 0 ^ rank_sign(t);
    p->hi = top_of(t) ^ rank_sign(t);
    return SC_OK;
}

void sc_pred_all(sc_pred *p) { sc_pred_all_type(p, SC_U32); }

/* As sc_pred_eval reads x (floats as signed integers order). */
static uint64_t pred_space(const sc_pred *p, uint64_t x)
{
    uint64_t negative = (x & sign_bit(p->type)) != 0;
    return x ^ (p->key_neg & (0u - negative));
}

/* A float's bits: zero of either sign, infinity, NaN. */
static uint64_t zero_bits(uint32_t type, int negative)
{
    return negative ? sign_bit(type) : 0;
}
static uint64_t inf_bits(uint32_t type)
{
    return width_of(type) == 64 ? 0x7ff0000000000000u : 0x7f800000u;
}
static int is_nan(uint32_t type, uint64_t v)
{
    return (v & (top_of(type) >> 1)) > inf_bits(type);
}
static int is_zero(uint32_t type, uint64_t v)
{
    return (v & (top_of(type) >> 1)) == 0;
}

sc_status sc_pred_default_type(sc_pred *p, sc_type t)
{
    sc_status st = sc_pred_all_type(p, t);
    if (st) return st;
    p->ne[p->n_ne++] = 0;
    if (sc_type_is_float(t)) p->ne[p->n_ne++] = pred_space(p, zero_bits(t, 1));
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
static void narrow(sc_pred *p, uint64_t lo, uint64_t hi)
{
    if (p->empty) return;
    uint64_t sign = rank_sign(p->type);
    uint64_t cur_lo = p->lo ^ sign, cur_hi = p->hi ^ sign;
    if (lo > cur_lo) cur_lo = lo;
    if (hi < cur_hi) cur_hi = hi;
    if (cur_lo > cur_hi) { set_empty(p); return; }
    p->lo = cur_lo ^ sign;
    p->hi = cur_hi ^ sign;
}

/* A float condition: a NaN value admits nothing (but != admits all),
 * any other bound excludes the NaNs, and a zero bound stands for both
 * zeros.  Returns 1 when the condition is settled here. */
static int float_cmp(sc_pred *p, sc_cmp cmp, uint64_t *v)
{
    uint32_t t = p->type;
    if (is_nan(t, *v)) {
        if (cmp != SC_NE) set_empty(p);
        return 1;
    }
    if (cmp == SC_NE) {
        if (!is_zero(t, *v)) return 0;
        if (p->n_ne + 2 > SC_PRED_MAX_TERMS) return -1;
        p->ne[p->n_ne++] = pred_space(p, zero_bits(t, 0));
        p->ne[p->n_ne++] = pred_space(p, zero_bits(t, 1));
        return 1;
    }
    narrow(p, rank(t, sign_bit(t) | inf_bits(t)), rank(t, inf_bits(t)));
    if (!is_zero(t, *v)) return 0;
    if (cmp == SC_EQ) {
        narrow(p, rank(t, zero_bits(t, 1)), rank(t, zero_bits(t, 0)));
        return 1;
    }
    /* Below or from zero start at -0; up to or above it end at +0. */
    *v = zero_bits(t, cmp == SC_LT || cmp == SC_GE);
    return 0;
}

/* v as a word of p's width: a 32-bit type's may come sign-extended. */
static int fit(const sc_pred *p, uint64_t *v)
{
    uint64_t top = top_of(p->type);
    if (*v <= top) return 1;
    if ((*v | top) != UINT64_MAX || !(*v & sign_bit(p->type))) return 0;
    *v &= top;
    return 1;
}

sc_status sc_pred_add_cmp(sc_pred *p, sc_cmp cmp, uint64_t v)
{
    if (!p || (unsigned)cmp > SC_GE || sc_type_size((sc_type)p->type) == 0 ||
        !fit(p, &v))
        return SC_ERR_USAGE;
    if (sc_type_is_float((sc_type)p->type)) {
        int done = float_cmp(p, cmp, &v);
        if (done < 0) return SC_ERR_USAGE;
        if (done) return SC_OK;
    }
    uint64_t r = rank(p->type, v), top = top_of(p->type);
    switch (cmp) {
    case SC_EQ: narrow(p, r, r); break;
    case SC_LE: narrow(p, 0, r); break;
    case SC_GE: narrow(p, r, top); break;
    case SC_LT:
        if (r == 0) set_empty(p); else narrow(p, 0, r - 1);
        break;
    case SC_GT:
        if (r == top) set_empty(p); else narrow(p, r + 1, top);
        break;
    case SC_NE:
        if (p->n_ne >= SC_PRED_MAX_TERMS) return SC_ERR_USAGE;
        p->ne[p->n_ne++] = pred_space(p, v);
        break;
    }
    return SC_OK;
}

/* lo <= x <= hi in the type; lo above hi admits nothing. */
sc_status sc_pred_add_range(sc_pred *p, uint64_t lo, uint64_t hi)
{
    sc_status st = sc_pred_add_cmp(p, SC_GE, lo);
    return st ? st : sc_pred_add_cmp(p, SC_LE, hi);
}

sc_status sc_pred_add_mask(sc_pred *p, uint64_t mask)
{
    if (!p || sc_type_is_float((sc_type)p->type) || !fit(p, &mask))
        return SC_ERR_USAGE;
    if (p->n_mask >= SC_PRED_MAX_TERMS) return SC_ERR_USAGE;
    p->mask[p->n_mask++] = mask;
    return SC_OK;
}

int sc_pred_test(const sc_pred *p, uint64_t x)
{
    if (width_of(p->type) == 64) return sc_pred_eval64(p, x);
    return sc_pred_eval(p, (uint32_t)x);
}
