/* test_sort64.c -- TAP unit tests of the sort of 64-bit elements (u64,
 * i64, f64) on the host's threads: sc_sort_type through sc.h, and the
 * internal sc_sort_ready that sc-rsort's job calls, whose sorted pieces
 * must come in order and make up the whole; and the pieces of
 * sc_op_sort_records (records, argsorts) when its ready fails: no second
 * device sends them again; and the kinds of sort auto's cost model
 * tells apart (sc_sort_cost_kind), with the device each would get.
 *
 * The reference is qsort on (rank over the bit range, input position):
 * a stable sort by construction, so that a sort by a sub-range of the
 * bits is checked for stability too.  The rank is written here from the
 * definition (signed: sign bit flipped; floats: IEEE 754 totalOrder),
 * not taken from sc_hd.h.
 *
 * SC_TEST_SORT64_TIME=n prints the time of sc_sort_type on n random
 * u64 and f64 keys on a CPU context of $SC_TEST_THREADS threads (0: all).
 */
#define _POSIX_C_SOURCE 200809L
#include "sc.h"
#include "ops/ops.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tap.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd64(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

#define SIGN64 ((uint64_t)1 << 63)

/* Bit patterns that every type must place right: integer ends, both
 * zeros, infinities, NaNs of both signs with payloads (quiet and
 * signalling), denormals, the largest finite doubles. */
static const uint64_t specials[] = {
    0, 1, UINT64_MAX, SIGN64 /* INT64_MIN, -0.0 */, SIGN64 - 1 /* INT64_MAX */,
    0x7ff0000000000000ULL, 0xfff0000000000000ULL,           /* +-inf */
    0x7ff8000000000000ULL, 0x7ff8000000000abcULL,           /* +NaN */
    0x7ff0000000000001ULL, 0xfff8000000000001ULL,           /* sNaN, -NaN */
    0xfff0000000123456ULL, 0xffffffffffffffffULL,           /* -NaN */
    0x0000000000000001ULL, 0x000fffffffffffffULL,           /* denormals */
    0x8000000000000001ULL, 0x800fffffffffffffULL,
    0x7fefffffffffffffULL, 0xffefffffffffffffULL,           /* +-DBL_MAX */
    0x3ff0000000000000ULL, 0xbff0000000000000ULL,           /* +-1.0 */
};
#define N_SPECIALS (sizeof specials / sizeof specials[0])

/* The element's rank: its type's order as unsigned order. */
static uint64_t rank_of(sc_type t, uint64_t x)
{
    if (t == SC_I64) return x ^ SIGN64;
    if (t == SC_F64) return (x & SIGN64) ? ~x : x | SIGN64;
    return x;
}

typedef struct ref_item {
    uint64_t key;       /* rank over the bits, flipped for descending */
    uint64_t pos;
    uint64_t x;
} ref_item;

static int by_key_then_pos(const void *a, const void *b)
{
    const ref_item *p = a, *q = b;
    if (p->key != q->key) return p->key < q->key ? -1 : 1;
    return p->pos < q->pos ? -1 : p->pos > q->pos;
}

typedef struct sort_case {
    sc_type type;
    unsigned lo, hi;
    int descending;
} sort_case;

static void reference(const sort_case *c, const uint64_t *in, uint64_t n,
                      uint64_t *out)
{
    unsigned width = c->hi - c->lo;
    uint64_t mask = width == 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    ref_item *r = malloc((n ? n : 1) * sizeof *r);
    if (!r) { perror("malloc"); exit(99); }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = (rank_of(c->type, in[i]) >> c->lo) & mask;
        r[i] = (ref_item){ c->descending ? k ^ mask : k, i, in[i] };
    }
    qsort(r, n, sizeof *r, by_key_then_pos);
    for (uint64_t i = 0; i < n; i++) out[i] = r[i].x;
    free(r);
}

typedef enum data_kind { DATA_RANDOM, DATA_NARROW, DATA_EQUAL,
                         DATA_DESCENDING, DATA_KINDS } data_kind;
