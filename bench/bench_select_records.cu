/* bench_select_records.cu — scg_compact_records and scg_split_records of
 * 8- and 16-byte records against CUB's DeviceSelect::If and
 * DevicePartition::If on the same struct with the same predicate, in the
 * same run, on data held on the device.
 *
 * Records: 8 bytes with a u32 key at byte 4 (x != 0, the range form
 * libsc runs for most conditions) or an f32 key at byte 0 (x > 0, the
 * float form); 16 bytes with a u64 key at byte 8 (x != 0) or an f32 key
 * at byte 12 (x > 0).  The other words are a hash of the index; the key
 * is zero with probability 1 - p, else nonzero (a positive float), in an
 * unpredictable pattern.  Every result is checked against CUB's (count
 * and contents) before it is printed.  Medians of 20; "% floor" is the
 * bytes read and written at the run's device-to-device copy rate.
 *
 * Usage: bench_select_records [log2 n ...]   (records; default 26 27)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cub/cub.cuh>
#include "sc_kernels.h"
#include "bench_timing.cuh"

static const int RUNS = 20;

struct rec8 {
    uint32_t w[2];
};
struct rec16 {
    uint32_t w[4];
};

/* The key (KEY's bits) at word KW of record R, tested as the tools'
 * conditions test it: an integer's x != 0, a float's x > 0. */
template <class R, typename KEY, int KW, bool FLOAT>
struct keyed {
    __device__ bool operator()(const R &r) const
    {
        KEY k;
        memcpy(&k, &r.w[KW], sizeof k);
        if (FLOAT) {
            float f;
            memcpy(&f, &k, 4);
            return f > 0;
        }
        return k != 0;
    }
};

template <class R, typename KEY, int KW, bool FLOAT>
static __global__ void fill(R *d, uint64_t n, uint64_t keep_below)
{
    const int RW = (int)(sizeof(R) / 4);
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t a = sc_mix64(i * 0x9e3779b97f4a7c15ULL + 777), b = sc_mix64(a);
        R r;
        for (int w = 0; w < RW; w++)
            r.w[w] = (uint32_t)(sc_mix64(b + w) >> 16);
        KEY k = 0;
        if (a < keep_below) {
            if (FLOAT) {
                float f = (float)(b >> 40) + 1.0f;
                memcpy(&k, &f, 4);
            } else {
                k = (KEY)(b | 1);
            }
        }
        memcpy(&r.w[KW], &k, sizeof k);
        d[i] = r;
    }
}

/* Records a[i] and b[i] (b[n - 1 - i] reversed) that differ, counted. */
template <class R>
static __global__ void diff_kernel(const R *a, const R *b, uint64_t n, int reversed,
                                   unsigned long long *bad)
{
    const int RW = (int)(sizeof(R) / 4);
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        const R &x = a[i], &y = reversed ? b[n - 1 - i] : b[i];
        bool same = true;
        for (int w = 0; w < RW; w++)
            same = same && x.w[w] == y.w[w];
        if (!same)
            atomicAdd(bad, 1ull);
    }
}

struct bufs {
    void *in, *out, *rej, *cub, *cub2;
    uint64_t *cnt, *cub_cnt;
    unsigned long long *bad;
    void *scr, *cub_tmp;
    size_t cub_bytes;
};

static uint64_t host_u64(const uint64_t *d)
{
    uint64_t h;
    SCG_CHECK_DIE(cudaMemcpy(&h, d, 8, cudaMemcpyDeviceToHost));
    return h;
}

template <class R>
static uint64_t mismatches(const bufs &b, const void *x, const void *y, uint64_t n,
                           int reversed)
{
    SCG_CHECK_DIE(cudaMemset(b.bad, 0, 8));
    diff_kernel<<<4096, 256>>>((const R *)x, (const R *)y, n, reversed, b.bad);
    SCG_CHECK_DIE(cudaGetLastError());
    unsigned long long h;
    SCG_CHECK_DIE(cudaMemcpy(&h, b.bad, 8, cudaMemcpyDeviceToHost));
    return h;
}

static void row(const char *what, int keep, float cub, float ms, double bytes, double rate)
{
    printf("  %-34s %3d%% %9.3f %9.3f %7.2fx %6.1f%%\n", what, keep, cub, ms, cub / ms,
           100.0 * bytes / rate / (ms * 1e-3));
}

/* The CUB temporary storage of record R's runs on n records. */
template <class F, class R>
static size_t cub_bytes_of(const bufs &b, uint64_t n)
{
    size_t s1 = 0, s2 = 0;
    SCG_CHECK_DIE(cub::DeviceSelect::If(nullptr, s1, (R *)b.in, (R *)b.cub, b.cub_cnt,
                                        (int64_t)n, F()));
    SCG_CHECK_DIE(cub::DevicePartition::If(nullptr, s2, (R *)b.in, (R *)b.cub, b.cub_cnt,
                                           (int64_t)n, F()));
    return std::max(s1, s2);
}

/* One layout (record R, its key KEY at word KW), one size, one share
 * kept; tn names the rows. */
