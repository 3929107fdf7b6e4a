/* test_dev_api.cu — libsc's device-array API through <sc.h>, as a CUDA
 * program uses it.  TAP on stdout.
 *
 * Every stream-ordered call (sc_dev_*_async) and every blocking one
 * (sc_dev_*) is checked against the same operation of a "cpu" context on
 * host arrays, on the same random data, at sizes 0 to 2^24: compaction,
 * indices, split (both halves), scan (every op, inclusive and exclusive,
 * wide and not, carry-in from device memory or the identity, carry-out),
 * sort (full, partial and descending bit ranges, keys whose top bits are
 * all equal), gen and stat (sc_stat_type's figures of u32, i32, u64 and
 * i64, the ends of the 64-bit types among the data).  Outputs are poisoned with 0xAB bytes before each
 * call and checked in full after it, GUARD elements past n included: a
 * write past the count or past n fails too.
 *
 * The typed calls (sc_dev_scan_type*, sc_dev_sort_type*) are checked
 * the same way for every type against sc_scan_type and sc_sort_type
 * (every operator each type takes, wide for 32-bit types, carries in
 * device memory, from the identity and on the host, a scan in two calls
 * whose carry passes on the device; bit ranges, descending, keys whose
 * upper half is all equal), and the record calls (sc_dev_*_records*)
 * for 8- and 16-byte layouts against sc_compact_records,
 * sc_compact_records_indices and sc_split_records, and the record sort
 * and argsort (sc_dev_sort_records*, sc_dev_argsort_records*) of records
 * of 4 to 4096 bytes, keys of every type at several offsets, ascending
 * and descending, in place, to d_out and argsort, on g_q, on the default
 * stream with the context's scratch, and blocking, against
 * sc_sort_records and sc_argsort_records, at sizes 0 to 2^20 + 3 (as
 * many large records as fit); a scan's d_in, and the records of a sort
 * to d_out or an argsort, must come back unchanged.  Their refusals:
 * float sums, xor of floats, wide 64-bit scans, no such type, arrays
 * off their grid, bits past the width, a scratch too small for the
 * type, record layouts the GPU does not take, a predicate of another
 * type than the key's, a record sort's scratch too small, more than 2^32
 * records, outputs overlapping the records or off their grid.
 *
 * Then what the stream-ordered calls are for: a chain queued on one
 * stream between the caller's own kernels with one wait at the end; the
 * context's scratch (temp NULL) on one stream and on the default stream;
 * two host threads with a stream and temp each; a CUDA graph captured
 * from a chain and launched twice, and one of a scan from the identity,
 * and one of record sorts (in place, to d_out, argsort);
 * a temp too small, and other arguments the header rules out, refused
 * with nothing queued (sc_dev_stat's float types among them); a stat
 * captured in a graph; sc_dev_sync's SC_OK after good work.
 *
 * This program links libsc like any user (sc.h only), unlike the kernel
 * tests beside it, which compile the kernels in.  SC_QUICK=1 keeps to
 * small sizes (for compute-sanitizer).  Without a usable GPU it prints
 * "1..0 # SKIP no GPU" and exits 0.
 */
#include <math.h>
#include <algorithm>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include <cuda_runtime.h>
#include <sc.h>

/* ------------------------------------------------------------------ */
/* TAP, and dying on what is not under test.                           */

static int n_tests, n_failed;
static char g_why[512];     /* why the current check failed (the first reason) */

__attribute__((format(printf, 1, 2)))
static void why(const char *fmt, ...)
{
    if (g_why[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_why, sizeof g_why, fmt, ap);
    va_end(ap);
}

/* One result; a failure's reason follows as a diagnostic line. */
__attribute__((format(printf, 2, 3)))
static void tap(bool ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", ok ? "ok" : "not ok", ++n_tests);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!ok) {
        n_failed++;
        printf("# %s\n", g_why[0] ? g_why : "(no reason recorded)");
    }
    g_why[0] = 0;
    fflush(stdout);
}

/* A CUDA call of the test itself (not of libsc) failed: nothing after it
 * can be trusted.  The missing plan makes run-suite count a failure. */
#define CK(call)                                                            \
    do {                                                                    \
        cudaError_t ck_ = (call);                                           \
        if (ck_ != cudaSuccess) {                                           \
            printf("Bail out! %s:%d: %s: %s\n", __FILE__, __LINE__, #call,  \
                   cudaGetErrorString(ck_));                                \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,   \
                    cudaGetErrorString(ck_));                               \
            exit(2);                                                        \
        }                                                                   \
    } while (0)

static sc_ctx *g_gpu, *g_cpu;

/* The CPU's reference or a predicate's builder failed: the same. */
static void need(sc_status st, const char *what)
{
    if (st == SC_OK)
        return;
    printf("Bail out! %s: %s (%s)\n", what, sc_strerror(st),
           g_cpu ? sc_ctx_message(g_cpu) : "no context");
    exit(2);
}

/* ------------------------------------------------------------------ */
/* Data: pure functions of a seed and the index, so that threads agree. */

static uint64_t mix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Mostly uniform 32-bit values; one in 16 from a few values, near 0 and
 * near 2^31, so that ne terms, zeros and equal keys all occur. */
