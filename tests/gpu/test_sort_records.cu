/* test_sort_records.cu — scg_sort_records against a plain host stable
 * sort.  TAP on stdout.
 *
 * Record sizes 4, 8, 12, 16, 24, 64 and 4096; every key type at the
 * first, a middle and the last offset its size allows, in the host's
 * order and big-endian.  The other words of each record are random, so a
 * record moved with a word lost, taken from its neighbour, or an unstable
 * order among equal keys shows; half the keys come from a small pool
 * (ties: stability; for floats -0, +0, +-inf, NaNs of both signs and a
 * denormal) and half are random bits (NaNs with payloads among them).
 * Sizes 0, 1, 2, 31, 33, 4095, 4097, 65537 and 2^20 + 3 (the largest
 * for records of 8, 16 and 64 bytes with host-order keys; every size
 * where the records stay within 256 MiB).  Each case runs the words'
 * and the index variants, the direct and pairs ones where they apply,
 * ascending and descending, on all bits and on --bits ranges (within one
 * 32-bit half, across the halves of an 8-byte key, in the high half
 * alone, one bit), and the argsort gathers (key and position, position
 * alone) with a base past 2^32.  The pairs and index variants also run
 * on keys that leave every pass but the first, every pass but the last,
 * or every pass trivial.  The reference: each record's key (byte-swapped when
 * big-endian) ranked by sc_hd.h's sc_order (the CPU's own transform),
 * std::stable_sort of the indices by it.  Layouts the kernel does not
 * take, and misaligned arrays, are refused.
 */
#include <string.h>
#include <vector>
#include "gpu_tap.cuh"
#include "sc_kernels.h"

static const sc_type TYPES[] = {SC_U32, SC_I32, SC_F32, SC_U64, SC_I64, SC_F64};
static const uint32_t REC_SIZES[] = {4, 8, 12, 16, 24, 64, 4096};
static const uint64_t SIZES[] = {0, 1, 2, 31, 33, 4095, 4097, 65537, (1ull << 20) + 3};
static const uint64_t MAX_BYTES = 256ull << 20;

struct layout {
    uint32_t size, key_off;
    sc_type type;
    int be;
};

static unsigned ksize(sc_type t) { return sc_type_is_64bit(t) ? 8 : 4; }

