/* test_stat_kernel.cu — scg_stat against the CPU's rule: the same sum (all
 * 128 bits), zeros, min, max and HyperLogLog registers, bit for bit, so
 * that sc-stat prints the same bytes on every device.  Elements of every
 * type, 4 and 8 bytes (scg_stat_type), and the figures made of them on
 * the device (scg_stat_figures) against libsc's sc_stat_type() on a CPU
 * context, field by field.
 *
 * TAP output.  Build (make tests/gpu/test_stat_kernel):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -I lib -I kernels \
 *        tests/gpu/test_stat_kernel.cu kernels/stat.cu -L lib/.libs -lsc
 * Without a usable GPU it prints "1..0 # SKIP no CUDA GPU" and exits 0.
 * SC_QUICK=1 keeps to inputs of up to 65537 elements (for
 * compute-sanitizer); without it one test takes 16 GiB of device memory
 * when the GPU has it free (else it says it skipped).
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
#include "gpu_tap.cuh"

typedef unsigned __int128 u128;

static int quick()
{
    const char *q = getenv("SC_QUICK");
    return q ? atoi(q) : 0;
}

static DevBuf g_in, g_acc;

/* ---------------- the reference: lib/cpu/cpu_stat.c's rule ---------------- */

static void ref_reset(scg_stat_acc &a)
{
    memset(&a, 0, sizeof a);
    a.min = 0xffffffffu;
    a.min64 = ~(uint64_t)0;
}

/* The CPU's rule on elements of type: their ranks (sc_type_rank) summed
 * in 128 bits, compared and sketched; zeros of the elements themselves
 * (a float's sign aside).  An 8-byte type's min and max are min64 and
 * max64. */
template <typename W>
static void ref_add_type(scg_stat_acc &a, uint32_t type, const W *v, size_t n)
{
    bool fl = type == SC_F32 || type == SC_F64;
    W zbits = fl ? (W)~(W)0 >> 1 : (W)~(W)0;
    u128 s = (u128)a.sum_hi << 64 | a.sum;
    for (size_t i = 0; i < n; i++) {
        W x = v[i];
        W r = (W)sc_type_rank(type, x);
        s += r;
        a.zeros += (x & zbits) == 0;
        if (sizeof(W) == 8) {
            a.min64 = std::min<uint64_t>(a.min64, r);
            a.max64 = std::max<uint64_t>(a.max64, r);
        } else {
            a.min = std::min<uint32_t>(a.min, (uint32_t)r);
            a.max = std::max<uint32_t>(a.max, (uint32_t)r);
        }
        uint64_t h = sc_hll_hash(r);
        uint32_t g = sc_hll_reg(h), k = sc_hll_rank(h);
        if (k > a.reg[g]) a.reg[g] = k;
    }
    a.sum = (uint64_t)s;
    a.sum_hi = (uint64_t)(s >> 64);
}

static void ref_add(scg_stat_acc &a, const uint32_t *v, size_t n)
{
    ref_add_type(a, SC_U32, v, n);
}

/* Field by field, saying what differs first. */
static bool same(const scg_stat_acc &want, const scg_stat_acc &got,
                 char *why, size_t len)
{
    if (got.sum != want.sum || got.sum_hi != want.sum_hi) {
        snprintf(why, len, "sum %llx:%016llx, want %llx:%016llx",
                 (unsigned long long)got.sum_hi, (unsigned long long)got.sum,
                 (unsigned long long)want.sum_hi,
                 (unsigned long long)want.sum);
        return false;
    }
    if (got.zeros != want.zeros || got.min != want.min ||
        got.max != want.max) {
        snprintf(why, len, "zeros/min/max %llu/%u/%u, want %llu/%u/%u",
                 (unsigned long long)got.zeros, got.min, got.max,
                 (unsigned long long)want.zeros, want.min, want.max);
        return false;
    }
    for (unsigned k = 0; k < SC_HLL_REGS; k++)
        if (got.reg[k] != want.reg[k]) {
            snprintf(why, len, "register %u: %u, want %u", k, got.reg[k],
                     want.reg[k]);
            return false;
        }
    return true;
}

/* ---------------- the device ---------------- */

