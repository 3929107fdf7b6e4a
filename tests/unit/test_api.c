/* test_api.c -- TAP unit tests of libsc through its public header only.
 *
 * Every operation is checked against a plain loop written here.  The
 * operations run on an explicit "cpu" context, on the default context
 * (NULL spec: $SC_DEVICE or auto) and, when they can be made, on a "cuda"
 * and a "cuda:all" context; all must give the same results.
 */
#define _POSIX_C_SOURCE 200809L
#include "sc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "tap.h"

/* ------------------------------------------------------------------ TAP */

static void diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static void skip(const char *why, const char *what)
{
    n_tests++;
    printf("ok %d - %s # SKIP %s\n", n_tests, what, why);
}

/* ------------------------------------------------------------- helpers */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

/* Random data: about half zeros, the rest in [0, range) or full range. */
static void fill_random(uint32_t *v, uint64_t n, uint32_t range)
{
    for (uint64_t i = 0; i < n; i++) {
        uint32_t x = rnd();
        if (x & 1)
            v[i] = 0;
        else
            v[i] = range ? rnd() % range : rnd();
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    return p;
}

static const uint64_t sizes[] = { 0, 1, 31, 32, 33, 4095, 4096, 65537, 1000003 };
#define N_SIZES (sizeof sizes / sizeof sizes[0])

/* the reference predicate: terms written out plainly */
typedef struct {
    int has_eq, has_ne, has_lt, has_le, has_gt, has_ge, has_range, has_mask;
    uint32_t eq, ne, lt, le, gt, ge, rlo, rhi, mask;
    int invert;
} simple_pred;

static int simple_test(const simple_pred *s, uint32_t x)
{
    int r = 1;
    if (s->has_eq && !(x == s->eq)) r = 0;
    if (s->has_ne && !(x != s->ne)) r = 0;
    if (s->has_lt && !(x < s->lt)) r = 0;
    if (s->has_le && !(x <= s->le)) r = 0;
    if (s->has_gt && !(x > s->gt)) r = 0;
    if (s->has_ge && !(x >= s->ge)) r = 0;
    if (s->has_range && !(s->rlo <= x && x <= s->rhi)) r = 0;
    if (s->has_mask && !((x & s->mask) != 0)) r = 0;
    return s->invert ? !r : r;
}

static int build_pred(const simple_pred *s, sc_pred *p)
{
    sc_pred_all(p);
    if (s->has_eq && sc_pred_add_cmp(p, SC_EQ, s->eq) != SC_OK) return 0;
    if (s->has_ne && sc_pred_add_cmp(p, SC_NE, s->ne) != SC_OK) return 0;
    if (s->has_lt && sc_pred_add_cmp(p, SC_LT, s->lt) != SC_OK) return 0;
    if (s->has_le && sc_pred_add_cmp(p, SC_LE, s->le) != SC_OK) return 0;
    if (s->has_gt && sc_pred_add_cmp(p, SC_GT, s->gt) != SC_OK) return 0;
    if (s->has_ge && sc_pred_add_cmp(p, SC_GE, s->ge) != SC_OK) return 0;
    if (s->has_range && sc_pred_add_range(p, s->rlo, s->rhi) != SC_OK) return 0;
    if (s->has_mask && sc_pred_add_mask(p, s->mask) != SC_OK) return 0;
    p->invert = (uint32_t)s->invert;
    return 1;
}

static uint32_t interesting(void)
{
    static const uint32_t v[] = { 0, 1, 2, 5, 100, 0x7fffffff, 0x80000000,
                                  0xfffffffe, 0xffffffff };
    uint32_t r = rnd();
    return (r & 3) ? v[rnd() % (sizeof v / sizeof v[0])] : rnd() % 1000;
}

static void random_simple(simple_pred *s)
{
    memset(s, 0, sizeof *s);
    uint32_t which = rnd();
    s->has_eq = (which & 0x7) == 0;
    s->has_ne = (which & 0x18) == 0;
    s->has_lt = (which & 0x60) == 0;
    s->has_le = (which & 0x180) == 0;
    s->has_gt = (which & 0x600) == 0;
    s->has_ge = (which & 0x1800) == 0;
    s->has_range = (which & 0x6000) == 0;
    s->has_mask = (which & 0x18000) == 0;
    s->invert = (which >> 17) & 1;
    s->eq = interesting();
    s->ne = interesting();
    s->lt = interesting();
    s->le = interesting();
    s->gt = interesting();
    s->ge = interesting();
    s->rlo = interesting();
    s->rhi = s->rlo + rnd() % 2000;
    if (s->rhi < s->rlo)
        s->rhi = 0xffffffff;
    s->mask = interesting();
}

/* ------------------------------------------------------- version, status */

static void test_version(void)
{
    ok(sc_version() != NULL && strcmp(sc_version(), SC_VERSION_STRING) == 0,
       "sc_version() is SC_VERSION_STRING (%s vs %s)",
       sc_version() ? sc_version() : "(null)", SC_VERSION_STRING);
    ok(sc_version_number() == SC_VERSION_NUMBER,
       "sc_version_number() is SC_VERSION_NUMBER (%d vs %d)",
       sc_version_number(), SC_VERSION_NUMBER);
}

static void test_strerror(void)
{
    int all_nonempty = 1, all_distinct = 1;
    for (int s = 0; s < SC_STATUS_COUNT; s++) {
        const char *m = sc_strerror((sc_status)s);
        if (!m || !*m) {
            all_nonempty = 0;
            diag("sc_strerror(%d) is empty", s);
            continue;
        }
        for (int t = 0; t < s; t++) {
            const char *o = sc_strerror((sc_status)t);
            if (o && strcmp(m, o) == 0) {
                all_distinct = 0;
                diag("sc_strerror(%d) == sc_strerror(%d): %s", s, t, m);
            }
        }
    }
    ok(all_nonempty, "sc_strerror is non-empty for every status");
    ok(all_distinct, "sc_strerror is distinct for every status");
    const char *bad = sc_strerror(SC_STATUS_COUNT);
    ok(bad != NULL, "sc_strerror(SC_STATUS_COUNT) does not return NULL");
}

/* ---------------------------------------------------------------- ctx */

static sc_ctx *cpu_ctx, *cpu1_ctx, *def_ctx, *gpu_ctx, *all_ctx;

/* Threads the system will not start (a child whose address space has no
 * room for their stacks): SC_ERR_NOMEM saying why, and the context, with
 * the threads that did start, is freed. */
static void test_ctx_threads_refused(void)
{
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    int known = f && fscanf(f, "%lu", &pages) == 1;
    if (f) fclose(f);
    if (!known) {
        skip("no /proc/self/statm", "threads the system will not start");
        return;
    }
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        rlim_t room = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (64u << 20);
        struct rlimit rl = { room, room };
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(2);
        sc_ctx *c = NULL;
        sc_status st = sc_ctx_new(&c, "cpu", SC_THREADS_MAX);
        int good = st == SC_ERR_NOMEM && c &&
                   strstr(sc_ctx_message(c), "cannot start 4096 host threads: ");
        if (!good) fprintf(stderr, "# got %d: %s\n", (int)st, c ? sc_ctx_message(c) : "");
        sc_ctx_free(c);
        _exit(good ? 0 : 1);
    }
    int status = -1;
    if (child > 0) waitpid(child, &status, 0);
    ok(child > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
       "threads the system will not start: SC_ERR_NOMEM saying why (status %d)", status);
}

static void test_ctx(void)
{
    sc_ctx *c = NULL;
    sc_status st = sc_ctx_new(&c, "cpu", 0);
    ok(st == SC_OK && c != NULL, "sc_ctx_new(\"cpu\") succeeds");
    if (c) {
        ok(sc_ctx_device(c) == SC_DEVICE_CPU, "a cpu context is on SC_DEVICE_CPU");
        const char *name = sc_ctx_device_name(c);
        ok(name && strstr(name, "cpu") != NULL, "cpu device name mentions cpu: %s",
           name ? name : "(null)");
        ok(sc_ctx_threads(c) >= 1, "threads 0 means the online CPUs (%u)", sc_ctx_threads(c));
        ok(sc_ctx_message(c) != NULL, "sc_ctx_message is never NULL");
        ok(sc_ctx_fallback_reason(c) != NULL, "sc_ctx_fallback_reason is never NULL");
    }
    cpu_ctx = c;

    c = NULL;
    st = sc_ctx_new(&c, "cpu", 1);
    ok(st == SC_OK && c && sc_ctx_threads(c) == 1, "sc_ctx_new(\"cpu\", 1) has 1 thread");
    cpu1_ctx = c;

    c = NULL;
    st = sc_ctx_new(&c, "cpu", 3);
    ok(st == SC_OK && c && sc_ctx_threads(c) == 3, "sc_ctx_new(\"cpu\", 3) has 3 threads");
    if (c)
        sc_ctx_free(c);

    c = NULL;
    st = sc_ctx_new(&c, "bogus", 0);
    ok(st == SC_ERR_USAGE, "sc_ctx_new(\"bogus\") is SC_ERR_USAGE (got %d)", (int)st);
    if (c)
        sc_ctx_free(c);

    c = NULL;
    st = sc_ctx_new(&c, "auto", 0);
    ok(st == SC_OK && c != NULL, "sc_ctx_new(\"auto\") succeeds");
    if (c && sc_ctx_device(c) == SC_DEVICE_CPU)
        diag("auto chose the CPU: %s", sc_ctx_fallback_reason(c));
    if (c)
        sc_ctx_free(c);

    c = NULL;
    st = sc_ctx_new(&c, "cuda:99", 0);
    ok(st == SC_ERR_NODEVICE, "sc_ctx_new(\"cuda:99\") is SC_ERR_NODEVICE (got %d)", (int)st);
    if (c)
        sc_ctx_free(c);

    c = NULL;
    st = sc_ctx_new(&c, NULL, 0);
    ok(st == SC_OK && c != NULL, "sc_ctx_new(NULL) ($SC_DEVICE or auto) succeeds");
    def_ctx = c;

    c = NULL;
    st = sc_ctx_new(&c, "cuda", 0);
    if (st == SC_OK && c) {
        ok(sc_ctx_device(c) == SC_DEVICE_CUDA, "a cuda context is on SC_DEVICE_CUDA");
        gpu_ctx = c;
    } else {
        ok(st == SC_ERR_NODEVICE || st == SC_ERR_DEVICE,
           "sc_ctx_new(\"cuda\") without a GPU fails with NODEVICE/DEVICE (got %d)", (int)st);
        if (c)
            sc_ctx_free(c);
        gpu_ctx = NULL;
    }

    /* "cuda:all": every GPU (one GPU: as cuda:0); the same error without */
    c = NULL;
    st = sc_ctx_new(&c, "cuda:all", 0);
    if (st == SC_OK && c) {
        ok(sc_ctx_device(c) == SC_DEVICE_CUDA, "a cuda:all context is on SC_DEVICE_CUDA (%s)",
           sc_ctx_device_name(c));
        all_ctx = c;
    } else {
        ok(!gpu_ctx && (st == SC_ERR_NODEVICE || st == SC_ERR_DEVICE),
           "sc_ctx_new(\"cuda:all\") without a GPU fails with NODEVICE/DEVICE (got %d)", (int)st);
        if (c)
            sc_ctx_free(c);
        all_ctx = NULL;
    }
    /* More threads than SC_THREADS_MAX: none started, a usage error that
     * names the bound; the context is there for its message. */
    const unsigned too_many[] = { SC_THREADS_MAX + 1, 100000, UINT32_MAX };
    for (size_t k = 0; k < sizeof too_many / sizeof too_many[0]; k++) {
        c = NULL;
        st = sc_ctx_new(&c, "cpu", too_many[k]);
        ok(st == SC_ERR_USAGE && c && strstr(sc_ctx_message(c), "at most 4096"),
           "sc_ctx_new(\"cpu\", %u) is SC_ERR_USAGE naming the bound (got %d: %s)",
           too_many[k], (int)st, c ? sc_ctx_message(c) : "(no context)");
        sc_ctx_free(c);
    }
    ok(SC_THREADS_MAX == 4096, "SC_THREADS_MAX is 4096, as libsc(3) says");
    test_ctx_threads_refused();

    c = NULL;
    st = sc_ctx_new(&c, "cuda:al", 0);
    ok(st == SC_ERR_USAGE && strstr(sc_ctx_message(c), "cuda:all") != NULL,
       "sc_ctx_new(\"cuda:al\") is SC_ERR_USAGE naming cuda:all (got %d: %s)", (int)st,
       c ? sc_ctx_message(c) : "");
    if (c)
        sc_ctx_free(c);
}

/* sc_ctx_new_background: "cuda" returns at once; the first call that
 * needs the GPU waits for it, and fails as sc_ctx_new would have failed
 * where it cannot start. */
static void test_ctx_background(void)
{
    static const char *const specs[] = { "cuda", "cuda:99" };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        int usable = gpu_ctx && k == 0;
        sc_ctx *c = NULL;
        sc_status st = sc_ctx_new_background(&c, specs[k], 2);
        sc_pred p;
        sc_pred_default(&p);
        uint32_t in[5] = { 3, 0, 7, 0, 9 }, out[5] = { 0 };
        uint64_t kept = 0;
        sc_status call = st == SC_OK ? sc_compact(c, in, 5, &p, out, &kept)
                                     : st;
        if (usable)
            ok(st == SC_OK && call == SC_OK && kept == 3 && out[0] == 3 &&
               out[1] == 7 && out[2] == 9 &&
               sc_ctx_device(c) == SC_DEVICE_CUDA &&
               strstr(sc_ctx_device_name(c), "(") != NULL,
               "sc_ctx_new_background(\"cuda\"): compacts on the GPU (%d, %d, "
               "kept %llu, %s)", (int)st, (int)call, (unsigned long long)kept,
               c ? sc_ctx_device_name(c) : "");
        else
            ok((call == SC_ERR_NODEVICE || call == SC_ERR_DEVICE) &&
               (st != SC_OK || *sc_ctx_message(c)),
               "sc_ctx_new_background(\"%s\") without that GPU: the first "
               "call fails with NODEVICE/DEVICE and says why (%d, %d: %s)",
               specs[k], (int)st, (int)call, c ? sc_ctx_message(c) : "");
        sc_ctx_free(c);
    }
}

/* ---------------------------------------------------------- predicates */

static void test_pred(void)
{
    sc_pred p;
    sc_pred_default(&p);
    ok(!sc_pred_test(&p, 0) && sc_pred_test(&p, 1) && sc_pred_test(&p, 0xffffffff),
       "default predicate is x != 0");
    sc_pred_all(&p);
    ok(sc_pred_test(&p, 0) && sc_pred_test(&p, 7) && sc_pred_test(&p, 0xffffffff),
       "sc_pred_all admits everything");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_LT, 0);
    ok(!sc_pred_test(&p, 0) && !sc_pred_test(&p, 1) && !sc_pred_test(&p, 0xffffffff),
       "--lt 0 admits nothing");
    p.invert = 1;
    ok(sc_pred_test(&p, 0) && sc_pred_test(&p, 0xffffffff), "inverted --lt 0 admits everything");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_GT, 0xffffffff);
    ok(!sc_pred_test(&p, 0xffffffff) && !sc_pred_test(&p, 0), "--gt 0xffffffff admits nothing");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_GT, 5);
    sc_pred_add_cmp(&p, SC_LT, 5);
    ok(!sc_pred_test(&p, 5) && !sc_pred_test(&p, 4) && !sc_pred_test(&p, 6),
       "--gt 5 --lt 5 admits nothing");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_LE, 0);
    ok(sc_pred_test(&p, 0) && !sc_pred_test(&p, 1), "--le 0 admits only 0");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_GE, 0xffffffff);
    ok(sc_pred_test(&p, 0xffffffff) && !sc_pred_test(&p, 0xfffffffe), "--ge max admits only max");

    sc_pred_all(&p);
    sc_pred_add_range(&p, 10, 20);
    ok(!sc_pred_test(&p, 9) && sc_pred_test(&p, 10) && sc_pred_test(&p, 20) &&
       !sc_pred_test(&p, 21), "range 10:20 is inclusive");

    sc_pred_all(&p);
    sc_pred_add_mask(&p, 0x6);
    ok(!sc_pred_test(&p, 1) && sc_pred_test(&p, 2) && sc_pred_test(&p, 4) &&
       !sc_pred_test(&p, 8), "mask 0x6");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_NE, 3);
    sc_pred_add_cmp(&p, SC_NE, 4);
    p.invert = 1;
    ok(sc_pred_test(&p, 3) && sc_pred_test(&p, 4) && !sc_pred_test(&p, 5),
       "invert negates the whole conjunction");

    sc_pred_all(&p);
    sc_pred_add_cmp(&p, SC_EQ, 5);
    sc_pred_add_cmp(&p, SC_EQ, 6);
    ok(!sc_pred_test(&p, 5) && !sc_pred_test(&p, 6), "--eq 5 --eq 6 admits nothing");

    /* random combinations against the plain evaluator */
    int agree = 1;
    for (int k = 0; k < 3000 && agree; k++) {
        simple_pred s;
        random_simple(&s);
        if (!build_pred(&s, &p)) {
            agree = 0;
            diag("building predicate %d failed", k);
            break;
        }
        for (int j = 0; j < 200; j++) {
            uint32_t x = (j & 1) ? interesting() : rnd();
            if (j < 12)
                x = (j == 0) ? s.eq : (j == 1) ? s.ne : (j == 2) ? s.lt : (j == 3) ? s.le
                    : (j == 4) ? s.gt : (j == 5) ? s.ge : (j == 6) ? s.rlo : (j == 7) ? s.rhi
                    : (j == 8) ? s.rlo - 1 : (j == 9) ? s.rhi + 1 : (j == 10) ? s.lt - 1 : s.gt + 1;
            if (!!sc_pred_test(&p, x) != !!simple_test(&s, x)) {
                agree = 0;
                diag("predicate %d disagrees at x=%u (lib %d, plain %d)", k, x,
                     sc_pred_test(&p, x), simple_test(&s, x));
                break;
            }
        }
    }
    ok(agree, "sc_pred_test agrees with a plain evaluator on 3000 random predicates");
}

