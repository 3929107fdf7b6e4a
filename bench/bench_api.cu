/* bench_api.cu — libsc's device API, through <sc.h>, against CUB called
 * the same way on the same device buffers and data.
 *
 * For n = 2^20, 2^24, 2^28 (or the log2 sizes given) and 10/50/90 % kept:
 * compaction (cub::DeviceSelect::If), split (cub::DevicePartition::If,
 * which writes the rejects reversed after the selected), exclusive sum of
 * uint32 (cub::DeviceScan::ExclusiveSum) and sort on bits 0:32
 * (cub::DeviceRadixSort::SortKeys on a DoubleBuffer, copied back when it
 * ends in the other buffer); then the same scan and sort of uint64 at
 * 2^24 and 2^27 (sc_dev_scan_type and sc_dev_sort_type of SC_U64, on bits
 * 0:64, against CUB's on uint64_t; the uint32 rows' calls are the same
 * typed ones of SC_U32, which sc_dev_scan and sc_dev_sort are); and a
 * sort of 16-byte records at 2^24, a u64 key and a u64 value
 * (sc_dev_sort_records of { 16, 0, SC_U64 } to d_out, against
 * cub::DeviceRadixSort::SortPairs of u64 keys and u64 values, from
 * arrays it leaves as they were to others, on bits 0:64).  Each is
 * called two ways:
 *   stream-ordered  sc_dev_*_async with our temp, CUB with its temp:
 *                   QUEUED calls back to back on one stream between two
 *                   events, per call; the median of BATCHES such runs;
 *   blocking        sc_dev_* (its count or total on the host when it
 *                   returns) against CUB, then its count copied to pinned
 *                   host memory and the stream waited for; host wall
 *                   clock per call, the median of BLOCKING calls.
 * Then 10,000 compactions of 2^16 queued back to back, where the cost of
 * a call more than its work shows; and compact -> scan -> sort as a CUDA
 * graph launched repeatedly against the same chain queued call by call.
 *
 * The data is a hash of the index; the range predicate [0, p 2^32) keeps
 * a fraction p, in libsc as sc_pred_add_range and in CUB as a functor.
 * CUB gets 32-bit item counts, its fastest offsets.  A sort needs unsorted
 * keys each time: each timed sort copies them first, and the time of the
 * copies alone is taken off.  Every libsc result is checked against
 * CUB's before its row is printed.
 *
 * Columns: CUB ms and sc ms stream-ordered; x CUB = CUB ms / sc ms (above
 * 1: libsc faster); CUB+wait ms and sc blk ms blocking; blk/async = sc
 * blk ms / sc ms, what waiting for each call costs.
 *
 * Usage: bench_api [log2 n ...]   (default 20 24 28; 2^28 takes ~7.5 GiB;
 * the uint64 rows run at 2^24 and 2^27 whatever the sizes given)
 */
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>
#include <cub/cub.cuh>
#include <sc.h>

static const int QUEUED = 20, BATCHES = 5, BLOCKING = 15;
static const int SMALL_LG = 16, SMALL_CALLS = 10000;
static const int CHAIN_MAX_LG = 24;
static const int U64_LGS[] = { 24, 27 }, U64_MAX_LG = 27;
static const int RECORDS_LG = 24;
static const sc_record PAIR = { 16, 0, SC_U64 };     /* key, then value */

#define CK(call)                                                            \
    do {                                                                    \
        cudaError_t ck_ = (call);                                           \
        if (ck_ != cudaSuccess) {                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,   \
                    cudaGetErrorString(ck_));                               \
            exit(2);                                                        \
        }                                                                   \
    } while (0)

static sc_ctx *g_ctx;

#define SCK(call)                                                           \
    do {                                                                    \
        sc_status sck_ = (call);                                            \
        if (sck_ != SC_OK) {                                                \
            fprintf(stderr, "%s:%d: %s: %s (%s)\n", __FILE__, __LINE__,     \
                    #call, sc_strerror(sck_), sc_ctx_message(g_ctx));       \
            exit(2);                                                        \
        }                                                                   \
    } while (0)

/* ------------------------------------------------------------------ */
/* Buffers, shared by libsc and CUB and sized for the largest n.        */

static cudaStream_t g_s;
static sc_dev_queue g_q;                /* g_s with libsc's temp */
static void *g_cub_temp;
static size_t g_cub_bytes;
static uint32_t *d_in, *d_out, *d_rej, *d_cub, *d_cub2, *d_alt;
static uint64_t *d_cnt, *d_cub_cnt;
static uint64_t *h_cnt;                 /* pinned: CUB's count, read back */
static unsigned long long *d_bad;
static int g_failures;

/* The hash's upper 32 bits, or all 64. */
template <class T>
static __global__ void fill(T *d, uint64_t n)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t z = i * 0x9e3779b97f4a7c15ull + 12345;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        d[i] = (T)((z ^ (z >> 31)) >> (64 - 8 * sizeof(T)));
    }
}

