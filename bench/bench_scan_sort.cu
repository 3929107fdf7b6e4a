/* bench_scan_sort.cu — scg_scan and scg_sort against CUB on 2^28 uint32.
 *
 * Build (the tuning hook lists the sort's tile configurations):
 *   nvcc -O3 -std=c++17 -arch=sm_90 -DSCG_TUNE -I lib -I kernels \
 *        bench/bench_scan_sort.cu kernels/scan.cu kernels/sort.cu
 * Each figure is the median of 20 cudaEvent-timed runs after a warm-up;
 * results are checked against CUB's before anything is printed.
 */
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <stdio.h>
#include <stdlib.h>
#include <algorithm>
#include <functional>
#include <vector>
#include "sc_kernels.h"
#include "cuda_check.cuh"
#include "bench_timing.cuh"

#ifdef SCG_TUNE
extern "C" int scg_sort_tune(int cfg);
#endif
#ifdef SCG_TUNE
extern "C" int scg_scan_tune(int cfg);
#endif

static const int RUNS = 20;
static const uint64_t N = 1ull << 28;


__global__ void mask_kernel(uint32_t *d, const uint32_t *s, uint64_t n, uint32_t mask)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        d[i] = s[i] & mask;
}

__global__ void fill_kernel(uint32_t *d, uint64_t n, uint64_t seed)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x)
        d[i] = (uint32_t)(sc_mix64(seed + i * 0x9e3779b97f4a7c15ull) >> 32);
}

static bool equal_dev(const uint32_t *a, const uint32_t *b, uint64_t n)
{
    std::vector<uint32_t> ha(n), hb(n);
    SCG_CHECK_DIE(cudaMemcpy(ha.data(), a, n * 4, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(hb.data(), b, n * 4, cudaMemcpyDeviceToHost));
    for (uint64_t i = 0; i < n; i++)
        if (ha[i] != hb[i]) {
            fprintf(stderr, "mismatch at %llu: %08x vs %08x\n",
                    (unsigned long long)i, ha[i], hb[i]);
            return false;
        }
    return true;
}

static void row(const char *op, float ms, float cub_ms, const char *extra)
{
    if (cub_ms > 0)
        printf("| %-34s | %8.3f | %5.2fx | %s |\n", op, ms, cub_ms / ms, extra);
    else
        printf("| %-34s | %8.3f |   -   | %s |\n", op, ms, extra);
}

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        printf("no CUDA GPU\n");
        return 0;
    }

    uint32_t *d_in, *d_out, *d_cub, *d_keys, *d_alt;
    uint64_t *d_carry;
    SCG_CHECK_DIE(cudaMalloc(&d_in, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_out, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_cub, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_keys, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_alt, N * 4));
    SCG_CHECK_DIE(cudaMalloc(&d_carry, 16));
    SCG_CHECK_DIE(cudaMemset(d_carry, 0, 16));
    fill_kernel<<<4096, 256>>>(d_in, N, 42);
    SCG_CHECK_DIE(cudaGetLastError());

    size_t cub_scan_bytes = 0, cub_sort_bytes = 0;
    SCG_CHECK_DIE(cub::DeviceScan::ExclusiveSum(nullptr, cub_scan_bytes, d_in, d_cub, N));
    SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(nullptr, cub_sort_bytes, d_in, d_cub, N));
    size_t scr_bytes = std::max({ cub_scan_bytes, cub_sort_bytes,
                                  scg_scan_scratch(N), scg_sort_scratch(N) });
    void *d_scr;
    SCG_CHECK_DIE(cudaMalloc(&d_scr, scr_bytes));

    /* floor: device-to-device copy, 1 GiB read + 1 GiB written */
    float copy_ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(d_out, d_in, N * 4, cudaMemcpyDeviceToDevice));
    });

    /* scan */
    float cub_scan_ms = median_ms(RUNS, [&] {
        size_t b = cub_scan_bytes;
        SCG_CHECK_DIE(cub::DeviceScan::ExclusiveSum(d_scr, b, d_in, d_cub, N));
    });
    float scan_ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_scan(d_in, N, SC_OP_SUM, 0, 0, d_carry,
                                            d_out, d_carry + 1, d_scr, 0));
    });
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    if (!equal_dev(d_out, d_cub, N)) {
        fprintf(stderr, "scg_scan differs from CUB\n");
        return 1;
    }
    struct { int tag; float ms; } scans[16];
    int n_scans = 0;