/* ----------------------------------------------------------- generator */

static void test_gen_on(sc_ctx *ctx, const char *label)
{
    const uint64_t n = 300007;
    uint32_t *a = xmalloc(n * 4), *b = xmalloc(n * 4);
    sc_gen_params g;
    static const sc_dist dists[] = { SC_DIST_UNIFORM, SC_DIST_STRUCTURED, SC_DIST_IOTA,
                                     SC_DIST_CONSTANT };
    static const double dens[] = { 0.0, 0.5, 1.0 };
    int whole_eq_elem = 1, chunks_eq = 1, ok_call = 1;
    for (size_t d = 0; d < 4; d++) {
        for (size_t e = 0; e < 3; e++) {
            sc_gen_params_default(&g);
            g.dist = dists[d];
            g.density = dens[e];
            g.seed = 12345;
            g.value = 77;
            if (sc_gen(ctx, &g, 0, a, n) != SC_OK)
                ok_call = 0;
            for (uint64_t i = 0; i < n; i++)
                if (a[i] != sc_gen_element(&g, i)) {
                    if (whole_eq_elem)
                        diag("%s: dist %d density %.1f: element %llu is %u, sc_gen_element says %llu",
                             label, (int)d, dens[e], (unsigned long long)i, a[i],
                             (unsigned long long)sc_gen_element(&g, i));
                    whole_eq_elem = 0;
                    break;
                }
            /* in odd-sized chunks with first_index offsets */
            uint64_t pos = 0, step = 1;
            while (pos < n) {
                uint64_t len = step < n - pos ? step : n - pos;
                if (sc_gen(ctx, &g, pos, b + pos, len) != SC_OK)
                    ok_call = 0;
                pos += len;
                step = step * 3 + 7;
            }
            if (memcmp(a, b, n * 4) != 0)
                chunks_eq = 0;
        }
    }
    ok(ok_call, "%s: sc_gen returns SC_OK", label);
    ok(whole_eq_elem, "%s: sc_gen matches sc_gen_element for every dist and density", label);
    ok(chunks_eq, "%s: sc_gen in chunks (first_index offsets) equals one call", label);

    /* exact distributions */
    sc_gen_params_default(&g);
    g.dist = SC_DIST_STRUCTURED;
    sc_gen(ctx, &g, 0, a, 6);
    ok(a[0] == 1 && a[1] == 0 && a[2] == 3 && a[3] == 0 && a[4] == 5 && a[5] == 0,
       "%s: structured is 1,0,3,0,5,0", label);
    sc_gen(ctx, &g, 1000001, a, 2);
    ok(a[0] == 0 && a[1] == 1000003, "%s: structured from first_index 1000001", label);
    g.dist = SC_DIST_IOTA;
    sc_gen(ctx, &g, (1ULL << 32) - 1, a, 3);
    ok(a[0] == 0xffffffff && a[1] == 0 && a[2] == 1, "%s: iota wraps mod 2^32", label);
    sc_gen_params_default(&g);
    g.dist = SC_DIST_UNIFORM;
    g.min = 10;
    g.max = 20;
    g.density = 1.0;
    sc_gen(ctx, &g, 0, a, n);
    int inrange = 1;
    for (uint64_t i = 0; i < n; i++)
        if (a[i] < 10 || a[i] > 20)
            inrange = 0;
    ok(inrange, "%s: uniform stays in [min, max]", label);
    g.min = 0;
    g.max = 3;
    g.density = 0.5;
    sc_gen(ctx, &g, 0, a, n);
    uint64_t zeros = 0;
    for (uint64_t i = 0; i < n; i++)
        zeros += a[i] == 0;
    ok(zeros > n / 2 - n / 50 && zeros < n / 2 + n / 50,
       "%s: density 0.5 with min 0: zeros only from the density (%llu of %llu)", label,
       (unsigned long long)zeros, (unsigned long long)n);
    free(a);
    free(b);
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static double f64_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* sc_gen of a 64-bit type equals sc_gen_element, whole and in pieces at
 * first_index offsets, for every dist and density. */
static void test_gen64_pure(sc_ctx *ctx, const char *label, sc_type t,
                            uint64_t *a, uint64_t *b, uint64_t n)
{
    static const double dens[] = { 0.0, 0.25, 1.0 };
    int whole_eq_elem = 1, chunks_eq = 1, ok_call = 1;
    sc_gen_params g;
    for (int d = SC_DIST_UNIFORM; d <= SC_DIST_CONSTANT; d++)
        for (size_t e = 0; e < 3; e++) {
            sc_gen_params_default(&g);
            g.type = t;
            g.dist = (sc_dist)d;
            g.density = dens[e];
            g.seed = 4321;
            g.min = t == SC_F64 ? f64_bits(-2.5) : 0 - (uint64_t)7;
            g.max = t == SC_F64 ? f64_bits(1e300) : t == SC_I64 ? 1000 : UINT64_MAX;
            g.value = t == SC_F64 ? f64_bits(-0.5) : (uint64_t)1 << 40;
            ok_call &= sc_gen(ctx, &g, 0, a, n) == SC_OK;
            for (uint64_t i = 0; i < n && whole_eq_elem; i++)
                if (a[i] != sc_gen_element(&g, i)) {
                    diag("%s: %s dist %d density %.2f: element %llu is %llx, "
                         "sc_gen_element says %llx", label, sc_type_name(t), d,
                         dens[e], (unsigned long long)i, (unsigned long long)a[i],
                         (unsigned long long)sc_gen_element(&g, i));
                    whole_eq_elem = 0;
                }
            for (uint64_t pos = 0, step = 1; pos < n; step = step * 3 + 7) {
                uint64_t len = step < n - pos ? step : n - pos;
                ok_call &= sc_gen(ctx, &g, pos, b + pos, len) == SC_OK;
                pos += len;
            }
            chunks_eq &= memcmp(a, b, n * 8) == 0;
        }
    ok(ok_call, "%s: sc_gen of %s returns SC_OK", label, sc_type_name(t));
    ok(whole_eq_elem, "%s: sc_gen of %s matches sc_gen_element for every dist "
       "and density", label, sc_type_name(t));
    ok(chunks_eq, "%s: sc_gen of %s in chunks equals one call", label,
       sc_type_name(t));
}

/* Uniform draws of t between min and max (their bits), density p: all
 * within, in the type's order; *zeros gets the zeros' count. */
static int gen64_within(sc_ctx *ctx, sc_type t, uint64_t min, uint64_t max,
                        double p, uint64_t *a, uint64_t n, uint64_t *zeros)
{
    sc_gen_params g;
    sc_gen_params_default(&g);
    g.type = t;
    g.min = min;
    g.max = max;
    g.density = p;
    if (sc_gen(ctx, &g, 0, a, n) != SC_OK) return 0;
    *zeros = 0;
    for (uint64_t i = 0; i < n; i++) {
        *zeros += a[i] == 0;
        if (a[i] == 0 && p < 1.0) continue;
        if (sc_value_order(t, a[i], min) < 0 || sc_value_order(t, a[i], max) > 0)
            return 0;
    }
    return 1;
}

static void test_gen64_on(sc_ctx *ctx, const char *label)
{
    const uint64_t n = 200003;
    uint64_t *a = xmalloc(n * 8), *b = xmalloc(n * 8), zeros = 0;
    static const sc_type types[] = { SC_U64, SC_I64, SC_F64 };
    for (size_t k = 0; k < 3; k++)
        test_gen64_pure(ctx, label, types[k], a, b, n);

    sc_gen_params g;
    sc_gen_params_default(&g);
    g.type = SC_U64;
    g.dist = SC_DIST_IOTA;
    ok(sc_gen(ctx, &g, UINT64_MAX - 1, a, 2) == SC_OK && a[0] == UINT64_MAX - 1 &&
       a[1] == UINT64_MAX && sc_gen_element(&g, (uint64_t)1 << 40) == (uint64_t)1 << 40,
       "%s: u64 iota is the position, to 2^64 - 1", label);
    g.type = SC_F64;
    uint64_t big = (uint64_t)1 << 53;
    ok(sc_gen(ctx, &g, big + 1, a, 3) == SC_OK && a[0] == f64_bits(9007199254740992.0) &&
       a[1] == f64_bits(9007199254740994.0) && a[2] == f64_bits(9007199254740996.0),
       "%s: f64 iota rounds past 2^53 (to even)", label);
    g.dist = SC_DIST_STRUCTURED;
    ok(sc_gen(ctx, &g, 0, a, 4) == SC_OK && a[0] == f64_bits(1.0) && a[1] == 0 &&
       a[2] == f64_bits(3.0) && a[3] == 0, "%s: f64 structured is 1,0,3,0", label);
    g.type = SC_I64;
    g.dist = SC_DIST_CONSTANT;
    g.value = 0 - (uint64_t)5;
    ok(sc_gen(ctx, &g, 7, a, 2) == SC_OK && a[0] == g.value && a[1] == g.value,
       "%s: i64 constant -5", label);

    ok(gen64_within(ctx, SC_U64, UINT64_MAX - 9, UINT64_MAX, 1.0, a, n, &zeros),
       "%s: u64 uniform within [2^64 - 10, 2^64 - 1]", label);
    /* (the call before ok(), whose arguments come in no set order) */
    int within = gen64_within(ctx, SC_I64, 0 - (uint64_t)7, 5, 0.5, a, n, &zeros);
    ok(within && zeros > n / 2 - n / 50 && zeros < n / 2 + n / 50,
       "%s: i64 uniform within [-7, 5], density 0.5: zeros from the density "
       "only (%llu of %llu)", label, (unsigned long long)zeros,
       (unsigned long long)n);
    ok(gen64_within(ctx, SC_F64, f64_bits(-3.0), f64_bits(-2.0), 1.0, a, n, &zeros),
       "%s: f64 uniform within [-3, -2]", label);
    within = gen64_within(ctx, SC_F64, f64_bits(-1.7976931348623157e308),
                          f64_bits(1.7976931348623157e308), 0.25, a, n, &zeros);
    int finite = 1;
    for (uint64_t i = 0; i < n; i++) finite &= isfinite(f64_of(a[i])) != 0;
    ok(within && finite && zeros > n * 3 / 4 - n / 50 && zeros < n * 3 / 4 + n / 50,
       "%s: f64 uniform over every finite double: finite, within, density 0.25 "
       "(%llu zeros of %llu)", label, (unsigned long long)zeros,
       (unsigned long long)n);
    /* The whole of u64: every top nibble comes, about as often. */
    int even = gen64_within(ctx, SC_U64, 0, UINT64_MAX, 1.0, a, n, &zeros);
    uint64_t count[16] = { 0 };
    for (uint64_t i = 0; i < n; i++) count[a[i] >> 60]++;
    for (int k = 0; k < 16; k++)
        even &= count[k] > n / 16 - n / 100 && count[k] < n / 16 + n / 100;
    ok(even, "%s: u64 uniform over all of u64 is even in its top bits", label);
    free(a);
    free(b);
}

/* 32-bit types' elements keep the high half 0; and the parameters that
 * no element could follow are refused. */
static void test_gen_params(sc_ctx *ctx)
{
    sc_gen_params g;
    sc_gen_params_default(&g);
    g.type = SC_I32;
    g.dist = SC_DIST_IOTA;
    ok(sc_gen_element(&g, ((uint64_t)1 << 40) - 1) == 0xffffffffu,
       "sc_gen_element of i32: the bits in the low half only");
    uint64_t out[4];
    sc_gen_params_default(&g);
    g.type = SC_F64;
    g.min = f64_bits(NAN);
    ok(sc_gen(ctx, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: f64 min NaN");
    ok(strstr(sc_ctx_message(ctx), "must be finite") != NULL,
       "bad args: f64 min NaN: the message says not finite, not above max");
    ok(sc_sort(ctx, NULL, 8, 0, 32, 0) == SC_ERR_USAGE &&
       strncmp(sc_ctx_message(ctx), "sc_sort:", 8) == 0,
       "bad args: sc_sort's message names sc_sort: %s", sc_ctx_message(ctx));
    g.min = 0;
    g.max = f64_bits(INFINITY);
    ok(sc_gen(ctx, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: f64 max inf");
    g.type = SC_I64;
    g.min = 5;
    g.max = 0 - (uint64_t)5;
    ok(sc_gen(ctx, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: i64 min 5 above max -5");
    g.type = SC_U64;
    ok(sc_gen(ctx, &g, 0, out, 4) == SC_OK, "u64 min 5, max 2^64 - 5 is a range");
    g.type = SC_U32;
    g.min = 0;
    g.max = (uint64_t)1 << 32;
    ok(sc_gen(ctx, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: u32 max past 32 bits");
    g.type = (sc_type)17;
    ok(sc_gen(ctx, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: no such type");
}

static void test_gen(void)
{
    test_gen_on(cpu_ctx, "cpu");
    test_gen_on(cpu1_ctx, "cpu, 1 thread");
    test_gen_on(def_ctx, "default device");
    test_gen64_on(cpu_ctx, "cpu");
    test_gen64_on(cpu1_ctx, "cpu, 1 thread");
    test_gen64_on(def_ctx, "default device");
    test_gen_params(cpu_ctx);
    if (gpu_ctx) {
        test_gen_on(gpu_ctx, "cuda");
        /* 64-bit elements: made on the host's threads under a GPU. */
        test_gen64_on(gpu_ctx, "cuda");
    } else {
        skip("no CUDA GPU", "sc_gen on cuda");
    }
}

/* ---------------------------------------------------------- operations */

static void test_compact_on(sc_ctx *ctx, const char *label)
{
    int all_ok = 1, idx_ok = 1, split_ok = 1;
    for (size_t s = 0; s < N_SIZES; s++) {
        uint64_t n = sizes[s];
        uint32_t *in = xmalloc(n * 4), *out = xmalloc(n * 4), *want = xmalloc(n * 4);
        uint64_t *idx = xmalloc(n * 8), *want_idx = xmalloc(n * 8);
        fill_random(in, n, (s & 1) ? 1000 : 0);
        for (int k = 0; k < 4; k++) {
            simple_pred sp;
            sc_pred p;
            if (k == 0) {
                memset(&sp, 0, sizeof sp);
                sp.has_ne = 1;
                sp.ne = 0;
                sc_pred_default(&p);
            } else {
                random_simple(&sp);
                build_pred(&sp, &p);
            }
            uint64_t m = 0;
            for (uint64_t i = 0; i < n; i++)
                if (simple_test(&sp, in[i])) {
                    want[m] = in[i];
                    want_idx[m] = 1000 + i;
                    m++;
                }
            uint64_t kept = ~0ULL;
            sc_status st = sc_compact(ctx, in, n, &p, out, &kept);
            if (st != SC_OK || kept != m || memcmp(out, want, m * 4) != 0) {
                if (all_ok)
                    diag("%s: sc_compact n=%llu pred %d: status %d kept %llu want %llu", label,
                         (unsigned long long)n, k, (int)st, (unsigned long long)kept,
                         (unsigned long long)m);
                all_ok = 0;
            }
            kept = ~0ULL;
            st = sc_compact_indices(ctx, in, n, &p, 1000, idx, &kept);
            if (st != SC_OK || kept != m || memcmp(idx, want_idx, m * 8) != 0) {
                if (idx_ok)
                    diag("%s: sc_compact_indices n=%llu pred %d: status %d kept %llu want %llu",
                         label, (unsigned long long)n, k, (int)st, (unsigned long long)kept,
                         (unsigned long long)m);
                idx_ok = 0;
            }
            /* split: the kept, then the others, in order */
            uint64_t r = m;
            for (uint64_t i = 0; i < n; i++)
                if (!simple_test(&sp, in[i]))
                    want[r++] = in[i];
            uint64_t sel = ~0ULL;
            st = sc_split(ctx, in, n, &p, out, &sel);
            if (st != SC_OK || sel != m || memcmp(out, want, n * 4) != 0) {
                if (split_ok)
                    diag("%s: sc_split n=%llu pred %d: status %d selected %llu want %llu", label,
                         (unsigned long long)n, k, (int)st, (unsigned long long)sel,
                         (unsigned long long)m);
                split_ok = 0;
            }
        }
        free(in);
        free(out);
        free(want);
        free(idx);
        free(want_idx);
    }
    ok(all_ok, "%s: sc_compact equals a plain loop, sizes 0..1000003", label);
    ok(idx_ok, "%s: sc_compact_indices (first_index 1000) equals a plain loop", label);
    ok(split_ok, "%s: sc_split equals a plain stable partition", label);
}

static uint64_t apply_op(sc_scan_op op, uint64_t acc, uint64_t x, int wide)
{
    uint64_t r;
    switch (op) {
    case SC_OP_SUM: r = acc + x; break;
    case SC_OP_MAX: r = acc > x ? acc : x; break;
    case SC_OP_MIN: r = acc < x ? acc : x; break;
    default: r = acc ^ x; break;
    }
    return wide ? r : (uint32_t)r;
}

static void test_scan_on(sc_ctx *ctx, const char *label)
{
    int all_ok = 1, pieces_ok = 1;
    static const sc_scan_op ops[] = { SC_OP_SUM, SC_OP_MAX, SC_OP_MIN, SC_OP_XOR };
    for (size_t s = 0; s < N_SIZES; s++) {
        uint64_t n = sizes[s];
        uint32_t *in = xmalloc(n * 4);
        uint64_t *out = xmalloc(n * 8), *want = xmalloc(n * 8);
        fill_random(in, n, (s & 1) ? 1000 : 0);
        for (int o = 0; o < 4; o++)
            for (int inc = 0; inc < 2; inc++)
                for (int wide = 0; wide < 2; wide++)
                    for (int c = 0; c < 2; c++) {
                        sc_scan_op op = ops[o];
                        uint64_t carry0 = c ? 123456789u : (op == SC_OP_MIN ? 0xffffffffu : 0);
                        if (c && wide && op == SC_OP_SUM)
                            carry0 = 5000000000ULL;
                        uint64_t acc = carry0;
                        for (uint64_t i = 0; i < n; i++) {
                            uint64_t before = acc;
                            acc = apply_op(op, acc, in[i], wide);
                            want[i] = inc ? acc : before;
                        }
                        uint64_t carry = carry0;
                        sc_status st = sc_scan(ctx, in, n, op, inc, wide, out, &carry);
                        int good = st == SC_OK && carry == acc;
                        for (uint64_t i = 0; good && i < n; i++) {
                            uint64_t got = wide ? out[i] : ((uint32_t *)out)[i];
                            if (got != want[i]) {
                                good = 0;
                                if (all_ok)
                                    diag("%s: n=%llu op %d inc %d wide %d carry %d: out[%llu]=%llu want %llu",
                                         label, (unsigned long long)n, o, inc, wide, c,
                                         (unsigned long long)i, (unsigned long long)got,
                                         (unsigned long long)want[i]);
                            }
                        }
                        if (!good && all_ok && st != SC_OK)
                            diag("%s: sc_scan status %d", label, (int)st);
                        if (!good && all_ok && carry != acc)
                            diag("%s: n=%llu op %d inc %d wide %d: carry out %llu want %llu",
                                 label, (unsigned long long)n, o, inc, wide,
                                 (unsigned long long)carry, (unsigned long long)acc);
                        if (!good)
                            all_ok = 0;
                        /* two pieces joined through the carry */
                        if (n > 2) {
                            uint64_t cut = n / 3, cr = carry0;
                            uint64_t *out2 = xmalloc(n * 8);
                            size_t es = wide ? 8 : 4;
                            sc_scan(ctx, in, cut, op, inc, wide, out2, &cr);
                            sc_scan(ctx, in + cut, n - cut, op, inc, wide,
                                    (char *)out2 + cut * es, &cr);
                            if (cr != acc || memcmp(out2, out, n * es) != 0)
                                pieces_ok = 0;
                            free(out2);
                        }
                    }
        free(in);
        free(out);
        free(want);
    }
    ok(all_ok, "%s: sc_scan equals a plain loop: 4 ops x inclusive x wide x carry", label);
    ok(pieces_ok, "%s: sc_scan in two pieces joined by the carry equals one call", label);
}

/* ---------------------------------------------------------- 64-bit scans */

static uint64_t rnd64(void)
{
    return (uint64_t)rnd() << 32 | rnd();
}

/* x before y in t's order, read plainly: integers by value, f64 by IEEE
 * 754 totalOrder (the sign set reverses the order of the bits). */
static int before64(sc_type t, uint64_t x, uint64_t y)
{
    if (t == SC_I64) return (int64_t)x < (int64_t)y;
    if (t != SC_F64) return x < y;
    int sx = (int)(x >> 63), sy = (int)(y >> 63);
    if (sx != sy) return sx;
    return sx ? x > y : x < y;
}

/* Any bits, a sixteenth of them specials of the three types; for an f64
 * sum, finite doubles of many magnitudes, so that the order of the
 * additions shows in the bits. */
static void fill64(uint64_t *v, uint64_t n, int fsum)
{
    static const uint64_t specials[] = {
        0, 1, UINT64_MAX, (uint64_t)1 << 63, ((uint64_t)1 << 63) - 1,
        0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
        0xfff8000000000123ull, 0x7ff0000000000001ull, 0x000fffffffffffffull };
    for (uint64_t i = 0; i < n; i++) {
        if (fsum) {
            double d = ldexp((double)rnd(), -(int)(rnd() % 60));
            v[i] = f64_bits(rnd() & 1 ? -d : d);
        } else if (rnd() % 16 == 0) {
            v[i] = specials[rnd() % (sizeof specials / sizeof specials[0])];
        } else {
            v[i] = rnd64();
        }
    }
}

/* The float sum of in[0..n) from carry in its fixed order (sc.h): in
 * order inside aligned blocks of 1024, then the block totals in order;
 * every NaN written as +nan.  Fills want with the outputs' bits. */
static uint64_t plain_fsum64(const uint64_t *in, uint64_t n, int inc,
                             double carry, uint64_t *want)
{
    double c = carry, p = 0.0, v;
    for (uint64_t i = 0; i < n; i++) {
        if (i % 1024 == 0 && i) {
            c += p;
            p = 0.0;
        }
        v = i % 1024 ? c + p : c;
        p += f64_of(in[i]);
        if (inc) v = c + p;
        want[i] = v != v ? f64_bits(NAN) : f64_bits(v);
    }
    v = n ? c + p : c;
    return v != v ? f64_bits(NAN) : f64_bits(v);
}

/* The scan of in[0..n) as a plain loop: 64-bit sums wrap, max and min
 * by before64(). */
static uint64_t plain_scan64(sc_type t, sc_scan_op op, const uint64_t *in,
                             uint64_t n, int inc, uint64_t carry,
                             uint64_t *want)
{
    if (t == SC_F64 && op == SC_OP_SUM)
        return plain_fsum64(in, n, inc, f64_of(carry), want);
    uint64_t acc = carry;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = in[i], before = acc;
        if (op == SC_OP_SUM) acc += x;
        else if (op == SC_OP_XOR) acc ^= x;
        else if (op == SC_OP_MAX) acc = before64(t, acc, x) ? x : acc;
        else acc = before64(t, x, acc) ? x : acc;
        want[i] = inc ? acc : before;
    }
    return acc;
}

/* A carry-in other than the identity for each type and operator. */
static uint64_t other_carry64(sc_type t, sc_scan_op op)
{
    if (t == SC_F64) return f64_bits(op == SC_OP_SUM ? -0.0 : 0.5);
    if (t == SC_I64) return (uint64_t)-5;
    return op == SC_OP_SUM ? 0xfffffffffffffff0ull : (uint64_t)1 << 40;
}

/* sc_scan_type on u64, i64 and f64 equals the plain loop, in one call
 * and in two joined by the carry (cut at a multiple of 1024, where a
 * float sum continues exactly). */
static void test_scan64_on(sc_ctx *ctx, const char *label)
{
    static const sc_type types[] = { SC_U64, SC_I64, SC_F64 };
    int all_ok = 1, pieces_ok = 1;
    for (size_t s = 0; s < N_SIZES; s++)
        for (size_t k = 0; k < 3; k++)
            for (int o = SC_OP_SUM; o <= SC_OP_XOR; o++) {
                sc_type t = types[k];
                sc_scan_op op = (sc_scan_op)o;
                if (t == SC_F64 && op == SC_OP_XOR) continue;
                uint64_t n = sizes[s];
                uint64_t *in = xmalloc(n * 8), *out = xmalloc(n * 8),
                         *want = xmalloc(n * 8), *out2 = xmalloc(n * 8);
                fill64(in, n, t == SC_F64 && op == SC_OP_SUM);
                for (int inc = 0; inc < 2; inc++)
                    for (int c = 0; c < 2; c++) {
                        uint64_t carry0 = c ? other_carry64(t, op)
                                            : sc_scan_identity_of(t, op);
                        uint64_t acc = plain_scan64(t, op, in, n, inc, carry0,
                                                    want);
                        uint64_t carry = carry0;
                        sc_status st = sc_scan_type(ctx, in, n, t, op, inc, 0,
                                                    out, &carry);
                        int good = st == SC_OK && carry == acc &&
                                   memcmp(out, want, n * 8) == 0;
                        if (!good && all_ok)
                            diag("%s: %s op %d n=%llu inc %d carry %d: status "
                                 "%d, carry out %llx want %llx", label,
                                 sc_type_name(t), o, (unsigned long long)n,
                                 inc, c, (int)st, (unsigned long long)carry,
                                 (unsigned long long)acc);
                        all_ok &= good;
                        uint64_t cut = n / 3 / 1024 * 1024, cr = carry0;
                        st = sc_scan_type(ctx, in, cut, t, op, inc, 0, out2,
                                          &cr);
                        if (st == SC_OK)
                            st = sc_scan_type(ctx, in + cut, n - cut, t, op,
                                              inc, 0, out2 + cut, &cr);
                        pieces_ok &= st == SC_OK && cr == acc &&
                                     memcmp(out2, want, n * 8) == 0;
                    }
                free(in);
                free(out);
                free(want);
                free(out2);
            }
    ok(all_ok, "%s: sc_scan_type of u64, i64, f64 equals a plain loop: every "
       "op x inclusive x carry", label);
    ok(pieces_ok, "%s: sc_scan_type of u64, i64, f64 in two pieces cut at a "
       "multiple of 1024 equals one call", label);
}

/* What sc_scan_type refuses of a 64-bit type, and its identities. */
static void test_scan64_api(sc_ctx *c)
{
    uint64_t in[4] = { 1, 2, 3, 4 }, out[4], carry = 0;
    ok(sc_scan_type(c, in, 4, SC_U64, SC_OP_SUM, 0, 1, out, &carry) ==
       SC_ERR_USAGE, "sc_scan_type: wide output of u64 is SC_ERR_USAGE");
    ok(sc_scan_type(c, in, 4, SC_F64, SC_OP_XOR, 0, 0, out, &carry) ==
       SC_ERR_USAGE, "sc_scan_type: xor of f64 is SC_ERR_USAGE");
    ok(sc_scan_identity_of(SC_U64, SC_OP_MIN) == UINT64_MAX &&
       sc_scan_identity_of(SC_U64, SC_OP_MAX) == 0 &&
       sc_scan_identity_of(SC_I64, SC_OP_MAX) == (uint64_t)1 << 63 &&
       sc_scan_identity_of(SC_I64, SC_OP_MIN) == ((uint64_t)1 << 63) - 1 &&
       sc_scan_identity_of(SC_F64, SC_OP_MAX) == UINT64_MAX &&
       sc_scan_identity_of(SC_F64, SC_OP_MIN) == UINT64_MAX >> 1 &&
       sc_scan_identity_of(SC_F64, SC_OP_SUM) == 0,
       "sc_scan_identity_of: the 64-bit types' least and greatest elements");
}

/* plain stable sort: insertion into a merge sort */
static unsigned s_lo, s_hi;
static int s_desc;

static uint32_t skey(uint32_t x)
{
    uint32_t k = x >> s_lo;
    unsigned w = s_hi - s_lo;
    return w >= 32 ? k : (k & ((1u << w) - 1));
}

static void plain_sort(uint32_t *v, uint32_t *tmp, uint64_t n)
{
    if (n < 2)
        return;
    uint64_t mid = n / 2, i = 0, j = mid, k = 0;
    plain_sort(v, tmp, mid);
    plain_sort(v + mid, tmp, n - mid);
    while (i < mid && j < n) {
        int right_first = s_desc ? skey(v[j]) > skey(v[i]) : skey(v[j]) < skey(v[i]);
        tmp[k++] = right_first ? v[j++] : v[i++];
    }
    while (i < mid)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * 4);
}

static void test_sort_on(sc_ctx *ctx, const char *label)
{
    int all_ok = 1;
    static const unsigned bits[][2] = { { 0, 32 }, { 0, 8 }, { 4, 12 }, { 31, 32 }, { 16, 32 } };
    for (size_t s = 0; s < N_SIZES; s++) {
        uint64_t n = sizes[s];
        uint32_t *in = xmalloc(n * 4), *a = xmalloc(n * 4), *b = xmalloc(n * 4),
                 *tmp = xmalloc(n * 4);
        fill_random(in, n, (s & 1) ? 5000 : 0);
        for (size_t k = 0; k < sizeof bits / sizeof bits[0]; k++)
            for (int desc = 0; desc < 2; desc++) {
                s_lo = bits[k][0];
                s_hi = bits[k][1];
                s_desc = desc;
                memcpy(a, in, n * 4);
                memcpy(b, in, n * 4);
                plain_sort(a, tmp, n);
                sc_status st = sc_sort(ctx, b, n, s_lo, s_hi, desc);
                if (st != SC_OK || memcmp(a, b, n * 4) != 0) {
                    if (all_ok)
                        diag("%s: sc_sort n=%llu bits %u:%u desc %d: status %d, output differs",
                             label, (unsigned long long)n, s_lo, s_hi, desc, (int)st);
                    all_ok = 0;
                }
            }
        free(in);
        free(a);
        free(b);
        free(tmp);
    }
    ok(all_ok, "%s: sc_sort equals a stable merge sort (bits ranges, descending)", label);
}

/* ------------------------------------------- 64-bit predicates and ops */

/* A condition on 64-bit elements written out as C compares in the type:
 * u64 and i64 by value, f64 as doubles (a NaN fails all but !=, and
 * -0.0 == +0.0).  Terms as sc-compact's options: EQ NE LT LE GT GE,
 * RANGE (v..hi), MASK (integer types). */
enum { T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_RANGE, T_MASK, T_KINDS };
typedef struct {
    sc_type type;
    int has[T_KINDS];
    uint64_t v[T_KINDS], hi;
    int invert;
    int dflt;               /* sc_pred_default_type: x != 0 */
} simple64;

static int less64(sc_type t, uint64_t a, uint64_t b)
{
    if (t == SC_I64) return (int64_t)a < (int64_t)b;
    if (t == SC_F64) return f64_of(a) < f64_of(b);
    return a < b;
}

static int equal64(sc_type t, uint64_t a, uint64_t b)
{
    return t == SC_F64 ? f64_of(a) == f64_of(b) : a == b;
}

static int simple64_test(const simple64 *s, uint64_t x)
{
    sc_type t = s->type;
    int r = 1;
    if (s->dflt) r = !equal64(t, x, 0);
    if (s->has[T_EQ] && !equal64(t, x, s->v[T_EQ])) r = 0;
    if (s->has[T_NE] && equal64(t, x, s->v[T_NE])) r = 0;
    if (s->has[T_LT] && !less64(t, x, s->v[T_LT])) r = 0;
    if (s->has[T_LE] && !(less64(t, x, s->v[T_LE]) || equal64(t, x, s->v[T_LE]))) r = 0;
    if (s->has[T_GT] && !less64(t, s->v[T_GT], x)) r = 0;
    if (s->has[T_GE] && !(less64(t, s->v[T_GE], x) || equal64(t, x, s->v[T_GE]))) r = 0;
    if (s->has[T_RANGE] &&
        !((less64(t, s->v[T_RANGE], x) || equal64(t, x, s->v[T_RANGE])) &&
          (less64(t, x, s->hi) || equal64(t, x, s->hi))))
        r = 0;
    if (s->has[T_MASK] && !(x & s->v[T_MASK])) r = 0;
    return s->invert ? !r : r;
}

static int build64(const simple64 *s, sc_pred *p)
{
    static const sc_cmp cmps[] = { SC_EQ, SC_NE, SC_LT, SC_LE, SC_GT, SC_GE };
    if ((s->dflt ? sc_pred_default_type(p, s->type)
                 : sc_pred_all_type(p, s->type)) != SC_OK)
        return 0;
    for (int k = T_EQ; k <= T_GE; k++)
        if (s->has[k] && sc_pred_add_cmp(p, cmps[k], s->v[k]) != SC_OK) return 0;
    if (s->has[T_RANGE] && sc_pred_add_range(p, s->v[T_RANGE], s->hi) != SC_OK)
        return 0;
    if (s->has[T_MASK] && sc_pred_add_mask(p, s->v[T_MASK]) != SC_OK) return 0;
    p->invert = (uint32_t)s->invert;
    return 1;
}

/* Values where 64-bit conditions go wrong when read as 32-bit, or as
 * doubles, or without the type's sign: the words around 2^32 and 2^53,
 * the extremes, and for f64 both zeros, both infinities, NaNs of both
 * signs with payloads, denormals. */
static uint64_t interesting64(sc_type t)
{
    static const uint64_t ints[] = {
        0, 1, 2, 5, 100, 0xffffffffu, 0x100000000u, 0x100000001u,
        (uint64_t)1 << 53, ((uint64_t)1 << 53) + 1, 0x7fffffffffffffffu,
        0x8000000000000000u, 0xfffffffffffffffeu, UINT64_MAX,
        0 - (uint64_t)5, 0 - (uint64_t)0x100000000u, 0 - (uint64_t)0xffffffffu,
        0xffffffff00000000u, 0x8000000000000001u };
    static const uint64_t floats[] = {
        0, 0x8000000000000000u, 0x3ff0000000000000u, 0xbff0000000000000u,
        0x7ff0000000000000u, 0xfff0000000000000u, 0x7ff8000000000000u,
        0xfff8000000000000u, 0x7ff0000000000001u, 0xfff00000deadbeefu, 1,
        0x8000000000000001u, 0x7fefffffffffffffu, 0xffefffffffffffffu,
        0x4340000000000000u /* 2^53 */, 0x4340000000000001u /* 2^53 + 2 */,
        0x3fe0000000000000u, 0x00000000ffffffffu, 0x41f0000000000000u /* 2^32 */ };
    uint32_t r = rnd();
    if (t == SC_F64) {
        if (r & 3) return floats[rnd() % (sizeof floats / sizeof floats[0])];
        return f64_bits((double)(int32_t)(rnd() % 2000000u - 1000000) / 8);
    }
    if (r & 3) return ints[rnd() % (sizeof ints / sizeof ints[0])];
    return (r & 4) ? rnd64() : (uint64_t)(int64_t)(int32_t)(rnd() % 2001u - 1000);
}

static void random_simple64(simple64 *s, sc_type t)
{
    memset(s, 0, sizeof *s);
    s->type = t;
    uint32_t which = rnd();
    for (int k = 0; k < T_KINDS; k++) {
        s->has[k] = (which >> (2 * k) & 3) == 0;
        s->v[k] = interesting64(t);
    }
    if (t == SC_F64) s->has[T_MASK] = 0;
    s->hi = (which >> 20 & 1) ? interesting64(t) : s->v[T_RANGE] + rnd() % 2000;
    s->invert = (which >> 21) & 1;
    s->dflt = (which >> 22 & 7) == 0;
}

static const sc_type types64[] = { SC_U64, SC_I64, SC_F64 };

/* sc_pred_test on predicates of the 64-bit types: by hand where the
 * 32-bit reading or a double's would differ, then random ones against
 * simple64. */
static void test_pred64(void)
{
    sc_pred p;
    const uint64_t big = (uint64_t)1 << 32;
    sc_pred_default_type(&p, SC_U64);
    ok(!sc_pred_test(&p, 0) && sc_pred_test(&p, big) && sc_pred_test(&p, 1) &&
       sc_pred_test(&p, UINT64_MAX), "u64 default: x != 0 in all 64 bits");
    sc_pred_all_type(&p, SC_U64);
    sc_pred_add_cmp(&p, SC_GT, 0xffffffffu);
    ok(sc_pred_test(&p, big) && !sc_pred_test(&p, 0xffffffffu) && !sc_pred_test(&p, 0),
       "u64 --gt 0xffffffff admits 2^32 only above");
    sc_pred_all_type(&p, SC_U64);
    sc_pred_add_cmp(&p, SC_EQ, ((uint64_t)1 << 53) + 1);
    ok(sc_pred_test(&p, ((uint64_t)1 << 53) + 1) && !sc_pred_test(&p, (uint64_t)1 << 53),
       "u64 --eq 2^53+1 is exact (not a double's)");
    sc_pred_all_type(&p, SC_U64);
    sc_pred_add_mask(&p, (uint64_t)1 << 40);
    ok(sc_pred_test(&p, (uint64_t)3 << 40) && !sc_pred_test(&p, 1u << 8) &&
       !sc_pred_test(&p, 0xffffffffu), "u64 --mask 2^40: a bit above 32");
    sc_pred_all_type(&p, SC_I64);
    sc_pred_add_mask(&p, 0x8000000000000001u);
    ok(sc_pred_test(&p, 0 - (uint64_t)2) && sc_pred_test(&p, 1) && !sc_pred_test(&p, 2),
       "i64 --mask 0x8000000000000001: the sign bit or bit 0");
    sc_pred_all_type(&p, SC_I64);
    sc_pred_add_range(&p, 0 - (uint64_t)5, 5);
    ok(sc_pred_test(&p, 0 - (uint64_t)5) && sc_pred_test(&p, 0) && sc_pred_test(&p, 5) &&
       sc_pred_test(&p, UINT64_MAX) && !sc_pred_test(&p, 0 - (uint64_t)6) &&
       !sc_pred_test(&p, 6) && !sc_pred_test(&p, 0x8000000000000000u) &&
       !sc_pred_test(&p, 0x7fffffffffffffffu) && !sc_pred_test(&p, 0xfffffffbu),
       "i64 --range -5:5 crosses 0 (and is not the 32-bit words')");
    sc_pred_all_type(&p, SC_I64);
    sc_pred_add_cmp(&p, SC_LT, 0);
    ok(sc_pred_test(&p, UINT64_MAX) && sc_pred_test(&p, 0x8000000000000000u) &&
       !sc_pred_test(&p, 0) && !sc_pred_test(&p, 0x7fffffffffffffffu) &&
       !sc_pred_test(&p, 0xffffffffu), "i64 --lt 0: the sign of 64 bits");
    sc_pred_all_type(&p, SC_I64);
    sc_pred_add_range(&p, 0x8000000000000000u, 0x7fffffffffffffffu);
    ok(sc_pred_test(&p, 0) && sc_pred_test(&p, 0x8000000000000000u) &&
       sc_pred_test(&p, 0x7fffffffffffffffu), "i64 --range MIN:MAX admits all");
    sc_pred_default_type(&p, SC_F64);
    ok(!sc_pred_test(&p, 0) && !sc_pred_test(&p, 0x8000000000000000u) &&
       sc_pred_test(&p, 0x7ff8000000000000u) && sc_pred_test(&p, 1),
       "f64 default drops both zeros, keeps NaN and denormals");
    sc_pred_all_type(&p, SC_F64);
    sc_pred_add_cmp(&p, SC_EQ, 0x8000000000000000u);
    ok(sc_pred_test(&p, 0) && sc_pred_test(&p, 0x8000000000000000u) &&
       !sc_pred_test(&p, 1), "f64 --eq -0 admits both zeros");
    sc_pred_all_type(&p, SC_F64);
    sc_pred_add_cmp(&p, SC_LT, 0);
    ok(sc_pred_test(&p, f64_bits(-1.0)) && sc_pred_test(&p, 0xfff0000000000000u) &&
       !sc_pred_test(&p, 0x8000000000000000u) && !sc_pred_test(&p, 0xfff8000000000000u),
       "f64 --lt 0: not -0, not -NaN");
    sc_pred_all_type(&p, SC_F64);
    sc_pred_add_range(&p, 0xfff0000000000000u, 0x7ff0000000000000u);
    ok(sc_pred_test(&p, 0xfff0000000000000u) && sc_pred_test(&p, 0x7ff0000000000000u) &&
       !sc_pred_test(&p, 0x7ff0000000000001u) && !sc_pred_test(&p, 0xfff8000000000000u),
       "f64 --range -inf:inf: every number, no NaN");
    sc_pred_all_type(&p, SC_F64);
    sc_pred_add_cmp(&p, SC_NE, 0x7ff8000000000000u);
    ok(sc_pred_test(&p, 0x7ff8000000000000u) && sc_pred_test(&p, 0),
       "f64 --ne nan admits everything, NaNs too");
    sc_pred_all_type(&p, SC_F64);
    sc_pred_add_cmp(&p, SC_GE, 0x7ff8000000000000u);
    ok(!sc_pred_test(&p, 0x7ff8000000000000u) && !sc_pred_test(&p, 0x7ff0000000000000u),
       "f64 --ge nan admits nothing");
    sc_pred_all_type(&p, SC_F64);
    sc_pred_add_cmp(&p, SC_GT, f64_bits(9007199254740992.0));
    ok(sc_pred_test(&p, f64_bits(9007199254740994.0)) &&
       !sc_pred_test(&p, f64_bits(9007199254740992.0)), "f64 --gt 2^53");
    ok(sc_pred_add_mask(&p, 1) == SC_ERR_USAGE, "f64 --mask is SC_ERR_USAGE");

    for (size_t ti = 0; ti < 3; ti++) {
        sc_type t = types64[ti];
        int agree = 1;
        for (int k = 0; k < 3000 && agree; k++) {
            simple64 s;
            random_simple64(&s, t);
            if (!build64(&s, &p)) {
                agree = 0;
                diag("%s: building predicate %d failed", sc_type_name(t), k);
                break;
            }
            for (int j = 0; j < 200; j++) {
                uint64_t x = j < T_KINDS ? s.v[j] : j == T_KINDS ? s.hi
                           : j < 2 * T_KINDS ? s.v[j - T_KINDS - 1] + 1
                           : (j & 1) ? interesting64(t) : rnd64();
                if (!!sc_pred_test(&p, x) != !!simple64_test(&s, x)) {
                    agree = 0;
                    diag("%s: predicate %d disagrees at x=0x%016llx (lib %d, plain %d)",
                         sc_type_name(t), k, (unsigned long long)x, sc_pred_test(&p, x),
                         simple64_test(&s, x));
                    break;
                }
            }
        }
        ok(agree, "%s: sc_pred_test agrees with C's comparisons on 3000 random predicates",
           sc_type_name(t));
    }
}

/* Random elements of type t: a third zeros (of both signs for f64), the
 * rest interesting64's. */
static void fill_interesting64(uint64_t *v, uint64_t n, sc_type t)
{
    for (uint64_t i = 0; i < n; i++) {
        uint32_t r = rnd() % 3;
        v[i] = r ? interesting64(t) : (t == SC_F64 && (rnd() & 1)) ? 0x8000000000000000u : 0;
    }
}

/* One predicate on in[0..n): sc_compact, sc_compact_indices and sc_split
 * against plain loops; 0 and a diagnostic on the first difference. */
static int compact64_case(sc_ctx *ctx, const char *label, const simple64 *s,
                          const uint64_t *in, uint64_t n, uint64_t *out,
                          uint64_t *want, uint64_t *idx, uint64_t *want_idx)
{
    sc_pred p;
    if (!build64(s, &p)) {
        diag("%s: building a %s predicate failed", label, sc_type_name(s->type));
        return 0;
    }
    uint64_t m = 0;
    for (uint64_t i = 0; i < n; i++)
        if (simple64_test(s, in[i])) {
            want[m] = in[i];
            want_idx[m++] = ((uint64_t)1 << 33) + i;
        }
    uint64_t kept = ~0ULL, sel = ~0ULL, r = m;
    const char *what = NULL;
    if (sc_compact(ctx, in, n, &p, out, &kept) != SC_OK || kept != m ||
        memcmp(out, want, m * 8) != 0)
        what = "sc_compact";
    else if (sc_compact_indices(ctx, in, n, &p, (uint64_t)1 << 33, idx, &kept) != SC_OK ||
             kept != m || memcmp(idx, want_idx, m * 8) != 0)
        what = "sc_compact_indices";
    if (!what) {
        for (uint64_t i = 0; i < n; i++)
            if (!simple64_test(s, in[i])) want[r++] = in[i];
        if (sc_split(ctx, in, n, &p, out, &sel) != SC_OK || sel != m ||
            memcmp(out, want, n * 8) != 0)
            what = "sc_split";
    }
    if (what)
        diag("%s: %s of %llu %s elements differs from a plain loop (%llu kept): %s", label,
             what, (unsigned long long)n, sc_type_name(s->type), (unsigned long long)m,
             sc_ctx_message(ctx));
    return !what;
}

static void test_compact64_on(sc_ctx *ctx, const char *label)
{
    for (size_t ti = 0; ti < 3; ti++) {
        sc_type t = types64[ti];
        int all_ok = 1;
        for (size_t z = 0; z < N_SIZES && all_ok; z++) {
            uint64_t n = sizes[z];
            uint64_t *in = xmalloc(n * 8), *out = xmalloc(n * 8), *want = xmalloc(n * 8);
            uint64_t *idx = xmalloc(n * 8), *want_idx = xmalloc(n * 8);
            fill_interesting64(in, n, t);
            for (int k = 0; k < 5 && all_ok; k++) {
                simple64 s;
                random_simple64(&s, t);
                if (k == 0) {
                    memset(&s, 0, sizeof s);
                    s.type = t;
                    s.dflt = 1;
                }
                all_ok = compact64_case(ctx, label, &s, in, n, out, want, idx, want_idx);
            }
            free(in);
            free(out);
            free(want);
            free(idx);
            free(want_idx);
        }
        ok(all_ok, "%s: %s sc_compact, sc_compact_indices and sc_split equal plain loops, "
           "sizes 0..1000003", label, sc_type_name(t));
    }
}

/* 64-bit elements on each context (test_ops() runs test_compact64_on
 * on each; here four threads, so that sequences meet inside the smaller
 * sizes); the device arrays take them, of the predicate's type, and
 * refuse an array off the type's grid before they look for a GPU. */
static void test_ops64(void)
{
    sc_ctx *four = NULL;
    if (sc_ctx_new(&four, "cpu", 4) == SC_OK) {
        test_compact64_on(four, "cpu, 4 threads");
        sc_ctx_free(four);
    } else {
        skip("sc_ctx_new failed", "cpu, 4 threads");
    }
    sc_pred p;
    sc_pred_default_type(&p, SC_U64);
    uint64_t kept = 0;
    uint64_t grid[4];
    sc_status st = sc_dev_compact(cpu_ctx, (char *)grid + 4, 1, &p, grid, &kept);
    ok(st == SC_ERR_USAGE && strstr(sc_ctx_message(cpu_ctx), "8-byte"),
       "sc_dev_compact refuses u64 elements off their 8-byte grid (%s)",
       sc_ctx_message(cpu_ctx));
    p.type = 99;
    ok(sc_compact(cpu_ctx, &kept, 1, &p, &kept, &kept) == SC_ERR_USAGE,
       "sc_compact refuses a predicate of no type");
    /* sc_dev_stat checks its arguments before it looks for a GPU: float
     * types (their sums are the host's), no type, off the grid, no
     * figures; then a context with no GPU has none. */
    sc_stats_typed f;
    ok(sc_dev_stat(cpu_ctx, grid, 2, SC_F64, &f) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(cpu_ctx), "f64") &&
       sc_dev_stat_async(cpu_ctx, grid, 2, SC_F32, (sc_stats_typed *)grid,
                         NULL) == SC_ERR_USAGE &&
       sc_dev_stat(cpu_ctx, grid, 2, (sc_type)99, &f) == SC_ERR_USAGE &&
       sc_dev_stat(cpu_ctx, (char *)grid + 4, 1, SC_I64, &f) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(cpu_ctx), "8-byte") &&
       sc_dev_stat_async(cpu_ctx, grid, 2, SC_U64, NULL, NULL) == SC_ERR_USAGE &&
       sc_dev_stat_async(cpu_ctx, grid, 2, SC_U64,
                         (sc_stats_typed *)((char *)grid + 4),
                         NULL) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(cpu_ctx), "d_figs is not aligned") &&
       sc_dev_stat(cpu_ctx, NULL, 2, SC_U32, &f) == SC_ERR_USAGE &&
       sc_dev_stat(NULL, grid, 2, SC_U32, &f) == SC_ERR_USAGE,
       "sc_dev_stat refuses float types, no type, arrays off their grid and "
       "missing pointers (%s)", sc_ctx_message(cpu_ctx));
    ok(sc_dev_stat(cpu_ctx, grid, 2, SC_U64, &f) == SC_ERR_NODEVICE &&
       sc_dev_stat_async(cpu_ctx, grid, 4, SC_U32, (sc_stats_typed *)grid,
                         NULL) == SC_ERR_NODEVICE,
       "sc_dev_stat and sc_dev_stat_async on a cpu context: SC_ERR_NODEVICE");
}

static void test_ops(void)
{
    struct { sc_ctx *c; const char *l; } ctxs[] = {
        { cpu_ctx, "cpu" }, { cpu1_ctx, "cpu, 1 thread" }, { def_ctx, "default device" },
        { gpu_ctx, "cuda" }, { all_ctx, "cuda:all" },
    };
    for (size_t k = 0; k < sizeof ctxs / sizeof ctxs[0]; k++) {
        if (!ctxs[k].c) {
            skip("no CUDA GPU", ctxs[k].l);
            continue;
        }
        test_compact_on(ctxs[k].c, ctxs[k].l);
        test_compact64_on(ctxs[k].c, ctxs[k].l);
        test_scan_on(ctxs[k].c, ctxs[k].l);
        test_scan64_on(ctxs[k].c, ctxs[k].l);
        test_sort_on(ctxs[k].c, ctxs[k].l);
    }
    test_scan64_api(cpu_ctx);

    /* bad arguments */
    uint32_t v[4] = { 3, 1, 2, 0 };
    ok(sc_sort(cpu_ctx, v, 4, 5, 5, 0) == SC_ERR_USAGE, "sc_sort with lo_bit == hi_bit is SC_ERR_USAGE");
    ok(sc_sort(cpu_ctx, v, 4, 0, 33, 0) == SC_ERR_USAGE, "sc_sort with hi_bit 33 is SC_ERR_USAGE");
}

/* -------------------------------------------------------------- streams */

static char tmpdir[] = "/tmp/sc-test-api.XXXXXX";

static sc_status write_file(const char *path, sc_format fmt, const uint32_t *v, size_t n,
                            size_t piece)
{
    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = fmt, .level = 6 };
    sc_status st = sc_writer_open(&w, cpu_ctx, path, &o);
    if (st != SC_OK)
        return st;
    for (size_t i = 0; i < n; i += piece) {
        size_t len = piece < n - i ? piece : n - i;
        st = sc_writer_write(w, v + i, len);
        if (st != SC_OK) {
            sc_writer_abort(w);
            return st;
        }
    }
    return sc_writer_commit(w);
}

static sc_status read_file(const char *path, sc_format fmt, uint32_t *v, size_t max,
                           size_t *total)
{
    sc_reader *r = NULL;
    const char *paths[1] = { path };
    sc_status st = sc_reader_open(&r, cpu_ctx, paths, 1, fmt);
    *total = 0;
    if (st != SC_OK)
        return st;
    for (;;) {
        size_t got = 0;
        size_t want = max - *total < 10007 ? max - *total : 10007;
        if (want == 0)
            want = 1;
        uint32_t extra;
        st = sc_reader_read(r, *total < max ? v + *total : &extra, want, &got);
        if (st != SC_OK || got == 0)
            break;
        *total += got;
        if (*total > max)
            break;
    }
    sc_reader_close(r);
    return st;
}

/* zstd through the writer and the reader, and what SC_FMT_AUTO refuses:
 * named formats and text, with a message saying what to do. */
static void test_format_files(const uint32_t *v, size_t n, uint32_t *back)
{
    char path[512];
    size_t got = 0;
    snprintf(path, sizeof path, "%s/data.zst", tmpdir);
    sc_status st = write_file(path, SC_FMT_ZST, v, n, 777);
    if (st == SC_ERR_USAGE) {
        skip("libsc built without zstd", "zstd writer and reader");
    } else {
        ok(st == SC_OK, "writer zst: write and commit (status %d)", (int)st);
        st = read_file(path, SC_FMT_AUTO, back, n + 1, &got);
        ok(st == SC_OK && got == n && memcmp(v, back, n * 4) == 0,
           "reader zst (auto): round trip (status %d, got %zu)", (int)st, got);
        st = read_file(path, SC_FMT_ZST, back, n + 1, &got);
        ok(st == SC_OK && got == n && memcmp(v, back, n * 4) == 0,
           "reader zst (explicit): round trip (status %d)", (int)st);
        st = read_file(path, SC_FMT_RAW, back, n + 1, &got);
        ok(st == SC_OK && back[0] == 0xfd2fb528u, "reader raw: zstd bytes as they are");
    }
    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = SC_FMT_ZST, .level = 20 };
    ok(sc_writer_open(&w, cpu_ctx, "-", &o) == SC_ERR_USAGE && !w,
       "writer zst: level 20 is SC_ERR_USAGE");
    o.level = 0;
    ok(sc_writer_open(&w, cpu_ctx, "-", &o) == SC_ERR_USAGE && !w,
       "writer zst: level 0 is SC_ERR_USAGE");

    static const struct { const char *name, *bytes, *says; size_t len; } refused[] = {
        { "x.xz", "\xfd" "7zXZ\0\0\0\0\0\0\0", "xz -dc", 12 },
        { "x.bz2", "BZh91AY&SY\0\0", "bzip2 -dc", 12 },
        { "x.lz4", "\x04\x22\x4d\x18\0\0\0\0", "lz4 -dc", 8 },
        { "x.txt", "1 2 3\n4 5\n6\n", "--in text", 12 } };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, refused[k].name);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(refused[k].bytes, 1, refused[k].len, f);
            fclose(f);
        }
        sc_reader *r = NULL;
        const char *paths[1] = { path };
        st = sc_reader_open(&r, cpu_ctx, paths, 1, SC_FMT_AUTO);
        ok(st == SC_ERR_FORMAT && !r && strstr(sc_ctx_message(cpu_ctx), refused[k].says),
           "reader auto: %s is SC_ERR_FORMAT at open (%s)", refused[k].name,
           sc_ctx_message(cpu_ctx));
        if (r) sc_reader_close(r);
        st = read_file(path, SC_FMT_RAW, back, n + 1, &got);
        ok(st == SC_OK && got == refused[k].len / 4,
           "reader raw: %s read as elements (status %d)", refused[k].name, (int)st);
    }
}

/* Threads of this process now, from /proc/self/task; -1 where there is
 * no /proc. */
static int threads_now(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

/* A BGZF file read in requests smaller than its members, on 4 threads,
 * goes through the decoder's stage and the threads that copy it: closing
 * the reader ends them all (a reader a file, in a long-running program).
 * At most as many threads after three more readers as after the first:
 * a thread of the library's own may end meanwhile, none may stay. */
static void test_reader_threads(const char *path, const uint32_t *v, size_t n)
{
    sc_ctx *c = NULL;
    uint32_t *back = xmalloc((n + 1) * 4);
    int before = -1, after = -1, same = 1;
    if (sc_ctx_new(&c, "cpu", 4) != SC_OK) c = NULL;
    for (int round = 0; c && round < 4; round++) {
        if (round == 1) before = threads_now();
        sc_reader *r = NULL;
        const char *paths[1] = { path };
        size_t total = 0, got = 0;
        sc_status st = sc_reader_open(&r, c, paths, 1, SC_FMT_AUTO);
        while (st == SC_OK && total < n &&
               (st = sc_reader_read(r, back + total, 4099, &got)) == SC_OK && got)
            total += got;
        sc_reader_close(r);
        same = same && st == SC_OK && total == n && memcmp(v, back, n * 4) == 0;
    }
    after = threads_now();
    ok(c && same, "reader gz: 4 threads, 4099-element requests, read back 4 times");
    if (before < 0)
        skip("no /proc/self/task", "reader gz: closing the reader ends its threads");
    else
        ok(after <= before, "reader gz: closing the reader ends its threads (%d after "
           "the first read, %d after the fourth)", before, after);
    sc_ctx_free(c);
    free(back);
}

static void test_streams(void)
{
    if (!mkdtemp(tmpdir)) {
        skip("mkdtemp failed", "reader/writer round trips");
        return;
    }
    const size_t n = 250007;
    uint32_t *v = xmalloc(n * 4), *back = xmalloc((n + 1) * 4);
    fill_random(v, n, 0);
    v[0] = 0xffffffff;
    v[1] = 0;
    char path[512];
    static const struct { sc_format f; const char *name; } fmts[] = {
        { SC_FMT_RAW, "raw" }, { SC_FMT_GZ, "gz" }, { SC_FMT_TEXT, "text" } };
    for (size_t k = 0; k < 3; k++) {
        snprintf(path, sizeof path, "%s/data.%s", tmpdir, fmts[k].name);
        sc_status st = write_file(path, fmts[k].f, v, n, 1000);
        ok(st == SC_OK, "writer %s: write and commit (status %d)", fmts[k].name, (int)st);
        size_t got = 0;
        sc_format rf = fmts[k].f == SC_FMT_TEXT ? SC_FMT_TEXT : SC_FMT_AUTO;
        st = read_file(path, rf, back, n + 1, &got);
        ok(st == SC_OK && got == n && memcmp(v, back, n * 4) == 0,
           "reader %s: round trip of %zu elements (status %d, got %zu)", fmts[k].name, n,
           (int)st, got);
        if (fmts[k].f == SC_FMT_GZ) {
            st = read_file(path, SC_FMT_GZ, back, n + 1, &got);
            ok(st == SC_OK && got == n && memcmp(v, back, n * 4) == 0,
               "reader gz (explicit): round trip");
            FILE *f = fopen(path, "rb");
            unsigned char magic[2] = { 0, 0 };
            if (f) {
                if (fread(magic, 1, 2, f) != 2)
                    magic[0] = 0;
                fclose(f);
            }
            ok(magic[0] == 0x1f && magic[1] == 0x8b, "writer gz starts with the gzip magic");
            test_reader_threads(path, v, n);
        }
        if (fmts[k].f == SC_FMT_RAW) {
            FILE *f = fopen(path, "rb");
            long size = -1;
            if (f) {
                fseek(f, 0, SEEK_END);
                size = ftell(f);
                fclose(f);
            }
            ok(size == (long)(n * 4), "writer raw writes 4 bytes per element");
        }
    }

    /* stray bytes: all whole elements, then SC_ERR_PARTIAL */
    snprintf(path, sizeof path, "%s/odd.bin", tmpdir);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(v, 4, 1000, f);
        fwrite("\1\2\3", 1, 3, f);
        fclose(f);
    }
    size_t got = 0;
    sc_status st = read_file(path, SC_FMT_RAW, back, n + 1, &got);
    ok(st == SC_ERR_PARTIAL && got == 1000 && memcmp(v, back, 4000) == 0,
       "reader: 4n+3 bytes gives n elements then SC_ERR_PARTIAL (status %d, got %zu)",
       (int)st, got);

    /* malformed text */
    snprintf(path, sizeof path, "%s/bad.txt", tmpdir);
    f = fopen(path, "w");
    if (f) {
        fputs("1 2 0x10\n7 zz 9\n", f);
        fclose(f);
    }
    st = read_file(path, SC_FMT_TEXT, back, n + 1, &got);
    ok(st == SC_ERR_TEXT && got == 4 && back[0] == 1 && back[1] == 2 && back[2] == 16 &&
       back[3] == 7, "reader: malformed text gives what came before, then SC_ERR_TEXT (status %d, got %zu)",
       (int)st, got);
    f = fopen(path, "w");
    if (f) {
        fputs("5 4294967296\n", f);
        fclose(f);
    }
    st = read_file(path, SC_FMT_TEXT, back, n + 1, &got);
    ok((st == SC_ERR_RANGE || st == SC_ERR_TEXT) && got == 1 && back[0] == 5,
       "reader: 4294967296 in text is an error after the elements before it (status %d)", (int)st);

    /* missing file */
    sc_reader *r = NULL;
    snprintf(path, sizeof path, "%s/missing.bin", tmpdir);
    const char *paths[1] = { path };
    st = sc_reader_open(&r, cpu_ctx, paths, 1, SC_FMT_AUTO);
    if (st == SC_OK) {
        size_t g2 = 0;
        uint32_t x;
        st = sc_reader_read(r, &x, 1, &g2);
        sc_reader_close(r);
    }
    ok(st == SC_ERR_OPEN, "reader: a missing file is SC_ERR_OPEN (status %d)", (int)st);

    /* writer abort leaves an existing file untouched and no temporary */
    snprintf(path, sizeof path, "%s/keep.bin", tmpdir);
    f = fopen(path, "w");
    if (f) {
        fputs("old", f);
        fclose(f);
    }
    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = SC_FMT_RAW, .level = 6 };
    st = sc_writer_open(&w, cpu_ctx, path, &o);
    if (st == SC_OK) {
        sc_writer_write(w, v, 1000);
        sc_writer_abort(w);
    }
    char buf[16] = { 0 };
    f = fopen(path, "r");
    if (f) {
        if (!fgets(buf, sizeof buf, f))
            buf[0] = 0;
        fclose(f);
    }
    ok(strcmp(buf, "old") == 0, "writer: abort leaves the existing file untouched");
    char cmd[700];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A %s | wc -l)\" -eq 6", tmpdir);
    ok(system(cmd) == 0, "writer: abort leaves no temporary file beside it");

    /* wide writer */
    snprintf(path, sizeof path, "%s/wide.bin", tmpdir);
    uint64_t wv[3] = { 1, 0x100000000ULL, 0xffffffffffffffffULL };
    sc_writer_opts ow = { .fmt = SC_FMT_RAW, .level = 6, .wide = 1 };
    w = NULL;
    st = sc_writer_open(&w, cpu_ctx, path, &ow);
    if (st == SC_OK) {
        st = sc_writer_write(w, wv, 3);
        if (st == SC_OK)
            st = sc_writer_commit(w);
        else
            sc_writer_abort(w);
    }
    unsigned char wb[32] = { 0 };
    size_t wn = 0;
    f = fopen(path, "rb");
    if (f) {
        wn = fread(wb, 1, sizeof wb, f);
        fclose(f);
    }
    ok(st == SC_OK && wn == 24 && wb[0] == 1 && wb[12] == 1 && wb[16] == 0xff && wb[23] == 0xff,
       "writer: wide raw writes uint64 little-endian");

    /* a job through sc_run: compact a file into a file */
    snprintf(path, sizeof path, "%s/data.raw", tmpdir);
    char outpath[512];
    snprintf(outpath, sizeof outpath, "%s/job.out", tmpdir);
    sc_job job;
    sc_job_init(&job, SC_JOB_COMPACT);
    const char *inputs[1] = { path };
    job.inputs = inputs;
    job.n_inputs = 1;
    job.output = outpath;
    job.prog = "test_api";
    sc_pred_default(&job.pred);
    st = sc_run(cpu_ctx, &job);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] != 0)
            v[m++] = v[i];
    st = st == SC_OK ? read_file(outpath, SC_FMT_RAW, back, n + 1, &got) : st;
    ok(st == SC_OK && got == m && memcmp(v, back, m * 4) == 0,
       "sc_run: a compact job from file to file (status %d, got %zu want %zu)", (int)st, got, m);

    test_format_files(v, m, back);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        diag("could not remove %s", tmpdir);
    free(v);
    free(back);
}