/* scg_stat_type over h[0..n), elements of type, placed `off` elements
 * past a 16-byte boundary in a buffer otherwise zero (an element read
 * from outside would show in zeros and min), in `pieces` calls on one
 * accumulator.  The accumulator starts as garbage, is reset, then set to
 * *start when given. */
static bool gpu_stat_type(uint32_t type, const void *h, size_t n, size_t off,
                          int pieces, const scg_stat_acc *start,
                          scg_stat_acc &got, const char **why)
{
    size_t size = sc_type_size((sc_type)type);
    char *base = (char *)g_in.get((n + off) * size + 64);
    SCG_CHECK_DIE(cudaMemset(base, 0, g_in.size));
    char *d_in = base + off * size;
    scg_stat_acc *d_acc = (scg_stat_acc *)g_acc.get(sizeof(scg_stat_acc));
    if (n) SCG_CHECK_DIE(cudaMemcpy(d_in, h, n * size, cudaMemcpyHostToDevice));
    SCG_CHECK_DIE(cudaMemset(d_acc, 0x5a, sizeof *d_acc));
    if (scg_stat_reset(d_acc, 0)) { *why = "scg_stat_reset failed"; return false; }
    if (start)
        SCG_CHECK_DIE(cudaMemcpy(d_acc, start, sizeof *start,
                                 cudaMemcpyHostToDevice));
    for (int p = 0; p < pieces; p++) {
        size_t b = n * p / pieces, e = n * (p + 1) / pieces;
        if (scg_stat_type(d_in + b * size, e - b, type, d_acc, 0)) {
            *why = "scg_stat_type failed";
            return false;
        }
    }
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(&got, d_acc, sizeof got, cudaMemcpyDeviceToHost));
    return true;
}

static bool gpu_stat(const uint32_t *h, size_t n, size_t off, int pieces,
                     const scg_stat_acc *start, scg_stat_acc &got,
                     const char **why)
{
    return gpu_stat_type(SC_U32, h, n, off, pieces, start, got, why);
}

/* ---------------- the shared rule on both sides ---------------- */

__global__ void rule_kernel(const uint32_t *x, uint64_t *hash,
                            const uint64_t *h, uint32_t *reg, uint32_t *rank,
                            int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    hash[i] = sc_hll_hash(x[i]);
    reg[i] = sc_hll_reg(h[i]);
    rank[i] = sc_hll_rank(h[i]);
}

/* sc_hd.h's hash, register and rank on the device equal the host's,
 * including the ranks at the ends (no bit left: 64 - SC_HLL_BITS + 1). */