#ifdef SCG_TUNE
    for (int c = 1; scg_scan_tune(c); c++) {
        scans[n_scans].tag = scg_scan_tune(c);
        scans[n_scans].ms = median_ms(RUNS, [&] {
            SCG_CHECK_DIE((cudaError_t)scg_scan(d_in, N, SC_OP_SUM, 0, 0, d_carry,
                                                d_out, d_carry + 1, d_scr, 0));
        });
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        if (!equal_dev(d_out, d_cub, N)) {
            fprintf(stderr, "scg_scan (config %d) differs from CUB\n", c);
            return 1;
        }
        n_scans++;
    }
    scg_scan_tune(0);
#endif
    float scan_max_ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_scan(d_in, N, SC_OP_MAX, 1, 0, d_carry,
                                            d_out, d_carry + 1, d_scr, 0));
    });
    float scan_wide_ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_scan(d_in, N / 2, SC_OP_SUM, 0, 1, d_carry,
                                            d_out, d_carry + 1, d_scr, 0));
    });

    /* sort */
    float cub_sort_ms = median_ms(RUNS, [&] {
        size_t b = cub_sort_bytes;
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(d_scr, b, d_in, d_cub, N));
    });
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    auto restore = [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(d_keys, d_in, N * 4, cudaMemcpyDeviceToDevice));
    };
    int is_alt = 0;
    auto our_sort = [&] {
        SCG_CHECK_DIE((cudaError_t)scg_sort(d_keys, d_alt, N, 0, 32, 0, &is_alt, d_scr, 0));
    };
    struct { int cfg, tile; float ms; } sorts[16];
    int n_sorts = 0, device_tag = 0;
#ifdef SCG_TUNE
    device_tag = scg_sort_tune(-1);     /* the one libsc calls here */
    for (int c = 0; scg_sort_tune(c); c++) {
        sorts[n_sorts].cfg = c;
        sorts[n_sorts].tile = scg_sort_tune(c);
#else
    {
        sorts[n_sorts].cfg = 0;
        sorts[n_sorts].tile = 0;
#endif
        sorts[n_sorts].ms = median_ms(RUNS, our_sort, restore);
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        if (!equal_dev(is_alt ? d_alt : d_keys, d_cub, N)) {
            fprintf(stderr, "scg_sort (config %d) differs from CUB\n", n_sorts);
            return 1;
        }
        n_sorts++;
    }
#ifdef SCG_TUNE
    scg_sort_tune(-1);
#endif

    /* per-pass cost: random keys sorted on [0,8) and [0,16) */
    float bits_ms[2];
    for (int k = 0; k < 2; k++) {
        unsigned hi = 8 * (k + 1);
        auto sort_bits = [&] {
            SCG_CHECK_DIE((cudaError_t)scg_sort(d_keys, d_alt, N, 0, hi, 0, &is_alt, d_scr, 0));
        };
        bits_ms[k] = median_ms(RUNS, sort_bits, restore);
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        size_t b = cub_sort_bytes;
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(d_scr, b, d_in, d_cub, N, 0, (int)hi));
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        if (!equal_dev(is_alt ? d_alt : d_keys, d_cub, N)) {
            fprintf(stderr, "scg_sort bits 0:%u differs from CUB\n", hi);
            return 1;
        }
    }

    /* smaller sorts: the first 2^20 and 2^24 keys */
    float small_cub[2], small_ours[2];
    const int small_lg[2] = { 20, 24 };
    for (int k = 0; k < 2; k++) {
        uint64_t m = 1ull << small_lg[k];
        small_cub[k] = median_ms(RUNS, [&] {
            size_t b = cub_sort_bytes;
            SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(d_scr, b, d_in, d_cub, m));
        });
        auto restore_m = [&] {
            SCG_CHECK_DIE(cudaMemcpyAsync(d_keys, d_in, m * 4, cudaMemcpyDeviceToDevice));
        };
        small_ours[k] = median_ms(RUNS, [&] {
            SCG_CHECK_DIE((cudaError_t)scg_sort(d_keys, d_alt, m, 0, 32, 0, &is_alt, d_scr, 0));
        }, restore_m);
        SCG_CHECK_DIE(cudaDeviceSynchronize());
        if (!equal_dev(is_alt ? d_alt : d_keys, d_cub, m)) {
            fprintf(stderr, "scg_sort 2^%d differs from CUB\n", small_lg[k]);
            return 1;
        }
    }