/* The checks of splits by ranges and of quantiles that the tools'
 * option parsing makes first, so that only a library caller meets them. */
static void test_bad_parts(sc_ctx *c)
{
    static const uint64_t two[2] = { 5, 9 };
    sc_job job;
    sc_job_init(&job, SC_JOB_SPLIT);
    job.ranges = 1;
    job.output = "part.%d";
    job.n_bounds = 2;
    ok(sc_run(c, &job) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "bounds missing"),
       "bad args: a split by ranges with n_bounds but no bounds (%s)",
       sc_ctx_message(c));
    job.bounds = two;
    job.rejects = "rejects";
    ok(sc_run(c, &job) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "no rejects file"),
       "bad args: a split by ranges with a rejects file (%s)",
       sc_ctx_message(c));
    /* The bounds are element bits: a 32-bit type's fit 32 bits. */
    static const uint64_t wide[2] = { 5, (uint64_t)1 << 32 };
    job.rejects = NULL;
    job.bounds = wide;
    ok(sc_run(c, &job) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "beyond 32 bits"),
       "bad args: a u32 split by ranges with a bound beyond 32 bits (%s)",
       sc_ctx_message(c));
    job.type = SC_I32;
    ok(sc_run(c, &job) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "beyond 32 bits"),
       "bad args: an i32 split by ranges with a bound beyond 32 bits (%s)",
       sc_ctx_message(c));
    sc_job_init(&job, SC_JOB_STAT);
    job.quantiles = SC_MAX_PARTS + 1;
    ok(sc_run(c, &job) == SC_ERR_USAGE && strstr(sc_ctx_message(c), "at most"),
       "bad args: more quantiles than SC_MAX_PARTS (%s)", sc_ctx_message(c));
    sc_job_init(&job, SC_JOB_STAT);
    job.sample = 1.5;
    ok(sc_run(c, &job) == SC_ERR_USAGE && strstr(sc_ctx_message(c), "fraction"),
       "bad args: a sample fraction above 1 (%s)", sc_ctx_message(c));
    job.sample = -0.5;
    ok(sc_run(c, &job) == SC_ERR_USAGE, "bad args: a negative sample fraction");
}

