/* test_compact_kernels.cu — scg_compact, scg_split and scg_gen against
 * plain CPU loops.  TAP on stdout.
 *
 * Every output buffer is poisoned with 0xAB bytes before each run and
 * checked in full after it: the expected prefix and untouched poison
 * beyond it (a write past the count is a failure too).  Inputs and outputs
 * are placed at 0..3 elements past a 16-byte boundary, because the kernels
 * treat the misaligned head and tail separately.
 *
 * The reference predicate is written from the option's meaning (x == v,
 * x < v, ...), not with sc_pred_eval, so that a wrong predicate encoding
 * is caught as well.  SC_BIG=1 adds a run of more than 2^32 elements when
 * the device has the memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <cuda_runtime.h>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "gpu_tap.cuh"

/* For compute-sanitizer: SC_QUICK=1 a few sizes up to 65537 and four
 * predicates, every variant; SC_QUICK=2 fewer sizes, variants 0 and 1;
 * SC_QUICK=3 those fewer sizes, every variant.  SC_VARIANT=N tests variant
 * N alone (a sanitizer's report then names one kernel). */
static int g_quick = 0;
static int g_only = -1;

/* ------------------------------------------------------------------ */
/* Predicates: the struct as the library builds it, and the meaning.   */

enum kind { K_DEFAULT, K_EQ, K_NE, K_LT, K_LE, K_GT, K_GE, K_RANGE, K_MASK,
            K_INVERT, K_COMBO, K_LT0, K_GTMAX, K_COUNT };
static const char *kind_name[K_COUNT] = {
    "default", "eq", "ne", "lt", "le", "gt", "ge", "range", "mask",
    "invert", "combo", "lt0", "gtmax"};

static const uint32_t V = 7, RLO = 3, RHI = 20, M = 0x4, XNE = 5;

static sc_pred make_pred(int k)
{
    sc_pred p;
    memset(&p, 0, sizeof p);
    p.lo = 0;
    p.hi = 0xffffffffu;
    switch (k) {
    case K_DEFAULT: p.lo = 1; break;
    case K_EQ: p.lo = p.hi = V; break;
    case K_NE: p.ne[p.n_ne++] = V; break;
    case K_LT: p.hi = V - 1; break;
    case K_LE: p.hi = V; break;
    case K_GT: p.lo = V + 1; break;
    case K_GE: p.lo = V; break;
    case K_RANGE: p.lo = RLO; p.hi = RHI; break;
    case K_MASK: p.mask[p.n_mask++] = M; break;
    case K_INVERT: p.lo = 1; p.invert = 1; break;
    case K_COMBO:  /* range, two ne, a mask, inverted */
        p.lo = RLO; p.hi = RHI;
        p.ne[p.n_ne++] = XNE; p.ne[p.n_ne++] = V;
        p.mask[p.n_mask++] = M;
        p.invert = 1;
        break;
    case K_LT0: p.empty = 1; break;                 /* x < 0 */
    case K_GTMAX: p.empty = 1; p.invert = 1; break; /* not (x > max) */
    }
    return p;
}

static bool meaning(int k, uint32_t x)
{
    switch (k) {
    case K_DEFAULT: return x != 0;
    case K_EQ: return x == V;
    case K_NE: return x != V;
    case K_LT: return x < V;
    case K_LE: return x <= V;
    case K_GT: return x > V;
    case K_GE: return x >= V;
    case K_RANGE: return x >= RLO && x <= RHI;
    case K_MASK: return (x & M) != 0;
    case K_INVERT: return x == 0;
    case K_COMBO:
        return !(x >= RLO && x <= RHI && x != XNE && x != V && (x & M));
    case K_LT0: return false;
    case K_GTMAX: return true;
    }
    return false;
}

/* ------------------------------------------------------------------ */
/* Data: never only zeros; small values so that eq/range/mask match.   */