struct in_range {
    uint32_t lo, hi;
    __device__ bool operator()(uint32_t x) const { return x >= lo && x <= hi; }
};

static uint32_t keep_hi(int keep)
{
    return (uint32_t)((double)keep / 100.0 * 4294967296.0 - 1.0);
}

static sc_pred sc_range(int keep)
{
    sc_pred p;
    sc_pred_all(&p);
    SCK(sc_pred_add_range(&p, 0, keep_hi(keep)));
    return p;
}

static in_range cub_range(int keep)
{
    in_range f = { 0, keep_hi(keep) };
    return f;
}

/* mismatches of a[i] vs b[i] (or b[b_len-1-i] when reversed) over [0, n) */
template <class T>
static __global__ void cmp_kernel(const T *a, const T *b,
                                  uint64_t n, uint64_t b_len, int reversed,
                                  unsigned long long *bad)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        if (a[i] != (reversed ? b[b_len - 1 - i] : b[i]))
            atomicAdd(bad, 1ull);
}

template <class T>
static uint64_t mismatches(const T *a, const T *b, uint64_t n,
                           uint64_t b_len, int reversed)
{
    unsigned long long h = 0;
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(d_bad, 0, 8));
    cmp_kernel<<<4096, 256>>>(a, b, n, b_len, reversed, d_bad);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&h, d_bad, 8, cudaMemcpyDeviceToHost));
    return h;
}

static uint64_t read_word(const uint64_t *d)
{
    uint64_t h;
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&h, d, 8, cudaMemcpyDeviceToHost));
    return h;
}

/* Whether libsc's result is CUB's; a mismatch is counted and printed. */
static bool agree(const char *what, int lg, int keep, uint64_t got_k,
                  uint64_t want_k, uint64_t bad)
{
    if (got_k == want_k && bad == 0)
        return true;
    printf("MISMATCH %s n=2^%d keep %d%%: count %llu vs CUB %llu, %llu "
           "elements differ\n", what, lg, keep, (unsigned long long)got_k,
           (unsigned long long)want_k, (unsigned long long)bad);
    g_failures++;
    return false;
}

/* ------------------------------------------------------------------ */
/* Timing.                                                              */

/* Per call, ms: f queued QUEUED times back to back on g_s between two
 * events; the median of BATCHES runs, after a warm-up. */
template <class F>
static double queued_ms(F f, int calls = QUEUED, int batches = BATCHES)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 2; i++)
        f();
    CK(cudaStreamSynchronize(g_s));
    std::vector<float> t(batches);
    for (int r = 0; r < batches; r++) {
        CK(cudaEventRecord(a, g_s));
        for (int i = 0; i < calls; i++)
            f();
        CK(cudaEventRecord(b, g_s));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&t[r], a, b));
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[batches / 2] / calls;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Per call, ms of host wall clock: the median of BLOCKING calls of f,
 * which returns with its result on the host; prep, untimed, before each
 * (and the device idle then). */
template <class F, class P>
static double blocking_ms(F f, P prep)
{
    std::vector<double> t(BLOCKING);
    for (int i = -2; i < BLOCKING; i++) {
        prep();
        CK(cudaDeviceSynchronize());
        double t0 = now_ms();
        f();
        if (i >= 0)
            t[i] = now_ms() - t0;
    }
    std::sort(t.begin(), t.end());
    return t[BLOCKING / 2];
}

static void no_prep(void) {}

/* ------------------------------------------------------------------ */
/* Rows.                                                                */

static void cell(double v, const char *fmt, int width)
{
    if (v < 0)
        printf(" %*s", width, "-");
    else
        printf(fmt, v);
}