/* Arguments out of range are the caller's mistake: SC_ERR_USAGE, not a
 * crash and not a quiet success. */
/* sc_job_check: what sc_run would refuse, found without reading,
 * writing or starting anything. */
static void test_job_check(sc_ctx *c)
{
    char in[] = "/tmp/sc-test-check.XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0) {
        skip("mkstemp failed", "sc_job_check");
        return;
    }
    uint32_t four[1] = { 7 };
    ok(write(fd, four, 4) == 4, "job check: an input file of one element");
    close(fd);
    char out[64];
    snprintf(out, sizeof out, "%s.out", in);
    const char *good[1] = { in }, *missing[2] = { in, "/nonexistent/sc-check" };

    sc_job job;
    sc_job_init(&job, SC_JOB_COMPACT);
    job.inputs = good;
    job.n_inputs = 1;
    job.output = out;
    ok(sc_job_check(c, &job) == SC_OK && access(out, F_OK) != 0,
       "job check: a good job passes and creates no output");
    job.inputs = missing;
    job.n_inputs = 2;
    ok(sc_job_check(c, &job) == SC_ERR_OPEN &&
       strstr(sc_ctx_message(c), "/nonexistent/sc-check"),
       "job check: a missing second input is named (%s)", sc_ctx_message(c));
    sc_job_init(&job, SC_JOB_SPLIT);
    job.inputs = good;
    job.n_inputs = 1;
    job.rejects = in;
    ok(sc_job_check(c, &job) == SC_ERR_SAMEFILE,
       "job check: a rejects file that is also an input (%s)", sc_ctx_message(c));
    /* a split by ranges: -o is a pattern, each part checked as named */
    uint64_t bound = 5;
    char part0[80], pat[80];
    snprintf(part0, sizeof part0, "%s.0", in);
    snprintf(pat, sizeof pat, "%s.%%d", in);
    FILE *f = fopen(part0, "wb");
    ok(f && fwrite(four, 4, 1, f) == 1 && fclose(f) == 0, "job check: part 0's name");
    const char *part0_in[1] = { part0 };
    sc_job_init(&job, SC_JOB_SPLIT);
    job.inputs = good;
    job.n_inputs = 1;
    job.ranges = 1;
    job.bounds = &bound;
    job.n_bounds = 1;
    job.output = in;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE && strstr(sc_ctx_message(c), "%d"),
       "job check: a split by ranges without %%d in -o (%s)", sc_ctx_message(c));
    job.output = pat;
    ok(sc_job_check(c, &job) == SC_OK && access(part0, F_OK) == 0,
       "job check: a split by ranges with a good pattern, nothing touched");
    job.inputs = part0_in;
    ok(sc_job_check(c, &job) == SC_ERR_SAMEFILE,
       "job check: a part file that is also an input (%s)", sc_ctx_message(c));
    unlink(part0);
    sc_job_init(&job, SC_JOB_SORT);
    job.check = job.merge = 1;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "job check: check and merge");
    sc_job_init(&job, SC_JOB_GEN);
    ok(sc_job_check(c, &job) == SC_OK, "job check: sc-gen's job reads nothing");
    ok(sc_job_check(c, NULL) == SC_ERR_USAGE && sc_job_check(NULL, &job) == SC_ERR_USAGE,
       "job check: no job, no context");
    unlink(in);
}