static void make_u32(std::vector<uint32_t> &h, uint64_t n, uint64_t seed)
{
    h.resize(n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = mix64(seed * 0x100000001b3ull + i);
        if ((r & 15) == 0)
            h[i] = (uint32_t)((r >> 8) & 7) | ((r & 16) ? 0x80000000u : 0u);
        else
            h[i] = (uint32_t)(r >> 32);
    }
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Floats even in [-1, 1), one in 16 a special value: both zeros, NaN,
 * the infinities and the bounds the f32 predicates use. */
static void make_f32(std::vector<uint32_t> &h, uint64_t n, uint64_t seed)
{
    static const float special[8] = { 0.0f, -0.0f, 0.25f, NAN, INFINITY,
                                       -INFINITY, -0.5f, 0.5f };
    h.resize(n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = mix64(seed * 0x100000001b3ull + i);
        float f = (r & 15) == 0 ? special[(r >> 8) & 7]
                                : (float)((double)(r >> 40) * 0x1p-23 - 1.0);
        h[i] = f32_bits(f);
    }
}

/* ------------------------------------------------------------------ */
/* Device buffers of the array tests, sized for the largest n plus GUARD
 * elements, and what checks them.                                     */

static const uint64_t GUARD = 64;
static const int POISON = 0xAB;
static const uint64_t FIRST = (1ull << 40) + 3;  /* first_index: past 32 bits */

static uint32_t *d_in, *d_keys, *d_rej;
static void *d_out;         /* room for n + GUARD 8-byte elements */
static uint64_t *d_words;   /* [0] count, [1] carry-in, [2] carry-out */

static cudaStream_t g_stream;   /* the caller's stream (non-blocking) */
static void *g_temp;            /* the caller's temp, for every op at the largest n */
static size_t g_temp_bytes;
static sc_dev_queue g_q;        /* g_stream with g_temp */
static int g_quick;

/* Waits for everything queued anywhere.  The test's own copies and
 * memsets go on the legacy default stream, which neither g_stream nor
 * the context's stream (both non-blocking) waits for; and a cudaMemcpy
 * from pageable memory may return before the copy is done. */
static void settle(void)
{
    CK(cudaDeviceSynchronize());
}

static void upload(void *d, const void *h, size_t bytes)
{
    if (bytes)
        CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    settle();
}

static void poison(void *d, size_t bytes)
{
    CK(cudaMemset(d, POISON, bytes));
    settle();
}

static uint64_t word(const uint64_t *d)
{
    uint64_t v;
    CK(cudaMemcpy(&v, d, 8, cudaMemcpyDeviceToHost));
    return v;
}

/* Whether d[0, k) is want[0, k) and d[k, total) is still poison. */
template <class T>
static bool same(const void *d, const T *want, uint64_t k, uint64_t total)
{
    std::vector<T> got(total);
    if (total)
        CK(cudaMemcpy(got.data(), d, total * sizeof(T), cudaMemcpyDeviceToHost));
    T pois;
    memset(&pois, POISON, sizeof pois);
    for (uint64_t i = 0; i < total; i++) {
        T w = i < k ? want[i] : pois;
        if (got[i] != w) {
            why("at %llu of %llu: got %#llx, want %#llx%s",
                (unsigned long long)i, (unsigned long long)k,
                (unsigned long long)got[i], (unsigned long long)w,
                i < k ? "" : " (poison: written past the end)");
            return false;
        }
    }
    return true;
}

static bool count_is(uint64_t got, uint64_t want, const char *what)
{
    if (got != want)
        why("%s %llu, want %llu", what, (unsigned long long)got,
            (unsigned long long)want);
    return got == want;
}

/* A blocking call's status. */
static bool called(sc_status st, const char *call)
{
    if (st != SC_OK)
        why("%s: %s (%s)", call, sc_strerror(st), sc_ctx_message(g_gpu));
    return st == SC_OK;
}

/* A stream-ordered call's status, then the wait for its work on stream:
 * sc_dev_sync must say SC_OK after good work. */
static bool finished(sc_status st, const char *call, cudaStream_t stream)
{
    bool ok = called(st, call);
    sc_status sy = sc_dev_sync(g_gpu, stream);
    if (sy != SC_OK)
        why("sc_dev_sync after %s: %s (%s)", call, sc_strerror(sy),
            sc_ctx_message(g_gpu));
    return ok && sy == SC_OK;
}

static const char *mode_name(int async)
{
    return async ? "async" : "blocking";
}

/* ------------------------------------------------------------------ */
/* Compaction, indices, split: every predicate, async and blocking.    */

typedef struct named_pred {
    const char *name;
    sc_pred p;
    int f32;            /* for make_f32's data */
} named_pred;

/* The CPU's results of one predicate on one input. */
struct selected {
    std::vector<uint32_t> vals, split;
    std::vector<uint64_t> pos;
    uint64_t kept;
};

static int make_preds(named_pred *out)
{
    int k = 0;
    sc_pred *p;

    /* ~10 %: a range that takes in half the repeated values, two of
     * which the ne terms then drop */
    out[k].name = "range ~10%, two ne";
    p = &out[k++].p;
    sc_pred_all(p);
    need(sc_pred_add_range(p, 0x80000000u, 0x80000000u + 0x19999999u), "range");
    need(sc_pred_add_cmp(p, SC_NE, 0x80000003u), "ne");
    need(sc_pred_add_cmp(p, SC_NE, 0x80000005u), "ne");

    out[k].name = "mask ~50%";
    p = &out[k++].p;
    sc_pred_all(p);
    need(sc_pred_add_mask(p, 0x00010000u), "mask");

    out[k].name = "ge ~90%, ne";
    p = &out[k++].p;
    sc_pred_all(p);
    need(sc_pred_add_cmp(p, SC_GE, 0x1999999au), "ge");
    need(sc_pred_add_cmp(p, SC_NE, 0x80000000u), "ne");

    out[k].name = "inverted range ~90%";
    out[k].p = out[0].p;
    out[k++].p.invert = 1;

    out[k].name = "default (x != 0)";
    sc_pred_default(&out[k++].p);

    out[k].name = "lt 0 (nothing)";
    p = &out[k++].p;
    sc_pred_all(p);
    need(sc_pred_add_cmp(p, SC_LT, 0), "lt");

    /* f32: ~50 %, with NaNs, infinities and both zeros in the data */
    out[k].name = "f32 -0.5 <= x < 0.5, x != 0.25";
    out[k].f32 = 1;
    p = &out[k++].p;
    need(sc_pred_all_type(p, SC_F32), "f32");
    need(sc_pred_add_cmp(p, SC_GE, f32_bits(-0.5f)), "f32 ge");
    need(sc_pred_add_cmp(p, SC_LT, f32_bits(0.5f)), "f32 lt");
    need(sc_pred_add_cmp(p, SC_NE, f32_bits(0.25f)), "f32 ne");

    out[k].name = "f32 x > -0.8 (~90%)";
    out[k].f32 = 1;
    p = &out[k++].p;
    need(sc_pred_all_type(p, SC_F32), "f32");
    need(sc_pred_add_cmp(p, SC_GT, f32_bits(-0.8f)), "f32 gt");

    out[k].name = "f32 x >= 0.8 (~10%)";
    out[k].f32 = 1;
    p = &out[k++].p;
    need(sc_pred_all_type(p, SC_F32), "f32");
    need(sc_pred_add_cmp(p, SC_GE, f32_bits(0.8f)), "f32 ge");
    return k;
}

static void reference_select(const std::vector<uint32_t> &h, const sc_pred *p,
                             selected *w)
{
    uint64_t n = h.size(), k1 = 0, k2 = 0;
    w->vals.assign(n, 0);
    w->split.assign(n, 0);
    w->pos.assign(n, 0);
    need(sc_compact(g_cpu, h.data(), n, p, w->vals.data(), &w->kept), "sc_compact");
    need(sc_compact_indices(g_cpu, h.data(), n, p, FIRST, w->pos.data(), &k1),
         "sc_compact_indices");
    need(sc_split(g_cpu, h.data(), n, p, w->split.data(), &k2), "sc_split");
    if (k1 != w->kept || k2 != w->kept) {
        printf("Bail out! the CPU's counts differ: %llu %llu %llu\n",
               (unsigned long long)w->kept, (unsigned long long)k1,
               (unsigned long long)k2);
        exit(2);
    }
}

static void poison_outputs(uint64_t n)
{
    poison(d_out, (n + GUARD) * 8);
    poison(d_rej, (n + GUARD) * 4);
    poison(d_words, 4 * 8);
}

static void test_compact(const named_pred *np, uint64_t n, const selected *w,
                         int async)
{
    uint64_t kept = ~0ull;
    bool ok;
    poison_outputs(n);
    if (async) {
        sc_status st = sc_dev_compact_async(g_gpu, d_in, n, &np->p,
                                            (uint32_t *)d_out, &d_words[0], &g_q);
        ok = finished(st, "sc_dev_compact_async", g_stream);
        kept = word(&d_words[0]);
    } else {
        ok = called(sc_dev_compact(g_gpu, d_in, n, &np->p, (uint32_t *)d_out,
                                   &kept), "sc_dev_compact");
    }
    ok = ok && count_is(kept, w->kept, "kept") &&
         same<uint32_t>(d_out, w->vals.data(), w->kept, n + GUARD);
    tap(ok, "compact %s n=%llu, %s: %llu kept", mode_name(async),
        (unsigned long long)n, np->name, (unsigned long long)w->kept);
}

static void test_indices(const named_pred *np, uint64_t n, const selected *w,
                         int async)
{
    uint64_t kept = ~0ull;
    bool ok;
    poison_outputs(n);
    if (async) {
        sc_status st = sc_dev_indices_async(g_gpu, d_in, n, &np->p, FIRST,
                                            (uint64_t *)d_out, &d_words[0], &g_q);
        ok = finished(st, "sc_dev_indices_async", g_stream);
        kept = word(&d_words[0]);
    } else {
        ok = called(sc_dev_indices(g_gpu, d_in, n, &np->p, FIRST,
                                   (uint64_t *)d_out, &kept), "sc_dev_indices");
    }
    ok = ok && count_is(kept, w->kept, "kept") &&
         same<uint64_t>(d_out, w->pos.data(), w->kept, n + GUARD);
    tap(ok, "indices %s n=%llu from 2^40+3, %s", mode_name(async),
        (unsigned long long)n, np->name);
}

static void test_split(const named_pred *np, uint64_t n, const selected *w,
                       int async)
{
    uint64_t sel = ~0ull;
    bool ok;
    poison_outputs(n);
    if (async) {
        sc_status st = sc_dev_split_async(g_gpu, d_in, n, &np->p,
                                          (uint32_t *)d_out, d_rej, &d_words[0],
                                          &g_q);
        ok = finished(st, "sc_dev_split_async", g_stream);
        sel = word(&d_words[0]);
    } else {
        ok = called(sc_dev_split(g_gpu, d_in, n, &np->p, (uint32_t *)d_out,
                                 d_rej, &sel), "sc_dev_split");
    }
    /* the CPU's split is the selected, then the rejected, in one array */
    ok = ok && count_is(sel, w->kept, "selected") &&
         same<uint32_t>(d_out, w->split.data(), w->kept, n + GUARD) &&
         same<uint32_t>(d_rej, w->split.data() + w->kept, n - w->kept, n + GUARD);
    tap(ok, "split %s n=%llu, %s: both halves", mode_name(async),
        (unsigned long long)n, np->name);
}

static void test_selects(uint64_t n, uint64_t seed)
{
    static named_pred preds[16];
    static int n_preds;
    if (!n_preds)
        n_preds = make_preds(preds);
    std::vector<uint32_t> h[2];
    make_u32(h[0], n, seed);
    make_f32(h[1], n, seed + 1);
    for (int f = 0; f < 2; f++) {
        upload(d_in, h[f].data(), n * 4);
        for (int k = 0; k < n_preds; k++) {
            if (preds[k].f32 != f)
                continue;
            selected w;
            reference_select(h[f], &preds[k].p, &w);
            for (int async = 1; async >= 0; async--) {
                test_compact(&preds[k], n, &w, async);
                test_indices(&preds[k], n, &w, async);
                test_split(&preds[k], n, &w, async);
            }
        }
    }
}

/* 8-byte elements (u64, i64, f64): the same calls, the arrays of the
 * predicate's type, against the CPU's sc_compact, sc_compact_indices and
 * sc_split of the same type; an array off its 8-byte grid is refused. */
static void make_64(std::vector<uint64_t> &h, uint64_t n, uint64_t seed, sc_type t)
{
    static const double special[] = { -0.0, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, 0.5, -3.0 };
    h.resize(n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t z = mix64(seed * 0x9e3779b97f4a7c15ull + i), v = z >> 8;
        if ((z & 7) < 3)
            v = (z >> 3) % 50 - ((t == SC_I64 && (z & 8)) ? 25 : 0);
        if (t == SC_F64) {
            double d = (z & 15) == 0 ? special[(z >> 4) % 6] : (double)((int64_t)v % 100) / 4;
            memcpy(&v, &d, 8);
        }
        h[i] = (z & 0x70) == 0 ? 0 : v;
    }
}

static void test_selects64(uint64_t n, uint64_t seed)
{
    const sc_type types[] = { SC_U64, SC_I64, SC_F64 };
    uint64_t *din, *dsel, *drej;
    CK(cudaMalloc(&din, (n + GUARD) * 8 + 8));
    CK(cudaMalloc(&dsel, (n + GUARD) * 8));
    CK(cudaMalloc(&drej, (n + GUARD) * 8));
    for (sc_type t : types) {
        std::vector<uint64_t> h, vals(n + 1), split(n + 1), pos(n + 1);
        make_64(h, n, seed, t);
        upload(din, h.data(), n * 8);
        double ten = 10.0;
        uint64_t ten_bits = 10;
        if (t == SC_F64) memcpy(&ten_bits, &ten, 8);
        sc_pred p[2];
        need(sc_pred_default_type(&p[0], t), "default64");
        need(sc_pred_all_type(&p[1], t), "all64");
        need(sc_pred_add_cmp(&p[1], SC_LT, ten_bits), "lt64");
        for (int k = 0; k < 2; k++) {
            uint64_t kept = 0, k1, k2;
            need(sc_compact(g_cpu, h.data(), n, &p[k], vals.data(), &kept), "sc_compact");
            need(sc_compact_indices(g_cpu, h.data(), n, &p[k], FIRST, pos.data(), &k1),
                 "sc_compact_indices");
            need(sc_split(g_cpu, h.data(), n, &p[k], split.data(), &k2), "sc_split");
            for (int async = 1; async >= 0; async--) {
                uint64_t got[3] = { ~0ull, ~0ull, ~0ull };
                bool ok = true;
                for (int call = 0; call < 3; call++) {
                    poison(dsel, (n + GUARD) * 8);
                    poison(drej, (n + GUARD) * 8);
                    sc_status st;
                    if (call == 0)
                        st = async ? sc_dev_compact_async(g_gpu, din, n, &p[k], dsel, &d_words[0], &g_q)
                                   : sc_dev_compact(g_gpu, din, n, &p[k], dsel, &got[0]);
                    else if (call == 1)
                        st = async ? sc_dev_indices_async(g_gpu, din, n, &p[k], FIRST, dsel,
                                                          &d_words[0], &g_q)
                                   : sc_dev_indices(g_gpu, din, n, &p[k], FIRST, dsel, &got[1]);
                    else
                        st = async ? sc_dev_split_async(g_gpu, din, n, &p[k], dsel, drej,
                                                        &d_words[0], &g_q)
                                   : sc_dev_split(g_gpu, din, n, &p[k], dsel, drej, &got[2]);
                    ok = ok && (async ? finished(st, "a 64-bit call", g_stream)
                                      : called(st, "a 64-bit call"));
                    if (async)
                        got[call] = word(&d_words[0]);
                    ok = ok && count_is(got[call], kept, "kept") &&
                         same<uint64_t>(dsel, call == 0 ? vals.data() : call == 1 ? pos.data()
                                                                              : split.data(),
                                        kept, n + GUARD);
                    if (call == 2)
                        ok = ok && same<uint64_t>(drej, split.data() + kept, n - kept, n + GUARD);
                }
                tap(ok, "compact, indices, split of %s n=%llu, %s, %s: %llu kept",
                    sc_type_name(t), (unsigned long long)n, k ? "x < 10" : "x != 0",
                    mode_name(async), (unsigned long long)kept);
            }
        }
    }
    /* an 8-byte array at a 4-byte offset */
    sc_pred p;
    need(sc_pred_default_type(&p, SC_U64), "default64");
    uint64_t kept;
    sc_status st = sc_dev_compact(g_gpu, (char *)din + 4, n ? 1 : 0, &p, dsel, &kept);
    if (n)
        tap(st == SC_ERR_USAGE, "a u64 array off its 8-byte grid is refused (%s)",
            sc_strerror(st));
    CK(cudaFree(din));
    CK(cudaFree(dsel));
    CK(cudaFree(drej));
}

/* ------------------------------------------------------------------ */
/* Stat: the figures of every integer type, async and blocking.        */

/* Field by field (padding aside): whether got is want. */
static bool figures_are(const sc_stats_typed &got, const sc_stats_typed &want)
{
    if (got.type == want.type && got.count == want.count &&
        got.zeros == want.zeros && got.min == want.min &&
        got.max == want.max && got.sum == want.sum &&
        got.sum_hi == want.sum_hi && got.distinct == want.distinct &&
        memcmp(&got.fsum, &want.fsum, 8) == 0)
        return true;
    why("type/count/zeros/min/max/sum_hi:sum/distinct %d/%llu/%llu/%#llx/%#llx/"
        "%#llx:%#llx/%llu, want %d/%llu/%llu/%#llx/%#llx/%#llx:%#llx/%llu",
        (int)got.type, (unsigned long long)got.count,
        (unsigned long long)got.zeros, (unsigned long long)got.min,
        (unsigned long long)got.max, (unsigned long long)got.sum_hi,
        (unsigned long long)got.sum, (unsigned long long)got.distinct,
        (int)want.type, (unsigned long long)want.count,
        (unsigned long long)want.zeros, (unsigned long long)want.min,
        (unsigned long long)want.max, (unsigned long long)want.sum_hi,
        (unsigned long long)want.sum, (unsigned long long)want.distinct);
    return false;
}

static sc_stats_typed *d_figs;     /* device figures of the async calls */

/* sc_dev_stat and sc_dev_stat_async (the caller's temp, and the
 * context's) of u32, i32, u64 and i64 arrays, the 8-byte ones also one
 * element past a 16-byte boundary, against sc_stat_type on the CPU. */
static void test_stats(uint64_t n, uint64_t seed)
{
    const sc_type types[] = { SC_U32, SC_I32, SC_U64, SC_I64 };
    uint64_t *din;
    CK(cudaMalloc(&din, (n + 2) * 8));
    for (sc_type t : types) {
        size_t size = sc_type_size(t);
        std::vector<uint64_t> h64;
        std::vector<uint32_t> h32;
        const void *h;
        if (size == 8) {
            make_64(h64, n, seed, t);
            /* the ends of the type among them: sums past 64 bits */
            for (uint64_t i = 0; i < n; i += 7)
                h64[i] = t == SC_U64 ? ~0ull : (i & 8) ? 1ull << 63 : ~0ull >> 1;
            h = h64.data();
        } else {
            make_u32(h32, n, seed);
            h = h32.data();
        }
        sc_stats_typed want;
        need(sc_stat_type(g_cpu, h, n, t, &want), "sc_stat_type");
        for (int off = 0; off < (size == 8 ? 2 : 1); off++) {
            char *d = (char *)din + off * size;
            upload(d, h, n * size);
            for (int mode = 0; mode < 3; mode++) {
                sc_stats_typed got;
                memset(&got, POISON, sizeof got);
                sc_status st;
                bool ok;
                if (mode == 0) {
                    st = sc_dev_stat(g_gpu, d, n, t, &got);
                    ok = called(st, "sc_dev_stat");
                } else {
                    poison(d_figs, sizeof *d_figs);
                    st = sc_dev_stat_async(g_gpu, d, n, t, d_figs,
                                           mode == 1 ? &g_q : NULL);
                    ok = finished(st, "sc_dev_stat_async",
                                  mode == 1 ? g_stream : NULL);
                    CK(cudaMemcpy(&got, d_figs, sizeof got, cudaMemcpyDeviceToHost));
                }
                ok = ok && figures_are(got, want);
                tap(ok, "stat %s of %s n=%llu%s: distinct %llu",
                    mode == 0 ? "blocking" : mode == 1 ? "async" : "async, q NULL",
                    sc_type_name(t), (unsigned long long)n,
                    off ? ", 8 bytes past 16" : "", (unsigned long long)want.distinct);
            }
        }
    }
    CK(cudaFree(din));
}

/* What sc_dev_stat refuses, with nothing written: float types (their
 * sums are the host's), a type that is none, an array off its grid, no
 * figures, too small a temp; and a capture of it replayed. */
static void test_stat_edges(void)
{
    const uint64_t n = 65537;
    std::vector<uint32_t> h;
    make_u32(h, n, 950);
    upload(d_in, h.data(), n * 4);
    size_t need_b = sc_dev_temp_bytes(SC_DEV_STAT, n);
    sc_dev_queue small = { g_stream, g_temp, need_b ? need_b - 1 : 0 };
    poison(d_figs, sizeof *d_figs);
    sc_stats_typed f;
    sc_status st[7] = {
        sc_dev_stat_async(g_gpu, d_in, n, SC_F32, d_figs, &g_q),
        sc_dev_stat(g_gpu, d_in, n / 2, SC_F64, &f),
        sc_dev_stat_async(g_gpu, d_in, n, (sc_type)99, d_figs, &g_q),
        sc_dev_stat_async(g_gpu, (char *)d_in + 4, 2, SC_U64, d_figs, &g_q),
        sc_dev_stat_async(g_gpu, d_in, n, SC_U32, NULL, &g_q),
        sc_dev_stat(g_gpu, NULL, n, SC_U32, &f),
        need_b ? sc_dev_stat_async(g_gpu, d_in, n, SC_U32, d_figs, &small)
               : SC_ERR_USAGE,
    };
    static const char *const what[7] = {
        "f32", "f64 (blocking)", "type 99", "u64 at a 4-byte offset",
        "d_figs NULL", "d_in NULL (blocking)", "temp one byte short" };
    sc_status sy = sc_dev_sync(g_gpu, g_stream);
    for (int k = 0; k < 7; k++) {
        if (st[k] != SC_ERR_USAGE)
            why("got %s", sc_strerror(st[k]));
        tap(st[k] == SC_ERR_USAGE, "sc_dev_stat, %s: SC_ERR_USAGE", what[k]);
    }
    std::vector<uint8_t> pois(sizeof *d_figs, POISON);
    tap(sy == SC_OK && same<uint8_t>(d_figs, pois.data(), sizeof *d_figs,
                                     sizeof *d_figs),
        "after the refusals the figures are untouched, sc_dev_sync SC_OK");
    tap(sc_dev_stat(g_cpu, d_in, n, SC_U32, &f) == SC_ERR_NODEVICE,
        "sc_dev_stat on a cpu context: SC_ERR_NODEVICE");

    /* captured once, replayed on new data twice */
    sc_stats_typed want;
    cudaGraph_t graph = NULL;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status sc = sc_dev_stat_async(g_gpu, d_in, n, SC_I32, d_figs, &g_q);
    cudaError_t e = cudaStreamEndCapture(g_stream, &graph);
    bool ok = called(sc, "sc_dev_stat_async in capture") && e == cudaSuccess && graph;
    if (e != cudaSuccess) {
        why("cudaStreamEndCapture: %s", cudaGetErrorString(e));
        cudaGetLastError();
    }
    if (ok) {
        cudaGraphExec_t exec;
        CK(cudaGraphInstantiate(&exec, graph, 0));
        for (int launch = 0; launch < 2 && ok; launch++) {
            make_u32(h, n, 960 + launch);
            upload(d_in, h.data(), n * 4);
            need(sc_stat_type(g_cpu, h.data(), n, SC_I32, &want), "sc_stat_type");
            poison(d_figs, sizeof *d_figs);
            CK(cudaGraphLaunch(exec, g_stream));
            CK(cudaStreamSynchronize(g_stream));
            sc_stats_typed got;
            CK(cudaMemcpy(&got, d_figs, sizeof got, cudaMemcpyDeviceToHost));
            ok = figures_are(got, want);
        }
        CK(cudaGraphExecDestroy(exec));
    }
    if (graph)
        CK(cudaGraphDestroy(graph));
    tap(ok, "graph: sc_dev_stat_async of i32 captured, launched twice on new data");
}

/* ------------------------------------------------------------------ */
/* Scan.                                                                */

static const char *const op_name[] = { "sum", "max", "min", "xor" };

enum { SCAN_CARRY, SCAN_IDENTITY, SCAN_BLOCKING };
static const char *const carry_name[] = { "carry-in in device memory",
                                          "d_carry_in NULL (identity)",
                                          "carry on the host" };

/* A carry-in that changes the result: past 32 bits for a wide sum or
 * xor, whose accumulator has 64; mid-range for max and min. */
static uint64_t carry_for(int op, int wide)
{
    switch (op) {
    case SC_OP_SUM: return wide ? 0x123456789abull : 0x9e3779b9u;
    case SC_OP_XOR: return wide ? 0xfedcba9876543210ull : 0x5bd1e995u;
    default: return 0x80000000u;
    }
}

/* One scan of n elements of type t from in to out by mode (SCAN_CARRY:
 * the carry-in cin in device memory; SCAN_IDENTITY: none, d_carry_in
 * NULL; SCAN_BLOCKING: cin on the host), its carry-out to *carry, the
 * carry-in word checked unchanged: through the uint32 calls
 * (sc_dev_scan*) when u32_calls, else the typed ones. */
static bool scan_call(sc_type t, bool u32_calls, const void *in, void *out, uint64_t n,
                      int op, int incl, int wide, int mode, uint64_t cin, uint64_t *carry)
{
    const char *name = u32_calls ? "sc_dev_scan" : "sc_dev_scan_type";
    if (mode == SCAN_BLOCKING) {
        *carry = cin;
        return called(u32_calls ? sc_dev_scan(g_gpu, (const uint32_t *)in, n, (sc_scan_op)op,
                                              incl, wide, out, carry)
                                : sc_dev_scan_type(g_gpu, in, n, t, (sc_scan_op)op, incl, wide,
                                                   out, carry), name);
    }
    upload(&d_words[1], &cin, 8);
    poison(&d_words[2], 8);
    const uint64_t *cp = mode == SCAN_CARRY ? &d_words[1] : NULL;
    sc_status st = u32_calls
        ? sc_dev_scan_async(g_gpu, (const uint32_t *)in, n, (sc_scan_op)op, incl, wide, cp,
                            out, &d_words[2], &g_q)
        : sc_dev_scan_type_async(g_gpu, in, n, t, (sc_scan_op)op, incl, wide, cp, out,
                                 &d_words[2], &g_q);
    bool ok = finished(st, name, g_stream);
    *carry = word(&d_words[2]);
    return ok && count_is(word(&d_words[1]), cin, "d_carry_in changed to");
}

/* want: the CPU's output (uint32 or uint64 by wide) from carry-in cin,
 * and its final accumulator. */
static void scan_case(uint64_t n, int op, int incl, int wide, int mode,
                      uint64_t cin, const std::vector<uint64_t> &want,
                      uint64_t want_carry)
{
    uint64_t carry;
    poison_outputs(n);
    bool ok = scan_call(SC_U32, true, d_in, d_out, n, op, incl, wide, mode, cin, &carry);
    ok = ok && count_is(carry, want_carry, "carry-out") &&
         (wide ? same<uint64_t>(d_out, want.data(), n, n + GUARD)
               : same<uint32_t>(d_out, (const uint32_t *)want.data(), n, n + GUARD));
    tap(ok, "scan %s n=%llu %s %s%s, %s", mode == SCAN_BLOCKING ? "blocking" : "async",
        (unsigned long long)n, op_name[op], incl ? "inclusive" : "exclusive",
        wide ? " wide" : "", carry_name[mode]);
}

/* d_in may be d_out: the data in d_rej, scanned where it lies. */
static void scan_in_place(const std::vector<uint32_t> &h, int op, int incl)
{
    uint64_t n = h.size(), cin = carry_for(op, 0), carry = cin;
    std::vector<uint32_t> want(n);
    need(sc_scan(g_cpu, h.data(), n, (sc_scan_op)op, incl, 0, want.data(), &carry),
         "sc_scan");
    poison_outputs(n);
    upload(d_rej, h.data(), n * 4);
    upload(&d_words[1], &cin, 8);
    sc_status st = sc_dev_scan_async(g_gpu, d_rej, n, (sc_scan_op)op, incl, 0,
                                     &d_words[1], d_rej, &d_words[2], &g_q);
    bool ok = finished(st, "sc_dev_scan_async", g_stream) &&
              count_is(word(&d_words[2]), carry, "carry-out") &&
              same<uint32_t>(d_rej, want.data(), n, n + GUARD);
    tap(ok, "scan async n=%llu %s %s in place (d_in == d_out)",
        (unsigned long long)n, op_name[op], incl ? "inclusive" : "exclusive");
}

static void test_scans(uint64_t n, uint64_t seed)
{
    std::vector<uint32_t> h;
    make_u32(h, n, seed);
    upload(d_in, h.data(), n * 4);
    std::vector<uint64_t> want_c(n), want_i(n);
    for (int op = 0; op < 4; op++)
        for (int incl = 0; incl < 2; incl++)
            for (int wide = 0; wide < 2; wide++) {
                uint64_t cin = carry_for(op, wide), fin_c = cin;
                uint64_t id = sc_scan_identity_of(SC_U32, (sc_scan_op)op), fin_i = id;
                need(sc_scan(g_cpu, h.data(), n, (sc_scan_op)op, incl, wide,
                             want_c.data(), &fin_c), "sc_scan");
                need(sc_scan(g_cpu, h.data(), n, (sc_scan_op)op, incl, wide,
                             want_i.data(), &fin_i), "sc_scan");
                scan_case(n, op, incl, wide, SCAN_CARRY, cin, want_c, fin_c);
                scan_case(n, op, incl, wide, SCAN_IDENTITY, cin, want_i, fin_i);
                scan_case(n, op, incl, wide, SCAN_BLOCKING, cin, want_c, fin_c);
            }
    scan_in_place(h, SC_OP_SUM, 1);
    scan_in_place(h, SC_OP_MAX, 0);
}

/* ------------------------------------------------------------------ */
/* Sort.                                                                */

typedef struct sort_case {
    const char *name;
    unsigned lo, hi;
    int descending;
    int top_equal;      /* keys' bits 16..31 all 0x5a5a: passes to skip */
} sort_case;

static const sort_case sorts[] = {
    { "0:32", 0, 32, 0, 0 },
    { "8:20 (stable on the rest)", 8, 20, 0, 0 },
    { "0:32 descending", 0, 32, 1, 0 },
    { "4:28 descending", 4, 28, 1, 0 },
    { "0:32, top 16 bits equal", 0, 32, 0, 1 },
    { "0:32 descending, top 16 bits equal", 0, 32, 1, 1 },
    { "16:32, those bits all equal (order kept)", 16, 32, 0, 1 },
};

static void test_sort(const std::vector<uint32_t> &keys,
                      const std::vector<uint32_t> &want, const sort_case *c,
                      int async)
{
    uint64_t n = keys.size();
    bool ok;
    poison(d_keys, (n + GUARD) * 4);
    upload(d_keys, keys.data(), n * 4);
    if (async)
        ok = finished(sc_dev_sort_async(g_gpu, d_keys, n, c->lo, c->hi,
                                        c->descending, &g_q),
                      "sc_dev_sort_async", g_stream);
    else
        ok = called(sc_dev_sort(g_gpu, d_keys, n, c->lo, c->hi, c->descending),
                    "sc_dev_sort");
    ok = ok && same<uint32_t>(d_keys, want.data(), n, n + GUARD);
    tap(ok, "sort %s n=%llu %s", mode_name(async), (unsigned long long)n, c->name);
}

static void test_sorts(uint64_t n, uint64_t seed)
{
    std::vector<uint32_t> h, keys, want;
    make_u32(h, n, seed);
    for (size_t k = 0; k < sizeof sorts / sizeof sorts[0]; k++) {
        const sort_case *c = &sorts[k];
        keys = h;
        if (c->top_equal)
            for (uint64_t i = 0; i < n; i++)
                keys[i] = (keys[i] & 0xffffu) | 0x5a5a0000u;
        want = keys;
        need(sc_sort(g_cpu, want.data(), n, c->lo, c->hi, c->descending), "sc_sort");
        test_sort(keys, want, c, 1);
        test_sort(keys, want, c, 0);
    }
}

/* ------------------------------------------------------------------ */
/* Gen.                                                                 */

static void test_gens(uint64_t n)
{
    const uint64_t first = (1ull << 33) + 5;
    const char *name[6] = { "uniform, density 0.5", "uniform [1000, 1999]",
                            "structured", "iota", "constant 42, density 0.25",
                            "f32 uniform [-1, 1)" };
    sc_gen_params g[6];
    for (int k = 0; k < 6; k++) {
        sc_gen_params_default(&g[k]);
        g[k].seed = 7 + k;
    }
    g[0].density = 0.5;
    g[1].min = 1000;
    g[1].max = 1999;
    g[2].dist = SC_DIST_STRUCTURED;
    g[3].dist = SC_DIST_IOTA;
    g[4].dist = SC_DIST_CONSTANT;
    g[4].value = 42;
    g[4].density = 0.25;
    g[5].type = SC_F32;
    g[5].min = f32_bits(-1.0f);
    g[5].max = f32_bits(1.0f);
    std::vector<uint32_t> want(n);
    for (int k = 0; k < 6; k++) {
        need(sc_gen(g_cpu, &g[k], first, want.data(), n), "sc_gen");
        for (int async = 1; async >= 0; async--) {
            bool ok;
            poison_outputs(n);
            if (async)
                ok = finished(sc_dev_gen_async(g_gpu, &g[k], first,
                                               (uint32_t *)d_out, n, &g_q),
                              "sc_dev_gen_async", g_stream);
            else
                ok = called(sc_dev_gen(g_gpu, &g[k], first, (uint32_t *)d_out, n),
                            "sc_dev_gen");
            ok = ok && same<uint32_t>(d_out, want.data(), n, n + GUARD);
            tap(ok, "gen %s n=%llu from 2^33+5, %s", mode_name(async),
                (unsigned long long)n, name[k]);
        }
    }
}

/* ------------------------------------------------------------------ */
/* A chain of stream-ordered calls: compact -> scan -> sort.            */

/* Its buffers on n elements: the compaction's output (zeroed first, so
 * that its tail past the count is known and the whole of it can be
 * scanned and sorted), the scan, a sorted copy. */
typedef struct chain {
    uint64_t n;
    uint32_t *in, *kept, *sorted;
    uint64_t *scan;
    uint64_t *w;        /* [0] count, [1] carry-out, [2] the caller's sum */
} chain;

/* Its outputs poisoned, so that a check after a run that did nothing
 * fails. */
static void chain_poison(const chain *c)
{
    poison(c->kept, c->n * 4);
    poison(c->sorted, c->n * 4);
    poison(c->scan, c->n * 8);
    poison(c->w, 4 * 8);
}

static void chain_alloc(chain *c, uint64_t n)
{
    c->n = n;
    CK(cudaMalloc(&c->in, n * 4 + 4));
    CK(cudaMalloc(&c->kept, n * 4 + 4));
    CK(cudaMalloc(&c->sorted, n * 4 + 4));
    CK(cudaMalloc(&c->scan, n * 8 + 8));
    CK(cudaMalloc(&c->w, 4 * 8));
    chain_poison(c);
}

static void chain_free(chain *c)
{
    CK(cudaFree(c->in));
    CK(cudaFree(c->kept));
    CK(cudaFree(c->sorted));
    CK(cudaFree(c->scan));
    CK(cudaFree(c->w));
}

/* The caller's own kernels, queued between libsc's calls. */
static __global__ void add_one(uint32_t *x, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        x[i] += 1;
}

/* Sums x[0, *count): libsc's count taken where it lies, on the device. */
static __global__ void sum_kept(const uint32_t *x, const uint64_t *count,
                                unsigned long long *sum)
{
    unsigned long long s = 0;
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < *count;
         i += (uint64_t)gridDim.x * blockDim.x)
        s += x[i];
    if (s)
        atomicAdd(sum, s);
}

