/* stat.h — what sc-stat's job files share. */
#ifndef SC_STAT_H
#define SC_STAT_H
#include "internal.h"

/* The report, after the chunks (stat_report.c). */
sc_status sc_stat_print(sc_writer *w, const sc_stats *s);

typedef struct sc_stat_hist {
    uint32_t min, n;
    uint64_t range;             /* max - min + 1 */
    uint64_t *counts;
} sc_stat_hist;
sc_status sc_stat_hist_init(sc_stat_hist *h, sc_ctx *ctx, uint32_t buckets,
                            uint32_t min, uint32_t max);
/* An sc_spill_fn: counts elements into their buckets. */
sc_status sc_stat_hist_add(void *h, const uint32_t *x, size_t len);
sc_status sc_stat_hist_print(sc_writer *w, const sc_stat_hist *h);
void sc_stat_hist_free(sc_stat_hist *h);

/* --head / --tail: the ends of the stream as text (stat_ends.c). */
sc_status sc_stat_ends(sc_ctx *ctx, const sc_job *j, sc_reader *r,
                       sc_writer *w, uint64_t *in, uint64_t *out);
#endif