static void test_rule()
{
    const int N = 4096;
    std::vector<uint32_t> x(N);
    std::vector<uint64_t> h(N);
    const uint64_t edge[] = { 0, 1, 2, (uint64_t)1 << 49, (uint64_t)1 << 50,
                              (uint64_t)1 << 63, ~(uint64_t)0,
                              ~(uint64_t)0 << (64 - SC_HLL_BITS),
                              (~(uint64_t)0 << (64 - SC_HLL_BITS)) | 1 };
    const uint32_t xs[] = { 0, 1, 2, 0x7fffffff, 0x80000000, 0xffffffff };
    for (int i = 0; i < N; i++) {
        x[i] = i < 6 ? xs[i] : (uint32_t)rnd64();
        h[i] = i < 9 ? edge[i] : rnd64() >> (rnd64() & 63);
    }
    uint32_t *d_x, *d_reg, *d_rank;
    uint64_t *d_hash, *d_h;
    SCG_CHECK_DIE(cudaMalloc(&d_x, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_reg, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_rank, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_hash, N * 8));
    SCG_CHECK_DIE(cudaMalloc(&d_h, N * 8));
    SCG_CHECK_DIE(cudaMemcpy(d_x, x.data(), N * 4, cudaMemcpyHostToDevice));
    SCG_CHECK_DIE(cudaMemcpy(d_h, h.data(), N * 8, cudaMemcpyHostToDevice));
    rule_kernel<<<N / 256, 256>>>(d_x, d_hash, d_h, d_reg, d_rank, N);
    SCG_CHECK_DIE(cudaGetLastError());
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    std::vector<uint64_t> hash(N);
    std::vector<uint32_t> reg(N), rank(N);
    SCG_CHECK_DIE(cudaMemcpy(hash.data(), d_hash, N * 8, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(reg.data(), d_reg, N * 4, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(rank.data(), d_rank, N * 4, cudaMemcpyDeviceToHost));
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++)
        if (hash[i] != sc_hll_hash(x[i]) || reg[i] != sc_hll_reg(h[i]) ||
            rank[i] != sc_hll_rank(h[i]))
            bad = i;
    tap(bad < 0, "sc_hll_hash/reg/rank: device == host (%d values%s)", N,
        bad < 0 ? "" : ", first difference below");
    if (bad >= 0)
        printf("# x %08x h %016llx: hash %016llx/%016llx reg %u/%u rank %u/%u\n",
               x[bad], (unsigned long long)h[bad],
               (unsigned long long)hash[bad],
               (unsigned long long)sc_hll_hash(x[bad]), reg[bad],
               sc_hll_reg(h[bad]), rank[bad], sc_hll_rank(h[bad]));
    tap(sc_hll_rank(0) == 64 - SC_HLL_BITS + 1 && sc_hll_rank(1) == 50 &&
        sc_hll_rank((uint64_t)1 << 49) == 1 && sc_hll_hash(0) == 0,
        "sc_hll_rank at its ends: 51 with no bit left, 1 with the top one");
    cudaFree(d_x); cudaFree(d_reg); cudaFree(d_rank);
    cudaFree(d_hash); cudaFree(d_h);
}

/* sc_hd.h's estimate on the device and on the host: sigma and tau, the
 * steps where a fused multiply-add or a library call would change a bit,
 * of register fractions and of any x in [0, 1]; then the rounded
 * estimate (scg_stat_figures) of registers at every level of filling,
 * with no clamp (count 2^62, the whole u64 range) to hide a difference. */
__global__ void estimate_kernel(const double *x, double *sig, double *tau,
                                int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    sig[i] = sc_hll_sigma(x[i]);
    tau[i] = sc_hll_tau(x[i]);
}

static void test_estimate()
{
    const int N = 4096;
    std::vector<double> x(N), sig(N), tau(N);
    for (int i = 0; i < N; i++)
        x[i] = i == N - 1 ? 1.0
             : i % 2 ? (double)(rnd64() >> 11) * 0x1p-53
                     : (double)(2 * i) / SC_HLL_REGS;
    double *d_x, *d_sig, *d_tau;
    SCG_CHECK_DIE(cudaMalloc(&d_x, N * 8));
    SCG_CHECK_DIE(cudaMalloc(&d_sig, N * 8));
    SCG_CHECK_DIE(cudaMalloc(&d_tau, N * 8));
    SCG_CHECK_DIE(cudaMemcpy(d_x, x.data(), N * 8, cudaMemcpyHostToDevice));
    estimate_kernel<<<N / 256, 256>>>(d_x, d_sig, d_tau, N);
    SCG_CHECK_DIE(cudaGetLastError());
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(sig.data(), d_sig, N * 8, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(tau.data(), d_tau, N * 8, cudaMemcpyDeviceToHost));
    cudaFree(d_x); cudaFree(d_sig); cudaFree(d_tau);
    int bad = -1;
    for (int i = 0; i < N && bad < 0; i++) {
        double hs = sc_hll_sigma(x[i]), ht = sc_hll_tau(x[i]);
        if (memcmp(&hs, &sig[i], 8) || memcmp(&ht, &tau[i], 8)) bad = i;
    }
    tap(bad < 0, "sc_hll_sigma and sc_hll_tau: device == host, bit for bit "
        "(%d values in [0, 1])", N);
    if (bad >= 0)
        printf("# x %a: sigma %a/%a tau %a/%a\n", x[bad], sig[bad],
               sc_hll_sigma(x[bad]), tau[bad], sc_hll_tau(x[bad]));

    /* Registers as n distinct values leave them (each the top of about
     * n / m geometric ranks, some still 0), for n from 0 to past 2^50,
     * and all at the top rank. */
    scg_stat_acc *h = (scg_stat_acc *)malloc(sizeof *h);
    sc_stats_typed *d_f;
    SCG_CHECK_DIE(cudaMalloc(&d_f, sizeof *d_f));
    scg_stat_acc *d_acc = (scg_stat_acc *)g_acc.get(sizeof(scg_stat_acc));
    const uint64_t count = (uint64_t)1 << 62;
    const uint32_t top = 64 - SC_HLL_BITS + 1;
    int trials = 0, wrong = 0;
    char why[200] = "";
    for (int level = -2; level <= 52; level++) {
        for (int rep = 0; rep < 2; rep++, trials++) {
            ref_reset(*h);
            h->min64 = 0;
            h->max64 = ~(uint64_t)0;
            double c[SC_HLL_Q + 2] = { 0 };
            for (unsigned k = 0; k < SC_HLL_REGS; k++) {
                /* -2: empty; -1: an eighth of them low; 0 to 51:
                 * above level (fewer of them empty as it rises); 52:
                 * full */
                uint32_t r = 0;
                if (level >= 0)
                    r = (uint32_t)level + 1 +
                        (uint32_t)__builtin_ctzll(rnd64() | 1);
                if (level == -1)
                    r = rnd64() & 7 ? 0 : 1 + (uint32_t)(rnd64() & 3);
                if (level >= 0 && level < 6 && (rnd64() >> (63 - level)) == 0)
                    r = 0;
                if (r > top || level == 52) r = top;
                h->reg[k] = r;
                c[r] += 1.0;
            }
            SCG_CHECK_DIE(cudaMemcpy(d_acc, h, sizeof *h, cudaMemcpyHostToDevice));
            sc_stats_typed got;
            int e = scg_stat_figures(d_acc, count, SC_U64, d_f, 0);
            SCG_CHECK_DIE(cudaDeviceSynchronize());
            SCG_CHECK_DIE(cudaMemcpy(&got, d_f, sizeof got, cudaMemcpyDeviceToHost));
            uint64_t want = sc_hll_distinct(c, count, 0, ~(uint64_t)0);
            if (e || got.distinct != want) {
                if (!wrong++)
                    snprintf(why, sizeof why, "level %d: %llu, want %llu%s",
                             level, (unsigned long long)got.distinct,
                             (unsigned long long)want, e ? " (launch failed)" : "");
            }
        }
    }
    cudaFree(d_f);
    free(h);
    tap(wrong == 0, "scg_stat_figures' distinct == sc_hll_distinct on the "
        "host, unclamped: %d sketches from empty to full%s%s", trials,
        wrong ? ": " : "", why);
}

/* ---------------- figures of arrays ---------------- */

enum { K_ZERO, K_ONES, K_RANDOM, K_FEW, K_RAMP, K_COUNT };
static const char *kind_name[K_COUNT] = {
    "all 0", "all 0xffffffff", "random", "few values and zeros", "ramp"
};

static std::vector<uint32_t> make_data(size_t n, int kind)
{
    std::vector<uint32_t> v(n);
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case K_ZERO: v[i] = 0; break;
        case K_ONES: v[i] = 0xffffffffu; break;
        case K_RANDOM: v[i] = (uint32_t)(rnd64() >> 17); break;
        case K_FEW: v[i] = (uint32_t)(rnd64() % 40) * 0x06000000u; break;
        default: v[i] = (uint32_t)(i * 2654435761u >> 3); break;
        }
    }
    return v;
}