/* Queues the chain on q's stream.  The count stays in device memory and
 * is the scan's carry-in: nothing comes back to the host between the
 * calls.  user: the caller's sum_kept between compaction and scan. */
static sc_status chain_queue(const chain *c, const sc_pred *p,
                             const sc_dev_queue *q, int user)
{
    cudaStream_t s = (cudaStream_t)q->stream;
    CK(cudaMemsetAsync(c->kept, 0, c->n * 4, s));
    sc_status st = sc_dev_compact_async(g_gpu, c->in, c->n, p, c->kept, &c->w[0], q);
    if (st)
        return st;
    if (user) {
        CK(cudaMemsetAsync(&c->w[2], 0, 8, s));
        sum_kept<<<128, 256, 0, s>>>(c->kept, &c->w[0],
                                     (unsigned long long *)&c->w[2]);
        CK(cudaGetLastError());
    }
    st = sc_dev_scan_async(g_gpu, c->kept, c->n, SC_OP_SUM, 0, 1, &c->w[0],
                           c->scan, &c->w[1], q);
    if (st)
        return st;
    CK(cudaMemcpyAsync(c->sorted, c->kept, c->n * 4, cudaMemcpyDeviceToDevice, s));
    return sc_dev_sort_async(g_gpu, c->sorted, c->n, 0, 32, 0, q);
}