#ifdef SCG_TUNE
    /* the two shipped tiles by size, to place the switch between them */
    for (int lg = 20; lg <= 28; lg++) {
        uint64_t m = 1ull << lg;
        float cub_ms = median_ms(RUNS, [&] {
            size_t b = cub_sort_bytes;
            SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(d_scr, b, d_in, d_cub, m));
        });
        printf("sizes: 2^%d cub %.4f", lg, cub_ms);
        for (int c = 0; c < 2; c++) {
            int t = scg_sort_tune(c);
            float ms = median_ms(RUNS, [&] {
                SCG_CHECK_DIE((cudaError_t)scg_sort(d_keys, d_alt, m, 0, 32, 0, &is_alt, d_scr, 0));
            }, [&] {
                SCG_CHECK_DIE(cudaMemcpyAsync(d_keys, d_in, m * 4, cudaMemcpyDeviceToDevice));
            });
            printf("  %d x %d %.4f (%.3fx)", t >> 16, t & 0x7fff, ms, cub_ms / ms);
        }
        printf("\n");
    }
    scg_sort_tune(-1);
#endif
    /* the other scans: inclusive sum, min, xor */
    float scan_other[3];
    const int other_op[3] = { SC_OP_SUM, SC_OP_MIN, SC_OP_XOR };
    for (int k = 0; k < 3; k++)
        scan_other[k] = median_ms(RUNS, [&] {
            SCG_CHECK_DIE((cudaError_t)scg_scan(d_in, N, other_op[k], k == 0, 0, d_carry,
                                                d_out, d_carry + 1, d_scr, 0));
        });

    /* keys below 2^16 on all 32 bits: two passes skipped (CUB runs four) */
    mask_kernel<<<4096, 256>>>(d_out, d_in, N, 0xffffu);
    SCG_CHECK_DIE(cudaGetLastError());
    float skip_cub_ms = median_ms(RUNS, [&] {
        size_t b = cub_sort_bytes;
        SCG_CHECK_DIE(cub::DeviceRadixSort::SortKeys(d_scr, b, d_out, d_cub, N));
    });
    float skip_ms = median_ms(RUNS, [&] {
        SCG_CHECK_DIE((cudaError_t)scg_sort(d_keys, d_alt, N, 0, 32, 0, &is_alt, d_scr, 0));
    }, [&] {
        SCG_CHECK_DIE(cudaMemcpyAsync(d_keys, d_out, N * 4, cudaMemcpyDeviceToDevice));
    });
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    if (!equal_dev(is_alt ? d_alt : d_keys, d_cub, N)) {
        fprintf(stderr, "scg_sort of keys below 2^16 differs from CUB\n");
        return 1;
    }

    double gib = N * 4.0 / (1 << 30);
    printf("2^28 uint32 (%.0f GiB), median of %d runs\n", gib, RUNS);
    printf("scan variant: %s\nsort variant: %s\n\n", scg_scan_variant(),
           scg_sort_variant());
    printf("| %-34s | %8s | %6s | %s |\n", "op", "ms", "ratio", "note");
    printf("|%s|%s|%s|%s|\n", "------------------------------------",
           "----------", "--------", "------------------");
    char note[128];
    snprintf(note, sizeof note, "%.2f TB/s read+write (floor)",
             2 * N * 4.0 / copy_ms / 1e9);
    row("d2d cudaMemcpy", copy_ms, 0, note);
    snprintf(note, sizeof note, "%.0f %% of floor", 100 * copy_ms / cub_scan_ms);
    row("cub::DeviceScan::ExclusiveSum", cub_scan_ms, 0, note);
    snprintf(note, sizeof note, "%.0f %% of floor", 100 * copy_ms / scan_ms);
    row("scg_scan exclusive sum (default)", scan_ms, cub_scan_ms, note);
    snprintf(note, sizeof note, "%.0f %% of floor", 100 * copy_ms / scan_max_ms);
    row("scg_scan inclusive max", scan_max_ms, 0, note);
    snprintf(note, sizeof note, "%.0f %% of floor (2^27 in, 8 B out)",
             100 * (copy_ms * 0.75f) / scan_wide_ms);
    row("scg_scan exclusive sum wide", scan_wide_ms, 0, note);
    for (int i = 0; i < n_scans; i++) {
        char name[64];
        int t = scans[i].tag % 1000000, st = scans[i].tag / 1000000;
        char ring[32] = "";
        if (st)
            snprintf(ring, sizeof ring, ", persistent, %d slots", st);
        snprintf(name, sizeof name, "scg_scan excl. sum (%d x %d uint4%s)",
                 t / 100, t % 100, ring);
        snprintf(note, sizeof note, "%.0f %% of floor", 100 * copy_ms / scans[i].ms);
        row(name, scans[i].ms, cub_scan_ms, note);
    }
    snprintf(note, sizeof note, "%.1f Gkeys/s", N / cub_sort_ms / 1e6);
    row("cub::DeviceRadixSort::SortKeys", cub_sort_ms, 0, note);
    for (int i = 0; i < n_sorts; i++) {
        char name[96];
        int t = sorts[i].tile;
        if (t)
            snprintf(name, sizeof name, "scg_sort%s (%d x %d%s)",
                     t == device_tag ? " default" : "", t >> 16, t & 0x7fff,
                     t & 0x8000 ? ", full tiles apart" : "");
        else
            snprintf(name, sizeof name, "scg_sort default");
        snprintf(note, sizeof note, "%.1f Gkeys/s", N / sorts[i].ms / 1e6);
        row(name, sorts[i].ms, cub_sort_ms, note);
    }
    for (int k = 0; k < 2; k++) {
        char name[64];
        snprintf(name, sizeof name, "cub SortKeys 2^%d", small_lg[k]);
        snprintf(note, sizeof note, "%.1f Gkeys/s", (1ull << small_lg[k]) / small_cub[k] / 1e6);
        row(name, small_cub[k], 0, note);
        snprintf(name, sizeof name, "scg_sort default 2^%d", small_lg[k]);
        snprintf(note, sizeof note, "%.1f Gkeys/s", (1ull << small_lg[k]) / small_ours[k] / 1e6);
        row(name, small_ours[k], small_cub[k], note);
    }
    const char *other_name[3] = { "scg_scan inclusive sum", "scg_scan exclusive min",
                                  "scg_scan exclusive xor" };
    for (int k = 0; k < 3; k++) {
        snprintf(note, sizeof note, "%.0f %% of floor", 100 * copy_ms / scan_other[k]);
        row(other_name[k], scan_other[k], cub_scan_ms, note);
    }
    row("scg_sort default, bits 0:8 (1 pass)", bits_ms[0], 0, "count + 1 pass");
    row("scg_sort default, bits 0:16 (2 passes)", bits_ms[1], 0, "count + 2 passes");
    row("cub SortKeys, keys below 2^16", skip_cub_ms, 0, "4 passes");
    row("scg_sort default, keys below 2^16", skip_ms, skip_cub_ms, "count + 2 passes, 2 skipped");
    return 0;
}