/* A negative figure is one not taken. */
static void row(const char *op, int lg, int keep, double cub, double sc,
                double cub_blk, double sc_blk)
{
    char k[16] = "-";
    if (keep >= 0)
        snprintf(k, sizeof k, "%d%%", keep);
    printf("%-17s 2^%-3d %5s", op, lg, k);
    cell(cub, " %10.4f", 10);
    cell(sc, " %10.4f", 10);
    cell(cub >= 0 && sc > 0 ? cub / sc : -1, " %6.2fx", 7);
    cell(cub_blk, " %11.4f", 11);
    cell(sc_blk, " %10.4f", 10);
    cell(sc_blk >= 0 && sc > 0 ? sc_blk / sc : -1, " %8.2fx", 9);
    printf("\n");
    fflush(stdout);
}

static void header(void)
{
    printf("%-17s %-5s %5s %10s %10s %7s %11s %10s %9s\n", "op", "n", "keep",
           "CUB ms", "sc ms", "x CUB", "CUB+wait ms", "sc blk ms", "blk/async");
}

/* ------------------------------------------------------------------ */
/* The operations, each the same on both sides.                         */

static void cub_compact(uint64_t n, in_range f)
{
    size_t b = g_cub_bytes;
    CK(cub::DeviceSelect::If(g_cub_temp, b, d_in, d_cub, d_cub_cnt, (int)n, f, g_s));
}

static void cub_split(uint64_t n, in_range f)
{
    size_t b = g_cub_bytes;
    CK(cub::DevicePartition::If(g_cub_temp, b, d_in, d_cub2, d_cub_cnt, (int)n, f, g_s));
}

/* CUB's count to the host, waited for: what sc_dev_compact returns with. */
static void cub_count_back(void)
{
    CK(cudaMemcpyAsync(h_cnt, d_cub_cnt, 8, cudaMemcpyDeviceToHost, g_s));
    CK(cudaStreamSynchronize(g_s));
}

template <class T>
static void cub_scan(const T *in, T *out, uint64_t n)
{
    size_t b = g_cub_bytes;
    CK(cub::DeviceScan::ExclusiveSum(g_cub_temp, b, in, out, (int)n, g_s));
}

/* In place on keys, as libsc sorts: a DoubleBuffer, copied back when the
 * passes end in the other buffer. */
template <class T>
static void cub_sort(T *keys, T *alt, uint64_t n)
{
    cub::DoubleBuffer<T> db(keys, alt);
    size_t b = g_cub_bytes;
    CK(cub::DeviceRadixSort::SortKeys(g_cub_temp, b, db, (int)n, 0, 8 * sizeof(T), g_s));
    if (db.Current() != keys)
        CK(cudaMemcpyAsync(keys, db.Current(), n * sizeof(T), cudaMemcpyDeviceToDevice,
                           g_s));
}

template <class T> static sc_type type_of(void);
template <> sc_type type_of<uint32_t>(void) { return SC_U32; }
template <> sc_type type_of<uint64_t>(void) { return SC_U64; }

static void bench_compact(uint64_t n, int lg, int keep)
{
    sc_pred p = sc_range(keep);
    in_range f = cub_range(keep);
    uint64_t kept = 0;
    cub_compact(n, f);
    SCK(sc_dev_compact_async(g_ctx, d_in, n, &p, d_out, d_cnt, &g_q));
    uint64_t k = read_word(d_cub_cnt), got = read_word(d_cnt);
    if (!agree("compact async", lg, keep, got, k, got == k ? mismatches(d_out, d_cub, k, k, 0) : 0))
        return;
    SCK(sc_dev_compact(g_ctx, d_in, n, &p, d_out, &kept));
    if (!agree("compact", lg, keep, kept, k, kept == k ? mismatches(d_out, d_cub, k, k, 0) : 0))
        return;

    double cub = queued_ms([&] { cub_compact(n, f); });
    double sc = queued_ms([&] {
        SCK(sc_dev_compact_async(g_ctx, d_in, n, &p, d_out, d_cnt, &g_q));
    });
    double cub_blk = blocking_ms([&] { cub_compact(n, f); cub_count_back(); }, no_prep);
    double sc_blk = blocking_ms([&] {
        SCK(sc_dev_compact(g_ctx, d_in, n, &p, d_out, &kept));
    }, no_prep);
    row("compact", lg, keep, cub, sc, cub_blk, sc_blk);
}

