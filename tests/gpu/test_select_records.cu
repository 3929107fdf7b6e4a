/* test_select_records.cu — scg_compact_records and scg_split_records on
 * records of every layout, against a plain host loop.  TAP on stdout.
 *
 * The layouts the agent reads directly (8 and 16 bytes, host-order keys,
 * on the record's grid): each key type (u32, i32, f32, u64, i64, f64) at
 * each offset its size allows.  The others (select_keyed.cuh: keys
 * gathered, positions, a gather): records of 4, 12, 20, 24, 64, 260 and
 * 4096 bytes, and 8 and 16 off their grid, each key type that fits at the
 * first, a middle and the last offset, keys in the host's order and
 * big-endian, inputs 0 to 3 words past a 16-byte boundary.  The key's
 * values are select_cases.cuh's (small numbers that bounds and equality
 * match, full-width ones, zeros, the floats' specials and NaNs); the
 * other words are random, so a record moved with a word lost, swapped or
 * taken from its neighbour shows.  Predicates are libsc's own (range,
 * inverted, folded !=, term lists, masks, != NaN, nothing); the reference
 * keeps a record where sc_pred_test says so of its key.  Each case runs
 * both variants (fused, three phases) and all four outputs (values, 32-
 * and 64-bit positions, split's two parts), outputs at several offsets
 * poisoned and checked past the count.  Sizes straddle every variant's
 * tile of both direct record sizes (16-byte records: three phases 1024,
 * compaction 1536, split 2048; 8-byte: 2048, 3072, 4096); the keyed
 * layouts take 0, 1, 31, 33, 4095, 65537 and 2^20 + 3 records (fewer
 * layouts and predicates at the largest), zero keys at rates that keep
 * none, half and all with the default condition.  Layouts outside sc_kernels.h's rules and inputs
 * off the 4-byte grid are refused.
 */
#include "select_cases.cuh"

static const sc_type TYPES[] = {SC_U32, SC_I32, SC_F32, SC_U64, SC_I64, SC_F64};
static const uint32_t REC_SIZES[] = {8, 16};
static const uint64_t SIZES[] = {0, 1, 2, 3, 31, 33, 1023, 1025, 1535, 1537, 2047, 2048,
                                 2049, 3071, 3072, 3073, 4095, 4096, 4097, 65537, 1000003};

struct layout {
    uint32_t size, key_off;
    sc_type type;
    int be;     /* the key big-endian */
};

/* The key's bits of record r. */
static uint64_t key_of(const layout &L, const char *r)
{
    uint64_t k = 0;
    unsigned ks = sc_type_size(L.type);
    if (!L.be) {
        memcpy(&k, r + L.key_off, ks);
        return k;
    }
    for (unsigned i = 0; i < ks; i++)
        k = k << 8 | (unsigned char)r[L.key_off + i];
    return k;
}

/* Key k's bits into record r as L stores them. */
static void put_key(const layout &L, char *r, uint64_t k)
{
    unsigned ks = sc_type_size(L.type);
    if (!L.be) {
        memcpy(r + L.key_off, &k, ks);
        return;
    }
    for (unsigned i = 0; i < ks; i++)
        r[L.key_off + i] = (char)(k >> (8 * (ks - 1 - i)));
}