static const char *const data_names[] = { "random", "narrow", "equal",
                                          "descending" };

/* Random data mixes specials, small values either side of zero (ties)
 * and full-width words. */
static void fill(data_kind kind, uint64_t *v, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = rnd64();
        switch (kind) {
        case DATA_EQUAL:
            v[i] = 0xc00921fb54442d18ULL;       /* -pi, i64 < 0 */
            break;
        case DATA_NARROW:
            /* Bits 12 to 30 vary, the others are one pattern's. */
            v[i] = 0x4010000000000abcULL | ((r & 0x7ffff) << 12);
            break;
        case DATA_DESCENDING:
            v[i] = (uint64_t)(n - i) << 20;
            break;
        default:
            if (r % 4 == 0) v[i] = specials[(r >> 8) % N_SPECIALS];
            else if (r % 4 == 1) v[i] = (uint64_t)((int64_t)((r >> 8) % 16) - 8);
            else v[i] = rnd64();
            break;
        }
    }
}

static uint64_t first_difference(const uint64_t *a, const uint64_t *b,
                                 uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) if (a[i] != b[i]) return i;
    return n;
}

/* sc_sort_ready's pieces: they must be the output array's, in order. */
typedef struct pieces {
    const uint64_t *base;
    uint64_t next;      /* the position the next piece must start at */
    unsigned count;
    int out_of_order;
} pieces;

static sc_status take_piece(void *arg, void *keys, uint64_t n)
{
    pieces *p = arg;
    if ((const uint64_t *)keys != p->base + p->next) p->out_of_order = 1;
    p->next += n;
    p->count++;
    return SC_OK;
}

/* One case on one input: 1 when the sort equals the reference. */
static int check_case(sc_ctx *ctx, const sort_case *c, const uint64_t *in,
                      uint64_t n, int via_ready, uint64_t *got,
                      uint64_t *want)
{
    memcpy(got, in, n * sizeof *in);
    reference(c, in, n, want);
    sc_status st;
    pieces p = { got, 0, 0, 0 };
    /* -v's phase times: a sort that moved keys counted and moved. */
    int timed = 1;
    if (via_ready) {
        sc_phase_times times;
        memset(&times, 0, sizeof times);
        st = sc_sort_ready(ctx, &times, got, n, c->type, c->lo, c->hi,
                           c->descending, take_piece, &p);
        if (n > 65537)
            timed = sc_phase_seconds(&times, SC_PH_COUNT) > 0 &&
                    sc_phase_seconds(&times, SC_PH_MOVE) > 0;
    } else {
        st = sc_sort_type(ctx, got, n, c->type, c->lo, c->hi, c->descending);
    }
    if (via_ready && n > 65537)
        printf("# %s n=%llu: sc_sort_ready handed on %u pieces\n",
               sc_type_name(c->type), (unsigned long long)n, p.count);
    uint64_t at = first_difference(got, want, n);
    int pieces_ok = !via_ready || (p.next == n && !p.out_of_order);
    if (st == SC_OK && at == n && pieces_ok && timed) return 1;
    printf("# %s n=%llu bits %u:%u%s%s: status %d, first difference at "
           "%llu (%016llx, want %016llx)%s%s\n", sc_type_name(c->type),
           (unsigned long long)n, c->lo, c->hi,
           c->descending ? " descending" : "",
           via_ready ? " via sc_sort_ready" : "", (int)st,
           (unsigned long long)at,
           (unsigned long long)(at < n ? got[at] : 0),
           (unsigned long long)(at < n ? want[at] : 0),
           pieces_ok ? "" : ", pieces wrong",
           timed ? "" : ", phase times not filled");
    return 0;
}

static const unsigned ranges[][2] = { { 0, 64 }, { 8, 40 }, { 60, 64 } };
#define N_RANGES (sizeof ranges / sizeof ranges[0])

/* Whether a case runs at size n: every range and direction up to 65537
 * keys; past it (the bucketed sort) three, one per range, both
 * directions and both calls among them, to keep the test short. */