static void bench_split(uint64_t n, int lg, int keep)
{
    sc_pred p = sc_range(keep);
    in_range f = cub_range(keep);
    uint64_t sel = 0;
    cub_split(n, f);
    SCK(sc_dev_split_async(g_ctx, d_in, n, &p, d_out, d_rej, d_cnt, &g_q));
    uint64_t k = read_word(d_cub_cnt), got = read_word(d_cnt);
    uint64_t bad = 0;
    if (got == k)   /* CUB's rejects are reversed at its end */
        bad = mismatches(d_out, d_cub2, k, k, 0) +
              mismatches(d_rej, d_cub2 + k, n - k, n - k, 1);
    if (!agree("split async", lg, keep, got, k, bad))
        return;
    SCK(sc_dev_split(g_ctx, d_in, n, &p, d_out, d_rej, &sel));
    if (!agree("split", lg, keep, sel, k, sel == k ? mismatches(d_out, d_cub2, k, k, 0) : 0))
        return;

    double cub = queued_ms([&] { cub_split(n, f); });
    double sc = queued_ms([&] {
        SCK(sc_dev_split_async(g_ctx, d_in, n, &p, d_out, d_rej, d_cnt, &g_q));
    });
    double cub_blk = blocking_ms([&] { cub_split(n, f); cub_count_back(); }, no_prep);
    double sc_blk = blocking_ms([&] {
        SCK(sc_dev_split(g_ctx, d_in, n, &p, d_out, d_rej, &sel));
    }, no_prep);
    row("split", lg, keep, cub, sc, cub_blk, sc_blk);
}

/* Exclusive sums of T in d_in's bytes to d_out's, CUB's to d_cub's. */
template <class T>
static void bench_scan(uint64_t n, int lg, const char *name)
{
    const sc_type t = type_of<T>();
    const T *in = (const T *)d_in;
    T *out = (T *)d_out, *cub_out = (T *)d_cub;
    uint64_t carry = 0;
    auto sc_async = [&] {
        SCK(sc_dev_scan_type_async(g_ctx, in, n, t, SC_OP_SUM, 0, 0, NULL, out, NULL, &g_q));
    };
    auto sc_blocking = [&] {
        carry = 0;
        SCK(sc_dev_scan_type(g_ctx, in, n, t, SC_OP_SUM, 0, 0, out, &carry));
    };
    cub_scan(in, cub_out, n);
    sc_async();
    if (!agree("exclusive sum async", lg, -1, 0, 0, mismatches(out, cub_out, n, n, 0)))
        return;
    sc_blocking();
    if (!agree("exclusive sum", lg, -1, 0, 0, mismatches(out, cub_out, n, n, 0)))
        return;

    double cub = queued_ms([&] { cub_scan(in, cub_out, n); });
    double sc = queued_ms(sc_async);
    /* CUB has no total to bring back: the wait alone */
    double cub_blk = blocking_ms([&] {
        cub_scan(in, cub_out, n);
        CK(cudaStreamSynchronize(g_s));
    }, no_prep);
    double sc_blk = blocking_ms(sc_blocking, no_prep);
    row(name, lg, -1, cub, sc, cub_blk, sc_blk);
}

template <class T>
static void copy_keys(T *keys, uint64_t n)
{
    CK(cudaMemcpyAsync(keys, d_in, n * sizeof(T), cudaMemcpyDeviceToDevice, g_s));
}

/* Sorts of T on all their bits: copies of d_in in d_out and (CUB's, its
 * other buffer d_cub2) d_cub. */
template <class T>
static void bench_sort(uint64_t n, int lg, const char *name)
{
    const sc_type t = type_of<T>();
    const unsigned bits = 8 * sizeof(T);
    T *out = (T *)d_out, *cub_keys = (T *)d_cub, *cub_alt = (T *)d_cub2;
    auto sc_async = [&] { SCK(sc_dev_sort_type_async(g_ctx, out, n, t, 0, bits, 0, &g_q)); };
    auto sc_blocking = [&] { SCK(sc_dev_sort_type(g_ctx, out, n, t, 0, bits, 0)); };
    copy_keys(cub_keys, n);
    cub_sort(cub_keys, cub_alt, n);
    copy_keys(out, n);
    sc_async();
    if (!agree("sort async", lg, -1, 0, 0, mismatches(out, cub_keys, n, n, 0)))
        return;
    copy_keys(out, n);
    CK(cudaStreamSynchronize(g_s));
    sc_blocking();
    if (!agree("sort", lg, -1, 0, 0, mismatches(out, cub_keys, n, n, 0)))
        return;

    double copy = queued_ms([&] { copy_keys(out, n); });
    double cub = queued_ms([&] { copy_keys(cub_keys, n); cub_sort(cub_keys, cub_alt, n); });
    double sc = queued_ms([&] {
        copy_keys(out, n);
        sc_async();
    });
    double cub_blk = blocking_ms([&] {
        cub_sort(cub_keys, cub_alt, n);
        CK(cudaStreamSynchronize(g_s));
    }, [&] { copy_keys(cub_keys, n); });
    double sc_blk = blocking_ms(sc_blocking, [&] { copy_keys(out, n); });
    row(name, lg, -1, cub - copy, sc - copy, cub_blk, sc_blk);
}

