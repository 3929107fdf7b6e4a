/* stat_fhist.c — sc-stat --hist of floats: equal-width buckets between
 * the least and the greatest finite values, counted in double; the
 * infinities and the NaNs, which no finite width reaches, counted apart.
 *
 * A value x falls in bucket floor((x - lo) / (hi - lo) * n), the last
 * bucket also holding hi.  Where hi - lo overflows a double (f64 values
 * of both signs near the limits) both are halved first: exact, as
 * values that large are far from the denormals.  hi - lo is never 0 for
 * hi > lo (IEEE subtraction underflows gradually), so the quotient is in
 * [0, 1] and no bucket index overflows. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/stat.h"

static double value_of(sc_type t, uint64_t rank)
{
    uint64_t bits = sc_type_unrank(t, rank);
    if (t == SC_F64) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    uint32_t b32 = (uint32_t)bits;
    float f;
    memcpy(&f, &b32, sizeof f);
    return f;
}

static uint64_t bits_of(sc_type t, double d)
{
    if (t == SC_F64) {
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        return bits;
    }
    float f = (float)d;
    uint32_t b32;
    memcpy(&b32, &f, sizeof b32);
    return b32;
}

static uint64_t rank_at(sc_type t, const void *x, size_t i)
{
    return t == SC_F64 ? ((const uint64_t *)x)[i] : ((const uint32_t *)x)[i];
}

/* Where the ends of a float type's values are not finite: the least
 * and greatest finite ranks, as the report's min and max are ranks. */
typedef struct finite_ends {
    sc_type type;
    int any;
    uint64_t lo, hi;
} finite_ends;

/* An sc_spill_fn: the least and greatest ranks of finite values. */
static sc_status find_ends(void *arg, const void *x, size_t len)
{
    finite_ends *e = arg;
    for (size_t i = 0; i < len; i++) {
        uint64_t r = rank_at(e->type, x, i);
        if (!isfinite(value_of(e->type, r))) continue;
        if (!e->any || r < e->lo) e->lo = r;
        if (!e->any || r > e->hi) e->hi = r;
        e->any = 1;
    }
    return SC_OK;
}

/* An sc_spill_fn: every value into its bucket or its special count. */
static sc_status count(void *arg, const void *x, size_t len)
{
    sc_stat_hist *h = arg;
    double scale = h->half ? 0.5 : 1.0, lo = h->lo * scale;
    for (size_t i = 0; i < len; i++) {
        double v = value_of(h->type, rank_at(h->type, x, i));
        if (isnan(v)) { h->nan++; continue; }
        if (isinf(v)) { v < 0 ? h->neg_inf++ : h->pos_inf++; continue; }
        uint64_t b = (uint64_t)((v * scale - lo) / h->width * h->n);
        h->counts[b < h->n ? b : h->n - 1]++;
    }
    return SC_OK;
}

sc_status sc_stat_fhist_count(sc_stat_hist *h, sc_ctx *ctx, sc_type type,
                              uint32_t buckets, uint64_t min, uint64_t max,
                              sc_spill *keep)
{
    memset(h, 0, sizeof *h);
    h->type = type;
    h->is_float = 1;
    /* Finite ends: every value lies between them, none is special. */
    finite_ends e = { type, 1, min, max };
    sc_status st = SC_OK;
    if (!isfinite(value_of(type, min)) || !isfinite(value_of(type, max))) {
        e.any = 0;
        st = sc_spill_walk(keep, find_ends, &e);
    }
    if (st != SC_OK) return st;
    h->finite = e.any;
    h->lo = value_of(type, e.lo);
    h->hi = value_of(type, e.hi);
    h->n = !h->finite ? 0 : h->lo == h->hi ? 1 : buckets;
    h->width = h->hi - h->lo;
    if (isinf(h->width)) {
        h->half = 1;
        h->width = h->hi * 0.5 - h->lo * 0.5;
    }
    if (h->n == 1) h->width = 1;        /* every finite value is lo */
    h->counts = calloc(h->n ? h->n : 1, sizeof *h->counts);
    if (!h->counts) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    return sc_spill_walk(keep, count, h);
}

/* Bucket b's lower edge; bucket n's is hi. */
static double edge(const sc_stat_hist *h, uint64_t b)
{
    if (b >= h->n) return h->hi;
    double step = h->width * ((double)b / h->n);
    return h->half ? h->lo + step + step : h->lo + step;
}

static sc_status line(sc_writer *w, sc_type t, double lo, double hi,
                      uint64_t c)
{
    char a[SC_VALUE_CHARS], b[SC_VALUE_CHARS], text[2 * SC_VALUE_CHARS + 32];
    sc_value_format(t, bits_of(t, lo), a);
    sc_value_format(t, bits_of(t, hi), b);
    int len = snprintf(text, sizeof text, "hist %s %s %" PRIu64 "\n", a, b,
                       c);
    return sc_writer_write_bytes(w, text, (size_t)len);
}

sc_status sc_stat_fhist_print(sc_writer *w, const sc_stat_hist *h)
{
    sc_status st = SC_OK;
    if (h->neg_inf) st = line(w, h->type, -INFINITY, -INFINITY, h->neg_inf);
    for (uint64_t b = 0; b < h->n && st == SC_OK; b++)
        st = line(w, h->type, edge(h, b), edge(h, b + 1), h->counts[b]);
    if (st == SC_OK && h->pos_inf)
        st = line(w, h->type, INFINITY, INFINITY, h->pos_inf);
    if (st == SC_OK && h->nan) st = line(w, h->type, NAN, NAN, h->nan);
    return st;
}