template <class R, typename KEY, int KW, bool FLOAT>
static int bench_one(const bufs &b, uint64_t n, int keep, const char *tn, const sc_pred &pred,
                     double rate)
{
    typedef keyed<R, KEY, KW, FLOAT> F;
    const uint32_t RS = (uint32_t)sizeof(R), KO = 4 * KW;
    uint64_t kb = (uint64_t)(keep / 100.0 * 18446744073709551615.0);
    fill<R, KEY, KW, FLOAT><<<4096, 256>>>((R *)b.in, n, kb);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    R *in = (R *)b.in;
    float cub_sel = median_ms(RUNS, [&] {
        size_t tb = b.cub_bytes;
        SCG_CHECK_DIE(cub::DeviceSelect::If(b.cub_tmp, tb, in, (R *)b.cub, b.cub_cnt,
                                            (int64_t)n, F()));
    });
    uint64_t k = host_u64(b.cub_cnt);
    float cub_part = median_ms(RUNS, [&] {
        size_t tb = b.cub_bytes;
        SCG_CHECK_DIE(cub::DevicePartition::If(b.cub_tmp, tb, in, (R *)b.cub2, b.cub_cnt,
                                               (int64_t)n, F()));
    });
    float sc_sel = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_compact_records(b.in, n, RS, KO, &pred,
                                                       SC_EMIT_VALUES, 0, b.out, b.cnt,
                                                       b.scr, SCG_ALGO_FUSED, 0));
    });
    int fails = 0;
    char what[64];
    if (host_u64(b.cnt) != k || mismatches<R>(b, b.out, b.cub, k, 0)) {
        printf("  MISMATCH compact %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "compact %s", tn);
        row(what, keep, cub_sel, sc_sel, (double)RS * (n + k), rate);
    }
    float sc_split = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_split_records(b.in, n, RS, KO, &pred, b.out, b.rej,
                                                     b.cnt, b.scr, SCG_ALGO_FUSED, 0));
    });
    /* CUB's partition writes the rejects reversed after the selected */
    if (host_u64(b.cnt) != k || mismatches<R>(b, b.out, b.cub2, k, 0) ||
        mismatches<R>(b, b.rej, (R *)b.cub2 + k, n - k, 1)) {
        printf("  MISMATCH split %s %d%%\n", tn, keep);
        fails++;
    } else {
        snprintf(what, sizeof what, "split %s", tn);
        row(what, keep, cub_part, sc_split, 2.0 * RS * n, rate);
    }
    return fails;
}

int main(int argc, char **argv)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }
    int lgs[8] = {26, 27}, n_lg = 2;
    if (argc > 1)
        for (n_lg = 0; n_lg < argc - 1 && n_lg < 8; n_lg++)
            lgs[n_lg] = atoi(argv[n_lg + 1]);
    uint64_t max_n = 0;
    for (int i = 0; i < n_lg; i++)
        max_n = std::max(max_n, (uint64_t)1 << lgs[i]);
    bufs b;
    void **arrays[] = {&b.in, &b.out, &b.rej, &b.cub, &b.cub2};
    for (void **a : arrays)
        SCG_CHECK_DIE(cudaMalloc(a, max_n * 16));
    SCG_CHECK_DIE(cudaMalloc(&b.cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.cub_cnt, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.bad, 8));
    SCG_CHECK_DIE(cudaMalloc(&b.scr, scg_select_scratch_records(max_n, 16)));
    b.cub_bytes = std::max(
        std::max(cub_bytes_of<keyed<rec8, uint32_t, 1, false>, rec8>(b, max_n),
                 cub_bytes_of<keyed<rec8, uint32_t, 0, true>, rec8>(b, max_n)),
        std::max(cub_bytes_of<keyed<rec16, uint64_t, 2, false>, rec16>(b, max_n),
                 cub_bytes_of<keyed<rec16, uint32_t, 3, true>, rec16>(b, max_n)));
    SCG_CHECK_DIE(cudaMalloc(&b.cub_tmp, b.cub_bytes));
    cudaDeviceProp prop;
    SCG_CHECK_DIE(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s; compaction and split of 8- and 16-byte records, medians of %d\n",
           prop.name, RUNS);
    printf("libsc runs: %s\n", scg_select_variant(SCG_ALGO_FUSED));
    sc_pred p_u32, p_u64, p_f32;
    float zero = 0.0f;
    uint32_t zero_bits;
    memcpy(&zero_bits, &zero, 4);
    if (sc_pred_default_type(&p_u32, SC_U32) || sc_pred_default_type(&p_u64, SC_U64) ||
        sc_pred_all_type(&p_f32, SC_F32) || sc_pred_add_cmp(&p_f32, SC_GT, zero_bits))
        return 2;
    int fails = 0;
    for (int i = 0; i < n_lg; i++) {
        uint64_t n = (uint64_t)1 << lgs[i];
        for (uint32_t rs : {8u, 16u}) {
            float copy = median_ms(RUNS, [&] {
                SCG_CHECK_DIE(cudaMemcpyAsync(b.out, b.in, n * rs, cudaMemcpyDeviceToDevice));
            });
            double rate = 2.0 * rs * n / (copy * 1e-3);
            printf("n = 2^%d records of %u bytes (%.0f MiB); D2D copy %.3f ms, %.2f TB/s "
                   "read+write\n", lgs[i], rs, (double)rs * n / 1048576, copy, rate / 1e12);
            printf("  %-34s %4s %9s %9s %8s %7s\n", "op (against CUB's If)", "keep", "CUB ms",
                   "sc ms", "x CUB", "% floor");
            for (int keep : {10, 50, 90}) {
                if (rs == 8) {
                    fails += bench_one<rec8, uint32_t, 1, false>(b, n, keep, "8B u32@4 x != 0",
                                                                 p_u32, rate);
                    fails += bench_one<rec8, uint32_t, 0, true>(b, n, keep, "8B f32@0 x > 0",
                                                                p_f32, rate);
                } else {
                    fails += bench_one<rec16, uint64_t, 2, false>(b, n, keep,
                                                                  "16B u64@8 x != 0", p_u64,
                                                                  rate);
                    fails += bench_one<rec16, uint32_t, 3, true>(b, n, keep,
                                                                 "16B f32@12 x > 0", p_f32,
                                                                 rate);
                }
            }
        }
    }
    return fails ? 1 : 0;
}