/* Every size, data kind, misalignment (0..3 elements past 16 bytes) and
 * cut into 1 or 3 calls gives the reference's accumulator. */
static void test_arrays()
{
    const size_t sizes[] = { 0, 1, 31, 32, 33, 4095, 4096, 65537, 1000003,
                             (1u << 24) + 3 };
    for (size_t n : sizes) {
        if (quick() && n > 65537) continue;
        for (int kind = 0; kind < K_COUNT; kind++) {
            std::vector<uint32_t> v = make_data(n, kind);
            scg_stat_acc want, got;
            ref_reset(want);
            ref_add(want, v.data(), n);
            bool ok = true;
            char why[200] = "";
            const char *err = NULL;
            size_t offs = n <= 65537 ? 4 : 2;
            for (size_t o = 0; o < offs && ok; o++) {
                size_t off = n <= 65537 ? o : o * 3;
                for (int pieces = 1; pieces <= 3 && ok; pieces += 2) {
                    ok = gpu_stat(v.data(), n, off, pieces, NULL, got, &err) &&
                         same(want, got, why, sizeof why);
                    if (!ok)
                        printf("# offset %zu, %d call(s): %s\n", off, pieces,
                               err ? err : why);
                }
            }
            tap(ok, "scg_stat == reference: n = %zu, %s", n, kind_name[kind]);
        }
    }
}

