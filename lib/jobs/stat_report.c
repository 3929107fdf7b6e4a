/* stat_report.c — sc-stat's "name value" lines and the histogram that
 * needs min and max before it can count. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/stat.h"

typedef unsigned __int128 u128;

static char *u128_text(u128 v, char *end)
{
    *--end = '\0';
    do {
        *--end = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    return end;
}

/* sum / count to six decimals, rounded half up, exactly: binary floating
 * point would round differently from one platform to the next. */
static void mean_text(u128 sum, uint64_t count, char *buf, size_t size)
{
    u128 q = sum / count, r = sum % count;
    u128 frac = (r * 1000000u + count / 2) / count;
    if (frac == 1000000u) { q++; frac = 0; }
    char digits[48];
    snprintf(buf, size, "%s.%06u", u128_text(q, digits + sizeof digits),
             (unsigned)frac);
}

/* The sum and the mean of elements of type (t NULL: u32): an integer
 * type's from acc's sum of their ranks, a float's t's, in its order. */
static void sum_text(const sc_stat_acc *acc, const sc_stat_typed *t,
                     char *sum, size_t sum_size, char *mean, size_t mean_size)
{
    if (t && sc_type_is_float(t->type)) {
        double total = sc_fsum_total(&t->fsum);
        uint64_t bits;
        memcpy(&bits, &total, 8);
        sc_value_format(SC_F64, bits, sum);
        snprintf(mean, mean_size, "%.6f", total / (double)acc->count);
        return;
    }
    sc_type type = t ? t->type : SC_U32;
    u128 total = sc_stat_acc_sum(acc, type);
    int negative = sc_type_is_signed(type) && (__int128)total < 0;
    u128 mag = negative ? -total : total;
    char digits[48];
    snprintf(sum, sum_size, "%s%s", negative ? "-" : "",
             u128_text(mag, digits + sizeof digits));
    mean_text(mag, acc->count, mean + 1, mean_size - 1);
    /* A mean that rounds to zero has no sign. */
    mean[0] = '-';
    if (!negative || strspn(mean + 1, "0.") == strlen(mean + 1))
        memmove(mean, mean + 1, strlen(mean + 1) + 1);
}

sc_status sc_stat_print(sc_writer *w, const sc_stat_acc *acc,
                        const sc_stat_typed *t)
{
    /* A float mean to six decimals is up to 317 characters (1.8e308). */
    char line[640], lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS], sum[64],
         mean[400];
    int len;
    if (acc->count == 0) {
        len = snprintf(line, sizeof line, "count 0\n");
        return sc_writer_write_bytes(w, line, (size_t)len);
    }
    sc_type type = t ? t->type : SC_U32;
    sc_value_format(type, sc_type_unrank(type, acc->min), lo);
    sc_value_format(type, sc_type_unrank(type, acc->max), hi);
    sum_text(acc, t, sum, sizeof sum, mean, sizeof mean);
    len = snprintf(line, sizeof line,
                   "count %" PRIu64 "\nmin %s\nmax %s\nsum %s\nmean %s"
                   "\nzeros %" PRIu64 "\ndistinct %" PRIu64 "\n",
                   acc->count, lo, hi, sum, mean, t ? t->zeros : acc->zeros,
                   sc_stat_acc_distinct(acc));
    return sc_writer_write_bytes(w, line, (size_t)len);
}

/* Buckets between min and max: as many as asked, but no more than there
 * are values, so none is empty by construction. */
static sc_status hist_init(sc_stat_hist *h, sc_ctx *ctx, sc_type type,
                           uint32_t buckets, uint64_t min, uint64_t max)
{
    u128 range = (u128)max - min + 1;
    memset(h, 0, sizeof *h);
    h->type = type;
    h->min = min;
    h->range = range;
    h->n = buckets < range ? buckets : (uint32_t)range;
    h->counts = calloc(h->n, sizeof *h->counts);
    return h->counts ? SC_OK : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
}

/* Bucket b holds x with floor((x - min) * n / range) == b: for ranks of
 * type T, in PRODUCT_T, which holds (x - min) * n and the range. */
#define HIST_COUNT(h, x, len, T, PRODUCT_T)                                 \
    do {                                                                    \
        const T *x_ = (x), min_ = (T)(h)->min;                              \
        PRODUCT_T n_ = (h)->n, range_ = (PRODUCT_T)(h)->range;              \
        for (size_t i_ = 0; i_ < (len); i_++)                               \
            (h)->counts[(PRODUCT_T)(x_[i_] - min_) * n_ / range_]++;        \
    } while (0)

/* An sc_spill_fn: counts elements (ranks of h->type's width) into their
 * buckets. */
static sc_status hist_add(void *arg, const void *x, size_t len)
{
    sc_stat_hist *h = arg;
    /* A 32-bit type's range fits 33 bits, times n 53: 64-bit division. */
    if (sc_type_is_64bit(h->type)) HIST_COUNT(h, x, len, uint64_t, u128);
    else HIST_COUNT(h, x, len, uint32_t, uint64_t);
    return SC_OK;
}

sc_status sc_stat_hist_count(sc_stat_hist *h, sc_ctx *ctx, sc_type type,
                             uint32_t buckets, uint64_t min, uint64_t max,
                             sc_spill *keep)
{
    if (sc_type_is_float(type))
        return sc_stat_fhist_count(h, ctx, type, buckets, min, max, keep);
    sc_status st = hist_init(h, ctx, type, buckets, min, max);
    return st == SC_OK ? sc_spill_walk(keep, hist_add, h) : st;
}

/* Bucket b runs from min + ceil(b * range / n) to one below the next. */
static u128 bucket_start(const sc_stat_hist *h, uint64_t b)
{
    return h->min + (b * h->range + h->n - 1) / h->n;
}

sc_status sc_stat_hist_print(sc_writer *w, const sc_stat_hist *h)
{
    if (h->is_float) return sc_stat_fhist_print(w, h);
    sc_status st = SC_OK;
    for (uint64_t b = 0; b < h->n && st == SC_OK; b++) {
        char lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS];
        char line[2 * SC_VALUE_CHARS + 32];
        uint64_t first = (uint64_t)bucket_start(h, b);
        uint64_t last = (uint64_t)(bucket_start(h, b + 1) - 1);
        sc_value_format(h->type, sc_type_unrank(h->type, first), lo);
        sc_value_format(h->type, sc_type_unrank(h->type, last), hi);
        int len = snprintf(line, sizeof line, "hist %s %s %" PRIu64 "\n", lo,
                           hi, h->counts[b]);
        st = sc_writer_write_bytes(w, line, (size_t)len);
    }
    return st;
}

void sc_stat_hist_free(sc_stat_hist *h)
{
    free(h->counts);
    h->counts = NULL;
}

/* "quantiles B1,B2,...": what sc-split --ranges takes; "quantiles" alone
 * when there is no bound to give (one value throughout). */
sc_status sc_stat_quantiles_print(sc_writer *w, sc_type type,
                                  const uint64_t *ranks, unsigned nb)
{
    char line[SC_MAX_PARTS * (SC_VALUE_CHARS + 1) + 16];
    size_t len = (size_t)snprintf(line, sizeof line, "quantiles");
    for (unsigned k = 0; k < nb; k++) {
        line[len++] = k ? ',' : ' ';
        len += sc_value_format(type, sc_type_unrank(type, ranks[k]),
                               line + len);
    }
    line[len++] = '\n';
    return sc_writer_write_bytes(w, line, len);
}