/* Records through the library: a job of 12-byte records (a u32 key at
 * byte 4, the index around it) compacted by its key, read back by a
 * reader of records; and what a job of records may not be. */
enum { REC = 12, NREC = 3001 };

static uint32_t rec_key(uint32_t i) { return (i * 2654435761u) % 1000; }

static int write_records(const char *path, size_t extra)
{
    FILE *f = fopen(path, "wb");
    for (uint32_t i = 0; f && i < NREC; i++) {
        uint32_t r[3] = { i, rec_key(i), ~i };
        if (fwrite(r, REC, 1, f) != 1) break;
    }
    if (f && extra) fwrite("stray", 1, extra, f);
    return f && fclose(f) == 0;
}

/* A job of kind on the records of *in (one input) into out, 341 of
 * them a chunk (cut inside none). */
static void record_job(sc_job *job, sc_job_kind kind, const char **in,
                       const char *out)
{
    sc_job_init(job, kind);
    job->inputs = in;
    job->n_inputs = 1;
    job->output = out;
    job->chunk_bytes = 4096;
    job->record = (sc_record){ REC, 4, SC_U32 };
}

static void test_record_job(sc_ctx *c, const char *in, const char *out)
{
    const char *inputs[1] = { in };
    sc_job job;
    record_job(&job, SC_JOB_COMPACT, inputs, out);
    sc_pred_all_type(&job.pred, SC_U32);
    sc_pred_add_cmp(&job.pred, SC_LT, 500);
    ok(sc_run(c, &job) == SC_OK, "records: a compaction job (%s)",
       sc_ctx_message(c));
    sc_reader *r = NULL;
    uint32_t got[3 * NREC];
    size_t n = 0, k = 0;
    int fine = sc_reader_open(&r, c, &out, 1, SC_FMT_RAW) == SC_OK &&
               sc_reader_set_record(r, REC) == SC_OK &&
               sc_reader_read(r, got, NREC, &n) == SC_OK;
    for (uint32_t i = 0; fine && i < NREC; i++) {
        if (rec_key(i) >= 500) continue;
        fine = k < n && got[3 * k] == i && got[3 * k + 1] == rec_key(i) &&
               got[3 * k + 2] == ~i;
        k++;
    }
    ok(fine && k == n && n > NREC / 3 && n < NREC, "records: the kept "
       "records whole and in order, read back as records (%zu)", n);
    sc_reader_close(r);
    r = NULL;

    /* out.field: the third word of each kept record, as u32 elements. */
    job.out.field = 1;
    job.out.field_off = 8;
    job.out.field_type = SC_U32;
    ok(sc_run(c, &job) == SC_OK, "records: a compaction job writing one "
       "field (%s)", sc_ctx_message(c));
    size_t m = 0;
    fine = sc_reader_open(&r, c, &out, 1, SC_FMT_RAW) == SC_OK &&
           sc_reader_read(r, got, 3 * NREC, &m) == SC_OK && m == n;
    for (size_t i = 0, j = 0; fine && i < NREC; i++)
        if (rec_key((uint32_t)i) < 500) fine = got[j++] == ~(uint32_t)i;
    ok(fine, "records: the field of each kept record, in order (%zu)", m);
    sc_reader_close(r);
    job.out.fmt = SC_FMT_TEXT;
    ok(sc_job_check(c, &job) == SC_OK, "records: a field may be text (%s)",
       sc_ctx_message(c));
    job.compact_out = SC_OUT_INDICES64;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "indices"),
       "records: a field and positions exclude each other (%s)",
       sc_ctx_message(c));
    job.compact_out = SC_OUT_VALUES;
    job.out.field_off = 10;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "records: a field off its "
       "grid (%s)", sc_ctx_message(c));
    job.out.field_off = 8;
    job.record.size = 0;
    job.type = SC_U32;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "records: a field with no "
       "records (%s)", sc_ctx_message(c));
}