/* The sum's low word wraps into sum_hi on the device: from a preloaded
 * accumulator just below 2^64, and over many calls that add up past it,
 * as the chunks of a stream do. */
static void test_carry()
{
    std::vector<uint32_t> ones = make_data(65537, K_ONES);
    scg_stat_acc start, want, got;
    ref_reset(start);
    start.sum = ~(uint64_t)0 - 4;
    start.sum_hi = 7;
    want = start;
    ref_add(want, ones.data(), ones.size());
    const char *err = NULL;
    char why[200] = "";
    bool ok = gpu_stat(ones.data(), ones.size(), 1, 3, &start, got, &err) &&
              same(want, got, why, sizeof why);
    tap(ok && got.sum_hi == 8, "scg_stat: the sum carries into sum_hi (%s)",
        err ? err : why);

    /* 2^24 + 3 elements of 2^32 - 1 add about 2^56 a call: 300 calls pass
     * 2^64 (quick: 2^16 + 1 elements from just below it). */
    size_t n = quick() ? 65537 : (1u << 24) + 3;
    int calls = quick() ? 3 : 300;
    std::vector<uint32_t> v = make_data(n, K_ONES);
    v[n / 2] = 0;
    v[n - 1] = 12345;
    ref_reset(start);
    if (quick()) start.sum = ~(uint64_t)0 - 100000;
    /* The same array each call: one pass of the reference, the sum and
     * zeros times the calls. */
    ref_reset(want);
    ref_add(want, v.data(), n);
    u128 total = (u128)start.sum + (u128)calls * want.sum;
    want.sum = (uint64_t)total;
    want.sum_hi = (uint64_t)(total >> 64);
    want.zeros *= (uint64_t)calls;
    ok = gpu_stat(v.data(), n, 0, 1, &start, got, &err);
    scg_stat_acc *d_acc = (scg_stat_acc *)g_acc.p;
    /* gpu_stat made the first call; the others add to the same words. */
    SCG_CHECK_DIE(cudaMemcpy(d_acc, &got, sizeof got, cudaMemcpyHostToDevice));
    const uint32_t *d_in = (const uint32_t *)g_in.p;
    for (int c = 1; c < calls && ok; c++)
        ok = scg_stat(d_in, n, d_acc, 0) == 0;
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(&got, d_acc, sizeof got, cudaMemcpyDeviceToHost));
    ok = ok && same(want, got, why, sizeof why);
    tap(ok && want.sum_hi >= 1, "scg_stat: %d calls of %zu elements add up "
        "past 2^64 exactly (%s)", calls, n, why);
}

/* ---------------- every type, 4 and 8 bytes ---------------- */

static bool same_type(const scg_stat_acc &want, const scg_stat_acc &got,
                      bool wide, char *why, size_t len)
{
    if (!same(want, got, why, len)) return false;
    if (wide && (got.min64 != want.min64 || got.max64 != want.max64)) {
        snprintf(why, len, "min64/max64 %llx/%llx, want %llx/%llx",
                 (unsigned long long)got.min64, (unsigned long long)got.max64,
                 (unsigned long long)want.min64,
                 (unsigned long long)want.max64);
        return false;
    }
    return true;
}

enum { T_ZERO, T_ONES, T_RANDOM, T_EXTREMES, T_SPECIAL, T_FEW, T_COUNT };
static const char *tkind_name[T_COUNT] = {
    "all zeros (both signs for floats)", "all ones (UINT64_MAX, -1, NaN)",
    "random bits", "extremes (INT64_MIN/MAX, UINT64_MAX, 0, 1)",
    "float specials (NaNs, infinities, -0, denormals) among random",
    "few values"
};

/* Element i of a kind, as 64 bits (a 4-byte type takes the high half, so
 * that the specials of f64 land on f32's sign and exponent too). */
