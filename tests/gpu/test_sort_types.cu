/* test_sort_types.cu — scg_sort_type and scg_sort_keys_type against a
 * stable sort on the host, for every element type (4- and 8-byte keys,
 * ranked in the kernels for the signed and float types).
 *
 * Standalone, TAP output; built like test_scan_sort_kernels.cu (with
 * kernels/sort.cu).  With -DSCG_TUNE it tests every measured tile
 * configuration of the 8-byte keys too.  SC_QUICK=1 keeps to small sizes.
 * Without a usable GPU it prints "1..0 # SKIP no CUDA GPU" and exits 0.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "sc_kernels.h"
#include "cuda_check.cuh"

#ifdef SCG_TUNE
extern "C" int scg_sort64_tune(int cfg);
#endif

#include "gpu_tap.cuh"

static DevBuf g_keys, g_alt, g_scratch;

static const char *type_name[] = { "u32", "i32", "f32", "u64", "i64", "f64" };

enum { D_RANDOM, D_SPECIAL, D_FEW, D_HIGH_FIXED };

/* Raw bits of n elements of a type of `bytes` bytes (in the low bits of
 * each word): random, the float specials and signed extremes among
 * random values, few distinct values, or the top half fixed (whose
 * passes are skipped). */
static std::vector<uint64_t> make_data(size_t n, int bytes, int dist)
{
    const uint64_t special64[] = { 0, 0x8000000000000000ull, 0x7ff0000000000000ull,
                                   0xfff0000000000000ull, 0x7ff8000000000001ull,
                                   0xfff8000000000000ull, 1, 0xffffffffffffffffull,
                                   0x7fffffffffffffffull, 0x3ff0000000000000ull,
                                   0xbff0000000000000ull };
    const uint64_t special32[] = { 0, 0x80000000u, 0x7f800000u, 0xff800000u,
                                   0x7fc00001u, 0xffc00000u, 1, 0xffffffffu,
                                   0x7fffffffu, 0x3f800000u, 0xbf800000u };
    uint64_t mask = bytes == 8 ? ~0ull : 0xffffffffull;
    std::vector<uint64_t> v(n);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd64();
        switch (dist) {
        case D_SPECIAL:
            v[i] = r % 3 ? r & mask
                         : (bytes == 8 ? special64 : special32)[r % 11];
            break;
        case D_FEW: v[i] = (r % 7) * 0x0101010101010101ull & mask; break;
        case D_HIGH_FIXED:
            v[i] = ((bytes == 8 ? 0xc0ffee0000000000ull : 0xc0fe0000ull) |
                    (r & (bytes == 8 ? 0xffffffffffull : 0xffffull))) & mask;
            break;
        default: v[i] = r & mask;
        }
    }
    return v;
}

/* The expected order: stable, by bits [lo, hi) of the rank (sc_hd.h),
 * complemented when descending. */
static std::vector<uint64_t> reference(std::vector<uint64_t> v, uint32_t type,
                                       unsigned lo, unsigned hi, int desc)
{
    uint64_t m = hi - lo == 64 ? ~0ull : ((1ull << (hi - lo)) - 1);
    auto key = [&](uint64_t x) { return (sc_type_rank(type, x) >> lo) & m; };
    std::stable_sort(v.begin(), v.end(), [&](uint64_t a, uint64_t b) {
        return desc ? key(a) > key(b) : key(a) < key(b);
    });
    return v;
}

/* One sort on the device, blocking (scg_sort_type) or stream-ordered
 * (scg_sort_keys_type); off misaligns the keys by that many elements. */