/* Checks a finished chain against the CPU on h; returns the count. */
static uint64_t chain_check(const chain *c, const std::vector<uint32_t> &h,
                            const sc_pred *p, const char *tag, int user)
{
    uint64_t n = c->n, k = 0;
    std::vector<uint32_t> kept(n), sorted;
    std::vector<uint64_t> scan(n);
    need(sc_compact(g_cpu, h.data(), n, p, kept.data(), &k), "sc_compact");
    unsigned long long sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (i >= k)
            kept[i] = 0;
        sum += kept[i];
    }
    uint64_t carry = k;
    need(sc_scan(g_cpu, kept.data(), n, SC_OP_SUM, 0, 1, scan.data(), &carry), "sc_scan");
    sorted = kept;
    need(sc_sort(g_cpu, sorted.data(), n, 0, 32, 0), "sc_sort");

    tap(count_is(word(&c->w[0]), k, "kept") && same<uint32_t>(c->kept, kept.data(), n, n),
        "%s: compact n=%llu (%llu kept)", tag, (unsigned long long)n,
        (unsigned long long)k);
    if (user)
        tap(count_is(word(&c->w[2]), sum, "sum"),
            "%s: the caller's kernel summed the kept from *d_kept", tag);
    tap(count_is(word(&c->w[1]), carry, "carry-out") &&
        same<uint64_t>(c->scan, scan.data(), n, n),
        "%s: scan of it from its count as carry-in", tag);
    tap(same<uint32_t>(c->sorted, sorted.data(), n, n), "%s: sort of it", tag);
    return k;
}

static sc_pred middle_half(void)
{
    sc_pred p;
    sc_pred_all(&p);
    need(sc_pred_add_range(&p, 0x40000000u, 0xbfffffffu), "range");
    return p;
}

/* (a) Generated on the device, the caller's kernel, the chain with the
 * caller's kernel in it, all on one stream with the caller's temp: one
 * cudaStreamSynchronize at the end and nothing waited for before. */
static void test_stream_order(void)
{
    uint64_t n = g_quick ? 65537 : 1000003;
    chain c;
    chain_alloc(&c, n);
    sc_pred p = middle_half();
    sc_gen_params g;
    sc_gen_params_default(&g);
    g.seed = 99;
    g.density = 0.8;

    sc_status st = sc_dev_gen_async(g_gpu, &g, 0, c.in, n, &g_q);
    if (st == SC_OK) {
        add_one<<<256, 256, 0, g_stream>>>(c.in, n);
        CK(cudaGetLastError());
        st = chain_queue(&c, &p, &g_q, 1);
    }
    called(st, "queuing");
    tap(st == SC_OK, "one stream: gen, the caller's kernel, compact, the "
        "caller's kernel, scan, sort queued without a wait");
    CK(cudaStreamSynchronize(g_stream));
    if (st == SC_OK) {
        std::vector<uint32_t> h(n);
        need(sc_gen(g_cpu, &g, 0, h.data(), n), "sc_gen");
        for (uint64_t i = 0; i < n; i++)
            h[i] += 1;
        chain_check(&c, h, &p, "one stream", 1);
    }
    chain_free(&c);
}

/* (b) temp NULL: the context's scratch, on one stream.  The sizes grow,
 * so the scratch grows while earlier calls may still run; one wait at
 * the end.  Then the same on the default stream. */
static void test_shared_scratch(void)
{
    const uint64_t sizes[3] = { 33, 65537, g_quick ? 200003u : 1000003u };
    chain c[3];
    std::vector<uint32_t> h[3];
    sc_pred p = middle_half();
    sc_dev_queue q = { g_stream, NULL, 0 };
    sc_status st = SC_OK;
    for (int k = 0; k < 3; k++) {
        chain_alloc(&c[k], sizes[k]);
        make_u32(h[k], sizes[k], 500 + k);
        upload(c[k].in, h[k].data(), sizes[k] * 4);
    }
    for (int k = 0; k < 3 && st == SC_OK; k++)
        st = chain_queue(&c[k], &p, &q, 0);
    bool ok = finished(st, "chain_queue", g_stream);
    tap(ok, "temp NULL on one stream: 3 chains of growing size queued, "
        "sc_dev_sync SC_OK");
    for (int k = 0; k < 3 && ok; k++)
        chain_check(&c[k], h[k], &p, "temp NULL, one stream", 0);

    q.stream = NULL;
    chain_poison(&c[1]);
    st = chain_queue(&c[1], &p, &q, 0);
    ok = finished(st, "chain_queue", NULL);
    tap(ok, "temp NULL on the default stream: sc_dev_sync(NULL) SC_OK");
    if (ok)
        chain_check(&c[1], h[1], &p, "temp NULL, default stream", 0);
    for (int k = 0; k < 3; k++)
        chain_free(&c[k]);
}

/* (c) Two host threads, each with its stream and temp, 50 compactions
 * queued each at once, every result checked. */
enum { THREAD_RUNS = 50 };

typedef struct worker {
    int id;
    uint64_t n;
    pthread_barrier_t *start;
    sc_status queued, synced;   /* the first queuing failure; sc_dev_sync's */
    int bad;                    /* compactions that differ from the CPU's */
    char why[256];
} worker;

/* A different range for each call, keeping from 10 % to 90 %. */
static sc_pred worker_pred(int id, int i)
{
    sc_pred p;
    sc_pred_all(&p);
    uint32_t lo = (uint32_t)i * 0x03000000u + (uint32_t)id * 0x00800000u;
    uint32_t width = (uint32_t)((0.1 + 0.8 * i / (THREAD_RUNS - 1)) * 4294967295.0);
    uint32_t hi = lo + width < lo ? 0xffffffffu : lo + width;
    (void)sc_pred_add_range(&p, lo, hi);   /* lo <= hi: cannot fail */
    return p;
}

static void *worker_main(void *arg)
{
    worker *w = (worker *)arg;
    uint64_t n = w->n;
    size_t tb = sc_dev_temp_bytes(SC_DEV_COMPACT, n);
    cudaStream_t s;
    void *temp;
    uint32_t *in, *out;
    uint64_t *kept;
    std::vector<uint32_t> h, got(n * THREAD_RUNS);
    std::vector<uint64_t> got_k(THREAD_RUNS);
    make_u32(h, n, 1000 + w->id);
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaMalloc(&temp, tb ? tb : 256));
    CK(cudaMalloc(&in, n * 4));
    CK(cudaMalloc(&out, n * 4 * THREAD_RUNS));
    CK(cudaMalloc(&kept, 8 * THREAD_RUNS));
    CK(cudaMemcpyAsync(in, h.data(), n * 4, cudaMemcpyHostToDevice, s));
    sc_dev_queue q = { s, temp, tb };

    pthread_barrier_wait(w->start);
    for (int i = 0; i < THREAD_RUNS; i++) {
        sc_pred p = worker_pred(w->id, i);
        sc_status st = sc_dev_compact_async(g_gpu, in, n, &p, out + i * n,
                                            kept + i, &q);
        if (st != SC_OK && w->queued == SC_OK)
            w->queued = st;
    }
    w->synced = sc_dev_sync(g_gpu, s);

    CK(cudaMemcpyAsync(got.data(), out, n * 4 * THREAD_RUNS,
                       cudaMemcpyDeviceToHost, s));
    CK(cudaMemcpyAsync(got_k.data(), kept, 8 * THREAD_RUNS,
                       cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < THREAD_RUNS; i++) {
        sc_pred p = worker_pred(w->id, i);
        const uint32_t *o = &got[i * n];
        uint64_t j = 0;
        bool ok = true;
        for (uint64_t x = 0; x < n && ok; x++)
            if (sc_pred_test(&p, h[x]))
                ok = j < got_k[i] && o[j++] == h[x];
        if (!ok || j != got_k[i]) {
            if (!w->bad)
                snprintf(w->why, sizeof w->why, "call %d: kept %llu, want %llu "
                         "or contents differ", i, (unsigned long long)got_k[i],
                         (unsigned long long)j);
            w->bad++;
        }
    }
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(kept));
    CK(cudaFree(temp));
    CK(cudaStreamDestroy(s));
    return NULL;
}

static void test_threads(void)
{
    worker w[2];
    pthread_t t[2];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    for (int k = 0; k < 2; k++) {
        memset(&w[k], 0, sizeof w[k]);
        w[k].id = k;
        w[k].n = g_quick ? 4099 : 100003 + 2 * k;
        w[k].start = &start;
        if (pthread_create(&t[k], NULL, worker_main, &w[k]) != 0) {
            printf("Bail out! pthread_create failed\n");
            exit(2);
        }
    }
    for (int k = 0; k < 2; k++)
        pthread_join(t[k], NULL);
    pthread_barrier_destroy(&start);
    for (int k = 0; k < 2; k++) {
        if (w[k].queued != SC_OK)
            why("a call: %s", sc_strerror(w[k].queued));
        else if (w[k].synced != SC_OK)
            why("sc_dev_sync: %s", sc_strerror(w[k].synced));
        else if (w[k].bad)
            why("%d differ; first %s", w[k].bad, w[k].why);
        tap(w[k].queued == SC_OK && w[k].synced == SC_OK && !w[k].bad,
            "thread %d: %d compactions of %llu on its own stream and temp, "
            "beside the other thread's", k, THREAD_RUNS,
            (unsigned long long)w[k].n);
    }
}

