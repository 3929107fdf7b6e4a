/* test_merge.c -- TAP tests of sc_merge_parts (lib/cpu/cpu_merge.c),
 * the host half of a sort spread over several GPUs.
 *
 * Built from the merge's own source with the pool it runs on, so that it
 * is tested on every machine: the GPUs only sort the parts, and whether
 * their merge is the one stable sort of the whole is decided here.  An
 * array is cut into k parts (equal, as cuda_sort.c cuts them, or uneven
 * with empty parts), each part is sorted stably by a plain merge sort,
 * and the merge must equal the plain stable sort of the whole array, for
 * bit ranges, descending order, many ties and several thread counts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "tap.h"

typedef struct order { unsigned shift; uint32_t mask, flip; } order;

static uint32_t rank(const order *o, uint32_t v)
{
    return ((v >> o->shift) & o->mask) ^ o->flip;
}

/* A plain stable merge sort of v[0..n) by rank, through tmp. */
static void plain_sort(const order *o, uint32_t *v, uint32_t *tmp, size_t n)
{
    if (n < 2) return;
    size_t h = n / 2;
    plain_sort(o, v, tmp, h);
    plain_sort(o, v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = rank(o, v[j]) < rank(o, v[i]) ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * 4);
}

static uint64_t seed = 88172645463325252ull;
static uint32_t next_rand(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return (uint32_t)(seed >> 16);
}

enum { DIST_UNIFORM, DIST_FEW, DIST_EQUAL, DIST_SORTED, DIST_REVERSED,
       DIST_COUNT };
static const char *const dist_name[] = { "uniform", "few values", "all equal",
                                         "sorted", "reversed" };

static void fill(uint32_t *v, size_t n, int dist)
{
    for (size_t i = 0; i < n; i++) {
        switch (dist) {
        case DIST_UNIFORM: v[i] = next_rand(); break;
        case DIST_FEW: v[i] = next_rand() % 4 * 0x11111111u ^ (uint32_t)i; break;
        case DIST_EQUAL: v[i] = 7; break;
        case DIST_SORTED: v[i] = (uint32_t)i * 3; break;
        default: v[i] = (uint32_t)(n - i); break;
        }
    }
}

/* Bounds of k parts of n: equal, as cuda_sort.c makes them, or uneven
 * (random, empty parts likely). */
static void cut(uint64_t *bounds, unsigned k, size_t n, int uneven)
{
    for (unsigned i = 0; i <= k; i++)
        bounds[i] = n / k * i + n % k * i / k;
    if (!uneven) return;
    for (unsigned i = 1; i < k; i++)
        bounds[i] = n ? next_rand() % (n + 1) : 0;
    for (unsigned i = 1; i < k; i++)          /* sorted: insertion */
        for (unsigned j = i; j > 1 && bounds[j] < bounds[j - 1]; j--) {
            uint64_t t = bounds[j]; bounds[j] = bounds[j - 1]; bounds[j - 1] = t;
        }
}

typedef struct setup { size_t n; unsigned k; int dist, uneven; unsigned lo, hi;
                       int desc; } setup;

/* 1 when the merge of the sorted parts equals the sort of the whole. */
static int one_case(sc_ctx *ctx, const setup *s)
{
    unsigned width = s->hi - s->lo;
    order o = { s->lo, width >= 32 ? UINT32_MAX : (1u << width) - 1, 0 };
    o.flip = s->desc ? o.mask : 0;
    size_t n = s->n, bytes = (n ? n : 1) * 4;
    uint32_t *in = malloc(bytes), *want = malloc(bytes), *parts = malloc(bytes),
             *got = malloc(bytes + 8), *tmp = malloc(bytes);
    uint64_t bounds[SC_MAX_GPUS + 1];
    fill(in, n, s->dist);
    memcpy(want, in, n * 4);
    plain_sort(&o, want, tmp, n);
    memcpy(parts, in, n * 4);
    cut(bounds, s->k, n, s->uneven);
    for (unsigned i = 0; i < s->k; i++)
        plain_sort(&o, parts + bounds[i], tmp, bounds[i + 1] - bounds[i]);
    got[n] = got[n + 1] = 0xdeadbeef;           /* nothing past the end */
    sc_merge_parts(ctx, parts, bounds, s->k, s->lo, s->hi, s->desc, got);
    int same = memcmp(want, got, n * 4) == 0 && got[n] == 0xdeadbeef &&
               got[n + 1] == 0xdeadbeef;
    if (!same)
        printf("# n=%zu k=%u %s%s bits %u:%u desc %d differs\n", n, s->k,
               dist_name[s->dist], s->uneven ? " uneven" : "", s->lo, s->hi,
               s->desc);
    free(in); free(want); free(parts); free(got); free(tmp);
    return same;
}

static sc_ctx *make_ctx(unsigned threads)
{
    sc_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->threads = threads;
    if (sc_pool_new(&ctx->pool, threads) != SC_OK) { free(ctx); return NULL; }
    return ctx;
}

static void free_ctx(sc_ctx *ctx)
{
    sc_pool_free(ctx->pool);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

static const size_t sizes[] = { 0, 1, 2, 3, 31, 1000, 65536, 65537 * 3 + 5,
                                (1u << 20) + 3 };
static const unsigned parts[] = { 1, 2, 3, 4, 16 };
static const unsigned bits[][2] = { { 0, 32 }, { 4, 12 }, { 28, 32 }, { 0, 1 },
                                    { 31, 32 } };

/* Whether a case is left out to keep the run short: big sizes take
 * fewer bit ranges and distributions, the biggest one thread count. */
static int left_out(size_t n, unsigned parts_k, int d, size_t b,
                    unsigned threads)
{
    if (n < 70000) return 0;
    if (b > 1 || d == DIST_SORTED || d == DIST_REVERSED || parts_k == 4)
        return 1;
    return n > 1000000 && threads != 3;
}

/* Every size, part count and distribution on ctx. */
static void run_all(sc_ctx *ctx, unsigned threads)
{
    int all = 1, cases = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t pi = 0; pi < sizeof parts / sizeof *parts; pi++)
            for (int d = 0; d < DIST_COUNT; d++)
                for (size_t b = 0; b < sizeof bits / sizeof *bits; b++)
                    for (int desc = 0; desc < 2; desc++) {
                        if (left_out(sizes[si], parts[pi], d, b, threads))
                            continue;
                        setup s = { sizes[si], parts[pi], d, (int)(b & 1),
                                    bits[b][0], bits[b][1], desc };
                        all &= one_case(ctx, &s);
                        cases++;
                    }
    ok(all, "%d thread%s: %d merges equal the stable sort of the whole", threads,
       threads == 1 ? "" : "s", cases);
}

int main(void)
{
    static const unsigned threads[] = { 1, 2, 3, 8 };
    setvbuf(stdout, NULL, _IOLBF, 0);
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        sc_ctx *ctx = make_ctx(threads[t]);
        if (!ctx) {
            printf("Bail out! cannot start %u threads\n", threads[t]);
            return 1;
        }
        run_all(ctx, threads[t]);
        free_ctx(ctx);
    }
    printf("1..%d\n", n_tests);
    return n_failed ? 1 : 0;
}