static uint64_t kind_elem(int kind, size_t i, bool fl)
{
    static const uint64_t ext[] = { 0, 1, (uint64_t)1 << 63,
                                    ((uint64_t)1 << 63) - 1, ~(uint64_t)0,
                                    ~(uint64_t)0 - 1, ((uint64_t)1 << 63) + 1 };
    static const uint64_t spec[] = {
        0x7ff8000000000000ull, 0xfff8000000000000ull, /* NaN, -NaN */
        0x7ff0000000000001ull, 0xfff4000000000abcull, /* payloads */
        0x7ff0000000000000ull, 0xfff0000000000000ull, /* +-inf */
        0x8000000000000000ull, 0, 1, 0x800fffffffffffffull, /* -0, 0, denormals */
        0x3ff8000000000000ull, 0xc004000000000000ull  /* 1.5, -2.5 */
    };
    switch (kind) {
    case T_ZERO: return fl && i % 3 == 1 ? (uint64_t)1 << 63 : 0;
    case T_ONES: return ~(uint64_t)0;
    case T_RANDOM: return rnd64();
    case T_EXTREMES: return ext[rnd64() % 7];
    case T_SPECIAL: return rnd64() % 3 ? spec[rnd64() % 12] : rnd64();
    default: return (rnd64() % 40) * 0x0600000000000001ull;
    }
}

static std::vector<uint64_t> make_type_data(size_t n, int kind, uint32_t type)
{
    size_t size = sc_type_size((sc_type)type);
    bool fl = type == SC_F32 || type == SC_F64;
    std::vector<uint64_t> v((n * size + 7) / 8 + 1);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = kind_elem(kind, i, fl);
        if (size == 8) v[i] = x;
        else ((uint32_t *)v.data())[i] = (uint32_t)(x >> 32);
    }
    return v;
}

static sc_ctx *g_cpu;

/* sc_stat_type()'s figures on the CPU against scg_stat_figures' of the
 * accumulator the device holds (g_acc): every field, but a float type's
 * sums (the host's fixed-order fsum; the device's are the ranks'). */
static bool figures_match(uint32_t type, const void *h, size_t n, char *why,
                          size_t len)
{
    sc_stats_typed want, got;
    sc_status st = sc_stat_type(g_cpu, h, n, (sc_type)type, &want);
    if (st != SC_OK) {
        snprintf(why, len, "sc_stat_type: %s", sc_strerror(st));
        return false;
    }
    sc_stats_typed *d_f = NULL;
    SCG_CHECK_DIE(cudaMalloc(&d_f, sizeof *d_f));
    SCG_CHECK_DIE(cudaMemset(d_f, 0x5a, sizeof *d_f));
    int e = scg_stat_figures((const scg_stat_acc *)g_acc.p, n, type, d_f, 0);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(&got, d_f, sizeof got, cudaMemcpyDeviceToHost));
    cudaFree(d_f);
    if (e) {
        snprintf(why, len, "scg_stat_figures: %d", e);
        return false;
    }
    if (type == SC_F32 || type == SC_F64) {
        got.sum = want.sum;
        got.sum_hi = want.sum_hi;
        got.fsum = want.fsum;
    }
    if (got.type != want.type || got.count != want.count ||
        got.zeros != want.zeros || got.min != want.min ||
        got.max != want.max || got.sum != want.sum ||
        got.sum_hi != want.sum_hi || got.distinct != want.distinct ||
        memcmp(&got.fsum, &want.fsum, 8)) {
        snprintf(why, len, "figures count/zeros/min/max/sum_hi:sum/distinct "
                 "%llu/%llu/%llx/%llx/%llx:%llx/%llu, want "
                 "%llu/%llu/%llx/%llx/%llx:%llx/%llu",
                 (unsigned long long)got.count, (unsigned long long)got.zeros,
                 (unsigned long long)got.min, (unsigned long long)got.max,
                 (unsigned long long)got.sum_hi, (unsigned long long)got.sum,
                 (unsigned long long)got.distinct,
                 (unsigned long long)want.count, (unsigned long long)want.zeros,
                 (unsigned long long)want.min, (unsigned long long)want.max,
                 (unsigned long long)want.sum_hi, (unsigned long long)want.sum,
                 (unsigned long long)want.distinct);
        return false;
    }
    return true;
}

/* Every type, size, kind, alignment (the element on a 16-byte boundary
 * and one past it: odd for 8-byte elements) and cut into 1 or 3 calls:
 * the reference's accumulator; one call's figures are sc_stat_type()'s on
 * the CPU.  The 8-byte types also as their ranks made on the host and
 * figured as u64, which is what sc-stat -e i64/f64 sends the device. */