static uint64_t mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z ^= z >> 30; z *= 0xbf58476d1ce4e5b9ULL;
    z ^= z >> 27; z *= 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void make_data(std::vector<uint32_t> &h, uint64_t n, double density,
                      uint64_t seed)
{
    h.resize(n);
    uint64_t keep = (uint64_t)(density * 18446744073709551615.0);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t a = mix(seed * 0x1000003 + i), b = mix(a);
        bool nz = density >= 1.0 || a < keep;
        uint32_t v = (b & 1) ? (uint32_t)(b >> 1) % 31 + 1 : (uint32_t)(b >> 32);
        h[i] = nz ? (v ? v : 1) : 0;
    }
}

/* ------------------------------------------------------------------ */
/* Device buffers with guard and poison.                                */

static const uint64_t GUARD = 67;   /* elements checked past the end */

struct dbuf {
    char *base;
    size_t bytes;
};

static dbuf dalloc(size_t bytes)
{
    dbuf b;
    b.bytes = bytes + 64;
    SCG_CHECK_DIE(cudaMalloc(&b.base, b.bytes));
    return b;
}

static void poison(const dbuf &b)
{
    SCG_CHECK_DIE(cudaMemset(b.base, 0xAB, b.bytes));
}

/* Checks got[0..k) against want and that got[k..total) is still poison. */
template <class T>
static bool check_out(const char *p, uint64_t total, const std::vector<T> &want,
                      char *why, size_t why_n)
{
    std::vector<T> got(total);
    SCG_CHECK_DIE(cudaMemcpy(got.data(), p, total * sizeof(T), cudaMemcpyDeviceToHost));
    T pois;
    memset(&pois, 0xAB, sizeof pois);
    for (uint64_t i = 0; i < total; i++) {
        T w = i < want.size() ? want[i] : pois;
        if (got[i] != w) {
            snprintf(why, why_n, " [at %llu: got %llu want %llu%s]",
                     (unsigned long long)i, (unsigned long long)got[i],
                     (unsigned long long)w, i < want.size() ? "" : ", poison");
            return false;
        }
    }
    return true;
}