static int case_runs(uint64_t n, unsigned range, int descending)
{
    return n <= 65537 || (unsigned)descending == (range == 1);
}

/* Every kind of data up to 4096 keys; past it random and narrow data
 * alone (the others take the same passes). */
static void test_size(sc_ctx *ctx, unsigned threads, sc_type type, uint64_t n)
{
    uint64_t *in = malloc((n ? n : 1) * sizeof *in);
    uint64_t *got = malloc((n ? n : 1) * sizeof *got);
    uint64_t *want = malloc((n ? n : 1) * sizeof *want);
    if (!in || !got || !want) { perror("malloc"); exit(99); }
    unsigned cases = 0, passed = 0;
    data_kind kinds = n > 4096 ? DATA_NARROW + 1 : DATA_KINDS;
    for (data_kind k = DATA_RANDOM; k < kinds; k++) {
        fill(k, in, n);
        for (unsigned r = 0; r < N_RANGES; r++)
            for (int desc = 0; desc <= 1; desc++) {
                if (!case_runs(n, r, desc)) continue;
                sort_case c = { type, ranges[r][0], ranges[r][1], desc };
                /* The job's path on every other case. */
                int via_ready = n > 65537 ? r != 1
                                          : (int)((r + (unsigned)desc) % 2);
                cases++;
                passed += (unsigned)check_case(ctx, &c, in, n, via_ready, got,
                                               want);
            }
    }
    ok(passed == cases, "%s, %u thread%s, n=%llu: %u/%u cases (%s, %s%s)",
       sc_type_name(type), threads, threads == 1 ? "" : "s",
       (unsigned long long)n, passed, cases, data_names[0], data_names[1],
       n > 4096 ? "" : ", equal, descending");
    free(in);
    free(got);
    free(want);
}

/* Ascending over all 64 bits, neighbours must be in sc_value_order's
 * order: the library's own comparison agrees with the sort. */
static void test_value_order(sc_ctx *ctx, sc_type type)
{
    enum { N = 4099 };
    static uint64_t v[N];
    fill(DATA_RANDOM, v, N);
    sc_status st = sc_sort_type(ctx, v, N, type, 0, 64, 0);
    int sorted = st == SC_OK;
    for (unsigned i = 1; sorted && i < N; i++)
        sorted = sc_value_order(type, v[i - 1], v[i]) <= 0;
    ok(sorted, "%s sorted agrees with sc_value_order", sc_type_name(type));
}

static void test_refusals(sc_ctx *ctx)
{
    uint64_t v[2] = { 2, 1 };
    ok(sc_sort_type(ctx, v, 2, SC_U64, 0, 65, 0) == SC_ERR_USAGE,
       "u64 bits 0:65 refused");
    ok(sc_sort_type(ctx, v, 2, SC_I64, 40, 40, 0) == SC_ERR_USAGE,
       "i64 bits 40:40 refused");
    ok(sc_sort_type(ctx, v, 2, SC_U32, 0, 64, 0) == SC_ERR_USAGE,
       "u32 bits 0:64 still refused");
    ok(v[0] == 2 && v[1] == 1, "a refused sort leaves the keys alone");
}

/* sc_op_sort_records' pieces, the second of which ready refuses as an
 * output out of memory would. */
typedef struct refusing {
    uint64_t items;
    unsigned calls;
} refusing;

static sc_status refuse_second(void *arg, void *items, uint64_t n)
{
    refusing *r = arg;
    (void)items;
    r->items += n;
    return ++r->calls == 2 ? SC_ERR_NOMEM : SC_OK;
}

/* A record sort whose ready fails after a piece went out ends there, on
 * whichever device it ran: no other device hands the pieces on again.
 * 5 Mi records of 8 bytes are three GPU pieces (16 MiB each at most) and
 * ten of the CPU's, so the second is never the last. */