/* (d) A chain captured in a CUDA graph with the caller's temp, launched
 * twice on new data: the graph reads its buffers anew at each launch. */
static void test_graph(void)
{
    uint64_t n = g_quick ? 65537 : 1000003;
    chain c;
    chain_alloc(&c, n);
    sc_pred p = middle_half();
    size_t tb = sc_dev_temp_bytes(SC_DEV_COMPACT, n);
    if (sc_dev_temp_bytes(SC_DEV_SCAN, n) > tb) tb = sc_dev_temp_bytes(SC_DEV_SCAN, n);
    if (sc_dev_temp_bytes(SC_DEV_SORT, n) > tb) tb = sc_dev_temp_bytes(SC_DEV_SORT, n);
    void *temp;
    CK(cudaMalloc(&temp, tb ? tb : 256));
    sc_dev_queue q = { g_stream, temp, tb };

    cudaGraph_t graph = NULL;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status st = chain_queue(&c, &p, &q, 0);
    /* always ended, or the stream stays in capture mode */
    cudaError_t e = cudaStreamEndCapture(g_stream, &graph);
    size_t nodes = 0;
    if (e == cudaSuccess && graph)
        CK(cudaGraphGetNodes(graph, NULL, &nodes));
    if (e != cudaSuccess) {
        why("cudaStreamEndCapture: %s", cudaGetErrorString(e));
        cudaGetLastError();
    }
    called(st, "queuing in capture");
    tap(st == SC_OK && e == cudaSuccess && nodes > 0,
        "graph: compact -> scan -> sort captured with the caller's temp "
        "(%zu nodes)", nodes);
    if (st == SC_OK && e == cudaSuccess && graph) {
        cudaGraphExec_t exec;
        CK(cudaGraphInstantiate(&exec, graph, 0));
        for (int launch = 0; launch < 2; launch++) {
            std::vector<uint32_t> h;
            make_u32(h, n, 700 + launch);
            upload(c.in, h.data(), n * 4);
            chain_poison(&c);
            CK(cudaGraphLaunch(exec, g_stream));
            CK(cudaStreamSynchronize(g_stream));
            chain_check(&c, h, &p, launch ? "graph, 2nd launch" : "graph, 1st launch", 0);
        }
        CK(cudaGraphExecDestroy(exec));
    }
    if (graph)
        CK(cudaGraphDestroy(graph));
    CK(cudaFree(temp));
    chain_free(&c);
}

/* A scan from the identity (d_carry_in NULL) in a graph: libsc finds
 * the identity's device word while the stream is capturing. */
static void test_graph_identity(void)
{
    const uint64_t n = 65537;
    std::vector<uint32_t> h, want(n);
    make_u32(h, n, 800);
    uint64_t carry = sc_scan_identity_of(SC_U32, SC_OP_MIN);
    need(sc_scan(g_cpu, h.data(), n, SC_OP_MIN, 0, 0, want.data(), &carry), "sc_scan");
    upload(d_in, h.data(), n * 4);
    poison_outputs(n);
    cudaGraph_t graph = NULL;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status st = sc_dev_scan_async(g_gpu, d_in, n, SC_OP_MIN, 0, 0, NULL, d_out,
                                     &d_words[2], &g_q);
    cudaError_t e = cudaStreamEndCapture(g_stream, &graph);
    called(st, "sc_dev_scan_async in capture");
    if (e != cudaSuccess) {
        why("cudaStreamEndCapture: %s", cudaGetErrorString(e));
        cudaGetLastError();
    }
    bool ok = st == SC_OK && e == cudaSuccess && graph;
    if (ok) {
        cudaGraphExec_t exec;
        CK(cudaGraphInstantiate(&exec, graph, 0));
        CK(cudaGraphLaunch(exec, g_stream));
        CK(cudaStreamSynchronize(g_stream));
        CK(cudaGraphExecDestroy(exec));
        ok = count_is(word(&d_words[2]), carry, "carry-out") &&
             same<uint32_t>(d_out, want.data(), n, n + GUARD);
    }
    if (graph)
        CK(cudaGraphDestroy(graph));
    tap(ok, "graph: exclusive min scan of %llu from the identity (d_carry_in NULL)",
        (unsigned long long)n);
}

/* (e) A temp smaller than sc_dev_temp_bytes: SC_ERR_USAGE and nothing
 * queued (outputs, counts and keys untouched; nothing captured). */
static void test_small_temp(void)
{
    static const char *const name[] = { "compact", "indices", "split", "scan",
                                         "sort", "gen" };
    static const sc_dev_op op_of[] = { SC_DEV_COMPACT, SC_DEV_COMPACT,
                                       SC_DEV_SPLIT, SC_DEV_SCAN, SC_DEV_SORT,
                                       SC_DEV_GEN };
    const uint64_t n = 65537;
    std::vector<uint32_t> h;
    make_u32(h, n, 900);
    upload(d_in, h.data(), n * 4);
    sc_pred p = middle_half();
    sc_gen_params g;
    sc_gen_params_default(&g);
    for (int k = 0; k < 6; k++) {
        size_t need_b = sc_dev_temp_bytes(op_of[k], n);
        if (need_b == 0) {
            tap(true, "# SKIP %s of %llu needs no temp", name[k], (unsigned long long)n);
            continue;
        }
        sc_dev_queue q = { g_stream, g_temp, need_b - 1 };
        poison_outputs(n);
        poison(d_keys, n * 4);
        sc_status st = SC_OK;
        switch (k) {
        case 0: st = sc_dev_compact_async(g_gpu, d_in, n, &p, (uint32_t *)d_out,
                                          d_words, &q); break;
        case 1: st = sc_dev_indices_async(g_gpu, d_in, n, &p, 0, (uint64_t *)d_out,
                                          d_words, &q); break;
        case 2: st = sc_dev_split_async(g_gpu, d_in, n, &p, (uint32_t *)d_out,
                                        d_rej, d_words, &q); break;
        case 3: st = sc_dev_scan_async(g_gpu, d_in, n, SC_OP_SUM, 1, 1, NULL,
                                       d_out, &d_words[2], &q); break;
        case 4: st = sc_dev_sort_async(g_gpu, d_keys, n, 0, 32, 0, &q); break;
        case 5: st = sc_dev_gen_async(g_gpu, &g, 0, (uint32_t *)d_out, n, &q); break;
        }
        sc_status sy = sc_dev_sync(g_gpu, g_stream);
        if (st != SC_ERR_USAGE)
            why("got %s", sc_strerror(st));
        if (sy != SC_OK)
            why("sc_dev_sync after the refusal: %s", sc_strerror(sy));
        /* poison compared with poison: every byte untouched */
        std::vector<uint64_t> pois(n + GUARD);
        memset(pois.data(), POISON, pois.size() * 8);
        bool ok = st == SC_ERR_USAGE && sy == SC_OK &&
                  same<uint64_t>(d_out, pois.data(), n + GUARD, n + GUARD) &&
                  same<uint32_t>(d_rej, (const uint32_t *)pois.data(), n + GUARD, n + GUARD) &&
                  same<uint64_t>(d_words, pois.data(), 4, 4) &&
                  same<uint32_t>(d_keys, (const uint32_t *)pois.data(), n, n);
        tap(ok, "%s of %llu with temp_bytes %zu (needs %zu): SC_ERR_USAGE, "
            "nothing written", name[k], (unsigned long long)n, need_b - 1, need_b);
    }

    /* the same refusal inside a capture leaves the graph empty */
    size_t need_b = sc_dev_temp_bytes(SC_DEV_COMPACT, n);
    if (need_b == 0) {
        tap(true, "# SKIP compaction needs no temp");
        return;
    }
    sc_dev_queue q = { g_stream, g_temp, need_b - 1 };
    cudaGraph_t graph = NULL;
    size_t nodes = 1;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status st = sc_dev_compact_async(g_gpu, d_in, n, &p, (uint32_t *)d_out,
                                        d_words, &q);
    cudaError_t e = cudaStreamEndCapture(g_stream, &graph);
    if (e == cudaSuccess && graph)
        CK(cudaGraphGetNodes(graph, NULL, &nodes));
    else
        why("cudaStreamEndCapture: %s", cudaGetErrorString(e));
    if (graph)
        CK(cudaGraphDestroy(graph));
    tap(st == SC_ERR_USAGE && e == cudaSuccess && nodes == 0,
        "compact with too small a temp in a capture: SC_ERR_USAGE, %zu nodes "
        "captured", nodes);
}

/* Arguments the header rules out: SC_ERR_USAGE rather than a crash, and
 * nothing written. */
static void test_bad_args(void)
{
    const uint64_t n = 4096;
    sc_pred p = middle_half();
    size_t need_b = sc_dev_temp_bytes(SC_DEV_COMPACT, n);
    sc_dev_queue skew = { g_stream, (char *)g_temp + 128, g_temp_bytes - 128 };
    sc_status st[5];
    poison_outputs(n);
    st[0] = sc_dev_compact_async(g_gpu, d_in, n, NULL, (uint32_t *)d_out, d_words, &g_q);
    st[1] = need_b ? sc_dev_compact_async(g_gpu, d_in, n, &p, (uint32_t *)d_out,
                                          d_words, &skew)
                   : SC_ERR_USAGE;
    st[2] = sc_dev_scan_async(g_gpu, d_in, n, SC_OP_SUM, 0, 1, &d_words[1], d_out,
                              &d_words[1], &g_q);
    st[3] = sc_dev_sort_async(g_gpu, d_keys, n, 8, 8, 0, &g_q);
    st[4] = sc_dev_scan_async(g_gpu, (const uint32_t *)d_out, n, SC_OP_SUM, 0,
                              1, NULL, d_out, NULL, &g_q);
    sc_status sy = sc_dev_sync(g_gpu, g_stream);
    std::vector<uint64_t> pois(n + GUARD);
    memset(pois.data(), POISON, pois.size() * 8);
    bool untouched = same<uint64_t>(d_out, pois.data(), n + GUARD, n + GUARD) &&
                     same<uint64_t>(d_words, pois.data(), 4, 4);
    static const char *const what[5] = {
        "pred NULL", "temp not aligned to 256", "d_carry_out == d_carry_in",
        "bit range 8:8", "a wide scan in place" };
    for (int k = 0; k < 5; k++) {
        if (st[k] != SC_ERR_USAGE)
            why("got %s", sc_strerror(st[k]));
        tap(st[k] == SC_ERR_USAGE, "%s: SC_ERR_USAGE", what[k]);
    }
    if (sy != SC_OK)
        why("sc_dev_sync: %s", sc_strerror(sy));
    tap(untouched && sy == SC_OK, "after the refusals nothing was written and "
        "sc_dev_sync is SC_OK");
}

/* q NULL: the default stream and the context's scratch, the same count
 * as the blocking call's. */
static void test_default_queue(void)
{
    const uint64_t n = 65537;
    sc_pred p = middle_half();
    uint64_t blocking = 0, queued = UINT64_MAX;
    CK(cudaDeviceSynchronize());
    sc_status st = sc_dev_compact(g_gpu, d_in, n, &p, (uint32_t *)d_out,
                                  &blocking);
    called(st, "sc_dev_compact");
    sc_status sq = sc_dev_compact_async(g_gpu, d_in, n, &p, (uint32_t *)d_out,
                                        d_words, NULL);
    called(sq, "sc_dev_compact_async");
    sc_status sy = sc_dev_sync(g_gpu, NULL);
    called(sy, "sc_dev_sync");
    CK(cudaMemcpy(&queued, d_words, 8, cudaMemcpyDeviceToHost));
    tap(st == SC_OK && sq == SC_OK && sy == SC_OK && queued == blocking,
        "q NULL queues on the default stream: kept %llu, blocking %llu",
        (unsigned long long)queued, (unsigned long long)blocking);
}

/* (f) and the rest of what the header promises. */
static void test_sync_and_nodevice(void)
{
    sc_status st = sc_dev_sync(g_gpu, g_stream);
    called(st, "sc_dev_sync");
    tap(st == SC_OK, "sc_dev_sync on the caller's stream after good work: SC_OK");
    st = sc_dev_sync(g_gpu, NULL);
    called(st, "sc_dev_sync");
    tap(st == SC_OK, "sc_dev_sync on the default stream after good work: SC_OK");

    sc_pred p;
    sc_pred_default(&p);
    st = sc_dev_compact_async(g_cpu, d_in, 1, &p, (uint32_t *)d_out, d_words, &g_q);
    if (st != SC_ERR_NODEVICE)
        why("got %s", sc_strerror(st));
    tap(st == SC_ERR_NODEVICE, "sc_dev_compact_async on a cpu context: SC_ERR_NODEVICE");
}

