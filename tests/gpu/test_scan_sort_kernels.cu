/* test_scan_sort_kernels.cu — scg_scan and scg_sort against CPU references.
 *
 * Standalone, TAP output.  Build:
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I lib/core -I kernels \
 *        tests/gpu/test_scan_sort_kernels.cu kernels/scan.cu kernels/sort.cu
 * With -DSCG_TUNE it tests every measured tile configuration of the scan
 * and of the sort, not only the default.  SC_QUICK=1 or 2 keeps to small
 * sizes (for compute-sanitizer).
 * Without a usable GPU it prints "1..0 # SKIP no CUDA GPU" and exits 0.
 */
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "sc_kernels.h"
#include "cuda_check.cuh"

#ifdef SCG_TUNE
extern "C" int scg_scan_tune(int cfg);
extern "C" int scg_sort_tune(int cfg);
#endif

#include "gpu_tap.cuh"

static DevBuf g_in, g_out, g_scratch, g_alt, g_carry;

static const char *op_name[] = { "sum", "max", "min", "xor" };

/* ---------------- scan ---------------- */

static uint64_t ref_op(int op, uint64_t a, uint64_t b, int wide)
{
    uint64_t r;
    switch (op) {
    case SC_OP_SUM: r = a + b; break;
    case SC_OP_MAX: r = std::max(a, b); break;
    case SC_OP_MIN: r = std::min(a, b); break;
    default: r = a ^ b; break;
    }
    return wide ? r : (uint32_t)r;
}

/* Expected outputs (as uint64) and final accumulator. */
static uint64_t ref_scan(const std::vector<uint32_t> &in, int op, int incl,
                         int wide, uint64_t carry, std::vector<uint64_t> &out)
{
    uint64_t acc = wide ? carry : (uint32_t)carry;
    out.resize(in.size());
    for (size_t i = 0; i < in.size(); i++) {
        uint64_t nxt = ref_op(op, acc, in[i], wide);
        out[i] = incl ? nxt : acc;
        acc = nxt;
    }
    return acc;
}

/* Values whose scan is interesting for each op: max and min of full-range
 * random data settle after a few elements, so ranges vary. */
static std::vector<uint32_t> scan_data(size_t n, int variant)
{
    std::vector<uint32_t> v(n);
    int shift = variant % 3 == 0 ? 0 : variant % 3 == 1 ? 12 : 28;
    for (size_t i = 0; i < n; i++)
        v[i] = (uint32_t)(rnd64() >> 32) >> shift;
    if (variant & 1)        /* a slow ramp, so max keeps changing */
        for (size_t i = 0; i < n; i++)
            v[i] = (uint32_t)(i / 3) ^ (v[i] & 7);
    return v;
}

/* Runs one or two chained scg_scan calls (split at `cut`) with the
 * pointers offset by `off` elements; compares outputs and carry-out. */
