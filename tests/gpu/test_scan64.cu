/* test_scan64.cu — scg_scan_type on 8-byte elements (u64, i64, f64)
 * against a plain host loop.  TAP on stdout.
 *
 * The reference keeps the accumulator as libsc does: sums and xors on the
 * bits, max and min on the ranks of sc_hd.h (sc_key64: signed integers by
 * value, floats by IEEE 754 totalOrder), outputs written back as elements,
 * the carries as ranks.  f64 sums are the host's (a fixed order); the
 * kernel's sum of f64 bits is still tested, as the integer sum it is.
 * Built with -DSCG_TUNE, every tile shape of scg_scan64_tune is tested,
 * not only the default.  Inputs and outputs sit 0 or 1 element past a
 * 16-byte boundary (the kernel's vector path needs both on it), outputs
 * are poisoned past the end, and scans are cut in two chained calls.
 * SC_QUICK=1 keeps to small sizes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "sc_kernels.h"
#include "gpu_tap.cuh"

#ifdef SCG_TUNE
extern "C" int scg_scan64_tune(int cfg);
#endif

static DevBuf g_in, g_out, g_scratch, g_carry;
static const char *op_name[] = { "sum", "max", "min", "xor" };
static const sc_type TYPES[] = { SC_U64, SC_I64, SC_F64 };

static uint64_t ref_op(sc_type t, int op, uint64_t a, uint64_t x)
{
    int ranks = sc_scan_ranks((uint32_t)t, op);
    if (ranks) x = sc_type_rank((uint32_t)t, x);
    switch (op) {
    case SC_OP_SUM: return a + x;
    case SC_OP_MAX: return a > x ? a : x;
    case SC_OP_MIN: return a < x ? a : x;
    default: return a ^ x;
    }
}

/* Outputs as elements, the final accumulator as the kernel keeps it. */
static uint64_t ref_scan(sc_type t, const std::vector<uint64_t> &in, int op, int incl,
                         uint64_t carry, std::vector<uint64_t> &out)
{
    int ranks = sc_scan_ranks((uint32_t)t, op);
    uint64_t acc = carry;
    out.resize(in.size());
    for (size_t i = 0; i < in.size(); i++) {
        uint64_t nxt = ref_op(t, op, acc, in[i]);
        uint64_t o = incl ? nxt : acc;
        out[i] = ranks ? sc_type_unrank((uint32_t)t, o) : o;
        acc = nxt;
    }
    return acc;
}

/* Values of type t: full-range bits, small numbers of either sign (so max
 * and min move back and forth), a slow ramp, and for floats the specials. */
static std::vector<uint64_t> scan_data(sc_type t, size_t n, int variant)
{
    std::vector<uint64_t> v(n);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = rnd64();
        switch (variant % 4) {
        case 0: v[i] = r; break;
        case 1: v[i] = (uint64_t)((int64_t)r >> 40); break;
        case 2: v[i] = (uint64_t)(i / 3) ^ (r & 7); break;
        default: v[i] = (uint64_t)(-(int64_t)(i / 5)) ^ (r & 3); break;
        }
        if (t == SC_F64 && variant % 4 != 0) {
            static const double SPECIAL[] = { -0.0, 0.0, 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0,
                                              -(0.0 / 0.0) };
            double d = (r & 15) == 0 ? SPECIAL[(r >> 8) % 6] : (double)(int64_t)v[i] * 0.5;
            memcpy(&v[i], &d, 8);
        }
    }
    return v;
}

/* One scan, or two chained at `cut`, at `off` elements past a 16-byte
 * boundary; outputs, the poisoned tail and the carry-out compared. */
