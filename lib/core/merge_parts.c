/* merge_parts.c — sorted parts merged on the pool's threads (merge path).
 *
 * The output is cut into one equal share per thread.  Where a share
 * begins in each part is found without looking at the other shares: the
 * first r elements of the merged order are all keys of rank below some x
 * and, of the keys of rank x, the earliest parts' first (ties go to the
 * earlier part, which keeps the merge stable).  x is found by binary
 * search over the ranks, each step counting by binary search in every
 * part, so a share's bounds cost 32 * k * log n comparisons: nothing
 * next to the merge itself.
 */
#include <string.h>
#include "core/core.h"

/* Shares smaller than this are not worth a thread. */
#define MIN_SHARE ((uint64_t)1 << 16)

typedef struct merge_args {
    sc_order rank;      /* the key order (sc_hd.h) */
    const uint32_t *src;
    const uint64_t *bounds;
    unsigned k, shares;
    uint32_t *dst;
} merge_args;

/* Elements of part i of rank below x (x may be mask + 1: all of them). */
static uint64_t below(const merge_args *m, unsigned i, uint64_t x)
{
    const uint32_t *v = m->src + m->bounds[i];
    uint64_t lo = 0, hi = m->bounds[i + 1] - m->bounds[i];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (sc_order_digit(&m->rank, v[mid]) < x) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static uint64_t all_below(const merge_args *m, uint64_t x)
{
    uint64_t sum = 0;
    for (unsigned i = 0; i < m->k; i++) sum += below(m, i, x);
    return sum;
}

/* cut[i]: how much of part i the first r elements of the output take. */
static void find_cuts(const merge_args *m, uint64_t r, uint64_t *cut)
{
    /* The smallest rank x with at least r elements of rank up to x. */
    uint64_t lo = 0, hi = m->rank.mask;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (all_below(m, mid + 1) >= r) hi = mid;
        else lo = mid + 1;
    }
    uint64_t need = r;
    for (unsigned i = 0; i < m->k; i++) {
        cut[i] = below(m, i, lo);
        need -= cut[i];
    }
    /* The rest are keys of rank x, from the earliest parts first. */
    for (unsigned i = 0; i < m->k && need; i++) {
        uint64_t equal = below(m, i, lo + 1) - cut[i];
        uint64_t take = equal < need ? equal : need;
        cut[i] += take;
        need -= take;
    }
}

/* Two parts, without branches in the loop (random keys would mispredict
 * half of them); ties take from a. */
static void merge_two(const sc_order *order, const uint32_t *a, uint64_t na,
                      const uint32_t *b, uint64_t nb, uint32_t *out)
{
    const sc_order r = *order;   /* a copy: out cannot alias it */
    uint64_t i = 0, j = 0;
    while (i < na && j < nb) {
        uint32_t x = a[i], y = b[j];
        uint64_t take_b = sc_order_digit(&r, y) < sc_order_digit(&r, x);
        *out++ = take_b ? y : x;
        j += take_b;
        i += 1 - take_b;
    }
    memcpy(out, a + i, (na - i) * 4);
    memcpy(out + (na - i), b + j, (nb - j) * 4);
}

/* Any number of parts: the smallest head each time, the earliest part's
 * on ties. */
static void merge_many(const merge_args *m, const uint64_t *from,
                       const uint64_t *to, uint32_t *out)
{
    uint64_t pos[SC_MAX_GPUS];
    memcpy(pos, from, m->k * sizeof *pos);
    for (;;) {
        unsigned best = m->k;
        uint32_t best_rank = 0;
        for (unsigned i = 0; i < m->k; i++) {
            if (pos[i] == to[i]) continue;
            uint32_t rk = sc_order_digit(&m->rank, m->src[m->bounds[i] + pos[i]]);
            if (best == m->k || rk < best_rank) { best = i; best_rank = rk; }
        }
        if (best == m->k) return;
        *out++ = m->src[m->bounds[best] + pos[best]++];
    }
}

static void merge_share(void *arg, unsigned s)
{
    const merge_args *m = arg;
    uint64_t n = m->bounds[m->k];
    uint64_t r0 = n * s / m->shares, r1 = n * (s + 1) / m->shares;
    uint64_t from[SC_MAX_GPUS], to[SC_MAX_GPUS];
    find_cuts(m, r0, from);
    find_cuts(m, r1, to);
    if (m->k == 2) {
        const uint32_t *a = m->src + m->bounds[0], *b = m->src + m->bounds[1];
        merge_two(&m->rank, a + from[0], to[0] - from[0], b + from[1],
                  to[1] - from[1], m->dst + r0);
    } else {
        merge_many(m, from, to, m->dst + r0);
    }
}

void sc_merge_parts(sc_ctx *ctx, const uint32_t *src, const uint64_t *bounds,
                    unsigned k, unsigned lo_bit, unsigned hi_bit,
                    int descending, uint32_t *dst)
{
    merge_args m = { { 0, 0, 0, { 0, 0 } }, src, bounds, k, 1, dst };
    sc_order_init(&m.rank, lo_bit, hi_bit, descending);
    uint64_t n = bounds[k], most = n / MIN_SHARE + 1;
    m.shares = most < ctx->threads ? (unsigned)most : ctx->threads;
    if (m.shares == 0) m.shares = 1;
    sc_pool_run(ctx->pool, m.shares, merge_share, &m);
}
