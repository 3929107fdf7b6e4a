/* stat.h — what sc-stat's job files share.  Elements of every type are
 * figured as their ranks (sc_type_rank: a u32's and a u64's are the
 * elements themselves), 4 or 8 bytes each. */
#ifndef SC_STAT_H
#define SC_STAT_H
#include "jobs/jobs.h"
#include "jobs/spill.h"

/* The report, after the chunks (stat_report.c): the figures of acc, a
 * running state of ranks of elements of t->type, with t's zeros and
 * float sum; t NULL: of u32 elements, acc's own zeros. */
sc_status sc_stat_print(sc_writer *w, const sc_stat_acc *acc,
                        const sc_stat_typed *t);

/* --hist: equal-width buckets between min and max.  An integer type's
 * are counted as ranks (a rank is the value plus a constant, so the
 * widths hold); a float type's in double between the finite ends, the
 * infinities and NaNs apart (stat_fhist.c). */
typedef struct sc_stat_hist {
    sc_type type;               /* the values printed */
    uint32_t n;                 /* buckets */
    uint64_t *counts;
    uint64_t min;               /* integers: a rank */
    unsigned __int128 range;    /* integers: max - min + 1, up to 2^64 */
    int is_float, finite, half; /* floats: finite values seen; halved */
    double lo, hi, width;       /* floats: the finite ends, hi - lo */
    uint64_t neg_inf, pos_inf, nan;
} sc_stat_hist;
/* Counts what keep holds (ranks of elements of type, whose least and
 * greatest are min and max) into buckets. */
sc_status sc_stat_hist_count(sc_stat_hist *h, sc_ctx *ctx, sc_type type,
                             uint32_t buckets, uint64_t min, uint64_t max,
                             sc_spill *keep);
sc_status sc_stat_hist_print(sc_writer *w, const sc_stat_hist *h);
void sc_stat_hist_free(sc_stat_hist *h);
/* The float types' (stat_fhist.c). */
sc_status sc_stat_fhist_count(sc_stat_hist *h, sc_ctx *ctx, sc_type type,
                              uint32_t buckets, uint64_t min, uint64_t max,
                              sc_spill *keep);
sc_status sc_stat_fhist_print(sc_writer *w, const sc_stat_hist *h);

/* --sample: the 64 KiB blocks of the stream looked at (stat_sample.c),
 * of elements of `size` bytes. */
typedef struct sc_blocks {
    int all;                    /* no --sample: every block */
    unsigned size;              /* an element's bytes: 4 or 8 */
    uint64_t elems;             /* a block's elements */
    uint64_t below, salt;       /* block k is taken when its hash < below */
    int any;                    /* a block was taken */
    void *first;                /* the stream's first block, as it passes */
    size_t first_n;
} sc_blocks;
sc_status sc_blocks_init(sc_ctx *ctx, sc_blocks *b, double fraction,
                         uint64_t seed, unsigned size);
void sc_blocks_free(sc_blocks *b);
/* Moves the elements of in[0..n), at stream positions first..., that lie
 * in blocks taken to the front; returns how many.  Chunks come in stream
 * order: the first block is held meanwhile. */
size_t sc_blocks_keep(sc_blocks *b, void *x, size_t n, uint64_t first);
/* When the stream ended with no block taken, the first block, which the
 * sample then is (so that it is never empty for an input that is not):
 * its length, *x set; else 0. */
size_t sc_blocks_untaken(const sc_blocks *b, void **x);
/* Whether the inputs are files whose taken blocks can be read in place. */
int sc_blocks_direct(const sc_blocks *b, const sc_job *j, sc_reader *r);
/* Reads only the blocks taken, in order, handing them to look() in
 * batches; *in counts the elements read, times their reading. */
typedef sc_status (*sc_look_fn)(void *arg, void *x, size_t n);
sc_status sc_blocks_read(sc_ctx *ctx, sc_phase_times *times, const sc_job *j,
                         sc_blocks *b, sc_look_fn look, void *arg,
                         uint64_t *in);

/* The "quantiles" line of bounds, ranks of elements of type
 * (stat_report.c). */
sc_status sc_stat_quantiles_print(sc_writer *w, sc_type type,
                                  const uint64_t *ranks,
                                  unsigned nb);

/* --head / --tail: the ends of the stream as text (stat_ends.c). */
sc_status sc_stat_ends(sc_ctx *ctx, const sc_job *j, sc_reader *r,
                       sc_writer *w, uint64_t *in, uint64_t *out);
#endif
