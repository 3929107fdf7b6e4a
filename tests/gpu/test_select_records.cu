/* test_select_records.cu — scg_compact_records and scg_split_records on
 * records of 8 and 16 bytes, against a plain host loop.  TAP on stdout.
 *
 * Every layout the kernels take: each record size, each key type (u32,
 * i32, f32, u64, i64, f64) at each offset its size allows.  The key's
 * values are select_cases.cuh's (small numbers that bounds and equality
 * match, full-width ones, zeros, the floats' specials and NaNs); the
 * other words are random, so a record moved with a word lost, swapped or
 * taken from its neighbour shows.  Predicates are libsc's own (range,
 * inverted, folded !=, term lists, masks, != NaN, nothing); the reference
 * keeps a record where sc_pred_test says so of its key.  Each case runs
 * both variants (fused, three phases) and all four outputs (values, 32-
 * and 64-bit positions, split's two parts), outputs at several offsets
 * poisoned and checked past the count.  Sizes straddle every variant's
 * tile of both record sizes (16-byte records: three phases 1024,
 * compaction 1536, split 2048; 8-byte: 2048, 3072, 4096).  8-byte records
 * sit 0 or 1 record past a 16-byte boundary; layouts the kernels do not
 * take and inputs off the record's grid are refused.
 */
#include "select_cases.cuh"

static const sc_type TYPES[] = {SC_U32, SC_I32, SC_F32, SC_U64, SC_I64, SC_F64};
static const uint32_t REC_SIZES[] = {8, 16};
static const uint64_t SIZES[] = {0, 1, 2, 3, 31, 33, 1023, 1025, 1535, 1537, 2047, 2048,
                                 2049, 3071, 3072, 3073, 4095, 4096, 4097, 65537, 1000003};

struct layout {
    uint32_t size, key_off;
    sc_type type;
};

/* The key's bits of record r. */
static uint64_t key_of(const layout &L, const char *r)
{
    uint64_t k = 0;
    memcpy(&k, r + L.key_off, sc_type_size(L.type));
    return k;
}

/* n records of L: random words, the key a value_of. */
static std::vector<char> make_records(const layout &L, uint64_t n, double density)
{
    std::vector<char> raw(n * L.size);
    for (uint64_t i = 0; i < n; i++) {
        char *r = raw.data() + i * L.size;
        for (uint32_t w = 0; w < L.size; w += 8) {
            uint64_t x = rnd64();
            memcpy(r + w, &x, 8);
        }
        uint64_t k = value_of(L.type, rnd64(), density);
        memcpy(r + L.key_off, &k, sc_type_size(L.type));
    }
    return raw;
}

/* The expected outputs of predicate p on the records. */
struct expected {
    std::vector<char> sel, rej, i32, i64;
    uint64_t kept = 0;
};

static expected expect(const layout &L, const std::vector<char> &raw, uint64_t n,
                       const sc_pred &p, uint64_t first)
{
    expected e;
    for (uint64_t i = 0; i < n; i++) {
        const char *r = raw.data() + i * L.size;
        if (sc_pred_test(&p, key_of(L, r))) {
            e.sel.insert(e.sel.end(), r, r + L.size);
            push(e.i32, (uint32_t)(first + i), 4);
            push(e.i64, first + i, 8);
            e.kept++;
        } else {
            e.rej.insert(e.rej.end(), r, r + L.size);
        }
    }
    return e;
}

/* All eight runs of one predicate (two variants, three outputs of
 * compaction and split); why names the first that failed. */
static bool run_pred(const layout &L, const char *d_in, uint64_t n, const sc_pred &p,
                     const expected &e, uint64_t first, unsigned shift, run_bufs &b,
                     char *why, size_t why_n)
{
    size_t out_bytes = (n + GUARD) * L.size + 64;
    char *out = (char *)b.out.get(out_bytes), *rej = (char *)b.rej.get(out_bytes);
    uint64_t *cnt = (uint64_t *)b.cnt.get(8);
    void *scr = b.scr.get(scg_select_scratch_records(n, L.size));
    static const char *kn[3] = {"values", "idx32", "idx64"};
    for (int algo = 0; scg_select_variant(algo); algo++) {
        for (int kind = SC_EMIT_VALUES; kind <= SC_EMIT_IDX64; kind++) {
            /* values are written as words: any 4-byte offset */
            size_t osz = kind == SC_EMIT_IDX64 ? 8 : 4;
            char *o = out + osz * (shift % (16 / osz));
            SCG_CHECK_DIE(cudaMemset(out, 0xAB, out_bytes));
            int rc = scg_compact_records(d_in, n, L.size, L.key_off, &p, kind, first, o, cnt,
                                         scr, algo, 0);
            char w[120];
            bool good = ran(rc, w, sizeof w) && count_is(cnt, e.kept, w, sizeof w) &&
                        check_bytes(o, kind == SC_EMIT_VALUES ? e.sel
                                       : kind == SC_EMIT_IDX32 ? e.i32 : e.i64,
                                    kind == SC_EMIT_VALUES ? L.size : osz, w, sizeof w);
            if (!good) {
                snprintf(why, why_n, " [compact v%d %s%s]", algo, kn[kind], w);
                return false;
            }
        }
        char *o = out + 4 * ((shift + 1) % 4), *r = rej + 4 * ((shift + 2) % 4);
        SCG_CHECK_DIE(cudaMemset(out, 0xAB, out_bytes));
        SCG_CHECK_DIE(cudaMemset(rej, 0xAB, out_bytes));
        int rc = scg_split_records(d_in, n, L.size, L.key_off, &p, o, r, cnt, scr, algo, 0);
        char w[120];
        bool good = ran(rc, w, sizeof w) && count_is(cnt, e.kept, w, sizeof w) &&
                    check_bytes(o, e.sel, L.size, w, sizeof w) &&
                    check_bytes(r, e.rej, L.size, w, sizeof w);
        if (!good) {
            snprintf(why, why_n, " [split v%d%s]", algo, w);
            return false;
        }
    }
    why[0] = 0;
    return true;
}