static bool check(sc_type t, const std::vector<uint64_t> &h, int op, int incl,
                  uint64_t carry, size_t off, size_t cut, const char **why)
{
    size_t n = h.size();
    uint64_t *d_in = (uint64_t *)g_in.get((n + off) * 8 + 16) + off;
    uint64_t *d_out = (uint64_t *)g_out.get((n + off) * 8 + 64) + off;
    uint64_t *d_carry = (uint64_t *)g_carry.get(4 * 8);
    void *d_scr = g_scratch.get(scg_scan_scratch(n) + 256);
    SCG_CHECK_DIE(cudaMemcpy(d_in, h.data(), n * 8, cudaMemcpyHostToDevice));
    SCG_CHECK_DIE(cudaMemset(g_out.p, 0xa5, g_out.size));
    SCG_CHECK_DIE(cudaMemset(d_carry, 0x5a, 4 * 8));
    SCG_CHECK_DIE(cudaMemcpy(d_carry, &carry, 8, cudaMemcpyHostToDevice));
    int rc;
    if (cut == 0 || cut >= n) {
        rc = scg_scan_type(d_in, n, t, op, incl, 0, d_carry, d_out, d_carry + 2, d_scr, 0);
    } else {
        rc = scg_scan_type(d_in, cut, t, op, incl, 0, d_carry, d_out, d_carry + 1, d_scr, 0);
        if (rc == 0)
            rc = scg_scan_type(d_in + cut, n - cut, t, op, incl, 0, d_carry + 1, d_out + cut,
                               d_carry + 2, d_scr, 0);
    }
    if (rc != 0) { *why = "scg_scan_type returned an error"; return false; }
    SCG_CHECK_DIE(cudaDeviceSynchronize());
    std::vector<uint64_t> want, got(n + 4);
    uint64_t want_total = ref_scan(t, h, op, incl, carry, want), got_total;
    SCG_CHECK_DIE(cudaMemcpy(got.data(), d_out, (n + 4) * 8, cudaMemcpyDeviceToHost));
    SCG_CHECK_DIE(cudaMemcpy(&got_total, d_carry + 2, 8, cudaMemcpyDeviceToHost));
    static char buf[160];
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            snprintf(buf, sizeof buf, "out[%zu] = %#llx, want %#llx", i,
                     (unsigned long long)got[i], (unsigned long long)want[i]);
            *why = buf;
            return false;
        }
    for (size_t i = n; i < n + 4; i++)
        if (got[i] != 0xa5a5a5a5a5a5a5a5ull) { *why = "wrote past the end"; return false; }
    if (got_total != want_total) {
        snprintf(buf, sizeof buf, "carry_out = %#llx, want %#llx",
                 (unsigned long long)got_total, (unsigned long long)want_total);
        *why = buf;
        return false;
    }
    return true;
}

/* A carry-in for op: a random element, ranked where the op runs on ranks,
 * or the op's identity. */
static uint64_t carry_for(sc_type t, int op, int k)
{
    uint64_t c = k % 3 == 0 ? 0 : rnd64() >> (k % 3 == 1 ? 40 : 0);
    if (k % 3 == 0 && op == SC_OP_MIN) c = ~0ull;
    return sc_scan_ranks((uint32_t)t, op) ? sc_type_rank((uint32_t)t, c) : c;
}

static void test_all(const char *shape)
{
    /* tiles: 16384 elements (1024 x 8), 3840 (480 x 4), 7680, 16384 */
    const size_t sizes[] = { 0, 1, 2, 3, 31, 33, 1023, 1024, 1025, 3839, 3840, 3841, 4095, 4096, 4097, 7679, 7680, 7681,
                             8191, 8192, 8193, 16383, 16384, 16385, 65537, 999983,
                             4194319 };
    const char *q = getenv("SC_QUICK");
    size_t max_n = q && atoi(q) ? 65537 : ~(size_t)0;
    int variant = 0;
    for (sc_type t : TYPES)
        for (size_t n : sizes)
            for (int op = 0; op < 4; op++)
                for (int incl = 0; incl < 2; incl++) {
                    if (n > max_n) continue;
                    std::vector<uint64_t> h = scan_data(t, n, variant);
                    uint64_t carry = carry_for(t, op, variant++);
                    size_t off = variant % 2;
                    const char *why = "";
                    bool ok = check(t, h, op, incl, carry, off, 0, &why);
                    tap(ok, "%s scan64 %s %s %s n=%zu off=%zu %s", shape, sc_type_name(t),
                        op_name[op], incl ? "inclusive" : "exclusive", n, off,
                        ok ? "" : why);
                }
    const size_t cuts[][2] = { { 100, 37 }, { 65537, 8192 }, { 1000003, 333331 },
                               { 16384, 16383 } };
    for (sc_type t : TYPES)
        for (auto &nc : cuts)
            for (int op = 0; op < 4; op++) {
                if (nc[0] > max_n) continue;
                std::vector<uint64_t> h = scan_data(t, nc[0], variant);
                uint64_t carry = carry_for(t, op, variant++);
                const char *why = "";
                bool ok = check(t, h, op, variant % 2, carry, 1, nc[1], &why);
                tap(ok, "%s scan64 %s %s n=%zu chained at %zu, misaligned %s", shape,
                    sc_type_name(t), op_name[op], nc[0], nc[1], ok ? "" : why);
            }
}

int main()
{
    if (!tap_have_gpu()) return 0;
#ifdef SCG_TUNE
    for (int c = 0; int tag = scg_scan64_tune(c); c++) {
        char shape[32];
        snprintf(shape, sizeof shape, "%dx%d%s", tag % 1000000 / 100, tag % 100,
                 tag >= 1000000 ? (tag / 1000000 == 3 ? "x3slots" : "x2slots") : "");
        test_all(shape);
    }
    scg_scan64_tune(0);
#else
    test_all("default");
#endif
    return tap_done();
}