/* The records' keys to keys[0, n), their values to vals[0, n). */
static __global__ void split_pairs(const uint64_t *recs, uint64_t n, uint64_t *keys,
                                   uint64_t *vals)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        keys[i] = recs[2 * i];
        vals[i] = recs[2 * i + 1];
    }
}

/* 16-byte records (PAIR) in d_in sorted to d_out, against CUB's pairs from
 * d_cub (keys, then values) to d_cub2: both leave their input as it was,
 * so nothing is copied between calls.  The result is checked as pairs
 * (the sort is stable on both sides, so equal keys' values agree too). */
static void bench_sort_records(uint64_t n, int lg)
{
    const uint64_t *recs = (const uint64_t *)d_in;
    uint64_t *keys = (uint64_t *)d_cub, *vals = keys + n;
    uint64_t *keys_out = (uint64_t *)d_cub2, *vals_out = keys_out + n;
    split_pairs<<<4096, 256>>>(recs, n, keys, vals);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    auto cub_pairs = [&] {
        size_t b = g_cub_bytes;
        CK(cub::DeviceRadixSort::SortPairs(g_cub_temp, b, keys, keys_out, vals, vals_out,
                                           (int)n, 0, 64, g_s));
    };
    auto sc_async = [&] { SCK(sc_dev_sort_records_async(g_ctx, d_in, n, &PAIR, 0, d_out,
                                                        &g_q)); };
    auto sc_blocking = [&] { SCK(sc_dev_sort_records(g_ctx, d_in, n, &PAIR, 0, d_out)); };
    cub_pairs();
    uint64_t *out = (uint64_t *)d_out, *sorted = vals + n;
    for (int blocking = 0; blocking < 2; blocking++) {
        CK(cudaMemset(d_out, 0, n * 16));
        CK(cudaDeviceSynchronize());
        if (blocking)
            sc_blocking();
        else
            sc_async();
        CK(cudaDeviceSynchronize());
        /* the records' keys and values side by side, against CUB's */
        split_pairs<<<4096, 256>>>(out, n, sorted, sorted + n);
        CK(cudaGetLastError());
        uint64_t bad = mismatches(sorted, keys_out, n, n, 0) +
                       mismatches(sorted + n, vals_out, n, n, 0);
        if (!agree(blocking ? "sort records" : "sort records async", lg, -1, 0, 0, bad))
            return;
    }
    double cub = queued_ms(cub_pairs);
    double sc = queued_ms(sc_async);
    double cub_blk = blocking_ms([&] {
        cub_pairs();
        CK(cudaStreamSynchronize(g_s));
    }, no_prep);
    double sc_blk = blocking_ms(sc_blocking, no_prep);
    row("sort records 16 B", lg, -1, cub, sc, cub_blk, sc_blk);
}

/* 10,000 compactions of 2^16 queued back to back: one timed run each. */
static void bench_many_small(void)
{
    const uint64_t n = 1ull << SMALL_LG;
    const int keep = 50;
    sc_pred p = sc_range(keep);
    in_range f = cub_range(keep);
    uint64_t kept = 0;
    fill<<<1024, 256>>>(d_in, n);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    cub_compact(n, f);
    SCK(sc_dev_compact_async(g_ctx, d_in, n, &p, d_out, d_cnt, &g_q));
    uint64_t k = read_word(d_cub_cnt), got = read_word(d_cnt);
    if (!agree("compact async", SMALL_LG, keep, got, k,
               got == k ? mismatches(d_out, d_cub, k, k, 0) : 0))
        return;
    double cub = queued_ms([&] { cub_compact(n, f); }, SMALL_CALLS, 1);
    double sc = queued_ms([&] {
        SCK(sc_dev_compact_async(g_ctx, d_in, n, &p, d_out, d_cnt, &g_q));
    }, SMALL_CALLS, 1);
    double cub_blk = blocking_ms([&] { cub_compact(n, f); cub_count_back(); }, no_prep);
    double sc_blk = blocking_ms([&] {
        SCK(sc_dev_compact(g_ctx, d_in, n, &p, d_out, &kept));
    }, no_prep);
    row("compact x10^4", SMALL_LG, keep, cub, sc, cub_blk, sc_blk);
}