static bool gpu_scan_check(const std::vector<uint32_t> &h, int op, int incl,
                           int wide, uint64_t carry, size_t off, size_t cut,
                           const char **why)
{
    size_t n = h.size(), esz = wide ? 8 : 4;
    uint32_t *d_in = (uint32_t *)g_in.get((n + off) * 4 + 16) + off;
    char *d_out = (char *)g_out.get((n + off) * esz + 16) + off * esz;
    uint64_t *d_carry = (uint64_t *)g_carry.get(4 * 8);
    void *d_scr = g_scratch.get(scg_scan_scratch(n));
    SCG_CHECK_DIE(cudaMemcpy(d_in, h.data(), n * 4, cudaMemcpyHostToDevice));
    SCG_CHECK_DIE(cudaMemset(g_out.p, 0xa5, g_out.size));
    SCG_CHECK_DIE(cudaMemset(d_carry, 0x5a, 4 * 8));
    SCG_CHECK_DIE(cudaMemcpy(d_carry, &carry, 8, cudaMemcpyHostToDevice));

    int rc;
    if (cut == 0 || cut >= n) {
        rc = scg_scan(d_in, n, op, incl, wide, d_carry, d_out, d_carry + 2, d_scr, 0);
    } else {
        rc = scg_scan(d_in, cut, op, incl, wide, d_carry, d_out, d_carry + 1, d_scr, 0);
        if (rc == 0)
            rc = scg_scan(d_in + cut, n - cut, op, incl, wide, d_carry + 1,
                          d_out + cut * esz, d_carry + 2, d_scr, 0);
    }
    if (rc != 0) { *why = "scg_scan returned an error"; return false; }
    SCG_CHECK_DIE(cudaDeviceSynchronize());

    std::vector<uint64_t> want;
    uint64_t want_total = ref_scan(h, op, incl, wide, carry, want);
    std::vector<char> got(n * esz + 1);
    uint64_t got_total;
    SCG_CHECK_DIE(cudaMemcpy(got.data(), d_out, n * esz, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(&got_total, d_carry + 2, 8, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        uint64_t g;
        if (wide) memcpy(&g, &got[i * 8], 8);
        else { uint32_t g32; memcpy(&g32, &got[i * 4], 4); g = g32; }
        if (g != want[i]) {
            static char buf[160];
            snprintf(buf, sizeof buf, "out[%zu] = %llu, want %llu", i,
                     (unsigned long long)g, (unsigned long long)want[i]);
            *why = buf;
            return false;
        }
    }
    /* the padding past the end must be untouched */
    unsigned char tail[8];
    SCG_CHECK_DIE(cudaMemcpy(tail, d_out + n * esz, 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        if (tail[i] != 0xa5) { *why = "wrote past the end"; return false; }
    if (got_total != want_total) {
        static char buf[160];
        snprintf(buf, sizeof buf, "carry_out = %llu, want %llu",
                 (unsigned long long)got_total, (unsigned long long)want_total);
        *why = buf;
        return false;
    }
    return true;
}

static void test_scan()
{
    /* 16384: the default tile; 7680, 15872: the persistent ones' */
    const size_t sizes[] = { 0, 1, 2, 3, 31, 32, 33, 4095, 4096, 4097,
                             7679, 7680, 7681, 15871, 15872, 15873,
                             16383, 16384, 16385, 65537, 999983, 4194319,
                             16777216 + 3 };
    int variant = 0;
    const char *q = getenv("SC_QUICK");
    int ql = q ? atoi(q) : 0;
    size_t max_n = ql == 1 ? 65537 : ql == 2 ? 4097 : ~(size_t)0;
    for (size_t n : sizes)
        for (int op = 0; op < 4; op++)
            for (int wide = 0; wide < 2; wide++)
                for (int incl = 0; incl < 2; incl++) {
                    if (n > max_n)
                        continue;
                    std::vector<uint32_t> h = scan_data(n, variant++);
                    uint64_t carry = rnd64();
                    if (!wide) carry = (uint32_t)carry;
                    else carry >>= (op == SC_OP_MIN ? 0 : 20);
                    const char *why = "";
                    bool ok = gpu_scan_check(h, op, incl, wide, carry, 0, 0, &why);
                    tap(ok, "scan %s %s%s n=%zu carry=%llu %s", op_name[op],
                        incl ? "inclusive" : "exclusive", wide ? " wide" : "",
                        n, (unsigned long long)carry, ok ? "" : why);
                }

    if (ql == 2)
        return;
    /* misaligned pointers, and a scan cut in two chained calls */
    const size_t cut_sizes[][2] = { { 100, 37 }, { 65537, 4096 },
                                    { 1000003, 333331 }, { 8192, 8191 } };
    for (auto &nc : cut_sizes)
        for (int op = 0; op < 4; op++)
            for (int wide = 0; wide < 2; wide++)
                for (int incl = 0; incl < 2; incl++) {
                    std::vector<uint32_t> h = scan_data(nc[0], variant++);
                    uint64_t carry = (uint32_t)rnd64();
                    const char *why = "";
                    bool ok = gpu_scan_check(h, op, incl, wide, carry, 1, nc[1], &why);
                    tap(ok, "scan %s %s%s n=%zu chained at %zu, misaligned %s",
                        op_name[op], incl ? "inclusive" : "exclusive",
                        wide ? " wide" : "", nc[0], nc[1], ok ? "" : why);
                }
}

/* ---------------- sort ---------------- */

enum { D_RANDOM, D_FEW, D_SORTED, D_REVERSED, D_EQUAL, D_NARROW, D_LOW_FIXED };
static const char *dist_name[] = { "random", "few distinct", "sorted",
                                   "reversed", "all equal", "narrow",
                                   "low byte fixed" };

static std::vector<uint32_t> sort_data(size_t n, int dist)
{
    std::vector<uint32_t> v(n);
    uint32_t few[5];
    for (int i = 0; i < 5; i++) few[i] = (uint32_t)(rnd64() >> 32);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = (uint32_t)(rnd64() >> 32);
        switch (dist) {
        case D_RANDOM: v[i] = r; break;
        case D_FEW: v[i] = few[r % 5]; break;
        case D_SORTED: v[i] = (uint32_t)(i * 2654435ull); break;
        case D_REVERSED: v[i] = (uint32_t)((n - i) * 977ull); break;
        case D_EQUAL: v[i] = 0xdeadbeefu; break;
        case D_NARROW: v[i] = 0x12340000u | (r & 0x0f0f); break;  /* few live bits */
        default: v[i] = (r & ~0xffu) | 0x5a; break;   /* the first pass skipped */
        }
    }
    if (dist == D_SORTED) std::sort(v.begin(), v.end());
    if (dist == D_REVERSED) std::sort(v.rbegin(), v.rend());
    return v;
}

static bool gpu_sort_check(const std::vector<uint32_t> &h, unsigned lo,
                           unsigned hi, int desc, size_t off, const char **why)
{
    size_t n = h.size();
    uint32_t *d_keys = (uint32_t *)g_in.get((n + off) * 4 + 16) + off;
    uint32_t *d_alt = (uint32_t *)g_alt.get((n + off) * 4 + 16) + off;
    void *d_scr = g_scratch.get(scg_sort_scratch(n));
    SCG_CHECK_DIE(cudaMemset(g_alt.p, 0xa5, g_alt.size));
    SCG_CHECK_DIE(cudaMemset(g_scratch.p, 0x77, g_scratch.size));
    SCG_CHECK_DIE(cudaMemcpy(d_keys, h.data(), n * 4, cudaMemcpyHostToDevice));
    int is_alt = -1;
    int rc = scg_sort(d_keys, d_alt, n, lo, hi, desc, &is_alt, d_scr, 0);
    if (rc != 0) { *why = cudaGetErrorString((cudaError_t)rc); return false; }
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    if (is_alt != 0 && is_alt != 1) { *why = "result_is_alt not set"; return false; }

    /* reference: stable sort by the (complemented) masked key */
    uint32_t mask = (hi - lo == 32 ? 0xffffffffu : ((1u << (hi - lo)) - 1)) << lo;
    std::vector<uint32_t> want = h;
    std::stable_sort(want.begin(), want.end(), [&](uint32_t a, uint32_t b) {
        return desc ? (a & mask) > (b & mask) : (a & mask) < (b & mask);
    });
    std::vector<uint32_t> got(n);
    SCG_CHECK_DIE(cudaMemcpy(got.data(), is_alt ? d_alt : d_keys, n * 4,
                             cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            static char buf[160];
            snprintf(buf, sizeof buf, "key[%zu] = %08x, want %08x (alt=%d)", i,
                     got[i], want[i], is_alt);
            *why = buf;
            return false;
        }
    return true;
}

static void sort_case(size_t n, int dist, unsigned lo, unsigned hi, int desc,
                      size_t off)
{
    std::vector<uint32_t> h = sort_data(n, dist);
    const char *why = "";
    bool ok = gpu_sort_check(h, lo, hi, desc, off, &why);
    tap(ok, "sort %s n=%zu bits %u:%u%s%s %s", dist_name[dist], n, lo, hi,
        desc ? " descending" : "", off ? " misaligned" : "", ok ? "" : why);
}

static void test_sort()
{
    /* around the tiles of every configuration: 6144, 7680, 8064, 8192,
     * 9216 keys */
    const size_t sizes[] = { 0, 1, 2, 31, 32, 33, 4095, 4096, 4097, 6143,
                             6144, 6145, 7679, 7681, 8063, 8065, 8191, 8192,
                             8193, 9215, 9217, 16385, 65537, 999983,
                             4194319, 16777216 + 3 };
    const unsigned ranges[][2] = { { 0, 32 }, { 8, 20 }, { 3, 4 }, { 5, 29 } };
    const char *q = getenv("SC_QUICK");
    int ql = q ? atoi(q) : 0;
    size_t max_n = ql == 1 ? 65537 : ql == 2 ? 4097 : ~(size_t)0;
    bool quick = ql != 0;
    for (size_t n : sizes)
        if (n > max_n)
            continue;
        else
        for (auto &r : ranges)
            for (int desc = 0; desc < 2; desc++)
                sort_case(n, D_RANDOM, r[0], r[1], desc, 0);
    const size_t some[] = { 33, 6145, 65537, 1000003 };
    for (size_t n : some)
        if (n > max_n)
            continue;
        else
        for (int dist = D_FEW; dist <= D_LOW_FIXED; dist++)
            for (int desc = 0; desc < 2; desc++) {
                sort_case(n, dist, 0, 32, desc, 0);
                sort_case(n, dist, 4, 13, desc, 0);
            }
    if (quick)
        return;
    sort_case(100003, D_RANDOM, 0, 32, 0, 1);
    sort_case(100003, D_NARROW, 0, 24, 1, 3);
    sort_case(3000017, D_RANDOM, 16, 32, 0, 0);
    sort_case(3000017, D_RANDOM, 0, 1, 1, 0);
    /* from 2^27 keys a device with fast memory sorts on larger tiles
     * (tile_config.cuh): one sort each side of the switch, with a tile's
     * remainder */
    sort_case((1u << 27) - 9215, D_RANDOM, 0, 32, 0, 0);
    sort_case((1u << 27) + 9217, D_LOW_FIXED, 0, 32, 1, 0);

    /* invalid bit ranges are refused */
    int is_alt = 0;
    void *d_scr = g_scratch.get(scg_sort_scratch(10));
    uint32_t *d_keys = (uint32_t *)g_in.get(64);
    tap(scg_sort(d_keys, (uint32_t *)g_alt.get(64), 10, 8, 8, 0, &is_alt, d_scr, 0) != 0 &&
        scg_sort(d_keys, (uint32_t *)g_alt.get(64), 10, 0, 33, 0, &is_alt, d_scr, 0) != 0,
        "sort refuses empty or out-of-range bit ranges");
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
#ifdef SCG_TUNE
    /* every measured tile configuration of the scan */
    for (int c = 0; int tag = scg_scan_tune(c); c++) {
        printf("# scan configuration %d (%d)\n", c, tag);
        test_scan();
    }
    scg_scan_tune(0);
    /* and of the sort */
    for (int c = 0; int tag = scg_sort_tune(c); c++) {
        printf("# sort configuration %d (%d)\n", c, tag);
        test_sort();
    }
    scg_sort_tune(-1);
#else
    test_scan();
    test_sort();
#endif
    return tap_done();
}