/* ------------------------------------------------------------------ */
/* Typed scans and sorts (sc_dev_scan_type*, sc_dev_sort_type*) and     */
/* records (sc_dev_*_records*), against the CPU context's sc_scan_type, */
/* sc_sort_type, sc_compact_records, sc_compact_records_indices and     */
/* sc_split_records on the same data.                                   */

static const sc_type all_types[] = { SC_U32, SC_I32, SC_F32, SC_U64, SC_I64, SC_F64 };

/* Arrays of elements of any type or of records of up to 16 bytes, for
 * n up to g_tmax, GUARD more each. */
static void *d_tin, *d_tout, *d_trej;
static uint64_t g_tmax;

/* n elements of type t, packed (sc_type_size(t) bytes each). */
static std::vector<uint64_t> typed_data(sc_type t, uint64_t n, uint64_t seed)
{
    std::vector<uint64_t> out(n + 1);
    if (sc_type_size(t) == 8) {
        std::vector<uint64_t> h;
        make_64(h, n, seed, t);
        if (n) memcpy(out.data(), h.data(), n * 8);
    } else {
        std::vector<uint32_t> h;
        if (t == SC_F32)
            make_f32(h, n, seed);
        else
            make_u32(h, n, seed);
        if (n) memcpy(out.data(), h.data(), n * 4);
    }
    return out;
}

/* same() by the size of what is compared: 4 or 8 bytes, or 16-byte
 * records as pairs of words. */
static bool same_sized(const void *d, const void *want, uint64_t k, uint64_t total,
                       size_t size)
{
    if (size == 4)
        return same<uint32_t>(d, (const uint32_t *)want, k, total);
    unsigned m = (unsigned)(size / 8);
    return same<uint64_t>(d, (const uint64_t *)want, k * m, total * m);
}

/* A carry-in that changes the result: past 32 bits for a sum or xor of
 * a 64-bit accumulator; a value mid-way in the type's order for max and
 * min (0.5 for floats), as the element's bits. */
static uint64_t typed_carry(sc_type t, int op, int wide)
{
    int acc64 = wide || sc_type_size(t) == 8;
    if (op == SC_OP_SUM || op == SC_OP_XOR)
        return acc64 ? 0x123456789abull : 0x9e3779b9u;
    if (t == SC_F32) return 0x3f000000u;
    if (t == SC_F64) return 0x3fe0000000000000ull;
    return sc_type_size(t) == 8 ? 1ull << 62 : 1u << 30;
}

static bool typed_op_ok(sc_type t, int op)
{
    return sc_type_is_float(t) ? op == SC_OP_MAX || op == SC_OP_MIN : true;
}

static void scan_typed_case(sc_type t, const std::vector<uint64_t> &h, uint64_t n,
                            int op, int incl, int wide, int mode)
{
    size_t esz = sc_type_size(t), osz = wide || esz == 8 ? 8 : 4;
    uint64_t cin = typed_carry(t, op, wide);
    uint64_t want_carry = mode == SCAN_IDENTITY ? sc_scan_identity_of(t, (sc_scan_op)op) : cin;
    std::vector<uint64_t> want(n + 1);
    need(sc_scan_type(g_cpu, h.data(), n, t, (sc_scan_op)op, incl, wide, want.data(),
                      &want_carry), "sc_scan_type");
    poison(d_tout, (n + GUARD) * osz);
    uint64_t carry;
    bool ok = scan_call(t, false, d_tin, d_tout, n, op, incl, wide, mode, cin, &carry);
    ok = ok && count_is(carry, want_carry, "carry-out") &&
         same_sized(d_tout, want.data(), n, n + GUARD, osz) &&
         same_sized(d_tin, h.data(), n, n, esz);
    tap(ok, "scan_type %s %s n=%llu %s %s%s, %s (d_in unchanged)", sc_type_name(t),
        mode == SCAN_BLOCKING ? "blocking" : "async", (unsigned long long)n, op_name[op],
        incl ? "inclusive" : "exclusive", wide ? " wide" : "", carry_name[mode]);
}

/* Two calls queued back to back, the first's d_carry_out the second's
 * d_carry_in: the same as one scan of the whole (the carries are the
 * elements' bits, ranked and unranked on the device). */
static void scan_typed_halves(sc_type t, const std::vector<uint64_t> &h, uint64_t n,
                              int op, int incl)
{
    size_t esz = sc_type_size(t);
    uint64_t half = n / 2 + (n & 1), cin = typed_carry(t, op, 0), fin = cin;
    std::vector<uint64_t> want(n + 1);
    need(sc_scan_type(g_cpu, h.data(), n, t, (sc_scan_op)op, incl, 0, want.data(), &fin),
         "sc_scan_type");
    poison(d_tout, (n + GUARD) * esz);
    upload(&d_words[1], &cin, 8);
    sc_status s1 = sc_dev_scan_type_async(g_gpu, d_tin, half, t, (sc_scan_op)op, incl, 0,
                                          &d_words[1], d_tout, &d_words[2], &g_q);
    sc_status s2 = sc_dev_scan_type_async(g_gpu, (char *)d_tin + half * esz, n - half, t,
                                          (sc_scan_op)op, incl, 0, &d_words[2],
                                          (char *)d_tout + half * esz, &d_words[3], &g_q);
    bool ok = called(s1, "sc_dev_scan_type_async, 1st half") &&
              finished(s2, "sc_dev_scan_type_async, 2nd half", g_stream) &&
              count_is(word(&d_words[3]), fin, "carry-out") &&
              same_sized(d_tout, want.data(), n, n + GUARD, esz);
    tap(ok, "scan_type %s n=%llu %s %s in two calls, the carry passed on the device",
        sc_type_name(t), (unsigned long long)n, op_name[op],
        incl ? "inclusive" : "exclusive");
}

static void test_typed_scans(uint64_t n, uint64_t seed)
{
    for (sc_type t : all_types) {
        std::vector<uint64_t> h = typed_data(t, n, seed + t);
        upload(d_tin, h.data(), n * sc_type_size(t));
        int wides = sc_type_size(t) == 4 ? 2 : 1;
        for (int op = 0; op < 4; op++) {
            if (!typed_op_ok(t, op))
                continue;
            for (int incl = 0; incl < 2; incl++)
                for (int wide = 0; wide < wides; wide++)
                    for (int mode = SCAN_CARRY; mode <= SCAN_BLOCKING; mode++)
                        scan_typed_case(t, h, n, op, incl, wide, mode);
            scan_typed_halves(t, h, n, op, op & 1);
        }
    }
}

/* The cases of sorts for every type, their bits scaled to its width
 * (top_equal: the upper half of every key the same). */
static void test_typed_sorts(uint64_t n, uint64_t seed)
{
    for (sc_type t : all_types) {
        size_t esz = sc_type_size(t);
        unsigned width = (unsigned)(8 * esz);
        std::vector<uint64_t> h = typed_data(t, n, seed + 10 * t);
        for (const sort_case &c : sorts) {
            std::vector<uint64_t> keys = h;
            if (c.top_equal) {
                for (uint64_t i = 0; i < n; i++) {
                    if (esz == 8)
                        keys[i] = (keys[i] & 0xffffffffull) | 0x5a5a5a5a00000000ull;
                    else
                        ((uint32_t *)keys.data())[i] =
                            (((uint32_t *)keys.data())[i] & 0xffffu) | 0x5a5a0000u;
                }
            }
            unsigned lo = c.lo * width / 32, hi = c.hi * width / 32;
            std::vector<uint64_t> want = keys;
            need(sc_sort_type(g_cpu, want.data(), n, t, lo, hi, c.descending),
                 "sc_sort_type");
            for (int async = 1; async >= 0; async--) {
                poison(d_tin, (n + GUARD) * esz);
                upload(d_tin, keys.data(), n * esz);
                bool ok = async
                    ? finished(sc_dev_sort_type_async(g_gpu, d_tin, n, t, lo, hi,
                                                      c.descending, &g_q),
                               "sc_dev_sort_type_async", g_stream)
                    : called(sc_dev_sort_type(g_gpu, d_tin, n, t, lo, hi, c.descending),
                             "sc_dev_sort_type");
                ok = ok && same_sized(d_tin, want.data(), n, n + GUARD, esz);
                tap(ok, "sort_type %s %s n=%llu bits %u:%u%s%s", sc_type_name(t),
                    mode_name(async), (unsigned long long)n, lo, hi,
                    c.descending ? " descending" : "", c.top_equal ? ", upper half equal" : "");
            }
        }
    }
}

/* The layouts the GPU takes: 8 and 16 bytes, every key type and place. */
static const sc_record gpu_records[] = {
    { 8, 0, SC_U32 }, { 8, 4, SC_I32 }, { 8, 4, SC_F32 }, { 8, 0, SC_U64 },
    { 8, 0, SC_F64 }, { 16, 8, SC_U64 }, { 16, 0, SC_I64 }, { 16, 8, SC_F64 },
    { 16, 12, SC_F32 }, { 16, 4, SC_I32 },
};

/* n records of r's layout: every byte from the index, the key from
 * typed_data of its type. */
static std::vector<uint64_t> record_data(const sc_record *r, uint64_t n, uint64_t seed)
{
    size_t ksz = sc_type_size(r->key_type);
    std::vector<uint64_t> v((n * r->size) / 8 + 1);
    for (size_t w = 0; w < v.size(); w++)
        v[w] = mix64(seed ^ (w * 0x632be59bd9b4e019ull));
    std::vector<uint64_t> keys = typed_data(r->key_type, n, seed);
    for (uint64_t i = 0; i < n; i++)
        memcpy((char *)v.data() + i * r->size + r->key_off, (char *)keys.data() + i * ksz,
               ksz);
    return v;
}

static void test_records_on(const sc_record *r, uint64_t n, uint64_t seed)
{
    size_t sz = r->size;
    sc_type t = r->key_type;
    std::vector<uint64_t> h = record_data(r, n, seed);
    upload(d_tin, h.data(), n * sz);
    uint64_t ten_bits = 10;
    if (t == SC_F32) ten_bits = f32_bits(10.0f);
    if (t == SC_F64) {
        double ten = 10.0;
        memcpy(&ten_bits, &ten, 8);
    }
    sc_pred p[2];
    need(sc_pred_default_type(&p[0], t), "default");
    need(sc_pred_all_type(&p[1], t), "all");
    need(sc_pred_add_cmp(&p[1], SC_LT, ten_bits), "lt");
    for (int k = 0; k < 2; k++) {
        std::vector<uint64_t> vals(h.size()), split(h.size()), pos(n + 1);
        uint64_t kept = 0, k1 = 0, k2 = 0;
        need(sc_compact_records(g_cpu, h.data(), n, r, &p[k], vals.data(), &kept),
             "sc_compact_records");
        need(sc_compact_records_indices(g_cpu, h.data(), n, r, &p[k], FIRST, pos.data(),
                                        &k1), "sc_compact_records_indices");
        need(sc_split_records(g_cpu, h.data(), n, r, &p[k], split.data(), &k2),
             "sc_split_records");
        for (int async = 1; async >= 0; async--) {
            bool ok = true;
            for (int call = 0; call < 3; call++) {
                uint64_t got = ~0ull;
                poison(d_tout, (n + GUARD) * 16);
                poison(d_trej, (n + GUARD) * 16);
                sc_status st;
                if (call == 0)
                    st = async ? sc_dev_compact_records_async(g_gpu, d_tin, n, r, &p[k],
                                                              d_tout, &d_words[0], &g_q)
                               : sc_dev_compact_records(g_gpu, d_tin, n, r, &p[k], d_tout,
                                                        &got);
                else if (call == 1)
                    st = async ? sc_dev_compact_records_indices_async(
                                     g_gpu, d_tin, n, r, &p[k], FIRST, (uint64_t *)d_tout,
                                     &d_words[0], &g_q)
                               : sc_dev_compact_records_indices(g_gpu, d_tin, n, r, &p[k],
                                                                FIRST, (uint64_t *)d_tout,
                                                                &got);
                else
                    st = async ? sc_dev_split_records_async(g_gpu, d_tin, n, r, &p[k],
                                                            d_tout, d_trej, &d_words[0],
                                                            &g_q)
                               : sc_dev_split_records(g_gpu, d_tin, n, r, &p[k], d_tout,
                                                      d_trej, &got);
                ok = ok && (async ? finished(st, "a record call", g_stream)
                                  : called(st, "a record call"));
                if (async)
                    got = word(&d_words[0]);
                ok = ok && count_is(got, kept, "kept");
                if (call == 0)
                    ok = ok && same_sized(d_tout, vals.data(), kept, n + GUARD, sz);
                else if (call == 1)
                    ok = ok && same_sized(d_tout, pos.data(), kept, n + GUARD, 8);
                else
                    ok = ok && same_sized(d_tout, split.data(), kept, n + GUARD, sz) &&
                         same_sized(d_trej, (char *)split.data() + kept * sz, n - kept,
                                    n + GUARD, sz);
            }
            tap(ok, "records of %u, %s key at %u, n=%llu, %s, %s: compact, indices, "
                "split, %llu kept", r->size, sc_type_name(t), r->key_off,
                (unsigned long long)n, k ? "key < 10" : "key != 0", mode_name(async),
                (unsigned long long)kept);
        }
    }
}