static void test_record_faults(sc_ctx *c, const char *in)
{
    const char *inputs[1] = { in };
    sc_job job;
    sc_job_init(&job, SC_JOB_COMPACT);
    job.inputs = inputs;
    job.n_inputs = 1;
    job.record = (sc_record){ 6, 0, SC_U32 };
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "records: a size not a "
       "multiple of 4 (%s)", sc_ctx_message(c));
    job.record = (sc_record){ REC, 8, SC_U64 };
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "records: a key outside (%s)",
       sc_ctx_message(c));
    job.record = (sc_record){ 16, 8, SC_U64 };
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "records: a condition of "
       "another type than the key's (%s)", sc_ctx_message(c));
    job.record = (sc_record){ REC, 4, SC_U32 };
    job.out.fmt = SC_FMT_TEXT;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "records: no text output (%s)",
       sc_ctx_message(c));
    job.compact_out = SC_OUT_INDICES64;
    ok(sc_job_check(c, &job) == SC_OK, "records: their positions as text");
    sc_job_init(&job, SC_JOB_SCAN);
    job.record = (sc_record){ REC, 4, SC_U32 };
    job.out.fmt = SC_FMT_TEXT;
    ok(sc_job_check(c, &job) == SC_OK, "records: their keys scanned, as "
       "text too");
    job.offsets = 1;
    job.inclusive = 1;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "offsets: not inclusive (%s)",
       sc_ctx_message(c));
    sc_job_init(&job, SC_JOB_STAT);
    job.bincount = 1;
    job.record = (sc_record){ REC, 4, SC_F32 };
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "bincount: not of floats (%s)",
       sc_ctx_message(c));
    job.record = (sc_record){ REC, 4, SC_U32 };
    job.hist_buckets = 4;
    ok(sc_job_check(c, &job) == SC_ERR_USAGE, "bincount: no --hist (%s)",
       sc_ctx_message(c));
    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = SC_FMT_TEXT, .level = 6, .record = REC };
    ok(sc_writer_open(&w, c, NULL, &o) == SC_ERR_USAGE && !w,
       "records: no text writer of records");
}

/* The u64 (or u32) values of a file into v[0..cap); how many. */
static size_t read_values(sc_ctx *c, const char *path, sc_type t, void *v,
                          size_t cap)
{
    sc_reader *r = NULL;
    size_t n = 0;
    if (sc_reader_open(&r, c, &path, 1, SC_FMT_RAW) != SC_OK ||
        sc_reader_set_type(r, t, 0) != SC_OK ||
        sc_reader_read(r, v, cap, &n) != SC_OK)
        n = (size_t)-1;
    sc_reader_close(r);
    return n;
}

/* sc-scan and sc-stat of records through jobs: the keys' offsets (a job
 * whose `type` is not the key's: the key's is taken), their counts, and a
 * count that does not fit the bins asked for. */
static void test_record_keys(sc_ctx *c, const char *in, const char *out)
{
    const char *inputs[1] = { in };
    sc_job job;
    record_job(&job, SC_JOB_SCAN, inputs, out);
    job.type = SC_F32;
    job.offsets = 1;
    ok(sc_run(c, &job) == SC_OK, "records: a scan job of their keys, "
       "--offsets (%s)", sc_ctx_message(c));
    static uint32_t got32[NREC + 2];
    static uint64_t got64[1000 + 1], want[1000];
    size_t n = read_values(c, out, SC_U32, got32, NREC + 2);
    uint32_t acc = 0;
    int fine = n == NREC + 1;
    for (uint32_t i = 0; fine && i < NREC; acc += rec_key(i), i++)
        fine = got32[i] == acc;
    ok(fine && got32[NREC] == acc, "records: n + 1 offsets of the keys, "
       "the total last (%zu values)", n);
    record_job(&job, SC_JOB_STAT, inputs, out);
    job.bincount = 1;
    ok(sc_run(c, &job) == SC_OK, "records: a bincount job of their keys "
       "(%s)", sc_ctx_message(c));
    memset(want, 0, sizeof want);
    for (uint32_t i = 0; i < NREC; i++) want[rec_key(i)]++;
    n = read_values(c, out, SC_U64, got64, 1000 + 1);
    ok(n == 1000 && memcmp(got64, want, sizeof want) == 0,
       "records: the count of each key, max + 1 of them (%zu)", n);
    job.bins = 999;
    unlink(out);
    ok(sc_run(c, &job) == SC_ERR_RANGE && access(out, F_OK) != 0 &&
       strstr(sc_ctx_message(c), "value 999 is not below"),
       "bincount: a key >= N fails, writing nothing (%s)",
       sc_ctx_message(c));
}

static void test_record_reader(sc_ctx *c, const char *path)
{
    sc_reader *r = NULL;
    uint32_t buf[3 * NREC];
    size_t n = 0, more = 1;
    sc_status st = sc_reader_open(&r, c, &path, 1, SC_FMT_AUTO);
    ok(st == SC_OK && sc_reader_set_record(r, 7) == SC_ERR_USAGE &&
       sc_reader_set_record(r, REC) == SC_OK, "records: a reader takes "
       "sizes that are multiples of 4");
    if (st == SC_OK) st = sc_reader_read(r, buf, NREC, &n);
    if (st == SC_OK) st = sc_reader_read(r, buf, NREC, &more);
    ok(n == NREC && more == 0 && st == SC_ERR_PARTIAL &&
       strstr(sc_ctx_message(c), "5 stray bytes after 3001 whole records"),
       "records: the whole ones, then the stray bytes (%s)",
       sc_ctx_message(c));
    sc_reader_close(r);
}

static void test_records(void)
{
    char in[] = "/tmp/sc-test-records.XXXXXX";
    int fd = mkstemp(in);
    if (fd < 0) {
        skip("mkstemp failed", "records");
        return;
    }
    close(fd);
    char out[64], cut[64];
    snprintf(out, sizeof out, "%s.out", in);
    snprintf(cut, sizeof cut, "%s.cut", in);
    ok(write_records(in, 0) && write_records(cut, 5), "records: the inputs");
    test_record_job(cpu_ctx, in, out);
    test_record_faults(cpu_ctx, in);
    test_record_keys(cpu_ctx, in, out);
    test_record_reader(cpu_ctx, cut);
    unlink(in);
    unlink(out);
    unlink(cut);
}

/* ------------------------------------------- records in host arrays */

/* A record layout of the tests, and the bits of record i's key. */
static uint64_t arr_key(const unsigned char *v, const sc_record *r,
                        uint64_t i)
{
    const unsigned char *p = v + i * r->size + r->key_off;
    if (sc_type_size(r->key_type) == 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        return x;
    }
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

/* The key's rank, the plain way: a signed type's sign bit flipped, a
 * float's bits all flipped when negative (IEEE 754 totalOrder), else
 * its sign bit. */
static uint64_t arr_rank(sc_type t, uint64_t x)
{
    unsigned w = 8 * sc_type_size(t);
    uint64_t sign = (uint64_t)1 << (w - 1), all = w == 64 ? UINT64_MAX
                                                          : 0xFFFFFFFFu;
    if (t == SC_F32 || t == SC_F64) return (x & sign) ? ~x & all : x | sign;
    return t == SC_I32 || t == SC_I64 ? x ^ sign : x;
}

/* Whether key x is below 0 in its type, as C compares (a NaN is not). */
static int arr_negative(sc_type t, uint64_t x)
{
    switch (t) {
    case SC_I32: return (int32_t)(uint32_t)x < 0;
    case SC_I64: return (int64_t)x < 0;
    case SC_F32: {
        float f;
        uint32_t b = (uint32_t)x;
        memcpy(&f, &b, 4);
        return f < 0;
    }
    case SC_F64: { double d; memcpy(&d, &x, 8); return d < 0; }
    default:     return x < 0x80000000u;    /* unsigned: below 2^31 */
    }
}

/* A stable merge sort of positions idx[0..n) by rank (tmp: room for n). */
static void arr_msort(const unsigned char *v, const sc_record *r, int desc,
                      uint64_t *idx, uint64_t *tmp, uint64_t n)
{
    if (n < 2) return;
    uint64_t h = n / 2, a = 0, b = h, k = 0;
    arr_msort(v, r, desc, idx, tmp, h);
    arr_msort(v, r, desc, idx + h, tmp, n - h);
    while (a < h || b < n) {
        int take_b = a == h;
        if (a < h && b < n) {
            uint64_t ra = arr_rank(r->key_type, arr_key(v, r, idx[a]));
            uint64_t rb = arr_rank(r->key_type, arr_key(v, r, idx[b]));
            take_b = desc ? rb > ra : rb < ra;
        }
        tmp[k++] = take_b ? idx[b++] : idx[a++];
    }
    memcpy(idx, tmp, n * sizeof *idx);
}

/* n records of r with random bytes, half of the keys from a pool of 7
 * (so many are equal) and the rest any bits. */
static unsigned char *arr_data(const sc_record *r, uint64_t n)
{
    unsigned char *v = xmalloc(n * r->size);
    for (uint64_t i = 0; i < n * r->size / 4; i++) {
        uint32_t x = rnd();
        memcpy(v + 4 * i, &x, 4);
    }
    static const uint64_t pool[7] = { 0, 1, 0x80000000u, 0x3FF0000000000000ull,
                                      0xBFF0000000000000ull, 0xFFFFFFFFu, 42 };
    for (uint64_t i = 0; i < n; i++) {
        if (rnd() & 1) continue;
        uint64_t x = pool[rnd() % 7];
        memcpy(v + i * r->size + r->key_off, &x, sc_type_size(r->key_type));
    }
    return v;
}

static void test_record_arrays_on(sc_ctx *c, const sc_record *r, uint64_t n)
{
    const char *t = sc_type_name(r->key_type);
    size_t sz = r->size;
    unsigned char *v = arr_data(r, n), *out = xmalloc(n * sz);
    unsigned char *want = xmalloc(n * sz);
    uint64_t *idx = xmalloc(n * 8), *tmp = xmalloc(n * 8);
    uint64_t *got = xmalloc(n * 8);
    for (int desc = 0; desc < 2; desc++) {
        for (uint64_t i = 0; i < n; i++) idx[i] = i;
        arr_msort(v, r, desc, idx, tmp, n);
        for (uint64_t i = 0; i < n; i++)
            memcpy(want + i * sz, v + idx[i] * sz, sz);
        memcpy(out, v, n * sz);
        ok(sc_sort_records(c, out, n, r, desc) == SC_OK &&
           memcmp(out, want, n * sz) == 0,
           "sc_sort_records: %" PRIu64 " records of %u, %s key at %u%s",
           n, r->size, t, r->key_off, desc ? ", descending" : "");
        ok(sc_argsort_records(c, v, n, r, desc, got) == SC_OK &&
           memcmp(got, idx, n * 8) == 0,
           "sc_argsort_records: %" PRIu64 " records of %u, %s key at %u%s",
           n, r->size, t, r->key_off, desc ? ", descending" : "");
    }
    /* Keys below 0 in their type (unsigned: below 2^31). */
    sc_pred p;
    uint64_t zero = 0, kept = 7, sel = 7, k = 0, m = 0;
    if (r->key_type == SC_U32 || r->key_type == SC_U64) zero = 0x80000000u;
    if (sc_pred_all_type(&p, r->key_type) != SC_OK ||
        sc_pred_add_cmp(&p, SC_LT, zero) != SC_OK)
        ok(0, "records: a predicate of %s", t);
    for (uint64_t i = 0; i < n; i++)
        if (arr_negative(r->key_type, arr_key(v, r, i))) {
            memcpy(want + k * sz, v + i * sz, sz);
            idx[k++] = 5 + i;
        }
    for (uint64_t i = 0; i < n; i++)
        if (!arr_negative(r->key_type, arr_key(v, r, i)))
            memcpy(want + (k + m++) * sz, v + i * sz, sz);
    ok(sc_compact_records(c, v, n, r, &p, out, &kept) == SC_OK && kept == k &&
       memcmp(out, want, k * sz) == 0,
       "sc_compact_records: %" PRIu64 " of %" PRIu64 " records of %u, %s key",
       k, n, r->size, t);
    ok(sc_compact_records_indices(c, v, n, r, &p, 5, got, &kept) == SC_OK &&
       kept == k && memcmp(got, idx, k * 8) == 0,
       "sc_compact_records_indices: %" PRIu64 " positions from 5", k);
    ok(sc_split_records(c, v, n, r, &p, out, &sel) == SC_OK && sel == k &&
       memcmp(out, want, n * sz) == 0,
       "sc_split_records: %" PRIu64 " then %" PRIu64 " records of %u, %s key",
       k, m, r->size, t);
    free(v); free(out); free(want); free(idx); free(tmp); free(got);
}

static void test_record_arrays(void)
{
    static const sc_record layouts[] = {
        { 4, 0, SC_U32 }, { 12, 4, SC_I32 }, { 16, 8, SC_F64 },
        { 24, 0, SC_U64 }, { 8, 4, SC_F32 }, { 32, 16, SC_I64 },
        { 8, 0, SC_F64 },
        /* sorted whole as 64-bit words on the CPU (cpu_rsort.c), as is
         * { 8, 4, SC_F32 } */
        { 8, 0, SC_U32 }, { 8, 4, SC_U32 }, { 8, 0, SC_I32 },
    };
    static const uint64_t counts[] = { 0, 1, 31, 4097, 200003 };
    sc_ctx *c4 = NULL;
    if (sc_ctx_new(&c4, "cpu", 4) != SC_OK) {
        ok(0, "records: a context of 4 threads");
        return;
    }
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            test_record_arrays_on(k % 2 ? cpu1_ctx : c4, &layouts[l],
                                  counts[k]);

    /* Layouts and predicates that will not do. */
    unsigned char v[16] = { 0 };
    uint64_t kept, pos[1];
    sc_pred p;
    sc_pred_default_type(&p, SC_U64);
    sc_record bad_off = { 16, 4, SC_U64 }, none = { 0, 0, SC_U32 };
    sc_record outside = { 16, 16, SC_U32 }, odd = { 6, 0, SC_U32 };
    sc_record u64 = { 16, 8, SC_U64 }, u32 = { 16, 8, SC_U32 };
    ok(sc_sort_records(c4, v, 1, &bad_off, 0) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c4), "multiple"),
       "sc_sort_records: a key off its grid is refused (%s)",
       sc_ctx_message(c4));
    ok(sc_sort_records(c4, v, 1, NULL, 0) == SC_ERR_USAGE &&
       sc_sort_records(c4, v, 1, &none, 0) == SC_ERR_USAGE &&
       sc_argsort_records(c4, v, 1, &outside, 0, pos) == SC_ERR_USAGE &&
       sc_argsort_records(c4, v, 1, &odd, 0, pos) == SC_ERR_USAGE &&
       sc_argsort_records(c4, v, 1, &u64, 0, NULL) == SC_ERR_USAGE,
       "records: no layout, size 0, a key outside, a size not a multiple "
       "of 4, no output: refused");
    ok(sc_compact_records(c4, v, 1, &u64, &p, v, &kept) == SC_OK &&
       sc_compact_records(c4, v, 1, &u32, &p, v, &kept) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c4), "type") &&
       sc_split_records(c4, v, 1, &u32, &p, v, &kept) == SC_ERR_USAGE &&
       sc_compact_records_indices(c4, v, 1, &u64, NULL, 0, pos, &kept) ==
           SC_ERR_USAGE,
       "records: a predicate of another type than the key's, or none, is "
       "refused");
    ok(sc_sort_records(NULL, v, 1, &u64, 0) == SC_ERR_USAGE &&
       sc_sort_records(c4, NULL, 0, &u64, 0) == SC_OK &&
       sc_compact_records(c4, NULL, 0, &u64, &p, NULL, &kept) == SC_OK &&
       kept == 0,
       "records: no context is refused; no records may pass NULL arrays");
    sc_ctx_free(c4);
}