/* n records of L: random words, the key a value_of. */
static std::vector<char> make_records(const layout &L, uint64_t n, double density)
{
    std::vector<char> raw(n * L.size);
    for (uint64_t i = 0; i < n; i++) {
        char *r = raw.data() + i * L.size;
        for (uint32_t w = 0; w < L.size; w += 4) {
            uint32_t x = (uint32_t)rnd64();
            memcpy(r + w, &x, 4);
        }
        put_key(L, r, value_of(L.type, rnd64(), density));
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
    /* room for n records, or n 8-byte positions where those are larger
     * (4-byte records), and the poison after them */
    size_t out_bytes = (n + GUARD) * (L.size > 8 ? L.size : 8) + 64;
    char *out = (char *)b.out.get(out_bytes), *rej = (char *)b.rej.get(out_bytes);
    uint64_t *cnt = (uint64_t *)b.cnt.get(8);
    void *scr = b.scr.get(scg_select_scratch_layout(n, L.size, L.type, 1));
    static const char *kn[3] = {"values", "idx32", "idx64"};
    for (int algo = 0; scg_select_variant(algo); algo++) {
        for (int kind = SC_EMIT_VALUES; kind <= SC_EMIT_IDX64; kind++) {
            /* values are written as words: any 4-byte offset */
            size_t osz = kind == SC_EMIT_IDX64 ? 8 : 4;
            char *o = out + osz * (shift % (16 / osz));
            SCG_CHECK_DIE(cudaMemset(out, 0xAB, out_bytes));
            int rc = scg_compact_records(d_in, n, L.size, L.key_off, L.be, &p, kind, first, o,
                                         cnt, scr, algo, 0);
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
        int rc = scg_split_records(d_in, n, L.size, L.key_off, L.be, &p, o, r, cnt, scr, algo,
                                   0);
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

/* Records of L at byte `at` past a 256-byte boundary, every step-th
 * predicate. */
static void run_case_at(const layout &L, uint64_t n, double density, unsigned at,
                        unsigned mis, int step, run_bufs &b)
{
    std::vector<char> raw = make_records(L, n, density);
    char *d_in = (char *)b.in.get(n * L.size + 256) + at;
    if (n)
        SCG_CHECK_DIE(cudaMemcpy(d_in, raw.data(), n * L.size, cudaMemcpyHostToDevice));
    const uint64_t first = (1ull << 32) - 7;
    for (int k = 0; k < (int)N_PREDS; k += step) {
        const char *pn;
        sc_pred p = make_pred(L.type, k, &pn);
        expected e = expect(L, raw, n, p, first);
        char why[200];
        bool good = run_pred(L, d_in, n, p, e, first, mis + (unsigned)k, b, why, sizeof why);
        tap(good, "records of %u bytes, key %s%s at %u: n=%llu p=%.2f %s at=%u kept=%llu%s",
            L.size, sc_type_name(L.type), L.be ? " big-endian" : "", L.key_off,
            (unsigned long long)n, density, pn, at, (unsigned long long)e.kept, why);
    }
}

static void run_case(const layout &L, uint64_t n, double density, unsigned mis, run_bufs &b)
{
    /* 8-byte records 0 or 1 record past a 16-byte boundary */
    run_case_at(L, n, density, L.size == 8 ? mis * 8 : 0, mis, 1, b);
}

/* The keyed layouts: every size, key type, offset (first, middle, last),
 * byte order; inputs 0 .. 3 words past a 16-byte boundary (8- and
 * 16-byte records then off their grid, where the agent does not read
 * them).  The largest counts, whose outputs take the time, with u32 and
 * f64 keys alone, and any case of more than 1 MiB with two predicates
 * (the default, a term list), at most 32 MiB of records; the tiles'
 * edges are the small counts' and the direct layouts'. */
static void test_keyed(run_bufs &b)
{
    static const uint32_t sizes[] = {4, 8, 12, 16, 20, 24, 64, 260, 4096};
    static const uint64_t counts[] = {0, 1, 31, 33, 4095, 65537, (1ull << 20) + 3};
    static const double dens[] = {0.0, 0.5, 1.0};
    unsigned c = 0;
    for (uint32_t size : sizes)
        for (sc_type t : TYPES) {
            uint32_t ks = sc_type_size(t);
            if (ks > size)
                continue;
            uint32_t offs[3] = {0, (size / 2) / ks * ks, size - ks};
            for (int o = 0; o < 3; o++) {
                if (o && offs[o] == offs[o - 1])
                    continue;
                for (int be = 0; be < 2; be++) {
                    /* 8- and 16-byte records in the host's order the agent
                     * reads: off their grid here */
                    bool direct = !be && (size == 8 || size == 16);
                    for (uint64_t n : counts) {
                        bool big = n > 4095;
                        if (n * size > (32u << 20) || (big && t != SC_U32 && t != SC_F64))
                            continue;
                        layout L = {size, offs[o], t, be};
                        unsigned mis = !direct ? c % 4 : size == 8 ? 1 + 2 * (c % 2)
                                                                   : 1 + c % 3;
                        run_case_at(L, n, dens[c % 3], 4 * mis, mis,
                                    big || n * size > (1u << 20) ? 12 : 1, b);
                        c++;
                    }
                }
            }
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
    void *scr = b.scr.get(scg_select_scratch_layout(16, 4096, SC_U64, 1));
    uint64_t *cnt = (uint64_t *)b.cnt.get(8);
    char *out = (char *)b.out.get(1024), *rej = (char *)b.rej.get(1024);
    struct bad {
        uint32_t size, off;
        const sc_pred *p;
        unsigned at;
        int want;
        const char *what;
    } cases[] = {
        {0x7fffffffu, 0, &p32, 0, cudaErrorInvalidValue, "records of 2^31 - 1 bytes"},
        {2, 0, &p32, 0, cudaErrorInvalidValue, "2-byte records"},
        {10, 0, &p32, 0, cudaErrorInvalidValue, "10-byte records"},
        {4100, 0, &p32, 0, cudaErrorInvalidValue, "4100-byte records"},
        {4, 0, &p64, 0, cudaErrorInvalidValue, "a u64 key in 4-byte records"},
        {16, 2, &p32, 0, cudaErrorInvalidValue, "a u32 key at byte 2"},
        {16, 16, &p32, 0, cudaErrorInvalidValue, "a u32 key past the record"},
        {8, 4, &p64, 0, cudaErrorInvalidValue, "a u64 key at byte 4 of 8"},
        {16, 12, &p64, 0, cudaErrorInvalidValue, "a u64 key at byte 12 of 16"},
        {24, 4, &p64, 0, cudaErrorInvalidValue, "a u64 key at byte 4 of 24"},
        {12, 0, &p32, 2, cudaErrorMisalignedAddress, "12-byte records at a 2-byte offset"},
        {8, 0, &p32, 1, cudaErrorMisalignedAddress, "8-byte records at a 1-byte offset"},
        {4096, 8, &p64, 2, cudaErrorMisalignedAddress, "4096-byte records at a 2-byte offset"},
    };
    for (const bad &c : cases) {
        int rc = scg_compact_records(in + c.at, 8, c.size, c.off, 0, c.p, SC_EMIT_VALUES, 0,
                                     out, cnt, scr, SCG_ALGO_FUSED, 0);
        tap(rc == c.want, "compact of %s refused (rc %d)", c.what, rc);
        rc = scg_split_records(in + c.at, 8, c.size, c.off, 1, c.p, out, rej, cnt, scr,
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
                layout L = {size, off, t, 0};
                for (uint64_t n : SIZES) {
                    run_case(L, n, dens[c % 4], (unsigned)(c & 1), b);
                    c++;
                }
            }
    /* many tiles a block of the persistent pass */
    run_case(layout{16, 4, SC_F32, 0}, (1ull << 23) + 5, 0.5, 0, b);
    run_case(layout{8, 4, SC_I32, 0}, (1ull << 24) + 3, 0.9, 1, b);
    test_keyed(b);
    /* many tiles of keys, and a gather of many blocks' records */
    run_case_at(layout{64, 32, SC_U64, 1}, (1ull << 22) + 9, 0.5, 12, 3, 12, b);
    run_case_at(layout{12, 8, SC_F32, 0}, (1ull << 24) + 1, 0.5, 4, 1, 12, b);
    test_refused(b);
    return tap_done();
}
