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
 * unpredictable pattern.  select_bench.cuh checks, times and prints.
 *
 * Usage: bench_select_records [log2 n ...]   (records; default 26 27)
 */
#include <string.h>
#include "select_bench.cuh"

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

/* One layout (record R, its key KEY at word KW), one size, one share
 * kept; tn names the rows. */
template <class R, typename KEY, int KW, bool FLOAT>
static int bench_one(const bufs &b, uint64_t n, int keep, const char *tn, const sc_pred &pred,
                     double rate)
{
    const uint32_t RS = (uint32_t)sizeof(R), KO = 4 * KW;
    uint64_t kb = (uint64_t)(keep / 100.0 * 18446744073709551615.0);
    fill<R, KEY, KW, FLOAT><<<4096, 256>>>((R *)b.in, n, kb);
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    return bench_pair<keyed<R, KEY, KW, FLOAT>, R>(
        b, n, keep, tn, rate,
        [&] {
            return scg_compact_records(b.in, n, RS, KO, &pred, SC_EMIT_VALUES, 0, b.out, b.cnt,
                                       b.scr, SCG_ALGO_FUSED, 0);
        },
        [&] {
            return scg_split_records(b.in, n, RS, KO, &pred, b.out, b.rej, b.cnt, b.scr,
                                     SCG_ALGO_FUSED, 0);
        });
}

int main(int argc, char **argv)
{
    if (!have_gpu())
        return 0;
    int lgs[8];
    uint64_t max_n;
    int n_lg = sizes_asked(argc, argv, lgs, 26, 27, &max_n);
    bufs b;
    alloc_bufs(b, max_n * 16, scg_select_scratch_records(max_n, 16));
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
            char what[64];
            snprintf(what, sizeof what, "n = 2^%d records of %u bytes", lgs[i], rs);
            double rate = copy_rate(b, n * rs, what);
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
