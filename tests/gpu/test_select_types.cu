/* test_select_types.cu — scg_compact and scg_split on elements of every
 * type, 8-byte ones above all, against a plain host loop.  TAP on stdout.
 *
 * Predicates are built by libsc's own calls (lib/core/pred.c, whose
 * encoding the CPU suites check against sc-ref); the reference keeps x
 * where sc_pred_test says so, so this tests the kernels' reading of the
 * encoding, not the encoding (a single != term folded into the bounds, as
 * the kernels do, among it).  Outputs are poisoned and checked past the
 * count; inputs sit 0 or 1 element past a 16-byte boundary and outputs at
 * every 4-byte offset the type allows, since the kernels treat the
 * misaligned ends apart.  Sizes straddle every variant's tile of 8-byte
 * elements (compaction 3072, split 4096, three phases 2048).
 */
#include "select_cases.cuh"

static const sc_type TYPES[] = {SC_U64, SC_I64, SC_F64, SC_U32, SC_I32, SC_F32};
static const uint64_t SIZES[] = {0, 1, 2, 3, 31, 33, 2047, 2048, 2049, 3071, 3072,
                                 3073, 4095, 4096, 4097, 6145, 65537, 1000003};

static void run_case(sc_type t, uint64_t n, double density, unsigned mis, run_bufs &b)
{
    size_t sz = sc_type_size(t);
    std::vector<uint64_t> h(n);
    for (uint64_t i = 0; i < n; i++)
        h[i] = value_of(t, rnd64(), density);
    std::vector<char> raw;
    for (uint64_t x : h)
        push(raw, x, sz);
    char *d_in = (char *)b.in.get(n * sz + 64) + mis * sz;
    if (n)
        SCG_CHECK_DIE(cudaMemcpy(d_in, raw.data(), n * sz, cudaMemcpyHostToDevice));
    size_t out_bytes = (n + GUARD) * 8 + 64;
    char *out = (char *)b.out.get(out_bytes), *rej = (char *)b.rej.get(out_bytes);
    uint64_t *cnt = (uint64_t *)b.cnt.get(8);
    void *scr = b.scr.get(scg_select_scratch_type(n, (uint32_t)t));
    const uint64_t first = (1ull << 32) - 5;
    for (int k = 0; k < N_PREDS; k++) {
        const char *pn;
        sc_pred p = make_pred(t, k, &pn);
        std::vector<char> sel, rejs, i32, i64;
        for (uint64_t i = 0; i < n; i++) {
            if (sc_pred_test(&p, h[i])) {
                push(sel, h[i], sz);
                push(i32, (uint32_t)(first + i), 4);
                push(i64, first + i, 8);
            } else {
                push(rejs, h[i], sz);
            }
        }
        for (int algo = 0; scg_select_variant(algo); algo++) {
            for (int kind = SC_EMIT_VALUES; kind <= SC_EMIT_IDX64; kind++) {
                size_t osz = kind == SC_EMIT_VALUES ? sz : kind == SC_EMIT_IDX32 ? 4 : 8;
                char *o = out + osz * ((mis + k) % (16 / osz));
                SCG_CHECK_DIE(cudaMemset(out, 0xAB, out_bytes));
                int rc = scg_compact(d_in, n, &p, kind, first, o, cnt, scr, algo, 0);
                char why[120];
                bool good = ran(rc, why, sizeof why) && count_is(cnt, sel.size() / sz, why, sizeof why) &&
                       check_bytes(o, kind == SC_EMIT_VALUES ? sel
                                      : kind == SC_EMIT_IDX32 ? i32 : i64,
                                   osz, why, sizeof why);
                static const char *kn[3] = {"values", "idx32", "idx64"};
                tap(good, "compact v%d %s %s n=%llu p=%.2f %s mis=%u%s", algo,
                    sc_type_name(t), kn[kind], (unsigned long long)n, density, pn, mis, why);
            }
            char *o = out + sz * ((mis + 1) % (16 / sz));
            char *r = rej + sz * ((mis + k) % (16 / sz));
            SCG_CHECK_DIE(cudaMemset(out, 0xAB, out_bytes));
            SCG_CHECK_DIE(cudaMemset(rej, 0xAB, out_bytes));
            int rc = scg_split_algo(d_in, n, &p, o, r, cnt, scr, algo, 0);
            char why[120];
            bool good = ran(rc, why, sizeof why) && count_is(cnt, sel.size() / sz, why, sizeof why) &&
                   check_bytes(o, sel, sz, why, sizeof why) &&
                   check_bytes(r, rejs, sz, why, sizeof why);
            tap(good, "split v%d %s n=%llu p=%.2f %s mis=%u%s", algo, sc_type_name(t),
                (unsigned long long)n, density, pn, mis, why);
        }
    }
}

/* An 8-byte input off its 8-byte grid is refused, not misread. */
static void test_misaligned(run_bufs &b)
{
    sc_pred p;
    sc_pred_default_type(&p, SC_U64);
    char *in = (char *)b.in.get(256);
    void *scr = b.scr.get(scg_select_scratch_type(8, SC_U64));
    uint64_t *cnt = (uint64_t *)b.cnt.get(8);
    int rc = scg_compact(in + 4, 8, &p, SC_EMIT_VALUES, 0, b.out.get(256), cnt, scr,
                         SCG_ALGO_FUSED, 0);
    tap(rc == (int)cudaErrorMisalignedAddress, "compact of u64 at a 4-byte offset refused");
    rc = scg_split(in + 4, 8, &p, b.out.get(256), b.rej.get(256), cnt, scr, 0);
    tap(rc == (int)cudaErrorMisalignedAddress, "split of u64 at a 4-byte offset refused");
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
    run_bufs b;
    const double dens[] = {0.5, 1.0, 0.05};
    int c = 0;
    for (sc_type t : TYPES) {
        bool wide = sc_type_size(t) == 8;
        for (uint64_t n : SIZES) {
            if (!wide && n > 70000)
                continue;       /* the u32 kernels' own test covers them */
            run_case(t, n, dens[c % 3], (unsigned)(c & 1), b);
            c++;
        }
    }
    run_case(SC_U64, (1ull << 24) + 5, 0.5, 1, b);
    run_case(SC_F64, (1ull << 22) + 3, 0.9, 0, b);
    test_misaligned(b);
    return tap_done();
}