static bool sort_check(const std::vector<uint64_t> &h, uint32_t type,
                       unsigned lo, unsigned hi, int desc, int ordered,
                       size_t off, const char **why)
{
    size_t n = h.size(), w = sc_type_is_64bit(type) ? 8 : 4;
    char *d_keys = (char *)g_keys.get((n + off) * w + 16) + off * w;
    char *d_alt = (char *)g_alt.get((n + off) * w + 16) + off * w;
    void *d_scr = g_scratch.get(scg_sort_scratch_type(n, type));
    SCG_CHECK_DIE(cudaMemset(g_alt.p, 0xa5, g_alt.size));
    SCG_CHECK_DIE(cudaMemset(g_scratch.p, 0x77, g_scratch.size));
    std::vector<char> bytes(n * w + 1);
    for (size_t i = 0; i < n; i++)
        if (w == 8) memcpy(&bytes[i * 8], &h[i], 8);
        else { uint32_t x = (uint32_t)h[i]; memcpy(&bytes[i * 4], &x, 4); }
    SCG_CHECK_DIE(cudaMemcpy(d_keys, bytes.data(), n * w, cudaMemcpyHostToDevice));
    int is_alt = 0, rc;
    if (ordered)
        rc = scg_sort_keys_type(d_keys, d_alt, n, type, lo, hi, desc, d_scr, 0);
    else
        rc = scg_sort_type(d_keys, d_alt, n, type, lo, hi, desc, &is_alt, d_scr, 0);
    if (rc != 0) { *why = cudaGetErrorString((cudaError_t)rc); return false; }
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    SCG_CHECK_DIE(cudaMemcpy(bytes.data(), is_alt ? d_alt : d_keys, n * w,
                             cudaMemcpyDeviceToHost));
    std::vector<uint64_t> want = reference(h, type, lo, hi, desc);
    for (size_t i = 0; i < n; i++) {
        uint64_t got = 0;
        memcpy(&got, &bytes[i * w], w);
        if (got != want[i]) {
            static char buf[160];
            snprintf(buf, sizeof buf, "key[%zu] = %016llx, want %016llx (alt=%d)", i,
                     (unsigned long long)got, (unsigned long long)want[i], is_alt);
            *why = buf;
            return false;
        }
    }
    return true;
}

static void sort_case(size_t n, uint32_t type, int dist, unsigned lo,
                      unsigned hi, int desc, int ordered, size_t off)
{
    static const char *dist_name[] = { "random", "special", "few", "high-fixed" };
    std::vector<uint64_t> h = make_data(n, sc_type_is_64bit(type) ? 8 : 4, dist);
    const char *why = "";
    bool ok = sort_check(h, type, lo, hi, desc, ordered, off, &why);
    tap(ok, "sort %s %s n=%zu bits %u:%u%s%s%s %s", type_name[type],
        dist_name[dist], n, lo, hi, desc ? " descending" : "",
        ordered ? " stream-ordered" : "", off ? " misaligned" : "", ok ? "" : why);
}

static void test_types()
{
    /* around the 8-byte keys' tiles (3072 to 5120 keys) and the 4-byte
     * ones' (6144 to 9216) */
    const size_t sizes[] = { 0, 1, 2, 31, 33, 3071, 3073, 4095, 4096, 4097,
                             5121, 8193, 9217, 65537, 999983, 4194319 };
    const char *q = getenv("SC_QUICK");
    size_t max_n = q && atoi(q) ? 65537 : ~(size_t)0;
    for (uint32_t type = SC_U32; type <= SC_F64; type++) {
        unsigned width = sc_type_is_64bit(type) ? 64 : 32;
        for (size_t n : sizes) {
            if (n > max_n) continue;
            for (int desc = 0; desc < 2; desc++)
                sort_case(n, type, D_SPECIAL, 0, width, desc, 0, 0);
        }
        for (int dist = D_RANDOM; dist <= D_HIGH_FIXED; dist++)
            sort_case(65537, type, dist, 0, width, dist & 1, 1, 0);
        /* part of the key: the top bits (sign and exponent of a float),
         * a middle range that cuts a digit, the low bits */
        sort_case(100003, type, D_SPECIAL, width - 12, width, 0, 0, 0);
        sort_case(100003, type, D_RANDOM, 5, width - 7, 1, 0, 0);
        sort_case(100003, type, D_RANDOM, 0, 9, 0, 1, 1);
        if (max_n > 65537)
            sort_case((size_t)1 << 24 | 5, type, D_SPECIAL, 0, width, 0, 0, 0);
    }
    int is_alt = 0;
    void *d_scr = g_scratch.get(scg_sort_scratch_type(10, SC_U64));
    void *d_keys = g_keys.get(128), *d_alt = g_alt.get(128);
    tap(scg_sort_type(d_keys, d_alt, 10, SC_U64, 0, 65, 0, &is_alt, d_scr, 0) != 0 &&
        scg_sort_type(d_keys, d_alt, 10, SC_I32, 0, 33, 0, &is_alt, d_scr, 0) != 0 &&
        scg_sort_type(d_keys, d_alt, 10, SC_F64 + 1, 0, 8, 0, &is_alt, d_scr, 0) != 0,
        "sort refuses bits past the type's width and an unknown type");
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
#ifdef SCG_TUNE
    for (int c = 0; int tag = scg_sort64_tune(c); c++) {
        printf("# 8-byte sort configuration %d (%d)\n", c, tag);
        test_types();
    }
    scg_sort64_tune(-1);
#else
    test_types();
#endif
    return tap_done();
}