static void test_records_ready_fails(const char *spec)
{
    sc_ctx *ctx = NULL;
    if (sc_ctx_new(&ctx, spec, 0) != SC_OK) {
        printf("# no %s context: its record sort not tried\n", spec);
        if (ctx) sc_ctx_free(ctx);     /* it holds the message */
        return;
    }
    uint64_t n = (uint64_t)5 << 20;
    uint64_t *recs = malloc(n * sizeof *recs);
    if (!recs) { perror("malloc"); exit(99); }
    for (uint64_t i = 0; i < n; i++) recs[i] = rnd64();
    sc_elem_order o;
    sc_elem_order_make(&o, 8, 0, SC_U32, 0, 0, 32, 0);
    o.records = 1;
    refusing all = { 0, 0 }, cut = { 0, 0 };
    sc_status st = sc_op_sort_records(ctx, NULL, recs, 1, &o, SC_GATHER_ITEMS,
                                      0, refuse_second, &all);
    ok(st == SC_OK && all.items == 1 && all.calls == 1,
       "%s: sc_op_sort_records of one record: one piece (status %d)", spec,
       (int)st);
    st = sc_op_sort_records(ctx, NULL, recs, n, &o, SC_GATHER_ITEMS, 0,
                            refuse_second, &cut);
    ok(st == SC_ERR_NOMEM && cut.calls == 2 && cut.items < n,
       "%s: sc_op_sort_records whose ready fails at the second piece stops "
       "there (status %d, %u pieces, %llu of %llu records)", spec, (int)st,
       cut.calls, (unsigned long long)cut.items, (unsigned long long)n);
    free(recs);
    sc_ctx_free(ctx);
}

/* 8-byte records with a 4-byte integer key at 0 or 4 are sorted whole by
 * the CPU, as integer elements are; float keys, other layouts, big-endian
 * keys and argsorts are not.  On a context of 16 threads, the first go
 * to the GPU (when it is started, not yet running) only past 1 GiB, the
 * others at 1 GiB already. */
