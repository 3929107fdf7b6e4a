/* select_cases.cuh — what the select kernels' tests share (test_select_types,
 * test_select_records): values of every type with its specials, the
 * predicates built by libsc's own calls, and the checks of an output
 * (poisoned past the count with 0xAB) and of a count.  Each test is one
 * .cu file (static definitions here are its own).
 */
#ifndef SC_SELECT_CASES_CUH
#define SC_SELECT_CASES_CUH

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "sc_kernels.h"
#include "gpu_tap.cuh"

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

/* A quiet NaN of float type t, as bits. */
static uint64_t nan_bits(sc_type t)
{
    if (sc_type_size(t) == 8) {
        double d = 0.0 / 0.0;
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    float f = 0.0f / 0.0f;
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* Predicate k (0 .. N_PREDS) of type t, named in *name. */
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
    /* two != terms: a term list, no interval */
    case 12: st = sc_pred_all_type(&p, t); st = st ? st : sc_pred_add_cmp(&p, SC_NE, seven);
        st = st ? st : sc_pred_add_cmp(&p, SC_NE, big);
        *name = "ne-ne"; break;
    /* a float's != NaN (true of every key, NaNs among them, as C says);
     * an integer's mask, inverted */
    case 13: st = sc_pred_all_type(&p, t);
        if (fl) st = st ? st : sc_pred_add_cmp(&p, SC_NE, nan_bits(t));
        else st = st ? st : sc_pred_add_mask(&p, 0x30);
        p.invert = !fl;
        *name = fl ? "ne-nan" : "mask-inverted"; break;
    }
    if (st != SC_OK) {
        fprintf(stderr, "pred %d of %s: status %d\n", k, sc_type_name(t), (int)st);
        exit(99);
    }
    return p;
}
enum { N_PREDS = 14 };

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

#endif /* SC_SELECT_CASES_CUH */
