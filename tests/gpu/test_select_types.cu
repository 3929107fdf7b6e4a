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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "sc_kernels.h"
#include "gpu_tap.cuh"

static const sc_type TYPES[] = {SC_U64, SC_I64, SC_F64, SC_U32, SC_I32, SC_F32};
static const uint64_t SIZES[] = {0, 1, 2, 3, 31, 33, 2047, 2048, 2049, 3071, 3072,
                                 3073, 4095, 4096, 4097, 6145, 65537, 1000003};
static const uint64_t GUARD = 41;   /* elements checked past the end */

/* Values of type t as bits: small numbers (so that bounds and equality
 * match often), full-width random ones, zeros at rate 1 - density, and
 * for floats the specials. */
static uint64_t value_of(sc_type t, uint64_t r, double density)
{
    unsigned size = sc_type_size(t);
    uint64_t top = size == 8 ? ~0ull : 0xffffffffull;
    if ((double)(r >> 11) * 0x1p-53 >= density)
        return 0;
    uint64_t s = sc_mix64(r);
    if (sc_type_is_float(t)) {
        static const double SPECIAL[] = {-0.0, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -(0.0 / 0.0),
                                         2.5, -2.5, 1e300, -7.0};
        double d = (s & 3) == 0 ? SPECIAL[(s >> 8) % 9]
                                : ((double)(int64_t)(s >> 16) / 4096.0) * ((s & 4) ? 1 : -1);
        if (size == 8) {
            uint64_t b;
            memcpy(&b, &d, 8);
            return b;
        }
        float f = (float)d;
        uint32_t b;
        memcpy(&b, &f, 4);
        return b;
    }
    uint64_t v = (s & 1) ? (s >> 1) % 40 : s >> 3;
    if (sc_type_is_signed(t) && (s & 2))
        v = 0 - v;
    return v & top;
}

static sc_pred make_pred(sc_type t, int k, const char **name)
{
    sc_pred p;
    bool fl = sc_type_is_float(t);
    uint64_t seven = 7, minus3 = (uint64_t)-3, half = 0, big = 30;
    if (fl) {
        double d7 = 7.0, dm3 = -3.0, dh = 0.5, db = 30.0;
        if (sc_type_size(t) == 8) {
            memcpy(&seven, &d7, 8); memcpy(&minus3, &dm3, 8);
            memcpy(&half, &dh, 8); memcpy(&big, &db, 8);
        } else {
            float f7 = 7, fm3 = -3, fh = 0.5f, fb = 30;
            uint32_t b;
            memcpy(&b, &f7, 4); seven = b; memcpy(&b, &fm3, 4); minus3 = b;
            memcpy(&b, &fh, 4); half = b; memcpy(&b, &fb, 4); big = b;
        }
    }
    if (!sc_type_is_signed(t) && !fl)
        minus3 = 3;
    sc_status st = sc_pred_default_type(&p, t);
    *name = "default";
    switch (k) {
    case 1: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_EQ, seven);
        *name = "eq"; break;
    case 2: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_NE, seven);
        *name = "ne"; break;
    case 3: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_LT, half);
        *name = "lt"; break;
    case 4: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_range(&p, minus3, big);
        *name = "range"; break;
    case 5: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_range(&p, minus3, big);
        p.invert = 1; *name = "range-inverted"; break;
    case 6: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_GT, big);
        st = st ? st : sc_pred_add_cmp(&p, SC_LT, minus3);
        *name = "empty"; break;
    case 7: st = sc_pred_all_type(&p, t);
        if (!fl) st = st ? st : sc_pred_add_mask(&p, 6);
        *name = fl ? "all" : "mask"; break;
    /* a != term at an end of the bounds, or outside them, or all they
     * admit: the kernels fold it into the interval */
    case 8: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_GE, seven);
        st = st ? st : sc_pred_add_cmp(&p, SC_NE, seven);
        *name = "ge-ne-low-end"; break;
    case 9: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_LE, seven);
        st = st ? st : sc_pred_add_cmp(&p, SC_NE, seven);
        p.invert = 1; *name = "le-ne-high-end-inverted"; break;
    case 10: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_EQ, seven);
        st = st ? st : sc_pred_add_cmp(&p, SC_NE, seven);
        *name = "eq-ne-nothing"; break;
    case 11: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_LT, half);
        st = st ? st : sc_pred_add_cmp(&p, SC_NE, big);
        *name = "lt-ne-outside"; break;
    }
    if (st != SC_OK) {
        fprintf(stderr, "pred %d of %s: status %d\n", k, sc_type_name(t), (int)st);
        exit(99);
    }
    return p;
}
enum { N_PREDS = 12 };

struct run_bufs {
    DevBuf in, out, rej, cnt, scr;
};

/* got (bytes at p) == want, then poison for GUARD elements of size sz. */
static bool check_bytes(const char *d, const std::vector<char> &want, size_t sz,
                        char *why, size_t why_n)
{
    size_t total = want.size() + GUARD * sz;
    std::vector<char> got(total);
    SCG_CHECK_DIE(cudaMemcpy(got.data(), d, total, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < total; i++) {
        char w = i < want.size() ? want[i] : (char)0xAB;
        if (got[i] != w) {
            snprintf(why, why_n, " [byte %zu (element %zu)%s]", i, i / sz,
                     i < want.size() ? "" : ", poison");
            return false;
        }
    }
    return true;
}

static bool count_is(const uint64_t *d, uint64_t want, char *why, size_t n)
{
    uint64_t got;
    SCG_CHECK_DIE(cudaMemcpy(&got, d, 8, cudaMemcpyDeviceToHost));
    if (got != want)
        snprintf(why, n, " [count %llu want %llu]", (unsigned long long)got,
                 (unsigned long long)want);
    return got == want;
}

/* Whether a call returned 0 and its kernels ran; why says otherwise. */
static bool ran(int rc, char *why, size_t n)
{
    cudaError_t e = cudaDeviceSynchronize();
    why[0] = 0;
    if (rc == 0 && e == cudaSuccess)
        return true;
    snprintf(why, n, " [rc %d, %s]", rc, cudaGetErrorString(e));
    return false;
}

static void push(std::vector<char> &v, uint64_t x, size_t sz)
{
    v.insert(v.end(), (const char *)&x, (const char *)&x + sz);
}

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