static void test_bad_arguments(void)
{
    sc_ctx *c = cpu_ctx;
    sc_pred p;
    sc_pred_default(&p);
    uint32_t in[4] = { 1, 0, 2, 3 }, out[4];
    uint64_t kept = 0, carry = 0;
    ok(sc_compact(NULL, in, 4, &p, out, &kept) == SC_ERR_USAGE,
       "bad args: sc_compact with no context");
    ok(sc_compact(c, in, 4, NULL, out, &kept) == SC_ERR_USAGE,
       "bad args: sc_compact with no predicate");
    ok(sc_compact(c, NULL, 4, &p, out, &kept) == SC_ERR_USAGE,
       "bad args: sc_compact with no input and n > 0");
    ok(sc_compact(c, NULL, 0, &p, NULL, &kept) == SC_OK && kept == 0,
       "bad args: sc_compact of nothing may pass NULL buffers");
    ok(sc_scan(c, in, 4, SC_OP_SUM, 0, 0, out, NULL) == SC_ERR_USAGE,
       "bad args: sc_scan with no carry");
    ok(sc_scan(c, in, 4, (sc_scan_op)9, 0, 0, out, &carry) == SC_ERR_USAGE,
       "bad args: sc_scan with an unknown operator");
    ok(sc_sort(NULL, in, 4, 0, 32, 0) == SC_ERR_USAGE,
       "bad args: sc_sort with no context");

    sc_gen_params g;
    sc_gen_params_default(&g);
    g.min = 20;
    g.max = 10;
    ok(sc_gen(c, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: sc_gen with min > max");
    sc_gen_params_default(&g);
    g.density = 1.5;
    ok(sc_gen(c, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: sc_gen with density 1.5");
    sc_gen_params_default(&g);
    g.dist = (sc_dist)9;
    ok(sc_gen(c, &g, 0, out, 4) == SC_ERR_USAGE, "bad args: sc_gen with an unknown dist");

    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = SC_FMT_GZ, .level = 0 };
    ok(sc_writer_open(&w, c, "-", &o) == SC_ERR_USAGE && !w,
       "bad args: sc_writer_open with gzip level 0");
    o.level = 6;
    o.fmt = SC_FMT_AUTO;
    ok(sc_writer_open(&w, c, "-", &o) == SC_ERR_USAGE && !w,
       "bad args: sc_writer_open with format auto");
    ok(sc_writer_open(&w, c, "-", NULL) == SC_ERR_USAGE && !w,
       "bad args: sc_writer_open with no options");

    sc_reader *r = NULL;
    const char *missing[1] = { "/nonexistent/sc-test-input" };
    ok(sc_reader_open(&r, c, missing, 1, SC_FMT_RAW) == SC_ERR_OPEN && !r &&
       strstr(sc_ctx_message(c), "/nonexistent/sc-test-input"),
       "bad args: sc_reader_open names a missing input at once (%s)",
       sc_ctx_message(c));
    const char *dot[1] = { "." };
    ok(sc_reader_open(&r, c, dot, 1, SC_FMT_RAW) == SC_ERR_OPEN && !r,
       "bad args: sc_reader_open refuses a directory");
    ok(sc_reader_open(NULL, c, dot, 1, SC_FMT_RAW) == SC_ERR_USAGE,
       "bad args: sc_reader_open with no place for the reader");
    size_t got = 0;
    ok(sc_reader_read(NULL, out, 4, &got) == SC_ERR_USAGE,
       "bad args: sc_reader_read with no reader");
    ok(sc_writer_write(NULL, in, 4) == SC_ERR_USAGE &&
       sc_writer_commit(NULL) == SC_ERR_USAGE,
       "bad args: sc_writer_write and sc_writer_commit with no writer");
    char wdir[] = "/tmp/sc-test-api-w.XXXXXX", wpath[64];
    if (mkdtemp(wdir)) {
        snprintf(wpath, sizeof wpath, "%s/out", wdir);
        const sc_format fmts[] = { SC_FMT_RAW, SC_FMT_GZ, SC_FMT_TEXT,
                                   SC_FMT_ZST };
        for (int k = 0; k < 4; k++) {
            sc_writer_opts wo = { .fmt = fmts[k], .level = 1 };
            if (sc_writer_open(&w, c, wpath, &wo) != SC_OK) continue;
            ok(sc_writer_write(w, NULL, 3) == SC_ERR_USAGE &&
               sc_writer_write(w, NULL, 0) == SC_OK &&
               sc_writer_write(w, in, 4) == SC_OK &&
               sc_writer_commit(w) == SC_OK,
               "bad args: sc_writer_write of format %d with NULL elements "
               "fails, no crash; the writer goes on", (int)fmts[k]);
            unlink(wpath);
        }
        rmdir(wdir);
    }

    sc_job job;
    sc_job_init(&job, SC_JOB_COMPACT);
    job.kind = (sc_job_kind)42;
    ok(sc_run(c, &job) == SC_ERR_USAGE, "bad args: sc_run with an unknown kind");
    sc_job_init(&job, SC_JOB_COMPACT);
    job.chunk_bytes = 5;
    ok(sc_run(c, &job) == SC_ERR_USAGE, "bad args: sc_run with a 5-byte chunk");
    sc_job_init(&job, SC_JOB_SORT);
    job.check = job.merge = 1;
    ok(sc_run(c, &job) == SC_ERR_USAGE, "bad args: sc_run with check and merge");
    ok(sc_run(c, NULL) == SC_ERR_USAGE, "bad args: sc_run with no job");
    const char *unnamed[2] = { "/nonexistent/sc-test-input", NULL };
    ok(sc_reader_open(&r, c, unnamed, 2, SC_FMT_RAW) == SC_ERR_USAGE && !r,
       "bad args: sc_reader_open with a NULL name among the paths");
    for (int m = 0; m < 2; m++) {
        sc_job_init(&job, m ? SC_JOB_SORT : SC_JOB_COMPACT);
        job.merge = m;
        job.inputs = unnamed;
        job.n_inputs = 2;
        ok(sc_job_check(c, &job) == SC_ERR_USAGE &&
           sc_run(c, &job) == SC_ERR_USAGE,
           "bad args: a %s job with a NULL input name", m ? "merge" : "compact");
    }
    ok(sc_type_parse("u32", NULL) == SC_ERR_USAGE,
       "bad args: sc_type_parse with nowhere to put the type");
    test_bad_parts(c);
    test_job_check(c);
}

/* The typed and record calls on device arrays, on the CPU context:
 * arguments that will not do are SC_ERR_USAGE before any device is
 * looked for (so a build or a machine without a GPU checks them too);
 * those that will are SC_ERR_NODEVICE there, which no GPU takes. */
static void test_dev_calls(void)
{
    sc_ctx *c = cpu_ctx;
    uint64_t buf[8] = { 0 }, words[4] = { 0 }, carry = 0, kept = 0;
    char *odd = (char *)buf + 2;
    sc_pred p;
    sc_dev_queue q = { NULL, NULL, 0 };
    for (int t = SC_U32; t < SC_TYPE_COUNT; t++) {
        const char *name = sc_type_name((sc_type)t);
        int fl = sc_type_is_float((sc_type)t), w64 = sc_type_size((sc_type)t) == 8;
        sc_scan_op op = fl ? SC_OP_MAX : SC_OP_XOR;
        ok(sc_dev_scan_type_async(c, buf, 4, (sc_type)t, op, 1, 0, NULL, buf + 4,
                                  words, &q) == SC_ERR_NODEVICE &&
           sc_dev_scan_type(c, buf, 4, (sc_type)t, SC_OP_MIN, 0, 0, buf + 4,
                            &carry) == SC_ERR_NODEVICE &&
           sc_dev_sort_type_async(c, buf, 4, (sc_type)t, 0, w64 ? 64 : 32, 1,
                                  &q) == SC_ERR_NODEVICE &&
           sc_dev_sort_type(c, buf, 4, (sc_type)t, 3, 9, 0) == SC_ERR_NODEVICE,
           "sc_dev_scan_type and sc_dev_sort_type of %s, async and blocking: "
           "SC_ERR_NODEVICE on the CPU", name);
        ok(sc_dev_scan_type(c, odd, 3, (sc_type)t, SC_OP_MAX, 0, 0, buf,
                            &carry) == SC_ERR_USAGE &&
           strstr(sc_ctx_message(c), "aligned") &&
           sc_dev_sort_type(c, odd, 3, (sc_type)t, 0, 8, 0) == SC_ERR_USAGE,
           "sc_dev_scan_type and sc_dev_sort_type of %s refuse d_in off the "
           "element's grid (%s)", name, sc_ctx_message(c));
        ok(sc_dev_sort_type(c, buf, 4, (sc_type)t, 0, w64 ? 65 : 33, 0) ==
               SC_ERR_USAGE &&
           sc_dev_sort_type_async(c, buf, 4, (sc_type)t, 8, 8, 0, &q) ==
               SC_ERR_USAGE,
           "sc_dev_sort_type of %s: bits past the type's width, or none, are "
           "refused", name);
        if (fl)
            ok(sc_dev_scan_type(c, buf, 4, (sc_type)t, SC_OP_SUM, 0, 0, buf + 4,
                                &carry) == SC_ERR_USAGE &&
               strstr(sc_ctx_message(c), "host") &&
               sc_dev_scan_type_async(c, buf, 4, (sc_type)t, SC_OP_SUM, 1, 0,
                                      NULL, buf + 4, words, &q) ==
                   SC_ERR_USAGE &&
               sc_dev_scan_type(c, buf, 4, (sc_type)t, SC_OP_XOR, 0, 0, buf + 4,
                                &carry) == SC_ERR_USAGE,
               "sc_dev_scan_type of %s: sums (host arrays only) and xor are "
               "refused (%s)", name, sc_ctx_message(c));
        if (w64)
            ok(sc_dev_scan_type(c, buf, 2, (sc_type)t, SC_OP_MAX, 0, 1, buf + 4,
                                &carry) == SC_ERR_USAGE,
               "sc_dev_scan_type of %s: wide is refused", name);
    }
    ok(sc_dev_scan_type(c, buf, 4, SC_TYPE_COUNT, SC_OP_MAX, 0, 0, buf + 4,
                        &carry) == SC_ERR_USAGE &&
       sc_dev_sort_type(c, buf, 4, (sc_type)77, 0, 32, 0) == SC_ERR_USAGE &&
       sc_dev_scan_type(c, buf, 4, SC_U64, (sc_scan_op)9, 0, 0, buf + 4,
                        &carry) == SC_ERR_USAGE &&
       sc_dev_scan_type(c, buf, 4, SC_U64, SC_OP_SUM, 0, 0, buf + 4, NULL) ==
           SC_ERR_USAGE &&
       sc_dev_scan_type_async(c, buf, 4, SC_U64, SC_OP_SUM, 0, 0, words, buf + 4,
                              words, &q) == SC_ERR_USAGE &&
       sc_dev_scan_type(c, buf, 2, SC_U32, SC_OP_SUM, 0, 1, buf, &carry) ==
           SC_ERR_USAGE &&
       sc_dev_scan_type(c, buf, 2, SC_U32, SC_OP_SUM, 0, 1, odd, &carry) ==
           SC_ERR_USAGE,
       "sc_dev_scan_type and sc_dev_sort_type: no such type or operator, no "
       "carry, one carry word for both, a wide scan in place or to an "
       "output off its 8-byte grid: refused");

    /* Records: the layouts the GPU's kernels take are NODEVICE here;
     * others are refused, saying which run on the device. */
    static const sc_record gpu_layouts[] = {
        { 8, 0, SC_U32 }, { 8, 4, SC_F32 }, { 8, 0, SC_I64 },
        { 16, 8, SC_U64 }, { 16, 12, SC_I32 }, { 16, 0, SC_F64 },
    };
    for (size_t l = 0; l < sizeof gpu_layouts / sizeof gpu_layouts[0]; l++) {
        const sc_record *r = &gpu_layouts[l];
        sc_pred_default_type(&p, r->key_type);
        ok(sc_dev_compact_records(c, buf, 2, r, &p, buf + 4, &kept) ==
               SC_ERR_NODEVICE &&
           sc_dev_compact_records_async(c, buf, 2, r, &p, buf + 4, words, &q) ==
               SC_ERR_NODEVICE &&
           sc_dev_compact_records_indices(c, buf, 2, r, &p, 9, words,
                                          &kept) == SC_ERR_NODEVICE &&
           sc_dev_compact_records_indices_async(c, buf, 2, r, &p, 9, words,
                                                words + 3, NULL) ==
               SC_ERR_NODEVICE &&
           sc_dev_split_records(c, buf, 1, r, &p, buf + 2, buf + 4, &kept) ==
               SC_ERR_NODEVICE &&
           sc_dev_split_records_async(c, buf, 1, r, &p, buf + 2, buf + 4,
                                      words, &q) == SC_ERR_NODEVICE,
           "sc_dev_*_records of %u-byte records, %s key at %u, async and "
           "blocking: SC_ERR_NODEVICE on the CPU", r->size,
           sc_type_name(r->key_type), r->key_off);
        ok(sc_dev_compact_records(c, odd, 1, r, &p, buf, &kept) ==
               SC_ERR_USAGE &&
           strstr(sc_ctx_message(c), "records") &&
           sc_dev_split_records(c, buf, 1, r, &p, buf, odd, &kept) ==
               SC_ERR_USAGE &&
           sc_dev_compact_records_indices(c, buf, 1, r, &p, 0,
                                          (uint64_t *)odd, &kept) ==
               SC_ERR_USAGE,
           "sc_dev_*_records of %u-byte records refuse arrays off their grid "
           "(%s)", r->size, sc_ctx_message(c));
    }
    static const sc_record host_only[] = {
        { 4, 0, SC_U32 }, { 12, 4, SC_I32 }, { 24, 0, SC_U64 },
        { 64, 8, SC_F64 }, { 4096, 0, SC_U32 },
    };
    for (size_t l = 0; l < sizeof host_only / sizeof host_only[0]; l++) {
        const sc_record *r = &host_only[l];
        sc_pred_default_type(&p, r->key_type);
        ok(sc_dev_compact_records(c, buf, 0, r, &p, buf, &kept) ==
               SC_ERR_USAGE &&
           strstr(sc_ctx_message(c), "8- and 16-byte") &&
           sc_dev_split_records_async(c, buf, 0, r, &p, buf, buf, words, &q) ==
               SC_ERR_USAGE &&
           sc_dev_compact_records_indices_async(c, buf, 0, r, &p, 0, words,
                                                words, &q) == SC_ERR_USAGE,
           "sc_dev_*_records refuse %u-byte records, saying which run on "
           "the device (%s)", r->size, sc_ctx_message(c));
    }
    sc_record u64 = { 16, 8, SC_U64 }, bad = { 16, 4, SC_U64 };
    sc_pred_default_type(&p, SC_U32);
    ok(sc_dev_compact_records(c, buf, 1, &u64, &p, buf + 2, &kept) ==
           SC_ERR_USAGE && strstr(sc_ctx_message(c), "type") &&
       sc_dev_split_records(c, buf, 1, &bad, &p, buf + 2, buf + 4, &kept) ==
           SC_ERR_USAGE &&
       sc_dev_compact_records(c, buf, 1, NULL, &p, buf + 2, &kept) ==
           SC_ERR_USAGE &&
       sc_dev_compact_records(c, buf, 1, &u64, NULL, buf + 2, &kept) ==
           SC_ERR_USAGE &&
       sc_dev_split_records(c, buf, 1, &u64, &p, buf + 2, NULL, &kept) ==
           SC_ERR_USAGE &&
       sc_dev_split_records(NULL, buf, 1, &u64, &p, buf + 2, buf, &kept) ==
           SC_ERR_USAGE,
       "sc_dev_*_records: a predicate of another type than the key's, a key "
       "off its grid, no layout, no predicate, no rejects, no context: "
       "refused");

    /* The typed size query: 8-byte sorts and i32/f32 scans need more. */
    size_t s32 = sc_dev_temp_bytes(SC_DEV_SORT, 100000);
    ok(s32 == sc_dev_temp_bytes_type(SC_DEV_SORT, 100000, SC_U32) &&
       sc_dev_temp_bytes_type(SC_DEV_SORT, 1, (sc_type)9) == 0 &&
       (s32 == 0 ||
        (sc_dev_temp_bytes_type(SC_DEV_SORT, 100000, SC_F64) > s32 &&
         sc_dev_temp_bytes_type(SC_DEV_SCAN, 100000, SC_I32) >
             sc_dev_temp_bytes(SC_DEV_SCAN, 100000) &&
         sc_dev_temp_bytes_type(SC_DEV_COMPACT, 100000, SC_U64) ==
             sc_dev_temp_bytes(SC_DEV_COMPACT, 100000))),
       "sc_dev_temp_bytes_type: uint32's is sc_dev_temp_bytes's, no type's 0, "
       "more for f64 sorts and i32 scans where there is CUDA (%zu)", s32);
}

/* The record sort and argsort on device arrays, on the CPU context:
 * every layout sc_sort_records takes is SC_ERR_NODEVICE, in place, to an
 * output and argsort, async and blocking; the arguments that will not do
 * are SC_ERR_USAGE first. */
static void test_dev_record_sorts(void)
{
    sc_ctx *c = cpu_ctx;
    _Alignas(64) uint64_t buf[16] = { 0 };
    uint64_t idx[4] = { 0 };
    sc_dev_queue q = { NULL, NULL, 0 };
    static const sc_record layouts[] = {
        { 4, 0, SC_U32 }, { 8, 0, SC_U32 }, { 8, 4, SC_F32 },
        { 12, 4, SC_I32 }, { 16, 8, SC_U64 }, { 64, 8, SC_F64 },
        { 4096, 0, SC_U32 },
    };
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        const sc_record *r = &layouts[l];
        uint64_t n = r->size <= 16 ? 2 : 0;
        ok(sc_dev_sort_records(c, buf, n, r, 0, NULL) == SC_ERR_NODEVICE &&
           sc_dev_sort_records_async(c, buf, n, r, 1, NULL, &q) ==
               SC_ERR_NODEVICE &&
           sc_dev_sort_records(c, buf, n, r, 1, buf + 8) == SC_ERR_NODEVICE &&
           sc_dev_sort_records_async(c, buf, n, r, 0, buf, NULL) ==
               SC_ERR_NODEVICE &&
           sc_dev_argsort_records(c, buf, n, r, 0, idx) == SC_ERR_NODEVICE &&
           sc_dev_argsort_records_async(c, buf, n, r, 1, idx, &q) ==
               SC_ERR_NODEVICE &&
           sc_dev_sort_records(c, NULL, 0, r, 0, NULL) == SC_ERR_NODEVICE &&
           sc_dev_argsort_records(c, NULL, 0, r, 0, NULL) == SC_ERR_NODEVICE,
           "sc_dev_sort_records and sc_dev_argsort_records of %u-byte "
           "records, %s key at %u, in place, to an output, async and "
           "blocking: SC_ERR_NODEVICE on the CPU", r->size,
           sc_type_name(r->key_type), r->key_off);
    }
    sc_record r16 = { 16, 8, SC_U64 }, r8 = { 8, 0, SC_U32 };
    sc_record off = { 16, 4, SC_U64 }, six = { 6, 0, SC_U32 };
    sc_record huge = { SC_RECORD_MAX + 4, 0, SC_U32 };
    char *odd = (char *)buf + 4;
    uint64_t past = ((uint64_t)1 << 32) + 1;
    ok(sc_dev_sort_records(c, buf, 2, NULL, 0, NULL) == SC_ERR_USAGE &&
       sc_dev_argsort_records_async(c, buf, 2, &off, 0, idx, &q) ==
           SC_ERR_USAGE &&
       sc_dev_sort_records(c, buf, 2, &six, 0, NULL) == SC_ERR_USAGE &&
       sc_dev_sort_records_async(c, buf, 2, &huge, 0, NULL, &q) ==
           SC_ERR_USAGE &&
       sc_dev_sort_records(c, NULL, 2, &r16, 0, NULL) == SC_ERR_USAGE &&
       sc_dev_argsort_records(c, buf, 2, &r16, 0, NULL) == SC_ERR_USAGE &&
       sc_dev_argsort_records(c, NULL, 2, &r16, 0, idx) == SC_ERR_USAGE &&
       sc_dev_sort_records(NULL, buf, 2, &r16, 0, NULL) == SC_ERR_USAGE,
       "sc_dev_sort_records and sc_dev_argsort_records: no layout, a key "
       "off its grid, a size not a multiple of 4 or past SC_RECORD_MAX, no "
       "records, no positions, no context: refused");
    ok(sc_dev_sort_records(c, buf, past, &r16, 0, NULL) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "2^32") &&
       sc_dev_argsort_records_async(c, buf, past, &r8, 0, idx, &q) ==
           SC_ERR_USAGE,
       "sc_dev_sort_records and sc_dev_argsort_records: past 2^32 records "
       "refused (%s)", sc_ctx_message(c));
    ok(sc_dev_sort_records(c, buf, 2, &r16, 0, buf + 2) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "overlaps") &&
       sc_dev_sort_records_async(c, buf + 2, 2, &r16, 0, buf + 1, &q) ==
           SC_ERR_USAGE &&
       sc_dev_argsort_records(c, buf, 2, &r16, 0, buf + 3) == SC_ERR_USAGE,
       "sc_dev_sort_records and sc_dev_argsort_records: an output that "
       "overlaps the records is refused (%s)", sc_ctx_message(c));
    ok(sc_dev_sort_records(c, odd, 1, &r8, 0, NULL) == SC_ERR_USAGE &&
       strstr(sc_ctx_message(c), "aligned") &&
       sc_dev_sort_records(c, buf, 1, &r16, 0, odd + 56) == SC_ERR_USAGE &&
       sc_dev_argsort_records(c, buf, 1, &r8, 0, (uint64_t *)odd + 4) ==
           SC_ERR_USAGE,
       "sc_dev_sort_records and sc_dev_argsort_records refuse arrays off "
       "their grid (%s)", sc_ctx_message(c));

    /* The scratch: a sort in place needs a copy of the records where
     * the kernels gather them, but for 8-byte ones with a 4-byte key. */
    const uint64_t n = 100000;
    sc_record r64 = { 64, 8, SC_F64 }, w64 = { 8, 0, SC_U64 };
    size_t in_place = sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &r64);
    size_t arg = sc_dev_temp_bytes_records(SC_DEV_ARGSORT_RECORDS, n, &r64);
    ok(sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &off) == 0 &&
       sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, NULL) == 0 &&
       sc_dev_temp_bytes_records(SC_DEV_COMPACT, n, &r64) ==
           sc_dev_temp_bytes(SC_DEV_COMPACT, n) &&
       sc_dev_temp_bytes_type(SC_DEV_SORT_RECORDS, n, SC_U64) ==
           sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &w64) &&
       (in_place == 0 ||
        (in_place >= arg + n * 64 &&
         sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &r8) ==
             sc_dev_temp_bytes_records(SC_DEV_ARGSORT_RECORDS, n, &r8) &&
         sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &w64) >
             sc_dev_temp_bytes_records(SC_DEV_ARGSORT_RECORDS, n, &w64))),
       "sc_dev_temp_bytes_records: 0 for no layout, the compaction's for "
       "its op, the type's records keyed by the whole, room for a copy of "
       "the records in place where there is CUDA (%zu, %zu)", in_place, arg);
}