static void test_typed_records(uint64_t n, uint64_t seed)
{
    for (size_t l = 0; l < sizeof gpu_records / sizeof gpu_records[0]; l++)
        test_records_on(&gpu_records[l], n, seed + l);
}

/* The record sort and argsort (sc_dev_sort_records*,
 * sc_dev_argsort_records*) of every layout the host calls take, against
 * the CPU context's sc_sort_records and sc_argsort_records: records of 4
 * to 4096 bytes, keys of every type at the start, the middle and the
 * end; 8-byte ones with a 4-byte key in both halves (sorted whole as u64
 * words, but an f32 at 0). */
static const sc_record sort_layouts[] = {
    { 4, 0, SC_U32 }, { 4, 0, SC_F32 }, { 8, 0, SC_U32 }, { 8, 4, SC_I32 },
    { 8, 4, SC_F32 }, { 8, 0, SC_F32 }, { 8, 0, SC_U64 }, { 8, 0, SC_F64 },
    { 12, 4, SC_I32 }, { 12, 8, SC_F32 }, { 16, 8, SC_U64 }, { 16, 0, SC_I64 },
    { 16, 12, SC_F32 }, { 64, 8, SC_F64 }, { 64, 32, SC_I32 },
    { 4096, 0, SC_U32 }, { 4096, 4088, SC_I64 },
};
enum { N_SORT_LAYOUTS = sizeof sort_layouts / sizeof sort_layouts[0] };

/* The record sorts' arrays: records in and out of up to g_rbytes bytes
 * each (GUARD records more included), positions for g_tmax + GUARD. */
static void *d_rin, *d_rout;
static uint64_t *d_ridx;
static size_t g_rbytes;

/* The records of a test at n: as many as fit, GUARD more. */
static uint64_t records_fit(const sc_record *r, uint64_t n)
{
    uint64_t room = g_rbytes / r->size - GUARD;
    return n < room ? n : room;
}

/* Whether d's first `bytes` are want's and the rest of `total` poison. */
static bool same_bytes(const void *d, const void *want, size_t bytes, size_t total)
{
    std::vector<unsigned char> got(total);
    if (total)
        CK(cudaMemcpy(got.data(), d, total, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < total; i++) {
        unsigned w = i < bytes ? ((const unsigned char *)want)[i] : (unsigned)POISON;
        if (got[i] != w) {
            why("at byte %zu of %zu: got %#x, want %#x%s", i, bytes, got[i], w,
                i < bytes ? "" : " (poison: written past the end)");
            return false;
        }
    }
    return true;
}

/* A record call in mode 0 (async on g_q), 1 (async, q NULL: the
 * default stream and the context's scratch) or 2 (blocking): its status
 * and the wait for it. */
static bool record_call(int mode, sc_status st, const char *what)
{
    if (mode == 2)
        return called(st, what);
    return finished(st, what, mode == 0 ? g_stream : NULL);
}

static const char *const record_mode_name[] = { "async", "async on the default stream",
                                                "blocking" };

static void test_record_sorts_on(const sc_record *r, uint64_t n, uint64_t seed)
{
    size_t sz = r->size;
    n = records_fit(r, n);
    size_t bytes = n * sz, total = (n + GUARD) * sz;
    std::vector<uint64_t> h = record_data(r, n, seed);
    for (int desc = 0; desc < 2; desc++) {
        std::vector<uint64_t> want = h, idx(n + 1);
        need(sc_sort_records(g_cpu, want.data(), n, r, desc), "sc_sort_records");
        need(sc_argsort_records(g_cpu, h.data(), n, r, desc, idx.data()),
             "sc_argsort_records");
        for (int mode = 0; mode < 3; mode++) {
            const sc_dev_queue *q = mode == 0 ? &g_q : NULL;
            bool ok = true;
            /* in place */
            poison(d_rin, total);
            upload(d_rin, h.data(), bytes);
            sc_status st = mode < 2 ? sc_dev_sort_records_async(g_gpu, d_rin, n, r, desc,
                                                                NULL, q)
                                    : sc_dev_sort_records(g_gpu, d_rin, n, r, desc, NULL);
            ok = record_call(mode, st, "sort in place") &&
                 same_bytes(d_rin, want.data(), bytes, total);
            /* to d_out, d_recs left as it was */
            poison(d_rin, total);
            poison(d_rout, total);
            upload(d_rin, h.data(), bytes);
            st = mode < 2 ? sc_dev_sort_records_async(g_gpu, d_rin, n, r, desc, d_rout, q)
                          : sc_dev_sort_records(g_gpu, d_rin, n, r, desc, d_rout);
            ok = ok && record_call(mode, st, "sort to d_out") &&
                 same_bytes(d_rout, want.data(), bytes, total) &&
                 same_bytes(d_rin, h.data(), bytes, total);
            /* argsort */
            poison(d_ridx, (n + GUARD) * 8);
            st = mode < 2 ? sc_dev_argsort_records_async(g_gpu, d_rin, n, r, desc, d_ridx, q)
                          : sc_dev_argsort_records(g_gpu, d_rin, n, r, desc, d_ridx);
            ok = ok && record_call(mode, st, "argsort") &&
                 same<uint64_t>(d_ridx, idx.data(), n, n + GUARD) &&
                 same_bytes(d_rin, h.data(), bytes, total);
            tap(ok, "sort_records of %zu, %s key at %u, n=%llu%s, %s: in place, to d_out, "
                "argsort", sz, sc_type_name(r->key_type), r->key_off,
                (unsigned long long)n, desc ? " descending" : "", record_mode_name[mode]);
        }
    }
}

static void test_record_sorts(uint64_t n, uint64_t seed)
{
    for (int l = 0; l < N_SORT_LAYOUTS; l++)
        test_record_sorts_on(&sort_layouts[l], n, seed + l);
}

/* Record sorts captured in a graph with the caller's temp, launched
 * twice: 16-byte records in place (the gather reads a copy in the
 * scratch), 8-byte ones with a u32 key to d_out (sorted whole, the
 * result taken from where the sort left it) and an argsort of 12-byte
 * ones. */
static void test_record_graph(void)
{
    const uint64_t n = g_quick ? 4097 : 300007;
    const sc_record r16 = { 16, 8, SC_U64 }, r8 = { 8, 4, SC_I32 }, r12 = { 12, 4, SC_F32 };
    size_t tb = sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &r16);
    tb = std::max(tb, sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &r8));
    tb = std::max(tb, sc_dev_temp_bytes_records(SC_DEV_ARGSORT_RECORDS, n, &r12));
    void *temp;
    CK(cudaMalloc(&temp, tb ? tb : 256));
    sc_dev_queue q = { g_stream, temp, tb };
    char *a = (char *)d_rin, *b = (char *)d_rout;  /* r16 at a, r8 at b, to b + 8n */
    char *c = a + 16 * n;                          /* r12, argsort to d_ridx */
    cudaGraph_t graph = NULL;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status s1 = sc_dev_sort_records_async(g_gpu, a, n, &r16, 0, NULL, &q);
    sc_status s2 = sc_dev_sort_records_async(g_gpu, b, n, &r8, 1, b + 8 * n, &q);
    sc_status s3 = sc_dev_argsort_records_async(g_gpu, c, n, &r12, 0, d_ridx, &q);
    cudaError_t e = cudaStreamEndCapture(g_stream, &graph);
    if (e != cudaSuccess) {
        why("cudaStreamEndCapture: %s", cudaGetErrorString(e));
        cudaGetLastError();
    }
    bool ok = called(s1, "sort in place in capture") && called(s2, "sort to d_out in capture") &&
              called(s3, "argsort in capture") && e == cudaSuccess && graph;
    if (ok) {
        cudaGraphExec_t exec;
        CK(cudaGraphInstantiate(&exec, graph, 0));
        for (int launch = 0; launch < 2 && ok; launch++) {
            std::vector<uint64_t> h16 = record_data(&r16, n, 700 + launch),
                                  h8 = record_data(&r8, n, 710 + launch),
                                  h12 = record_data(&r12, n, 720 + launch);
            std::vector<uint64_t> w16 = h16, w8 = h8, idx(n + 1);
            need(sc_sort_records(g_cpu, w16.data(), n, &r16, 0), "sc_sort_records");
            need(sc_sort_records(g_cpu, w8.data(), n, &r8, 1), "sc_sort_records");
            need(sc_argsort_records(g_cpu, h12.data(), n, &r12, 0, idx.data()),
                 "sc_argsort_records");
            upload(a, h16.data(), n * 16);
            upload(c, h12.data(), n * 12);
            upload(b, h8.data(), n * 8);
            poison(b + 8 * n, 8 * n);
            CK(cudaGraphLaunch(exec, g_stream));
            CK(cudaStreamSynchronize(g_stream));
            ok = same_bytes(a, w16.data(), n * 16, n * 16) &&
                 same_bytes(b, h8.data(), n * 8, n * 8) &&
                 same_bytes(b + 8 * n, w8.data(), n * 8, n * 8) &&
                 same<uint64_t>(d_ridx, idx.data(), n, n);
        }
        CK(cudaGraphExecDestroy(exec));
    }
    if (graph)
        CK(cudaGraphDestroy(graph));
    CK(cudaFree(temp));
    tap(ok, "graph: 16-byte records sorted in place, 8-byte ones to d_out descending and "
        "an argsort of 12-byte ones, %llu each, captured and launched twice",
        (unsigned long long)n);
}

/* A typed scan that ranks its input (f32 max, through a copy in the
 * scratch and the carries' rank kernels) and a u64 sort, captured in a
 * graph with the caller's temp and launched twice. */
static void test_typed_graph(void)
{
    const uint64_t n = g_quick ? 4097 : 1000003;
    size_t tb = sc_dev_temp_bytes_type(SC_DEV_SCAN, n, SC_F32);
    if (sc_dev_temp_bytes_type(SC_DEV_SORT, n, SC_U64) > tb)
        tb = sc_dev_temp_bytes_type(SC_DEV_SORT, n, SC_U64);
    void *temp;
    CK(cudaMalloc(&temp, tb ? tb : 256));
    sc_dev_queue q = { g_stream, temp, tb };
    cudaGraph_t graph = NULL;
    CK(cudaStreamBeginCapture(g_stream, cudaStreamCaptureModeGlobal));
    sc_status s1 = sc_dev_scan_type_async(g_gpu, d_tin, n, SC_F32, SC_OP_MAX, 1, 0,
                                          &d_words[1], d_tout, &d_words[2], &q);
    sc_status s2 = sc_dev_sort_type_async(g_gpu, d_trej, n, SC_U64, 0, 64, 0, &q);
    cudaError_t e = cudaStreamEndCapture(g_stream, &graph);
    if (e != cudaSuccess) {
        why("cudaStreamEndCapture: %s", cudaGetErrorString(e));
        cudaGetLastError();
    }
    bool ok = called(s1, "sc_dev_scan_type_async in capture") &&
              called(s2, "sc_dev_sort_type_async in capture") && e == cudaSuccess && graph;
    if (ok) {
        cudaGraphExec_t exec;
        CK(cudaGraphInstantiate(&exec, graph, 0));
        for (int launch = 0; launch < 2 && ok; launch++) {
            std::vector<uint64_t> f = typed_data(SC_F32, n, 900 + launch);
            std::vector<uint64_t> k = typed_data(SC_U64, n, 910 + launch);
            std::vector<uint64_t> want(n + 1), sorted = k;
            uint64_t cin = 0x3f000000u, fin = cin;
            need(sc_scan_type(g_cpu, f.data(), n, SC_F32, SC_OP_MAX, 1, 0, want.data(), &fin),
                 "sc_scan_type");
            need(sc_sort_type(g_cpu, sorted.data(), n, SC_U64, 0, 64, 0), "sc_sort_type");
            upload(d_tin, f.data(), n * 4);
            upload(d_trej, k.data(), n * 8);
            upload(&d_words[1], &cin, 8);
            poison(d_tout, (n + GUARD) * 4);
            CK(cudaGraphLaunch(exec, g_stream));
            CK(cudaStreamSynchronize(g_stream));
            ok = count_is(word(&d_words[2]), fin, "carry-out") &&
                 same_sized(d_tout, want.data(), n, n + GUARD, 4) &&
                 same_sized(d_tin, f.data(), n, n, 4) &&
                 same_sized(d_trej, sorted.data(), n, n, 8);
        }
        CK(cudaGraphExecDestroy(exec));
    }
    if (graph)
        CK(cudaGraphDestroy(graph));
    CK(cudaFree(temp));
    tap(ok, "graph: f32 max scan (ranked on a copy, carries on the device) and u64 sort "
        "of %llu, captured and launched twice", (unsigned long long)n);
}