static bool check_count(const uint64_t *d, uint64_t want, char *why, size_t n)
{
    uint64_t got;
    SCG_CHECK_DIE(cudaMemcpy(&got, d, 8, cudaMemcpyDeviceToHost));
    if (got != want) {
        snprintf(why, n, " [count %llu want %llu]", (unsigned long long)got,
                 (unsigned long long)want);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ */
/* One input: every predicate, every output kind, both algos, split.   */

static void run_case(const std::vector<uint32_t> &h, double density,
                     unsigned mis, int kind_mask)
{
    uint64_t n = h.size();
    dbuf din = dalloc((n + 4) * 4);
    uint32_t *d_in = (uint32_t *)din.base + mis;
    if (n)
        SCG_CHECK_DIE(cudaMemcpy(d_in, h.data(), n * 4, cudaMemcpyHostToDevice));
    uint64_t out_elems = n + GUARD;
    dbuf dout = dalloc((out_elems + 4) * 8), drej = dalloc((out_elems + 4) * 4);
    dbuf dcnt = dalloc(8);
    size_t sb = scg_compact_scratch(n);
    if (scg_split_scratch(n) > sb)
        sb = scg_split_scratch(n);
    dbuf dscr = dalloc(sb);
    /* outputs: 4-byte ones shifted by mis, 8-byte ones by 8 bytes when mis is odd */
    char *o4 = dout.base + 4 * ((mis + 1) & 3);
    char *o8 = dout.base + 8 * (mis & 1);
    char *r4 = drej.base + 4 * ((mis + 2) & 3);
    uint64_t *d_cnt = (uint64_t *)dcnt.base;
    const uint64_t f32 = 12345, f64 = (1ull << 32) + 77;

    for (int k = 0; k < K_COUNT; k++) {
        if (!((kind_mask >> k) & 1))
            continue;
        sc_pred pred = make_pred(k);
        std::vector<uint32_t> sel, rej, i32;
        std::vector<uint64_t> i64;
        bool eval_ok = true;
        for (uint64_t i = 0; i < n; i++) {
            bool m = meaning(k, h[i]);
            eval_ok &= (sc_pred_eval(&pred, h[i]) != 0) == m;
            if (m) {
                sel.push_back(h[i]);
                i32.push_back((uint32_t)(f32 + i));
                i64.push_back(f64 + i);
            } else {
                rej.push_back(h[i]);
            }
        }
        char why[160];
        const char *kn = kind_name[k];
        if (!eval_ok)
            tap(false, "n=%llu p=%.1f %s: host sc_pred_eval disagrees with meaning",
                (unsigned long long)n, density, kn);
        /* every variant (SCG_TUNE builds have the measured alternatives) */
        int n_algo = 0;
        while (scg_select_variant(n_algo) && (g_quick != 2 || n_algo < 2))
            n_algo++;
        for (int algo = 0; algo < n_algo; algo++) {
            if (g_only >= 0 && algo != g_only)
                continue;
            char an[16];
            snprintf(an, sizeof an, "v%d", algo);
            for (int ok_ = 0; ok_ < 3; ok_++) {
                poison(dout);
                poison(dcnt);
                char *o = ok_ == SC_EMIT_IDX64 ? o8 : o4;
                int rc = scg_compact(d_in, n, &pred, ok_, ok_ == SC_EMIT_IDX32 ? f32 : f64,
                                     o, d_cnt, dscr.base, algo, 0);
                cudaError_t e = cudaDeviceSynchronize();
                why[0] = 0;
                bool good = rc == 0 && e == cudaSuccess;
                if (!good)
                    snprintf(why, sizeof why, " [rc %d, %s]", rc, cudaGetErrorString(e));
                if (good)
                    good = check_count(d_cnt, sel.size(), why, sizeof why);
                if (good) {
                    if (ok_ == SC_EMIT_VALUES)
                        good = check_out(o, out_elems, sel, why, sizeof why);
                    else if (ok_ == SC_EMIT_IDX32)
                        good = check_out(o, out_elems, i32, why, sizeof why);
                    else
                        good = check_out(o, out_elems, i64, why, sizeof why);
                }
                static const char *okn[3] = {"values", "idx32", "idx64"};
                tap(good, "compact %s %s n=%llu p=%.1f pred=%s mis=%u%s", an,
                    okn[ok_], (unsigned long long)n, density, kn, mis, why);
            }
        }
        for (int algo = 0; algo < n_algo; algo++) {
            if (g_only >= 0 && algo != g_only)
                continue;
            poison(dout);
            poison(drej);
            poison(dcnt);
            int rc = algo == 0 ? scg_split(d_in, n, &pred, (uint32_t *)o4, (uint32_t *)r4,
                                           d_cnt, dscr.base, 0)
                               : scg_split_algo(d_in, n, &pred, (uint32_t *)o4,
                                                (uint32_t *)r4, d_cnt, dscr.base, algo, 0);
            cudaError_t e = cudaDeviceSynchronize();
            why[0] = 0;
            bool good = rc == 0 && e == cudaSuccess;
            if (!good)
                snprintf(why, sizeof why, " [rc %d, %s]", rc, cudaGetErrorString(e));
            if (good)
                good = check_count(d_cnt, sel.size(), why, sizeof why);
            if (good)
                good = check_out(o4, out_elems, sel, why, sizeof why);
            if (good)
                good = check_out(r4, out_elems, rej, why, sizeof why);
            tap(good, "split v%d n=%llu p=%.1f pred=%s mis=%u%s", algo,
                (unsigned long long)n, density, kn, mis, why);
        }
    }
    cudaFree(din.base);
    cudaFree(dout.base);
    cudaFree(drej.base);
    cudaFree(dcnt.base);
    cudaFree(dscr.base);
}

/* ------------------------------------------------------------------ */
/* Generator.                                                           */

static void test_gen(void)
{
    sc_gen_plan plans[6];
    memset(plans, 0, sizeof plans);
    plans[0].dist = SC_DIST_UNIFORM; plans[0].lo = 0; plans[0].span = 1ull << 32;
    plans[0].key = 0x1234567890abcdefULL; plans[0].keep_below = 1ull << 63;
    plans[1].dist = SC_DIST_UNIFORM; plans[1].lo = 100; plans[1].span = 1000;
    plans[1].key = 42; plans[1].keep_all = 1;
    plans[2].dist = SC_DIST_STRUCTURED; plans[2].keep_all = 1; plans[2].key = 7;
    plans[3].dist = SC_DIST_IOTA; plans[3].key = 9; plans[3].keep_below = 0xe000000000000000ULL;
    plans[4].dist = SC_DIST_CONSTANT; plans[4].value = 0xdeadbeef; plans[4].key = 3;
    plans[4].keep_below = 1ull << 60;
    plans[5].dist = SC_DIST_UNIFORM; plans[5].lo = 1; plans[5].span = 0xffffffffULL;
    plans[5].key = 5; plans[5].keep_below = 0;   /* density 0 */
    const uint64_t sizes[] = {1, 31, 1000, (1u << 20) + 3};
    const uint64_t firsts[] = {0, (1ull << 32) - 10, 1ull << 40};
    for (int p = 0; p < 6; p++)
        for (int s = 0; s < 4; s++)
            for (int f = 0; f < 3; f++) {
                uint64_t n = sizes[s], first = firsts[f];
                unsigned mis = (unsigned)(p + s + f) & 3;
                uint64_t total = n + GUARD;
                dbuf d = dalloc((total + 4) * 4);
                poison(d);
                char *o = d.base + 4 * mis;
                int rc = scg_gen(&plans[p], first, (uint32_t *)o, n, 0);
                cudaError_t e = cudaDeviceSynchronize();
                std::vector<uint32_t> want(n);
                for (uint64_t i = 0; i < n; i++)
                    want[i] = sc_gen_plan_element(&plans[p], first + i);
                char why[160] = "";
                bool good = rc == 0 && e == cudaSuccess;
                if (!good)
                    snprintf(why, sizeof why, " [rc %d, %s]", rc, cudaGetErrorString(e));
                if (good)
                    good = check_out(o, total, want, why, sizeof why);
                tap(good, "gen plan=%d n=%llu first=%llu mis=%u%s", p,
                    (unsigned long long)n, (unsigned long long)first, mis, why);
                cudaFree(d.base);
            }
}

/* ------------------------------------------------------------------ */
/* More than 2^32 elements: generated on the device, checked on the host. */

static void test_big(void)
{
    const uint64_t n = (1ull << 32) + 4099;
    size_t free_b = 0, total_b = 0;
    SCG_CHECK_DIE(cudaMemGetInfo(&free_b, &total_b));
    size_t need = n * 4 + n * 8 + scg_compact_scratch(n) + (1ull << 28);
    if (free_b < need) {
        printf("ok %d - big n=%llu # SKIP needs %zu bytes, %zu free\n", ++n_tests,
               (unsigned long long)n, need, free_b);
        return;
    }
    sc_gen_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.dist = SC_DIST_UNIFORM; plan.lo = 1; plan.span = 0xffffffffULL;
    plan.key = 99; plan.keep_below = 1ull << 63;
    uint32_t *d_in;
    char *d_out, *d_scr;
    uint64_t *d_cnt;
    SCG_CHECK_DIE(cudaMalloc(&d_in, n * 4 + 4));
    SCG_CHECK_DIE(cudaMalloc(&d_out, n * 8));
    SCG_CHECK_DIE(cudaMalloc(&d_scr, scg_compact_scratch(n)));
    SCG_CHECK_DIE(cudaMalloc(&d_cnt, 8));
    uint32_t *in = d_in + 1;   /* misaligned too */
    int rc = scg_gen(&plan, 0, in, n, 0);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    std::vector<uint32_t> h(n);
    SCG_CHECK_DIE(cudaMemcpy(h.data(), in, n * 4, cudaMemcpyDeviceToHost));
    bool gen_ok = rc == 0;
    for (uint64_t i = 0; i < n && gen_ok; i += 997)
        gen_ok = h[i] == sc_gen_plan_element(&plan, i);
    gen_ok = gen_ok && h[n - 1] == sc_gen_plan_element(&plan, n - 1);
    tap(gen_ok, "big gen n=%llu (sampled)", (unsigned long long)n);
    sc_pred pred = make_pred(K_DEFAULT);
    for (int algo = 0; algo < 2; algo++) {
        int kind = algo == SCG_ALGO_FUSED ? SC_EMIT_VALUES : SC_EMIT_IDX64;
        SCG_CHECK_DIE(cudaMemset(d_out, 0xAB, n * 8));
        rc = scg_compact(in, n, &pred, kind, 0, d_out, d_cnt, d_scr, algo, 0);
        cudaError_t e = cudaDeviceSynchronize();
        uint64_t k = 0;
        SCG_CHECK_DIE(cudaMemcpy(&k, d_cnt, 8, cudaMemcpyDeviceToHost));
        bool good = rc == 0 && e == cudaSuccess;
        uint64_t want_k = 0;
        for (uint64_t i = 0; i < n; i++)
            want_k += h[i] != 0;
        good = good && k == want_k;
        if (good) {
            size_t es = kind == SC_EMIT_VALUES ? 4 : 8;
            std::vector<char> got(k * es);
            SCG_CHECK_DIE(cudaMemcpy(got.data(), d_out, k * es, cudaMemcpyDeviceToHost));
            const uint32_t *g32 = (const uint32_t *)got.data();
            const uint64_t *g64 = (const uint64_t *)got.data();
            uint64_t j = 0;
            for (uint64_t i = 0; i < n && good; i++) {
                if (!h[i])
                    continue;
                good = kind == SC_EMIT_VALUES ? g32[j] == h[i] : g64[j] == i;
                j++;
            }
        }
        tap(good, "big compact %s n=%llu kept=%llu", algo ? "3phase idx64" : "fused values",
            (unsigned long long)n, (unsigned long long)k);
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_scr);
    cudaFree(d_cnt);
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
    /* tiles of the variants: 3584 .. 15872 elements */
    const uint64_t sizes[] = {0, 1, 2, 3, 4, 5, 31, 32, 33, 127, 128, 129,
                              2047, 2048, 2049, 4093, 4095, 4096, 4097, 6143,
                              6144, 6145, 7679, 7680, 7681, 7919, 7935, 7936,
                              7937, 8191, 8192, 8193, 15871, 15872, 15873, 65537,
                              1000003, 3000017, 4194304 + 11, 16777216 + 3};
    const double dens[] = {0.0, 0.1, 0.5, 1.0};
    const int all = (1 << K_COUNT) - 1;
    const char *q = getenv("SC_QUICK");
    g_quick = q ? atoi(q) : 0;
    const char *only = getenv("SC_VARIANT");
    g_only = only ? atoi(only) : -1;
    const uint64_t quick1[] = {0, 1, 33, 2049, 4097, 6145, 65537};
    /* racecheck's: 8M + 11 gives each block of the fused pass three tiles
     * or more (an H200 runs 396 compaction blocks of 6144 elements, 264
     * split blocks of 8192), so a stage, or one end of compaction's stage,
     * reused before its flush would show */
    const uint64_t quick2[] = {1, 33, 4097, 8388608 + 11};
    const uint64_t *sz = g_quick == 1 ? quick1 : g_quick >= 2 ? quick2 : sizes;
    int ns = g_quick == 1 ? 7 : g_quick >= 2 ? 4 : (int)(sizeof sizes / sizeof sizes[0]);
    const int quick_mask = (1 << K_DEFAULT) | (1 << K_RANGE) | (1 << K_COMBO) |
                           (1 << K_INVERT);
    std::vector<uint32_t> h;
    for (int s = 0; s < ns; s++)
        for (int d = 0; d < 4; d++) {
            if (g_quick && d != 2)
                continue;
            make_data(h, sz[s], dens[d], (uint64_t)s * 10 + d + 1);
            /* the largest sizes: fewer predicates, they only repeat tiles */
            int mask = sz[s] > 2000000 || g_quick ? quick_mask : all;
            if (sz[s] > 10000000)
                mask = (1 << K_DEFAULT) | (1 << K_COMBO);
            if (g_quick >= 2 && sz[s] > 2000000)
                mask = 1 << K_DEFAULT;
            run_case(h, dens[d], (unsigned)(s + d) & 3, mask);
        }
    if (!g_quick)
        test_gen();
    const char *big = getenv("SC_BIG");
    if (big && atoi(big) == 1)
        test_big();
    return tap_done();
}