static void test_types()
{
    const size_t sizes[] = { 0, 1, 31, 33, 4095, 65537, (1u << 24) + 5 };
    for (uint32_t type = SC_U32; type < SC_TYPE_COUNT; type++) {
        size_t size = sc_type_size((sc_type)type);
        bool wide = size == 8;
        for (size_t n : sizes) {
            if (quick() && n > 65537) continue;
            /* the 4-byte types' kernel is test_arrays'; here their figures */
            if (!wide && n > 65537) continue;
            for (int kind = 0; kind < T_COUNT; kind++) {
                std::vector<uint64_t> v = make_type_data(n, kind, type);
                scg_stat_acc want, got;
                ref_reset(want);
                if (wide) ref_add_type(want, type, v.data(), n);
                else ref_add_type(want, type, (const uint32_t *)v.data(), n);
                bool ok = true;
                char why[300] = "";
                const char *err = NULL;
                for (size_t off = 0; off < 2 && ok; off++)
                    for (int pieces = 3; pieces >= 1 && ok; pieces -= 2) {
                        ok = gpu_stat_type(type, v.data(), n, off, pieces, NULL,
                                           got, &err) &&
                             same_type(want, got, wide, why, sizeof why);
                        if (!ok)
                            printf("# offset %zu, %d call(s): %s\n", off,
                                   pieces, err ? err : why);
                    }
                /* the last run: one call at offset 1 */
                if (ok && !figures_match(type, v.data(), n, why, sizeof why)) {
                    ok = false;
                    printf("# %s\n", why);
                }
                if (ok && wide && type != SC_U64) {
                    std::vector<uint64_t> r(v.begin(), v.begin() + n);
                    for (uint64_t &x : r) x = sc_type_rank(type, x);
                    scg_stat_acc wr;
                    ref_reset(wr);
                    ref_add_type(wr, SC_U64, r.data(), n);
                    ok = gpu_stat_type(SC_U64, r.data(), n, 1, 1, NULL, got,
                                       &err) &&
                         same_type(wr, got, true, why, sizeof why);
                    if (!ok) printf("# ranks as u64: %s\n", err ? err : why);
                }
                tap(ok, "scg_stat_type %s == reference, figures == "
                    "sc_stat_type's: n = %zu, %s", sc_type_name((sc_type)type),
                    n, tkind_name[kind]);
            }
        }
    }
}

/* u64 sums past 2^64 within one call and over many: all ones, from an
 * accumulator preloaded just below a carry (quick: fewer). */
static void test_carry64()
{
    size_t n = quick() ? 65537 : (1u << 24) + 5;
    int calls = quick() ? 3 : 40;
    std::vector<uint64_t> v = make_type_data(n, T_ONES, SC_U64);
    v[n / 3] = 0;
    v[n - 1] = 12345;
    scg_stat_acc start, one, want, got;
    ref_reset(start);
    start.sum = ~(uint64_t)0 - 7;
    start.sum_hi = ~(uint64_t)0 >> 8;
    ref_reset(one);
    ref_add_type(one, SC_U64, v.data(), n);
    u128 total = ((u128)start.sum_hi << 64 | start.sum) +
                 (u128)calls * ((u128)one.sum_hi << 64 | one.sum);
    want = one;
    want.sum = (uint64_t)total;
    want.sum_hi = (uint64_t)(total >> 64);
    want.zeros *= (uint64_t)calls;
    const char *err = NULL;
    char why[300] = "";
    bool ok = gpu_stat_type(SC_U64, v.data(), n, 1, 1, &start, got, &err);
    scg_stat_acc *d_acc = (scg_stat_acc *)g_acc.p;
    const char *d_in = (const char *)g_in.p + 8;
    for (int c = 1; c < calls && ok; c++)
        ok = scg_stat_type(d_in, n, SC_U64, d_acc, 0) == 0;
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(&got, d_acc, sizeof got, cudaMemcpyDeviceToHost));
    ok = ok && same_type(want, got, true, why, sizeof why);
    tap(ok, "scg_stat_type u64: %d calls of %zu elements of UINT64_MAX from "
        "just below a carry add up exactly (%s)", calls, n,
        err ? err : why);
}

/* One call of more than 2^32 elements of W (16 or 32 GiB): the kernel's
 * partial sums (an 8-byte element's halves') would pass 2^64 within one
 * launch but for scg_stat_type's slicing. */