/* What the typed and record calls refuse on a GPU context: SC_ERR_USAGE
 * and nothing queued or written. */
static void test_typed_refusals(void)
{
    const uint64_t n = 4096;
    poison(d_tout, (n + GUARD) * 16);
    poison(d_words, 4 * 8);
    sc_record r12 = { 12, 0, SC_U32 }, r4 = { 4, 0, SC_U32 }, r64 = { 64, 8, SC_F64 };
    sc_record r16 = { 16, 8, SC_U64 };
    sc_pred pu32, pu64;
    need(sc_pred_default_type(&pu32, SC_U32), "default");
    need(sc_pred_default_type(&pu64, SC_U64), "default64");
    sc_pred pf64;
    need(sc_pred_default_type(&pf64, SC_F64), "default f64");
    uint64_t carry = 0, kept = 0;
    /* the scratch a u32 sort needs: short for a u64 one */
    sc_dev_queue small = { g_stream, g_temp, sc_dev_temp_bytes(SC_DEV_SORT, n) };
    /* an argsort's scratch: short for a sort in place, which copies the records */
    sc_record r64u = { 64, 8, SC_U32 }, r8 = { 8, 0, SC_U32 };
    sc_dev_queue arg_temp = { g_stream, g_temp,
                              sc_dev_temp_bytes_records(SC_DEV_ARGSORT_RECORDS, n, &r64u) };
    struct { sc_status st; const char *what; } c[] = {
        { sc_dev_scan_type_async(g_gpu, d_tin, n, SC_F32, SC_OP_SUM, 1, 0, NULL, d_tout,
                                 d_words, &g_q), "an f32 sum" },
        { sc_dev_scan_type(g_gpu, d_tin, n, SC_F64, SC_OP_SUM, 1, 0, d_tout, &carry),
          "an f64 sum" },
        { sc_dev_scan_type(g_gpu, d_tin, n, SC_F64, SC_OP_XOR, 1, 0, d_tout, &carry),
          "an f64 xor" },
        { sc_dev_scan_type(g_gpu, d_tin, n, SC_U64, SC_OP_SUM, 1, 1, d_tout, &carry),
          "a wide u64 scan" },
        { sc_dev_scan_type(g_gpu, d_tin, n, (sc_type)9, SC_OP_MAX, 1, 0, d_tout, &carry),
          "a scan of no type" },
        { sc_dev_scan_type_async(g_gpu, (char *)d_tin + 4, n, SC_I64, SC_OP_MAX, 1, 0, NULL,
                                 d_tout, d_words, &g_q), "an i64 scan off its grid" },
        { sc_dev_sort_type(g_gpu, (char *)d_tin + 2, n, SC_I32, 0, 32, 0),
          "an i32 sort off its grid" },
        { sc_dev_sort_type_async(g_gpu, d_tin, n, SC_U64, 0, 65, 0, &g_q),
          "a u64 sort of bits 0:65" },
        { sc_dev_sort_type_async(g_gpu, d_tin, n, SC_U64, 0, 64, 0, &small),
          "a u64 sort with a u32 sort's scratch" },
        { sc_dev_compact_records(g_gpu, d_tin, n, &r12, &pu32, d_tout, &kept),
          "12-byte records" },
        { sc_dev_split_records_async(g_gpu, d_tin, n, &r4, &pu32, d_tout, d_trej, d_words,
                                     &g_q), "4-byte records" },
        { sc_dev_compact_records_indices_async(g_gpu, d_tin, n, &r64, &pf64, 0,
                                               (uint64_t *)d_tout, d_words, &g_q),
          "64-byte records" },
        { sc_dev_compact_records(g_gpu, (char *)d_tin + 8, n, &r16, &pu64, d_tout, &kept),
          "16-byte records off their grid" },
        { sc_dev_compact_records(g_gpu, d_tin, n, &r16, &pu32, d_tout, &kept),
          "a u32 predicate on a u64 key" },
        { sc_dev_sort_records_async(g_gpu, d_tin, n, &r64u, 0, NULL, &arg_temp),
          "a sort of 64-byte records in place with an argsort's scratch" },
        { sc_dev_sort_records(g_gpu, d_tin, (1ull << 32) + 1, &r16, 0, NULL),
          "a sort of 2^32 + 1 records" },
        { sc_dev_argsort_records_async(g_gpu, d_tin, (1ull << 32) + 1, &r8, 1,
                                       (uint64_t *)d_tout, &g_q),
          "an argsort of 2^32 + 1 records" },
        { sc_dev_sort_records(g_gpu, d_tin, n, &r16, 0, (char *)d_tin + 16),
          "a sort to d_out overlapping d_recs" },
        { sc_dev_sort_records_async(g_gpu, (char *)d_tin + 4, n, &r8, 0, NULL, &g_q),
          "a sort of 8-byte records off their grid" },
        { sc_dev_argsort_records(g_gpu, d_tin, n, &r16, 0, (uint64_t *)((char *)d_tout + 4)),
          "an argsort to positions off their grid" },
        { sc_dev_sort_records(g_gpu, d_tin, n, NULL, 0, NULL), "a sort of no layout" },
        { sc_dev_argsort_records(g_gpu, d_tin, n, &r12, 0, NULL), "an argsort to nowhere" },
    };
    for (auto &k : c) {
        if (k.st != SC_ERR_USAGE)
            why("got %s", sc_strerror(k.st));
        tap(k.st == SC_ERR_USAGE, "%s: SC_ERR_USAGE", k.what);
    }
    sc_status sy = sc_dev_sync(g_gpu, g_stream);
    std::vector<uint64_t> pois(2 * (n + GUARD));
    memset(pois.data(), POISON, pois.size() * 8);
    bool untouched = same<uint64_t>(d_tout, pois.data(), 2 * (n + GUARD), 2 * (n + GUARD)) &&
                     same<uint64_t>(d_words, pois.data(), 4, 4);
    if (sy != SC_OK)
        why("sc_dev_sync: %s", sc_strerror(sy));
    tap(untouched && sy == SC_OK, "after the typed and record refusals nothing was "
        "written and sc_dev_sync is SC_OK");
}

/* Messages say why: each refusal's own, checked one at a time. */
static void test_typed_messages(void)
{
    uint64_t carry = 0, kept = 0;
    sc_record r12 = { 12, 0, SC_U32 };
    sc_pred p;
    need(sc_pred_default_type(&p, SC_U32), "default");
    sc_status st = sc_dev_scan_type(g_gpu, d_tin, 8, SC_F32, SC_OP_SUM, 1, 0, d_tout, &carry);
    tap(st == SC_ERR_USAGE && strstr(sc_ctx_message(g_gpu), "host"),
        "an f32 sum on device arrays says it runs on host arrays (%s)",
        sc_ctx_message(g_gpu));
    st = sc_dev_compact_records(g_gpu, d_tin, 8, &r12, &p, d_tout, &kept);
    tap(st == SC_ERR_USAGE && strstr(sc_ctx_message(g_gpu), "8- and 16-byte"),
        "12-byte records on device arrays: the message names the layouts the GPU "
        "takes (%s)", sc_ctx_message(g_gpu));
    st = sc_dev_sort_records(g_gpu, d_tin, (1ull << 32) + 5, &r12, 0, NULL);
    tap(st == SC_ERR_USAGE && strstr(sc_ctx_message(g_gpu), "2^32"),
        "a sort of more than 2^32 records on device arrays says the GPU's limit (%s)",
        sc_ctx_message(g_gpu));
}

/* ------------------------------------------------------------------ */

int main(void)
{
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        printf("1..0 # SKIP no GPU (%s)\n",
               e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        return 0;
    }
    const char *q = getenv("SC_QUICK");
    g_quick = q ? atoi(q) : 0;
    need(sc_ctx_new(&g_cpu, "cpu", 0), "sc_ctx_new(\"cpu\")");
    sc_status st = sc_ctx_new(&g_gpu, "cuda", 0);
    if (st != SC_OK) {
        why("%s (%s)", sc_strerror(st), g_gpu ? sc_ctx_message(g_gpu) : "no context");
        tap(false, "sc_ctx_new(\"cuda\") on a machine with %d GPU(s)", ndev);
        printf("1..%d\n", n_tests);
        return 1;
    }

    const uint64_t sizes[] = { 0, 1, 31, 32, 33, 4095, 4096, 65537, 1000003,
                               1ull << 24 };
    const uint64_t quick[] = { 0, 1, 33, 4096, 65537 };
    const uint64_t *sz = g_quick ? quick : sizes;
    int ns = g_quick ? 5 : (int)(sizeof sizes / sizeof sizes[0]);
    uint64_t nmax = sz[ns - 1];

    CK(cudaMalloc(&d_in, (nmax + GUARD) * 4));
    CK(cudaMalloc(&d_keys, (nmax + GUARD) * 4));
    CK(cudaMalloc(&d_rej, (nmax + GUARD) * 4));
    CK(cudaMalloc(&d_out, (nmax + GUARD) * 8));
    CK(cudaMalloc(&d_words, 4 * 8));
    const uint64_t tsizes[] = { 0, 1, 31, 33, 4095, 65537, (1ull << 20) + 3 };
    const uint64_t tquick[] = { 0, 1, 33, 4095, 65537 };
    const uint64_t *tsz = g_quick ? tquick : tsizes;
    int nts = g_quick ? 5 : (int)(sizeof tsizes / sizeof tsizes[0]);
    g_tmax = tsz[nts - 1];
    CK(cudaMalloc(&d_tin, (g_tmax + GUARD) * 16));
    CK(cudaMalloc(&d_tout, (g_tmax + GUARD) * 16));
    CK(cudaMalloc(&d_trej, (g_tmax + GUARD) * 16));
    CK(cudaMalloc(&d_figs, sizeof *d_figs));
    g_rbytes = std::max<size_t>((g_tmax + GUARD) * 16, (4095 + GUARD) * 4096);
    CK(cudaMalloc(&d_rin, g_rbytes));
    CK(cudaMalloc(&d_rout, g_rbytes));
    CK(cudaMalloc(&d_ridx, (g_tmax + GUARD) * 8));
    /* one temp for every op: the largest of what each needs */
    const sc_dev_op ops[] = { SC_DEV_COMPACT, SC_DEV_SPLIT, SC_DEV_SCAN,
                              SC_DEV_SORT, SC_DEV_GEN, SC_DEV_STAT };
    for (int k = 0; k < 6; k++)
        for (sc_type t : all_types)
            if (sc_dev_temp_bytes_type(ops[k], nmax, t) > g_temp_bytes)
                g_temp_bytes = sc_dev_temp_bytes_type(ops[k], nmax, t);
    for (const sc_record &r : sort_layouts)
        g_temp_bytes = std::max(g_temp_bytes,
                                sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS,
                                                          records_fit(&r, g_tmax), &r));
    CK(cudaMalloc(&g_temp, g_temp_bytes ? g_temp_bytes : 256));
    CK(cudaStreamCreateWithFlags(&g_stream, cudaStreamNonBlocking));
    g_q.stream = g_stream;
    g_q.temp = g_temp;
    g_q.temp_bytes = g_temp_bytes;

    for (int s = 0; s < ns; s++) {
        test_selects(sz[s], 10 * s + 1);
        test_selects64(sz[s], 10 * s + 2);
        test_scans(sz[s], 10 * s + 3);
        test_sorts(sz[s], 10 * s + 4);
        test_gens(sz[s]);
        test_stats(sz[s], 10 * s + 5);
    }
    for (int s = 0; s < nts; s++) {
        test_typed_scans(tsz[s], 100 * s + 5);
        test_typed_sorts(tsz[s], 100 * s + 6);
        test_typed_records(tsz[s], 100 * s + 7);
        test_record_sorts(tsz[s], 100 * s + 8);
    }
    test_typed_graph();
    test_record_graph();
    test_typed_refusals();
    test_typed_messages();
    test_stream_order();
    test_shared_scratch();
    test_threads();
    test_graph();
    test_graph_identity();
    test_small_temp();
    test_bad_args();
    test_stat_edges();
    test_default_queue();
    test_sync_and_nodevice();

    CK(cudaStreamDestroy(g_stream));
    CK(cudaFree(g_temp));
    CK(cudaFree(d_in));
    CK(cudaFree(d_keys));
    CK(cudaFree(d_rej));
    CK(cudaFree(d_out));
    CK(cudaFree(d_words));
    CK(cudaFree(d_tin));
    CK(cudaFree(d_tout));
    CK(cudaFree(d_trej));
    CK(cudaFree(d_figs));
    CK(cudaFree(d_rin));
    CK(cudaFree(d_rout));
    CK(cudaFree(d_ridx));
    sc_ctx_free(g_gpu);
    sc_ctx_free(g_cpu);
    printf("1..%d\n", n_tests);
    if (n_failed)
        fprintf(stderr, "%d of %d tests failed\n", n_failed, n_tests);
    return n_failed ? 1 : 0;
}