/* compact -> exclusive sum of the kept -> sort of the kept, the kept
 * array zeroed first so that all of it is defined: libsc in d_out (scan
 * in d_rej), CUB in d_cub (scan in d_cub2, sort's other buffer d_alt). */
static void sc_chain(uint64_t n, const sc_pred *p)
{
    CK(cudaMemsetAsync(d_out, 0, n * 4, g_s));
    SCK(sc_dev_compact_async(g_ctx, d_in, n, p, d_out, d_cnt, &g_q));
    SCK(sc_dev_scan_async(g_ctx, d_out, n, SC_OP_SUM, 0, 0, NULL, d_rej, NULL, &g_q));
    SCK(sc_dev_sort_async(g_ctx, d_out, n, 0, 32, 0, &g_q));
}

static void cub_chain_calls(uint64_t n, in_range f)
{
    cub_compact(n, f);
    cub_scan(d_cub, d_cub2, n);
    cub_sort(d_cub, d_alt, n);
}

static void cub_chain(uint64_t n, in_range f)
{
    CK(cudaMemsetAsync(d_cub, 0, n * 4, g_s));
    cub_chain_calls(n, f);
}

/* Different bytes on each side, so that two chains that did nothing
 * do not agree. */
static void poison_chains(uint64_t n)
{
    CK(cudaMemsetAsync(d_out, 0xab, n * 4, g_s));
    CK(cudaMemsetAsync(d_rej, 0xab, n * 4, g_s));
    CK(cudaMemsetAsync(d_cnt, 0xab, 8, g_s));
    CK(cudaMemsetAsync(d_cub, 0xcd, n * 4, g_s));
    CK(cudaMemsetAsync(d_cub2, 0xcd, n * 4, g_s));
    CK(cudaMemsetAsync(d_cub_cnt, 0xcd, 8, g_s));
}

static bool chains_agree(uint64_t n, int lg, const char *what)
{
    uint64_t k = read_word(d_cub_cnt), got = read_word(d_cnt);
    uint64_t bad = got == k ? mismatches(d_out, d_cub, n, n, 0) +
                              mismatches(d_rej, d_cub2, n, n, 0) : 0;
    return agree(what, lg, 50, got, k, bad);
}

/* Captures f on g_s as a graph, ready to launch; NULL (a failure
 * counted) when the capture is refused, so that the rest still runs. */
template <class F>
static cudaGraphExec_t capture(const char *what, F f)
{
    cudaGraph_t g = NULL;
    cudaGraphExec_t exec = NULL;
    CK(cudaStreamBeginCapture(g_s, cudaStreamCaptureModeGlobal));
    f();
    cudaError_t e = cudaStreamEndCapture(g_s, &g);
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&exec, g, 0);
    if (g)
        CK(cudaGraphDestroy(g));
    if (e != cudaSuccess) {
        printf("FAILED capturing %s in a CUDA graph: %s\n", what, cudaGetErrorString(e));
        cudaGetLastError();
        g_failures++;
        return NULL;
    }
    return exec;
}