static void run_case(const layout &L, uint64_t n, double density, unsigned mis, run_bufs &b)
{
    std::vector<char> raw = make_records(L, n, density);
    /* 8-byte records 0 or 1 record past a 16-byte boundary */
    char *d_in = (char *)b.in.get(n * L.size + 64) + (L.size == 8 ? mis * 8 : 0);
    if (n)
        SCG_CHECK_DIE(cudaMemcpy(d_in, raw.data(), n * L.size, cudaMemcpyHostToDevice));
    const uint64_t first = (1ull << 32) - 7;
    for (int k = 0; k < N_PREDS; k++) {
        const char *pn;
        sc_pred p = make_pred(L.type, k, &pn);
        expected e = expect(L, raw, n, p, first);
        char why[200];
        bool good = run_pred(L, d_in, n, p, e, first, mis + (unsigned)k, b, why, sizeof why);
        tap(good, "records of %u bytes, key %s at %u: n=%llu p=%.2f %s mis=%u kept=%llu%s",
            L.size, sc_type_name(L.type), L.key_off, (unsigned long long)n, density, pn, mis,
            (unsigned long long)e.kept, why);
    }
}

/* Layouts the kernels do not take, and inputs off the record's grid,
 * are refused before anything runs. */
static void test_refused(run_bufs &b)
{
    sc_pred p32, p64;
    sc_pred_default_type(&p32, SC_U32);
    sc_pred_default_type(&p64, SC_U64);
    char *in = (char *)b.in.get(1024);
    void *scr = b.scr.get(scg_select_scratch_records(16, 16));
    uint64_t *cnt = (uint64_t *)b.cnt.get(8);
    char *out = (char *)b.out.get(1024), *rej = (char *)b.rej.get(1024);
    struct bad {
        uint32_t size, off;
        const sc_pred *p;
        unsigned at;
        int want;
        const char *what;
    } cases[] = {
        {12, 0, &p32, 0, cudaErrorInvalidValue, "12-byte records"},
        {4, 0, &p32, 0, cudaErrorInvalidValue, "4-byte records"},
        {32, 0, &p32, 0, cudaErrorInvalidValue, "32-byte records"},
        {16, 2, &p32, 0, cudaErrorInvalidValue, "a u32 key at byte 2"},
        {16, 16, &p32, 0, cudaErrorInvalidValue, "a u32 key past the record"},
        {8, 4, &p64, 0, cudaErrorInvalidValue, "a u64 key at byte 4 of 8"},
        {16, 12, &p64, 0, cudaErrorInvalidValue, "a u64 key at byte 12 of 16"},
        {8, 0, &p32, 4, cudaErrorMisalignedAddress, "8-byte records at a 4-byte offset"},
        {16, 0, &p32, 8, cudaErrorMisalignedAddress, "16-byte records at an 8-byte offset"},
        {16, 8, &p64, 4, cudaErrorMisalignedAddress, "16-byte records at a 4-byte offset"},
    };
    for (const bad &c : cases) {
        int rc = scg_compact_records(in + c.at, 8, c.size, c.off, c.p, SC_EMIT_VALUES, 0, out,
                                     cnt, scr, SCG_ALGO_FUSED, 0);
        tap(rc == c.want, "compact of %s refused (rc %d)", c.what, rc);
        rc = scg_split_records(in + c.at, 8, c.size, c.off, c.p, out, rej, cnt, scr,
                               SCG_ALGO_FUSED, 0);
        tap(rc == c.want, "split of %s refused (rc %d)", c.what, rc);
    }
    SCG_CHECK_DIE(cudaDeviceSynchronize());
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
    run_bufs b;
    const double dens[] = {0.5, 1.0, 0.05, 0.9};
    int c = 0;
    for (uint32_t size : REC_SIZES)
        for (sc_type t : TYPES)
            for (uint32_t off = 0; off + sc_type_size(t) <= size; off += sc_type_size(t)) {
                layout L = {size, off, t};
                for (uint64_t n : SIZES) {
                    run_case(L, n, dens[c % 4], (unsigned)(c & 1), b);
                    c++;
                }
            }
    /* many tiles a block of the persistent pass */
    run_case(layout{16, 4, SC_F32}, (1ull << 23) + 5, 0.5, 0, b);
    run_case(layout{8, 4, SC_I32}, (1ull << 24) + 3, 0.9, 1, b);
    test_refused(b);
    return tap_done();
}