template <typename W>
static void test_huge()
{
    const uint32_t type = sizeof(W) == 8 ? SC_U64 : SC_U32;
    const char *name = sc_type_name((sc_type)type);
    const uint64_t n = ((uint64_t)1 << 32) + 5;
    size_t free_b = 0, total_b = 0;
    SCG_CHECK_DIE(cudaMemGetInfo(&free_b, &total_b));
    W *d = NULL;
    /* Other suites may share the GPU (SC_TEST_JOBS): a failed allocation
     * skips too. */
    if (quick() || free_b < (n + 8) * sizeof(W) + ((size_t)1 << 30) ||
        cudaMalloc(&d, (n + 8) * sizeof(W)) != cudaSuccess) {
        cudaGetLastError();
        printf("ok %d - scg_stat_type %s over 2^32 + 5 elements # SKIP %s\n",
               ++n_tests, name, quick() ? "SC_QUICK" : "not enough free memory");
        return;
    }
    SCG_CHECK_DIE(cudaMemset(d, 0xff, (n + 8) * sizeof(W)));
    /* d + 1: misaligned; a zero in the second slice, a 7 in the first. */
    const W zero = 0, seven = 7;
    SCG_CHECK_DIE(cudaMemcpy(d + 1 + ((uint64_t)1 << 32), &zero, sizeof(W),
                             cudaMemcpyHostToDevice));
    SCG_CHECK_DIE(cudaMemcpy(d + 1 + 5, &seven, sizeof(W), cudaMemcpyHostToDevice));
    scg_stat_acc *d_acc = (scg_stat_acc *)g_acc.get(sizeof(scg_stat_acc));
    scg_stat_acc want, got;
    bool ok = scg_stat_reset(d_acc, 0) == 0 &&
              scg_stat_type(d + 1, n, type, d_acc, 0) == 0;
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(&got, d_acc, sizeof got, cudaMemcpyDeviceToHost));
    cudaFree(d);
    const W distinct[] = { (W)~(W)0, 0, 7 };
    ref_reset(want);
    ref_add_type(want, type, distinct, 3);
    u128 s = (u128)(n - 2) * (W)~(W)0 + 7;
    want.sum = (uint64_t)s;
    want.sum_hi = (uint64_t)(s >> 64);
    char why[300] = "";
    ok = ok && same_type(want, got, sizeof(W) == 8, why, sizeof why);
    tap(ok, "scg_stat_type %s over 2^32 + 5 elements in one call (%s)", name,
        why);
}

static void test_bad_args()
{
    scg_stat_acc *d_acc = (scg_stat_acc *)g_acc.get(sizeof(scg_stat_acc));
    const uint32_t *d_in = (const uint32_t *)g_in.get(64);
    int inval = (int)cudaErrorInvalidValue;
    tap(scg_stat(NULL, 5, d_acc, 0) == inval &&
        scg_stat(d_in, 5, NULL, 0) == inval && scg_stat_reset(NULL, 0) == inval &&
        scg_stat(NULL, 0, d_acc, 0) == 0 &&
        scg_stat_type(d_in, 5, SC_TYPE_COUNT, d_acc, 0) == inval &&
        scg_stat_type(NULL, 0, SC_I64, d_acc, 0) == 0 &&
        scg_stat_figures(NULL, 5, SC_U64, (sc_stats_typed *)d_acc, 0) == inval &&
        scg_stat_figures(d_acc, 5, SC_U64, NULL, 0) == inval &&
        scg_stat_figures(d_acc, 5, SC_TYPE_COUNT, (sc_stats_typed *)d_acc, 0) == inval,
        "scg_stat, scg_stat_type, scg_stat_figures: missing pointers and "
        "types that are none are cudaErrorInvalidValue; n 0 is fine");
    SCG_CHECK_DIE(cudaDeviceSynchronize());
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
    test_rule();
    test_estimate();
    test_arrays();
    test_carry();
    test_huge<uint32_t>();
    if (sc_ctx_new(&g_cpu, "cpu", 0) != SC_OK) {
        printf("Bail out! sc_ctx_new(cpu) failed\n");
        return 1;
    }
    test_types();
    test_carry64();
    test_huge<uint64_t>();
    test_bad_args();
    sc_ctx_free(g_cpu);
    return tap_done();
}