static void bench_chain(uint64_t n, int lg)
{
    const int keep = 50;
    sc_pred p = sc_range(keep);
    in_range f = cub_range(keep);
    poison_chains(n);
    cub_chain(n, f);
    sc_chain(n, &p);
    if (!chains_agree(n, lg, "chain"))
        return;
    cudaGraphExec_t sc_g = capture("libsc's chain", [&] { sc_chain(n, &p); });
    cudaGraphExec_t cub_g = capture("CUB's chain", [&] { cub_chain(n, f); });
    if (!sc_g || !cub_g) {
        if (sc_g) CK(cudaGraphExecDestroy(sc_g));
        if (cub_g) CK(cudaGraphExecDestroy(cub_g));
        return;
    }
    poison_chains(n);
    CK(cudaGraphLaunch(cub_g, g_s));
    CK(cudaGraphLaunch(sc_g, g_s));
    if (chains_agree(n, lg, "chain graph")) {
        double cub = queued_ms([&] { cub_chain(n, f); });
        double sc = queued_ms([&] { sc_chain(n, &p); });
        /* blocking: the zeroing untimed on both sides */
        double cub_blk = blocking_ms([&] {
            cub_chain_calls(n, f);
            CK(cudaStreamSynchronize(g_s));
        }, [&] { CK(cudaMemsetAsync(d_cub, 0, n * 4, g_s)); });
        double sc_blk = blocking_ms([&] {
            uint64_t kept, carry = 0;
            SCK(sc_dev_compact(g_ctx, d_in, n, &p, d_out, &kept));
            SCK(sc_dev_scan(g_ctx, d_out, n, SC_OP_SUM, 0, 0, d_rej, &carry));
            SCK(sc_dev_sort(g_ctx, d_out, n, 0, 32, 0));
        }, [&] { CK(cudaMemsetAsync(d_out, 0, n * 4, g_s)); });
        row("chain queued", lg, keep, cub, sc, cub_blk, sc_blk);
        double cub_gr = queued_ms([&] { CK(cudaGraphLaunch(cub_g, g_s)); });
        double sc_gr = queued_ms([&] { CK(cudaGraphLaunch(sc_g, g_s)); });
        row("chain graph", lg, keep, cub_gr, sc_gr, -1, -1);
    }
    CK(cudaGraphExecDestroy(sc_g));
    CK(cudaGraphExecDestroy(cub_g));
}

/* ------------------------------------------------------------------ */

/* The most temp any call needs at any of the sizes, libsc's and CUB's. */
static void size_temps(const std::vector<int> &lgs, size_t *sc_b, size_t *cub_b)
{
    const sc_dev_op ops[] = { SC_DEV_COMPACT, SC_DEV_SPLIT, SC_DEV_SCAN, SC_DEV_SORT };
    std::vector<int> all = lgs;
    all.push_back(SMALL_LG);
    in_range f = { 0, 0 };
    *sc_b = *cub_b = 0;
    for (int lg : all) {
        uint64_t n = 1ull << lg;
        for (sc_dev_op op : ops)
            *sc_b = std::max(*sc_b, sc_dev_temp_bytes(op, n));
        size_t b = 0;
        cub::DoubleBuffer<uint32_t> db(d_cub, d_alt);
        CK(cub::DeviceSelect::If(NULL, b, d_in, d_cub, d_cub_cnt, (int)n, f));
        *cub_b = std::max(*cub_b, b);
        CK(cub::DevicePartition::If(NULL, b, d_in, d_cub2, d_cub_cnt, (int)n, f));
        *cub_b = std::max(*cub_b, b);
        CK(cub::DeviceScan::ExclusiveSum(NULL, b, d_in, d_cub, (int)n));
        *cub_b = std::max(*cub_b, b);
        CK(cub::DeviceRadixSort::SortKeys(NULL, b, db, (int)n, 0, 32));
        *cub_b = std::max(*cub_b, b);
    }
    for (int lg : U64_LGS) {
        uint64_t n = 1ull << lg;
        for (sc_dev_op op : ops)
            *sc_b = std::max(*sc_b, sc_dev_temp_bytes_type(op, n, SC_U64));
        size_t b = 0;
        uint64_t *in = (uint64_t *)d_in, *keys = (uint64_t *)d_cub;
        cub::DoubleBuffer<uint64_t> db(keys, (uint64_t *)d_cub2);
        CK(cub::DeviceScan::ExclusiveSum(NULL, b, in, keys, (int)n));
        *cub_b = std::max(*cub_b, b);
        CK(cub::DeviceRadixSort::SortKeys(NULL, b, db, (int)n, 0, 64));
        *cub_b = std::max(*cub_b, b);
    }
    uint64_t n = 1ull << RECORDS_LG;
    *sc_b = std::max(*sc_b, sc_dev_temp_bytes_records(SC_DEV_SORT_RECORDS, n, &PAIR));
    size_t b = 0;
    uint64_t *k = (uint64_t *)d_cub;
    CK(cub::DeviceRadixSort::SortPairs(NULL, b, k, k, k, k, (int)n, 0, 64));
    *cub_b = std::max(*cub_b, b);
}

static void *dev_alloc(size_t bytes, double *total)
{
    void *p;
    CK(cudaMalloc(&p, bytes ? bytes : 256));
    *total += bytes;
    return p;
}