static const char *type_name(sc_type t)
{
    static const char *const names[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
    return names[t];
}

static uint64_t bswap(uint64_t x, unsigned ks)
{
    return ks == 8 ? __builtin_bswap64(x) : __builtin_bswap32((uint32_t)x);
}

/* A key's bits: from the pool (ties, specials) or random. */
static uint64_t key_value(sc_type t)
{
    static const uint32_t f32s[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
                                    0x7fc00000u, 0xffc00001u, 0x3fc00000u, 0xbfc00000u,
                                    0x00000001u};
    static const uint64_t f64s[] = {0, 1ull << 63, 0x7ff0000000000000ull,
                                    0xfff0000000000000ull, 0x7ff8000000000000ull,
                                    0xfff8000000000001ull, 0x3ff8000000000000ull,
                                    0xbff8000000000000ull, 1};
    static const uint64_t ints[] = {0, 1, ~0ull, 1ull << 63, 7, 0x80000000u, 0x7fffffffu};
    uint64_t r = rnd64();
    unsigned ks = ksize(t);
    uint64_t mask = ks == 8 ? ~0ull : 0xffffffffull;
    if (r & 1)
        return rnd64() & mask;
    uint64_t k = r >> 8;
    if (t == SC_F32) return f32s[k % 9];
    if (t == SC_F64) return f64s[k % 9];
    return ints[k % 7] & mask;
}

static std::vector<unsigned char> make_records(const layout &L, uint64_t n)
{
    std::vector<unsigned char> raw(n * L.size);
    unsigned ks = ksize(L.type);
    for (uint64_t i = 0; i < n; i++) {
        unsigned char *r = raw.data() + i * L.size;
        for (uint32_t w = 0; w < L.size; w += 4) {
            uint32_t x = (uint32_t)rnd64();
            memcpy(r + w, &x, 4);
        }
        uint64_t k = key_value(L.type);
        if (L.be) k = bswap(k, ks);
        memcpy(r + L.key_off, &k, ks);
    }
    return raw;
}

/* One run's arguments. */
struct config {
    int descending;
    unsigned lo, hi;
    int gather, algo;
    uint64_t base;
};

/* The reference order of c on the records: the input index of each
 * output position. */
static std::vector<uint64_t> order_of(const layout &L, const std::vector<unsigned char> &raw,
                                      uint64_t n, const config &c)
{
    unsigned ks = ksize(L.type);
    sc_order o32;
    sc_order64 o64;
    if (ks == 8) sc_order64_init(&o64, c.lo, c.hi, c.descending, L.type);
    else sc_order_init_type(&o32, c.lo, c.hi, c.descending, L.type);
    std::vector<uint64_t> rank(n), idx(n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t k = 0;
        memcpy(&k, raw.data() + i * L.size + L.key_off, ks);
        if (L.be) k = bswap(k, ks);
        rank[i] = ks == 8 ? sc_order64_rank(&o64, k) : sc_order_rank(&o32, (uint32_t)k);
        idx[i] = i;
    }
    std::stable_sort(idx.begin(), idx.end(),
                     [&](uint64_t a, uint64_t b) { return rank[a] < rank[b]; });
    return idx;
}

/* The reference output of c, whose order is idx. */
static std::vector<unsigned char> expect(const layout &L, const std::vector<unsigned char> &raw,
                                         const std::vector<uint64_t> &idx, const config &c)
{
    unsigned ks = ksize(L.type);
    size_t isz = c.gather == SCG_GATHER_ITEMS ? L.size
               : c.gather == SCG_GATHER_KEYPOS ? 16 : 8;
    std::vector<unsigned char> out(idx.size() * isz, 0);
    for (size_t k = 0; k < idx.size(); k++) {
        const unsigned char *r = raw.data() + idx[k] * L.size;
        unsigned char *o = out.data() + k * isz;
        uint64_t pos = c.base + idx[k];
        if (c.gather == SCG_GATHER_ITEMS) {
            memcpy(o, r, L.size);
        } else if (c.gather == SCG_GATHER_KEYPOS) {
            memcpy(o, r + L.key_off, ks);
            memcpy(o + 8, &pos, 8);
        } else {
            memcpy(o, &pos, 8);
        }
    }
    return out;
}

struct bufs {
    DevBuf in, out, scr;
};

/* Runs c on the records and compares; why says what differed. */
static bool run_config(const layout &L, const std::vector<unsigned char> &raw, uint64_t n,
                       const config &c, const std::vector<uint64_t> &idx, bufs &b, char *why,
                       size_t why_n)
{
    std::vector<unsigned char> want = expect(L, raw, idx, c);
    size_t in_bytes = n * L.size, out_bytes = std::max(want.size(), in_bytes) + 64;
    unsigned char *d_in = (unsigned char *)b.in.get(in_bytes + 64);
    unsigned char *d_out = (unsigned char *)b.out.get(out_bytes);
    void *scr = b.scr.get(scg_sort_records_scratch(n));
    if (n)
        SCG_CHECK_DIE(cudaMemcpy(d_in, raw.data(), in_bytes, cudaMemcpyHostToDevice));
    SCG_CHECK_DIE(cudaMemset(d_out, 0xAB, out_bytes));
    int in_input = -1;
    int rc = scg_sort_records(d_in, n, L.size, L.key_off, L.type, L.be, c.lo, c.hi,
                              c.descending, c.gather, c.base, d_out, &in_input, scr,
                              c.algo, 0);
    if (rc) {
        snprintf(why, why_n, "returned %d (%s)", rc, cudaGetErrorString((cudaError_t)rc));
        return false;
    }
    if (in_input == 1 && (c.algo == SCG_RSORT_WORDS || c.algo == SCG_RSORT_INDEX ||
                          c.gather != SCG_GATHER_ITEMS)) {
        snprintf(why, why_n, "result in the input from a variant with a gather");
        return false;
    }
    std::vector<unsigned char> got(want.size() + 64);
    SCG_CHECK_DIE(cudaMemcpy(got.data(), in_input == 1 ? d_in : d_out, want.size(),
                             cudaMemcpyDeviceToHost));
    if (in_input == 0)
        SCG_CHECK_DIE(cudaMemcpy(got.data() + want.size(), d_out + want.size(), 64,
                                 cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < want.size(); i++)
        if (got[i] != want[i]) {
            snprintf(why, why_n, "byte %zu (item %zu) is %02x, not %02x", i,
                     i / (want.size() / n), got[i], want[i]);
            return false;
        }
    for (size_t i = 0; in_input == 0 && i < 64; i++)
        if (got[want.size() + i] != 0xAB) {
            snprintf(why, why_n, "wrote past the end, at byte %zu", want.size() + i);
            return false;
        }
    why[0] = 0;
    return true;
}

/* Bit ranges of --bits for a key of ks bytes. */
static const unsigned RANGES4[][2] = {{4, 20}, {31, 32}, {0, 8}, {9, 32}};
static const unsigned RANGES8[][2] = {{20, 44}, {36, 64}, {0, 16}, {63, 64}, {0, 33}};

static void run_case(const layout &L, uint64_t n, int k, bufs &b)
{
    std::vector<unsigned char> raw = make_records(L, n);
    unsigned ks = ksize(L.type), w = 8 * ks;
    const unsigned *r = ks == 8 ? RANGES8[k % 5] : RANGES4[k % 4];
    int direct = scg_sort_records_direct(L.size, L.key_off, L.type, L.be, SCG_GATHER_ITEMS);
    int other = direct ? SCG_RSORT_DIRECT : SCG_RSORT_WORDS;
    int pairs = scg_sort_records_pairs(L.size, L.key_off, L.type, L.be, SCG_GATHER_ITEMS);
    std::vector<config> cs = {
        {0, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_AUTO, 0},
        {1, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_WORDS, 0},
        {0, r[0], r[1], SCG_GATHER_ITEMS, other, 0},
        {1, r[0], r[1], SCG_GATHER_ITEMS, SCG_RSORT_AUTO, 0},
        {0, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_WORDS, 0},
        {1, 0, w, SCG_GATHER_ITEMS, other, 0},
        {0, 0, w, SCG_GATHER_KEYPOS, SCG_RSORT_AUTO, 1000},
        {1, r[0], r[1], SCG_GATHER_POSITIONS, SCG_RSORT_AUTO, (1ull << 33) + 7},
        {1, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_INDEX, 0},
        {0, r[0], r[1], SCG_GATHER_ITEMS, SCG_RSORT_INDEX, 0},
        {0, 0, w, SCG_GATHER_KEYPOS, SCG_RSORT_INDEX, 1000},
        {1, r[0], r[1], SCG_GATHER_POSITIONS, SCG_RSORT_INDEX, (1ull << 33) + 7},
    };
    if (pairs) {
        const config ps[] = {
            {0, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_PAIRS, 0},
            {1, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_PAIRS, 0},
            {0, r[0], r[1], SCG_GATHER_ITEMS, SCG_RSORT_PAIRS, 0},
            {1, r[0], r[1], SCG_GATHER_ITEMS, SCG_RSORT_PAIRS, 0},
        };
        cs.insert(cs.end(), ps, ps + 4);
    }
    /* the reference orders, one a direction and bit range */
    std::vector<uint64_t> orders[4];
    for (const config &c : cs) {
        int which = c.descending + 2 * (c.lo != 0 || c.hi != w);
        if (orders[which].size() != n || n == 0) orders[which] = order_of(L, raw, n, c);
        char why[160];
        bool good = run_config(L, raw, n, c, orders[which], b, why, sizeof why);
        tap(good, "%u-byte records, %s%s key at %u, n=%llu: %s bits %u..%u gather %d algo %d%s%s",
            L.size, L.be ? "big-endian " : "", type_name(L.type), L.key_off,
            (unsigned long long)n, c.descending ? "desc" : "asc", c.lo, c.hi, c.gather,
            c.algo, why[0] ? ": " : "", why);
    }
}

static void test_refused(bufs &b)
{
    void *in = b.in.get(1 << 16), *out = b.out.get(1 << 16), *scr = b.scr.get(1 << 20);
    int where = 0;
    struct bad {
        uint32_t size, off, type;
        unsigned lo, hi;
        int gather, algo;
        const char *what;
    } cases[] = {
        {6, 0, SC_U32, 0, 32, 0, 0, "size not a multiple of 4"},
        {0, 0, SC_U32, 0, 32, 0, 0, "size 0"},
        {4100, 0, SC_U32, 0, 32, 0, 0, "size past 4096"},
        {12, 4, SC_U64, 0, 64, 0, 0, "8-byte key at offset 4"},
        {8, 8, SC_U32, 0, 32, 0, 0, "key past the record"},
        {16, 0, 9, 0, 32, 0, 0, "no such key type"},
        {8, 0, SC_U32, 0, 33, 0, 0, "bits past the key"},
        {8, 0, SC_U32, 8, 8, 0, 0, "empty bit range"},
        {8, 0, SC_U32, 0, 32, 3, 0, "no such gather"},
        {8, 0, SC_U32, 0, 32, 0, 5, "no such variant"},
        {24, 0, SC_U64, 0, 64, 0, SCG_RSORT_PAIRS, "pairs with 24-byte records"},
        {16, 0, SC_U32, 0, 32, 0, SCG_RSORT_PAIRS, "pairs with a 4-byte key"},
        {16, 4, SC_U32, 0, 32, 0, SCG_RSORT_PAIRS, "pairs with a key at 4"},
        {16, 8, SC_F64, 0, 64, 2, SCG_RSORT_PAIRS, "pairs with a gather of positions"},
        {8, 0, SC_F32, 0, 32, 0, SCG_RSORT_DIRECT, "direct with an f32 at offset 0"},
        {16, 0, SC_U32, 0, 32, 0, SCG_RSORT_DIRECT, "direct with 16-byte records"},
        {8, 0, SC_U32, 0, 32, 1, SCG_RSORT_DIRECT, "direct with a gather of keys"},
    };
    for (const bad &c : cases) {
        int rc = scg_sort_records(in, 100, c.size, c.off, c.type, 0, c.lo, c.hi, 0, c.gather, 0,
                                  out, &where, scr, c.algo, 0);
        tap(rc == (int)cudaErrorInvalidValue, "refused: %s (%d)", c.what, rc);
    }
    int rc = scg_sort_records((char *)in + 2, 100, 8, 0, SC_U32, 0, 0, 32, 0, 0, 0, out,
                              &where, scr, 0, 0);
    tap(rc == (int)cudaErrorMisalignedAddress, "refused: records off 4 bytes (%d)", rc);
    rc = scg_sort_records(in, 100, 8, 0, SC_U32, 0, 0, 32, 0, SCG_GATHER_KEYPOS, 0,
                          (char *)out + 8, &where, scr, 0, 0);
    tap(rc == (int)cudaErrorMisalignedAddress, "refused: keys with positions off 16 (%d)", rc);
    rc = scg_sort_records((char *)in + 4, 100, 8, 0, SC_U32, 0, 0, 32, 0, 0, 0, out,
                          &where, scr, SCG_RSORT_DIRECT, 0);
    tap(rc == (int)cudaErrorMisalignedAddress, "refused: direct, records off 8 (%d)", rc);
    rc = scg_sort_records(in, 100, 16, 0, SC_U64, 1, 0, 64, 0, 0, 0, out, &where, scr,
                          SCG_RSORT_PAIRS, 0);
    tap(rc == (int)cudaErrorInvalidValue, "refused: pairs with a big-endian key (%d)", rc);
    rc = scg_sort_records((char *)in + 4, 100, 16, 8, SC_I64, 0, 0, 64, 0, 0, 0, out, &where,
                          scr, SCG_RSORT_PAIRS, 0);
    tap(rc == (int)cudaErrorMisalignedAddress, "refused: pairs, records off 8 (%d)", rc);
    rc = scg_sort_records(in, 100, 8, 0, SC_U32, 0, 0, 32, 0, 0, 0, out, nullptr, scr, 0, 0);
    tap(rc == (int)cudaErrorInvalidValue, "refused: no result flag (%d)", rc);
    tap(scg_sort_records_variant(SCG_RSORT_AUTO) && scg_sort_records_variant(SCG_RSORT_WORDS) &&
            scg_sort_records_variant(SCG_RSORT_DIRECT) &&
            scg_sort_records_variant(SCG_RSORT_PAIRS) &&
            scg_sort_records_variant(SCG_RSORT_INDEX) && !scg_sort_records_variant(5),
        "variants named");
}

/* AUTO on 8-byte records with a 4-byte key and 16-byte records with an
 * 8-byte key, 4 bytes off an 8-byte boundary: the words' variant, the
 * same result. */
static void test_unaligned_auto(bufs &b)
{
    const layout ls[] = {{8, 4, SC_I32, 0}, {16, 8, SC_F64, 0}};
    for (const layout &L : ls) {
        uint64_t n = 70001;
        unsigned w = 8 * ksize(L.type);
        std::vector<unsigned char> raw = make_records(L, n);
        config c = {0, 0, w, SCG_GATHER_ITEMS, SCG_RSORT_AUTO, 0};
        std::vector<unsigned char> want = expect(L, raw, order_of(L, raw, n, c), c);
        unsigned char *d_in = (unsigned char *)b.in.get(n * L.size + 64) + 4;
        unsigned char *d_out = (unsigned char *)b.out.get(n * L.size + 64);
        void *scr = b.scr.get(scg_sort_records_scratch(n));
        SCG_CHECK_DIE(cudaMemcpy(d_in, raw.data(), n * L.size, cudaMemcpyHostToDevice));
        int where = -1;
        int rc = scg_sort_records(d_in, n, L.size, L.key_off, L.type, 0, 0, w, 0, 0, 0, d_out,
                                  &where, scr, SCG_RSORT_AUTO, 0);
        std::vector<unsigned char> got(n * L.size);
        if (rc == 0 && where == 0)
            SCG_CHECK_DIE(cudaMemcpy(got.data(), d_out, n * L.size, cudaMemcpyDeviceToHost));
        tap(rc == 0 && where == 0 && got == want,
            "%u-byte records off an 8-byte boundary: the words' variant (rc %d, in input %d)",
            L.size, rc, where);
    }
}

/* The pairs and index variants where passes are trivial: every key the
 * same (every pass trivial: the pairs variant still writes d_out), keys
 * below 256 (only the first pass moves them), keys apart in the top byte
 * alone (only the last). */
static void test_trivial_passes(bufs &b)
{
    const layout ls[] = {{16, 0, SC_U64, 0}, {16, 8, SC_I64, 0}, {16, 0, SC_F64, 0},
                         {24, 8, SC_U64, 0}};
    const uint64_t sizes[] = {2, 5000, 70001};
    const char *const kinds[] = {"one key", "keys below 256", "keys apart in the top byte"};
    for (const layout &L : ls)
        for (uint64_t n : sizes)
            for (int kind = 0; kind < 3; kind++) {
                std::vector<unsigned char> raw = make_records(L, n);
                for (uint64_t i = 0; i < n; i++) {
                    uint64_t r = rnd64() & 0xff;
                    uint64_t k = kind == 0 ? 0x1234567890abcdefull
                               : kind == 1 ? r : r << 56 | 0x00ffeeddccbbaa99ull;
                    memcpy(raw.data() + i * L.size + L.key_off, &k, 8);
                }
                for (int desc = 0; desc < 2; desc++) {
                    int pairs = scg_sort_records_pairs(L.size, L.key_off, L.type, 0, 0);
                    config c = {desc, 0, 64, SCG_GATHER_ITEMS,
                                pairs ? SCG_RSORT_PAIRS : SCG_RSORT_INDEX, 0};
                    char why[160];
                    bool good = run_config(L, raw, n, c, order_of(L, raw, n, c), b, why,
                                           sizeof why);
                    tap(good, "%u-byte records, %s key at %u, n=%llu, %s: %s algo %d%s%s",
                        L.size, type_name(L.type), L.key_off, (unsigned long long)n,
                        kinds[kind], desc ? "desc" : "asc", c.algo, why[0] ? ": " : "", why);
                }
            }
}

int main(void)
{
    if (!tap_have_gpu())
        return 0;
    printf("# auto: %s\n", scg_sort_records_variant(SCG_RSORT_AUTO));
    bufs b;
    int k = 0;
    for (uint32_t size : REC_SIZES)
        for (sc_type t : TYPES) {
            unsigned ks = ksize(t);
            if (ks > size) continue;
            uint32_t last = (size - ks) / ks * ks, mid = (size / 2) / ks * ks;
            uint32_t offs[] = {0, mid, last};
            for (int oi = 0; oi < 3; oi++) {
                if ((oi == 1 && (mid == 0 || mid == last)) || (oi == 2 && last == 0)) continue;
                for (int be = 0; be < 2; be++) {
                    layout L = {size, offs[oi], t, be};
                    for (uint64_t n : SIZES) {
                        if (n * size > MAX_BYTES) continue;
                        /* the largest size: the benches' record sizes,
                         * host-order keys */
                        if (n > 65537 && (be || (size != 8 && size != 16 && size != 64)))
                            continue;
                        run_case(L, n, k++, b);
                    }
                }
            }
        }
    test_unaligned_auto(b);
    test_trivial_passes(b);
    test_refused(b);
    return tap_done();
}