/* sc_stat on a CUDA context: the GPU's kernel, the CPU's figures. */
static void test_stat_devices(void)
{
    if (!gpu_ctx) {
        skip("no CUDA GPU", "sc_stat on cuda");
        return;
    }
    static const uint64_t ns[] = { 0, 1, 33, 65537, 3000017 };
    int all_same = 1;
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        uint64_t n = ns[k];
        uint32_t *v = xmalloc((n ? n : 1) * sizeof *v);
        fill_random(v, n, k % 2 ? 1000 : 0);
        for (uint64_t i = 0; i < n; i += 3) v[i] = k == 3 ? 0xffffffffu : 0;
        for (int mis = 0; mis < 2; mis++) {   /* v + 1: not 16-byte aligned */
            uint64_t m = mis && n ? n - 1 : n;
            sc_stats a, b;
            memset(&a, 0x11, sizeof a);
            memset(&b, 0x22, sizeof b);
            sc_status s1 = sc_stat(cpu_ctx, v + (n - m), m, &a);
            sc_status s2 = sc_stat(gpu_ctx, v + (n - m), m, &b);
            if (s1 || s2 || memcmp(&a, &b, sizeof a) != 0) {
                diag("sc_stat on cuda differs from cpu for n=%llu",
                     (unsigned long long)m);
                all_same = 0;
            }
        }
        free(v);
    }
    ok(all_same, "sc_stat on cuda == on cpu (sizes 0..3000017, misaligned)");
}

/* ---------------------------------------------------------- typed stat */

/* Element i of a 4- or 8-byte array, its bits. */
static uint64_t elem_of(const void *v, uint64_t i, unsigned size)
{
    if (size == 8) return ((const uint64_t *)v)[i];
    return ((const uint32_t *)v)[i];
}

/* The order of t, plainly: integers by value, floats by totalOrder (a
 * set sign bit reverses the order of the bits). */
static int typed_before(sc_type t, uint64_t x, uint64_t y)
{
    unsigned w = 8 * sc_type_size(t);
    uint64_t sign = (uint64_t)1 << (w - 1);
    if (t == SC_I32 || t == SC_I64) return (x ^ sign) < (y ^ sign);
    if (t != SC_F32 && t != SC_F64) return x < y;
    int sx = (x & sign) != 0, sy = (y & sign) != 0;
    if (sx != sy) return sx;
    return sx ? x > y : x < y;
}

static double typed_double(sc_type t, uint64_t x)
{
    if (t == SC_F64) return f64_of(x);
    uint32_t u = (uint32_t)x;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* The figures of v[0..n) of type t the slow way: sc_stats_typed's
 * fields but distinct. */
static void typed_reference(sc_type t, const void *v, uint64_t n,
                            sc_stats_typed *r)
{
    unsigned size = sc_type_size(t);
    int is_float = t == SC_F32 || t == SC_F64;
    int is_signed = t == SC_I32 || t == SC_I64;
    uint64_t sign = (uint64_t)1 << (8 * size - 1);
    memset(r, 0, sizeof *r);
    r->type = t;
    r->count = n;
    __int128 sum = 0;
    double carry = 0, block = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t x = elem_of(v, i, size);
        if (i == 0 || typed_before(t, x, r->min)) r->min = x;
        if (i == 0 || typed_before(t, r->max, x)) r->max = x;
        r->zeros += (is_float ? x & ~sign : x) == 0;
        if (is_signed) sum += size == 8 ? (__int128)(int64_t)x : (__int128)(int32_t)x;
        else sum += x;
        /* in order inside aligned blocks of 1024, then the blocks' */
        block += typed_double(t, x);
        if (i % 1024 == 1023) { carry += block; block = 0; }
    }
    if (is_float) {
        r->fsum = n ? carry + block : 0;
        return;
    }
    r->sum = (uint64_t)sum;
    r->sum_hi = (uint64_t)((unsigned __int128)sum >> 64);
}

/* sc_stat_type against typed_reference on every type, at sizes that
 * cross its 4 MiB pieces, from specials and random bits. */
static void test_stat_typed_on(sc_ctx *ctx, const char *label)
{
    static const sc_type types[] = { SC_U32, SC_I32, SC_F32, SC_U64, SC_I64, SC_F64 };
    static const uint64_t ns[] = { 0, 1, 1023, 1025, 65537, 1100003 };
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        sc_type t = types[k];
        unsigned size = sc_type_size(t);
        int all = 1;
        for (size_t m = 0; m < sizeof ns / sizeof ns[0] && all; m++) {
            uint64_t n = ns[m];
            void *v = xmalloc((n ? n : 1) * size), *copy = xmalloc((n ? n : 1) * size);
            for (uint64_t i = 0; i < n; i++) {
                uint64_t x = rnd64();
                if (t == SC_F32 || t == SC_F64) {   /* finite, of many sizes */
                    double d = ldexp((double)(rnd() % 100000) - 50000, -(int)(rnd() % 20));
                    x = t == SC_F64 ? f64_bits(d) : 0;
                    if (t == SC_F32) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); x = u; }
                }
                if (rnd() % 7 == 0) x = rnd() % 2 ? 0 : (uint64_t)1 << (8 * size - 1);
                if (size == 8) ((uint64_t *)v)[i] = x;
                else ((uint32_t *)v)[i] = (uint32_t)x;
            }
            if (n) memcpy(copy, v, n * size);
            sc_stats_typed got, want;
            memset(&got, 0x5a, sizeof got);
            sc_status st = sc_stat_type(ctx, v, n, t, &got);
            typed_reference(t, v, n, &want);
            uint64_t d = want.count ? got.distinct : 0;
            if (st != SC_OK || got.type != t || got.count != want.count ||
                got.zeros != want.zeros || got.min != want.min || got.max != want.max ||
                got.sum != want.sum || got.sum_hi != want.sum_hi ||
                memcmp(&got.fsum, &want.fsum, sizeof got.fsum) != 0 ||
                (n == 0 && got.distinct != 0) || (n && (d == 0 || d > n)) ||
                (n && memcmp(copy, v, n * size) != 0)) {
                diag("%s: sc_stat_type %s n=%llu: status %d, count %llu, min %llx/%llx, "
                     "max %llx/%llx, sum %llx:%llx/%llx:%llx, fsum %.17g/%.17g",
                     label, sc_type_name(t), (unsigned long long)n, (int)st,
                     (unsigned long long)got.count,
                     (unsigned long long)got.min, (unsigned long long)want.min,
                     (unsigned long long)got.max, (unsigned long long)want.max,
                     (unsigned long long)got.sum_hi, (unsigned long long)got.sum,
                     (unsigned long long)want.sum_hi, (unsigned long long)want.sum,
                     got.fsum, want.fsum);
                all = 0;
            }
            free(v);
            free(copy);
        }
        ok(all, "%s: sc_stat_type of %s: count, zeros, min, max, the exact or fixed-order "
           "sum as a plain loop has them, the array untouched", label, sc_type_name(t));
    }
    sc_stats_typed r;
    uint64_t one = 5;
    ok(sc_stat_type(ctx, &one, 1, (sc_type)77, &r) == SC_ERR_USAGE &&
       sc_stat_type(ctx, NULL, 1, SC_U64, &r) == SC_ERR_USAGE &&
       sc_stat_type(ctx, &one, 1, SC_U64, NULL) == SC_ERR_USAGE &&
       sc_stat_type(NULL, &one, 1, SC_U64, &r) == SC_ERR_USAGE,
       "%s: sc_stat_type: bad arguments", label);
}

/* sc_stat on host arrays: the figures, 1 thread or many alike. */
static void test_stat(void)
{
    enum { N = 300000 };
    uint32_t *v = malloc(N * sizeof *v);
    sc_stats a, b;
    if (!v) { ok(0, "sc_stat: memory"); return; }
    for (uint32_t i = 0; i < N; i++) v[i] = i % 1000 == 0 ? 0 : 0xfffffff0u + i % 16;
    sc_status st = sc_stat(cpu_ctx, v, N, &a);
    ok(st == SC_OK && a.count == N && a.zeros == N / 1000 && a.min == 0 &&
       a.max == 0xffffffffu, "sc_stat: count, zeros, min, max");
    uint64_t want = 0;
    for (uint32_t i = 0; i < N; i++) want += v[i];
    ok(a.sum == want && a.sum_hi == 0, "sc_stat: the sum is exact past 2^32");
    ok(a.distinct == 17, "sc_stat: 17 distinct values counted (%llu)",
       (unsigned long long)a.distinct);
    st = sc_stat(cpu1_ctx, v, N, &b);
    ok(st == SC_OK && memcmp(&a, &b, sizeof a) == 0,
       "sc_stat: one thread gives the same figures");
    st = sc_stat(cpu_ctx, NULL, 0, &b);
    ok(st == SC_OK && b.count == 0 && b.distinct == 0, "sc_stat: empty array");
    ok(sc_stat(cpu_ctx, NULL, 5, &b) == SC_ERR_USAGE &&
       sc_stat(cpu_ctx, v, 5, NULL) == SC_ERR_USAGE &&
       sc_stat(NULL, v, 5, &b) == SC_ERR_USAGE, "sc_stat: bad arguments");
    free(v);
    test_stat_devices();
    test_stat_typed_on(cpu_ctx, "cpu");
    test_stat_typed_on(cpu1_ctx, "cpu, one thread");
    if (gpu_ctx) test_stat_typed_on(gpu_ctx, "cuda");
    else skip("no CUDA GPU", "sc_stat_type on cuda");
}

/* ------------------------------------------------------------ -v per run */

/* Runs job on ctx with its -v report on stderr sent to log; the seconds
 * of the report's move phase, or -1 when there is none. */
static double run_move_seconds(sc_ctx *ctx, sc_job *job, const char *log)
{
    fflush(stderr);
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (saved < 0 || fd < 0 || dup2(fd, 2) < 0) return -1;
    sc_status st = sc_run(ctx, job);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    char text[4096];
    FILE *f = fopen(log, "r");
    size_t len = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[len] = '\0';
    const char *move = strstr(text, " move ");
    double s;
    if (st != SC_OK || !move || sscanf(move, " move %lf s,", &s) != 1)
        return -1;
    return s;
}

/* -v's phase times are the run's own: a small job after a large one on
 * the same context reports its own move time, not the two added up. */
static void test_verbose_per_run(void)
{
    char dir[] = "/tmp/sc-test-verbose.XXXXXX", log[600], out[600];
    if (!mkdtemp(dir)) {
        skip("mkdtemp failed", "-v per run");
        return;
    }
    snprintf(log, sizeof log, "%s/err.txt", dir);
    snprintf(out, sizeof out, "%s/out.bin", dir);
    sc_job job;
    sc_job_init(&job, SC_JOB_GEN);
    job.output = out;
    job.verbose = 1;
    job.prog = "test_api";
    job.gen_count = (uint64_t)16 << 20;
    double big = run_move_seconds(cpu_ctx, &job, log);
    job.gen_count = 1;
    double small = run_move_seconds(cpu_ctx, &job, log);
    ok(big > 0 && small >= 0 && small < big,
       "-v: a job's move time is its own (%.3f s after %.3f s)", small, big);
    unlink(log);
    unlink(out);
    rmdir(dir);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_version();
    test_strerror();
    test_ctx();
    if (!cpu_ctx || !cpu1_ctx || !def_ctx) {
        printf("Bail out! cannot make a context\n");
        printf("1..%d\n", n_tests);
        return 1;
    }
    test_ctx_background();
    test_pred();
    test_gen();
    test_ops();
    test_pred64();
    test_ops64();
    test_streams();
    test_stat();
    test_records();
    test_record_arrays();
    test_bad_arguments();
    test_dev_calls();
    test_dev_record_sorts();
    test_verbose_per_run();
    sc_ctx_free(cpu_ctx);
    sc_ctx_free(cpu1_ctx);
    sc_ctx_free(def_ctx);
    if (gpu_ctx)
        sc_ctx_free(gpu_ctx);
    if (all_ctx)
        sc_ctx_free(all_ctx);
    printf("1..%d\n", n_tests);
    return n_failed ? 1 : 0;
}