int main(int argc, char **argv)
{
    std::vector<int> lgs;
    for (int i = 1; i < argc; i++) {
        int lg = atoi(argv[i]);
        if (lg < SMALL_LG || lg > 30) {
            fprintf(stderr, "bench_api: log2 n %s is out of [%d, 30]\n", argv[i], SMALL_LG);
            return 2;
        }
        lgs.push_back(lg);
    }
    if (lgs.empty())
        lgs = { 20, 24, 28 };
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }
    sc_status st = sc_ctx_new(&g_ctx, "cuda", 0);
    if (st != SC_OK) {
        fprintf(stderr, "bench_api: sc_ctx_new(\"cuda\"): %s (%s)\n", sc_strerror(st),
                g_ctx ? sc_ctx_message(g_ctx) : "no context");
        return 1;
    }
    uint64_t nmax = 1ull << *std::max_element(lgs.begin(), lgs.end());
    uint64_t nchain = std::min<uint64_t>(nmax, 1ull << CHAIN_MAX_LG);
    /* room for nmax uint32 or the uint64 rows' largest n */
    size_t bytes = std::max<size_t>(nmax * 4, (1ull << U64_MAX_LG) * 8);
    double total = 0;
    d_in = (uint32_t *)dev_alloc(bytes, &total);
    d_out = (uint32_t *)dev_alloc(bytes, &total);
    d_rej = (uint32_t *)dev_alloc(nmax * 4, &total);
    d_cub = (uint32_t *)dev_alloc(bytes, &total);
    d_cub2 = (uint32_t *)dev_alloc(bytes, &total);
    d_alt = (uint32_t *)dev_alloc(nchain * 4, &total);
    d_cnt = (uint64_t *)dev_alloc(8, &total);
    d_cub_cnt = (uint64_t *)dev_alloc(8, &total);
    d_bad = (unsigned long long *)dev_alloc(8, &total);
    CK(cudaMallocHost(&h_cnt, 8));
    size_t sc_b, cub_b;
    size_temps(lgs, &sc_b, &cub_b);
    g_q.temp = dev_alloc(sc_b, &total);
    g_q.temp_bytes = sc_b;
    g_cub_temp = dev_alloc(cub_b, &total);
    g_cub_bytes = cub_b;
    CK(cudaStreamCreateWithFlags(&g_s, cudaStreamNonBlocking));
    g_q.stream = g_s;

    cudaDeviceProp prop;
    int dev;
    CK(cudaGetDevice(&dev));
    CK(cudaGetDeviceProperties(&prop, dev));
    printf("device: %s; libsc %s on %s; %.2f GiB of buffers (sc temp %.0f MiB, "
           "CUB temp %.0f MiB)\n", prop.name, sc_version(), sc_ctx_device_name(g_ctx),
           total / (1u << 30), sc_b / 1048576.0, cub_b / 1048576.0);
    printf("stream-ordered: per call, median of %d runs of %d calls queued on one "
           "stream (cudaEvent); blocking: per call, median of %d, host wall clock\n",
           BATCHES, QUEUED, BLOCKING);
    header();

    for (int lg : lgs) {
        uint64_t n = 1ull << lg;
        fill<<<4096, 256>>>(d_in, n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        for (int keep : { 10, 50, 90 })
            bench_compact(n, lg, keep);
        for (int keep : { 10, 50, 90 })
            bench_split(n, lg, keep);
        bench_scan<uint32_t>(n, lg, "exclusive sum");
        bench_sort<uint32_t>(n, lg, "sort 0:32");
        if (lg <= CHAIN_MAX_LG)
            bench_chain(n, lg);
    }
    for (int lg : U64_LGS) {
        uint64_t n = 1ull << lg;
        fill<<<4096, 256>>>((uint64_t *)d_in, n);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        bench_scan<uint64_t>(n, lg, "excl sum u64");
        bench_sort<uint64_t>(n, lg, "sort u64 0:64");
    }
    fill<<<4096, 256>>>((uint64_t *)d_in, 2ull << RECORDS_LG);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    bench_sort_records(1ull << RECORDS_LG, RECORDS_LG);
    bench_many_small();

    CK(cudaStreamDestroy(g_s));
    CK(cudaFreeHost(h_cnt));
    for (void *p : { (void *)d_in, (void *)d_out, (void *)d_rej, (void *)d_cub,
                     (void *)d_cub2, (void *)d_alt, (void *)d_cnt, (void *)d_cub_cnt,
                     (void *)d_bad, g_q.temp, g_cub_temp })
        CK(cudaFree(p));
    sc_ctx_free(g_ctx);
    if (g_failures)
        printf("%d MISMATCH(ES)\n", g_failures);
    return g_failures ? 1 : 0;
}
