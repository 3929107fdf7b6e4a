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

/* The same figures of elements of a signed or float type: s holds their
 * ranks' (sc_key), t the zeros and the float sum. */
sc_status sc_stat_print_type(sc_writer *w, const sc_stats *s,
                             const sc_stat_typed *t)
{
    char line[320], lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS], sum[64],
         mean[64];
    if (s->count == 0) return sc_stat_print(w, s);
    sc_key k = sc_key_of((uint32_t)t->type);
    sc_value_format(t->type, sc_key_unrank(k, s->min), lo);
    sc_value_format(t->type, sc_key_unrank(k, s->max), hi);
    if (t->type == SC_F32) {
        double total = sc_fsum_total(&t->fsum);
        uint64_t bits;
        memcpy(&bits, &total, 8);
        sc_value_format(SC_F64, bits, sum);
        snprintf(mean, sizeof mean, "%.6f", total / (double)s->count);
    } else {
        /* The ranks are x + 2^31: their sum, less 2^31 an element. */
        u128 ranks = (u128)s->sum_hi << 64 | s->sum;
        u128 bias = (u128)s->count << 31;
        int negative = ranks < bias;
        u128 mag = negative ? bias - ranks : ranks - bias;
        char digits[48];
        snprintf(sum, sizeof sum, "%s%s", negative ? "-" : "",
                 u128_text(mag, digits + sizeof digits));
        mean_text(mag, s->count, mean + 1, sizeof mean - 1);
        /* A mean that rounds to zero has no sign. */
        mean[0] = '-';
        if (!negative || strspn(mean + 1, "0.") == strlen(mean + 1))
            memmove(mean, mean + 1, strlen(mean + 1) + 1);
    }
    int len = snprintf(line, sizeof line,
                       "count %" PRIu64 "\nmin %s\nmax %s\nsum %s\nmean %s"
                       "\nzeros %" PRIu64 "\ndistinct %" PRIu64 "\n",
                       s->count, lo, hi, sum, mean, t->zeros, s->distinct);
    return sc_writer_write_bytes(w, line, (size_t)len);
}

sc_status sc_stat_print(sc_writer *w, const sc_stats *s)
{
    char line[256], sum[48], mean[64];
    int len;
    if (s->count == 0) {
        len = snprintf(line, sizeof line, "count 0\n");
        return sc_writer_write_bytes(w, line, (size_t)len);
    }
    u128 total = (u128)s->sum_hi << 64 | s->sum;
    mean_text(total, s->count, mean, sizeof mean);
    len = snprintf(line, sizeof line,
                   "count %" PRIu64 "\nmin %" PRIu32 "\nmax %" PRIu32
                   "\nsum %s\nmean %s\nzeros %" PRIu64 "\ndistinct %" PRIu64
                   "\n", s->count, s->min, s->max,
                   u128_text(total, sum + sizeof sum), mean, s->zeros,
                   s->distinct);
    return sc_writer_write_bytes(w, line, (size_t)len);
}

/* Buckets between min and max: as many as asked, but no more than there
 * are values, so none is empty by construction. */
sc_status sc_stat_hist_init(sc_stat_hist *h, sc_ctx *ctx, sc_type type,
                            uint32_t buckets, uint32_t min, uint32_t max)
{
    uint64_t range = (uint64_t)max - min + 1;
    h->type = type;
    h->min = min;
    h->range = range;
    h->n = buckets < range ? buckets : (uint32_t)range;
    h->counts = calloc(h->n, sizeof *h->counts);
    return h->counts ? SC_OK : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
}

/* Bucket b holds x with floor((x - min) * n / range) == b. */
sc_status sc_stat_hist_add(void *arg, const void *elems, size_t len)
{
    sc_stat_hist *h = arg;
    const uint32_t *x = elems;
    for (size_t i = 0; i < len; i++)
        h->counts[(uint64_t)(x[i] - h->min) * h->n / h->range]++;
    return SC_OK;
}

/* Bucket b runs from min + ceil(b * range / n) to one below the next. */
static uint64_t bucket_start(const sc_stat_hist *h, uint64_t b)
{
    return h->min + (b * h->range + h->n - 1) / h->n;
}

sc_status sc_stat_hist_print(sc_writer *w, const sc_stat_hist *h)
{
    sc_status st = SC_OK;
    sc_key key = sc_key_of((uint32_t)h->type);
    for (uint64_t b = 0; b < h->n && st == SC_OK; b++) {
        char lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS];
        char line[2 * SC_VALUE_CHARS + 32];
        uint32_t first = (uint32_t)bucket_start(h, b);
        uint32_t last = (uint32_t)(bucket_start(h, b + 1) - 1);
        sc_value_format(h->type, sc_key_unrank(key, first), lo);
        sc_value_format(h->type, sc_key_unrank(key, last), hi);
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
                                  const uint32_t *ranks, unsigned nb)
{
    char line[SC_MAX_PARTS * (SC_VALUE_CHARS + 1) + 16];
    size_t len = (size_t)snprintf(line, sizeof line, "quantiles");
    sc_key key = sc_key_of((uint32_t)type);
    for (unsigned k = 0; k < nb; k++) {
        line[len++] = k ? ',' : ' ';
        len += sc_value_format(type, sc_key_unrank(key, ranks[k]), line + len);
    }
    line[len++] = '\n';
    return sc_writer_write_bytes(w, line, len);
}