static void test_cost_kinds(void)
{
    unsetenv("SC_TEST_COST");           /* its answer, not the model's */
    struct { unsigned size, off; sc_type t; int swap, keypos, records;
             sc_job_kind want; } c[] = {
        { 4, 0, SC_U32, 0, SC_GATHER_ITEMS, 0, SC_COST_SORT_WHOLE },
        { 4, 0, SC_I32, 0, SC_GATHER_ITEMS, 0, SC_COST_SORT_WHOLE },
        { 8, 0, SC_U64, 0, SC_GATHER_ITEMS, 0, SC_COST_SORT_WHOLE },
        { 8, 0, SC_I64, 0, SC_GATHER_ITEMS, 0, SC_COST_SORT_WHOLE },
        { 4, 0, SC_F32, 0, SC_GATHER_ITEMS, 0, SC_JOB_SORT },
        { 8, 0, SC_F64, 0, SC_GATHER_ITEMS, 0, SC_JOB_SORT },
        { 4, 0, SC_U32, 0, SC_GATHER_KEYPOS, 0, SC_JOB_SORT },
        { 8, 0, SC_U32, 0, SC_GATHER_ITEMS, 1, SC_COST_SORT_WHOLE },
        { 8, 4, SC_I32, 0, SC_GATHER_ITEMS, 1, SC_COST_SORT_WHOLE },
        { 8, 4, SC_F32, 0, SC_GATHER_ITEMS, 1, SC_JOB_SORT },
        { 8, 0, SC_U32, 1, SC_GATHER_ITEMS, 1, SC_JOB_SORT },
        { 8, 0, SC_U32, 0, SC_GATHER_POSITIONS, 1, SC_JOB_SORT },
        { 16, 8, SC_U64, 0, SC_GATHER_ITEMS, 1, SC_JOB_SORT },
        { 12, 0, SC_U32, 0, SC_GATHER_ITEMS, 1, SC_JOB_SORT },
    };
    for (unsigned i = 0; i < sizeof c / sizeof c[0]; i++) {
        sc_elem_order o;
        unsigned bits = 8 * sc_type_size(c[i].t);
        sc_elem_order_make(&o, c[i].size, c[i].off, c[i].t, c[i].swap, 0,
                           bits, 0);
        o.records = c[i].records;
        ok(sc_sort_cost_kind(c[i].t, &o, c[i].keypos) == c[i].want &&
           (c[i].records || c[i].keypos ||
            sc_sort_cost_kind(c[i].t, NULL, 0) == c[i].want),
           "cost kind of a sort of %u-byte %s, %s key at %u%s, gather %d: %s",
           c[i].size, c[i].records ? "records" : "elements",
           sc_type_name(c[i].t), c[i].off, c[i].swap ? " big-endian" : "",
           c[i].keypos, c[i].want == SC_JOB_SORT ? "other" : "whole");
    }
    sc_ctx *ctx;
    if (!ok(sc_ctx_new(&ctx, "cpu", 16) == SC_OK, "cpu context of 16 threads"))
        return;
    int64_t gib = (int64_t)1 << 30;
    ok(!sc_cost_gpu_pays(ctx, SC_COST_SORT_WHOLE, gib, 0.16, 0, NULL, 0) &&
       sc_cost_gpu_pays(ctx, SC_COST_SORT_WHOLE, 2 * gib, 0.16, 0, NULL, 0),
       "a whole sort: the CPU at 1 GiB, the GPU at 2 GiB");
    ok(sc_cost_gpu_pays(ctx, SC_JOB_SORT, gib, 0.16, 0, NULL, 0),
       "any other sort: the GPU at 1 GiB");
    sc_ctx_free(ctx);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void time_sort(uint64_t n)
{
    const char *th = getenv("SC_TEST_THREADS");
    sc_ctx *ctx;
    if (sc_ctx_new(&ctx, "cpu", th ? (unsigned)atoi(th) : 0) != SC_OK) {
        ok(0, "cpu context");
        return;
    }
    uint64_t *v = malloc(n * sizeof *v);
    if (!v) { perror("malloc"); exit(99); }
    const sc_type types[] = { SC_U64, SC_F64 };
    for (unsigned t = 0; t < 2; t++) {
        for (uint64_t i = 0; i < n; i++) v[i] = rnd64();
        double t0 = now();
        sc_status st = sc_sort_type(ctx, v, n, types[t], 0, 64, 0);
        double took = now() - t0;
        int sorted = st == SC_OK;
        for (uint64_t i = 1; sorted && i < n; i++)
            sorted = sc_value_order(types[t], v[i - 1], v[i]) <= 0;
        ok(sorted, "%s: %llu random keys, %u threads, sorted in %.3f s",
           sc_type_name(types[t]), (unsigned long long)n,
           sc_ctx_threads(ctx), took);
    }
    free(v);
    sc_ctx_free(ctx);
}

int main(void)
{
    const char *timing = getenv("SC_TEST_SORT64_TIME");
    if (timing) {
        time_sort(strtoull(timing, NULL, 0));
        printf("1..%d\n", n_tests);
        return n_failed != 0;
    }
    static const uint64_t sizes[] = { 0, 1, 31, 32, 33, 4095, 4096, 65537,
                                      ((uint64_t)1 << 20) + 3 };
    static const unsigned thread_counts[] = { 1, 4 };
    static const sc_type types[] = { SC_U64, SC_I64, SC_F64 };
    for (unsigned t = 0; t < 2; t++) {
        sc_ctx *ctx;
        if (!ok(sc_ctx_new(&ctx, "cpu", thread_counts[t]) == SC_OK,
                "cpu context of %u threads", thread_counts[t]))
            continue;
        for (unsigned ty = 0; ty < 3; ty++)
            for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                test_size(ctx, thread_counts[t], types[ty], sizes[s]);
        if (t == 0) {
            for (unsigned ty = 0; ty < 3; ty++)
                test_value_order(ctx, types[ty]);
            test_refusals(ctx);
        }
        sc_ctx_free(ctx);
    }
    test_records_ready_fails("cpu");
    test_records_ready_fails("cuda");
    test_cost_kinds();
    printf("1..%d\n", n_tests);
    return n_failed != 0;
}
