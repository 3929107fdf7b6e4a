/* sc_hd.h — functions compiled both for the host and for CUDA kernels.
 *
 * The predicate, the generator, the key order and sc-stat's sketch live
 * here once, so that the CPU and the GPU compute the same bits by
 * construction, not by keeping two copies in step.  Included by C (lib/)
 * and by CUDA (kernels/) sources alike.
 */
#ifndef SC_HD_H
#define SC_HD_H

#include <stdint.h>
#ifndef __CUDACC__
#include <math.h>
#endif
#include "core/sc.h"

#ifdef __CUDACC__
#define SC_HD __host__ __device__ __forceinline__
#else
#define SC_HD static inline
#endif

/* What compaction writes for each kept element: its value, or its
 * position in 32 or 64 bits; the host's and the kernels' one list. */
typedef enum sc_emit { SC_EMIT_VALUES = 0, SC_EMIT_IDX32 = 1,
                       SC_EMIT_IDX64 = 2 } sc_emit;

/* An element type's order as the order of unsigned numbers, the usual
 * order-preserving transform of radix sorts: x's rank is
 * x ^ (sign | (neg & -(x >> 31))).  Signed integers flip the sign bit;
 * floats flip it too when positive, and every bit when negative, which
 * gives IEEE 754's totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf
 * < +NaN).  Unsigned integers are their own rank. */
typedef struct sc_key {
    uint32_t sign, neg;
} sc_key;

SC_HD sc_key sc_key_of(uint32_t type)
{
    sc_key k;
    k.sign = type == SC_I32 || type == SC_F32 ? 0x80000000u : 0u;
    k.neg = type == SC_F32 ? 0x7fffffffu : 0u;
    return k;
}

SC_HD uint32_t sc_key_rank(sc_key k, uint32_t x)
{
    return x ^ (k.sign | (k.neg & (0u - (x >> 31))));
}

SC_HD uint32_t sc_key_unrank(sc_key k, uint32_t r)
{
    return r ^ (k.sign | (k.neg & (0u - ((r >> 31) ^ 1u))));
}

/* The same transform for 64-bit types (sc_key_of's, 32 bits wider). */
typedef struct sc_key64 {
    uint64_t sign, neg;
} sc_key64;

SC_HD sc_key64 sc_key64_of(uint32_t type)
{
    sc_key64 k;
    k.sign = type == SC_I64 || type == SC_F64 ? (uint64_t)1 << 63 : 0u;
    k.neg = type == SC_F64 ? ~((uint64_t)1 << 63) : 0u;
    return k;
}

SC_HD uint64_t sc_key64_rank(sc_key64 k, uint64_t x)
{
    return x ^ (k.sign | (k.neg & (0u - (x >> 63))));
}

SC_HD uint64_t sc_key64_unrank(sc_key64 k, uint64_t r)
{
    return r ^ (k.sign | (k.neg & (0u - ((r >> 63) ^ 1u))));
}

/* The rank of an element of any type, its bits in a 64-bit word (a
 * 32-bit type's in the low half): sc_key's or sc_key64's by the type's
 * width; and the element of a rank. */
SC_HD int sc_type_is_64bit(uint32_t type)
{
    return type == SC_U64 || type == SC_I64 || type == SC_F64;
}

SC_HD uint64_t sc_type_rank(uint32_t type, uint64_t x)
{
    return sc_type_is_64bit(type) ? sc_key64_rank(sc_key64_of(type), x)
                                 : sc_key_rank(sc_key_of(type), (uint32_t)x);
}

SC_HD uint64_t sc_type_unrank(uint32_t type, uint64_t r)
{
    return sc_type_is_64bit(type) ? sc_key64_unrank(sc_key64_of(type), r)
                                 : sc_key_unrank(sc_key_of(type), (uint32_t)r);
}

/* An element of a 32-bit type as its type's 64-bit form (sc_type_wide):
 * u32 zero-extended, i32 sign-extended, f32 as the double of the same
 * value. */
SC_HD uint64_t sc_widen(uint32_t type, uint32_t x)
{
    if (type == SC_I32) return (uint64_t)(int64_t)(int32_t)x;
    if (type != SC_F32) return x;
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong((double)__uint_as_float(x));
#else
    union { uint32_t u; float f; } in;
    union { double d; uint64_t u; } out;
    in.u = x;
    out.d = in.f;
    return out.u;
#endif
}

/* What a typed scan (sc_scan_type) does beyond a u32 one: max and min
 * compare ranks (sc_key, or sc_key64 for the 8-byte types: a u64 is its
 * own rank), so they run on ranks and write the elements back (widened
 * with `wide`); an i32 wide sum sign-extends.  Sums of i32 that wrap,
 * and xor, are the u32 ones bit for bit, as i64's are u64's; float sums
 * are a scan of their own (cpu_fsum.c). */
SC_HD int sc_scan_ranks(uint32_t type, int op)
{
    return type != SC_U32 && (op == SC_OP_MAX || op == SC_OP_MIN);
}

/* A carry as sc_scan_type's *carry holds it (the element's bits) to the
 * accumulator the backends keep (a rank where sc_scan_ranks), or back
 * (unrank); other carries are their own. */
SC_HD uint64_t sc_scan_carry(uint32_t type, int op, uint64_t carry,
                             int unrank)
{
    if (!sc_scan_ranks(type, op)) return carry;
    return unrank ? sc_type_unrank(type, carry) : sc_type_rank(type, carry);
}

/* Whether the GPU's scan of a 32-bit type rewrites its input (ranked or
 * biased in place, scan_typed.cu): max and min of i32 and f32, and an
 * i32 wide sum (run on x + 2^31). */
SC_HD int sc_scan_rewrites_input(uint32_t type, int op, int wide)
{
    return !sc_type_is_64bit(type) &&
           (sc_scan_ranks(type, op) ||
            (type == SC_I32 && wide && op == SC_OP_SUM));
}

/* No data-dependent branch: every term is evaluated and and-ed.  x as
 * sc_pred_eval reads it: an integer as it is, a float turned.  One body
 * for both widths: W is the word of the type's width, and a 32-bit
 * type's predicate holds its words in the low halves. */
#define SC_PRED_EVAL_BITS(W)                                                \
    uint32_t ok = (W)(x - (W)p->lo) <= (W)((W)p->hi - (W)p->lo);            \
    ok &= p->empty ^ 1u;                                                    \
    for (uint32_t k = 0; k < p->n_ne; k++)                                  \
        ok &= (uint32_t)(x != (W)p->ne[k]);                                 \
    for (uint32_t k = 0; k < p->n_mask; k++)                                \
        ok &= (uint32_t)((x & (W)p->mask[k]) != 0);                         \
    return (int)(ok ^ p->invert)

SC_HD int sc_pred_eval_bits(const sc_pred *p, uint32_t x)
{
    SC_PRED_EVAL_BITS(uint32_t);
}

SC_HD int sc_pred_eval_bits64(const sc_pred *p, uint64_t x)
{
    SC_PRED_EVAL_BITS(uint64_t);
}

/* A float is first read so that it orders as a signed integer does (the
 * rank without its sign flip: sc_pred's lo and hi are circular); the
 * integer types' predicates, whose key_neg is 0, may take
 * sc_pred_eval_bits directly. */
SC_HD int sc_pred_eval(const sc_pred *p, uint32_t x)
{
    return sc_pred_eval_bits(p, x ^ ((uint32_t)p->key_neg & (0u - (x >> 31))));
}

SC_HD int sc_pred_eval64(const sc_pred *p, uint64_t x)
{
    return sc_pred_eval_bits64(p, x ^ (p->key_neg & (0u - (x >> 63))));
}

#include "core/sc_hd_gen.h"

/* sc-rsort's key order as one unsigned comparison: the rank of v is bits
 * [lo, hi) of v's key rank (sc_key), inverted for descending order (so
 * descending is ascending rank, and stability means the same thing both
 * ways).  A radix digit is the rank over the digit's bits.  The CPU's
 * sort, its merge and the order checks rank by it; the GPU's sort passes
 * take the digit of keys ranked beforehand (sc_order_digit). */
typedef struct sc_order {
    unsigned shift;
    uint32_t mask, flip;
    sc_key key;
} sc_order;

/* Bits [lo_bit, hi_bit), 0 <= lo_bit < hi_bit <= 32, of elements of the
 * 32-bit type `type`. */
SC_HD void sc_order_init_type(sc_order *o, unsigned lo_bit, unsigned hi_bit,
                              int reverse, uint32_t type)
{
    unsigned width = hi_bit - lo_bit;
    o->shift = lo_bit;
    o->mask = width >= 32 ? UINT32_MAX : ((uint32_t)1 << width) - 1;
    o->flip = reverse ? o->mask : 0;
    o->key = sc_key_of(type);
}

SC_HD void sc_order_init(sc_order *o, unsigned lo_bit, unsigned hi_bit, int reverse)
{
    sc_order_init_type(o, lo_bit, hi_bit, reverse, SC_U32);
}

/* The rank of r, already in key-rank form (the key not applied). */
SC_HD uint32_t sc_order_digit(const sc_order *o, uint32_t r)
{
    return ((r >> o->shift) & o->mask) ^ o->flip;
}

SC_HD uint32_t sc_order_rank(const sc_order *o, uint32_t v)
{
    return sc_order_digit(o, sc_key_rank(o->key, v));
}

/* sc_order for 64-bit types: bits [lo_bit, hi_bit), 0 <= lo_bit < hi_bit
 * <= 64, of the key rank (sc_key64), inverted for descending order. */
typedef struct sc_order64 {
    unsigned shift;
    uint64_t mask, flip;
    sc_key64 key;
} sc_order64;

SC_HD void sc_order64_init(sc_order64 *o, unsigned lo_bit, unsigned hi_bit,
                           int reverse, uint32_t type)
{
    unsigned width = hi_bit - lo_bit;
    o->shift = lo_bit;
    o->mask = width >= 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    o->flip = reverse ? o->mask : 0;
    o->key = sc_key64_of(type);
}

SC_HD uint64_t sc_order64_digit(const sc_order64 *o, uint64_t r)
{
    return ((r >> o->shift) & o->mask) ^ o->flip;
}

SC_HD uint64_t sc_order64_rank(const sc_order64 *o, uint64_t v)
{
    return sc_order64_digit(o, sc_key64_rank(o->key, v));
}

/* sc-stat's distinct estimate: a HyperLogLog sketch of SC_HLL_REGS
 * registers.  An element's hash picks its register by the top
 * SC_HLL_BITS bits; its rank there is one more than the leading zeros of
 * the remaining bits; a register holds the highest rank it was given.
 * Registers merge by max, so any split of the input, on any device, ends
 * in the same sketch. */
#define SC_HLL_BITS 14
#define SC_HLL_REGS (1u << SC_HLL_BITS)

/* A bijective 64-bit mixer (MurmurHash3's finaliser): distinct elements
 * never collide, and every bit of the hash depends on every input bit.
 * Elements of either width: a 32-bit one hashes as its zero extension. */
SC_HD uint64_t sc_hll_hash(uint64_t x)
{
    uint64_t h = x;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

SC_HD uint32_t sc_hll_reg(uint64_t h)
{
    return (uint32_t)(h >> (64 - SC_HLL_BITS));
}

/* 1 .. 64 - SC_HLL_BITS + 1: fits a byte. */
SC_HD uint32_t sc_hll_rank(uint64_t h)
{
    uint64_t rest = h << SC_HLL_BITS;
    if (!rest) return 64 - SC_HLL_BITS + 1;
#ifdef __CUDA_ARCH__
    return (uint32_t)__clzll((long long)rest) + 1;
#else
    return (uint32_t)__builtin_clzll(rest) + 1;
#endif
}

/* The sketch's distinct estimate, the same bits on the host and in a
 * kernel: Ertl's improved raw estimator ("New cardinality estimation
 * algorithms for HyperLogLog sketches", 2017), one formula from empty to
 * full, with no bias tables and no switch to linear counting.  Every
 * step is one IEEE operation, rounded to nearest: a kernel's products
 * and sums are not fused (__dmul_rn, __dadd_rn), its sqrt and division
 * are IEEE's, and ln 2 is a constant, not a call of log(). */
#define SC_HLL_Q (64 - SC_HLL_BITS)

SC_HD double sc_dmul(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

SC_HD double sc_dadd(double a, double b)
{
#ifdef __CUDA_ARCH__
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

SC_HD double sc_hll_sigma(double x)
{
    if (x == 1.0) return INFINITY;
    double y = 1.0, z = x, prev;
    do {
        x = sc_dmul(x, x);
        prev = z;
        z = sc_dadd(z, sc_dmul(x, y));
        y = sc_dadd(y, y);
    } while (z != prev);
    return z;
}

SC_HD double sc_hll_tau(double x)
{
    if (x == 0.0 || x == 1.0) return 0.0;
    double y = 1.0, z = 1.0 - x, prev;
    do {
        x = sqrt(x);
        prev = z;
        y = sc_dmul(y, 0.5);
        double d = 1.0 - x;
        z = z - sc_dmul(sc_dmul(d, d), y);
    } while (z != prev);
    return z / 3.0;
}

/* The estimate from c[k], the number of registers holding k (k = 0 ..
 * SC_HLL_Q + 1), rounded; never more than the elements (count) nor than
 * the values between min and max (ranks), and at least 1 of a nonempty
 * input. */
SC_HD uint64_t sc_hll_distinct(const double *c, uint64_t count, uint64_t min,
                               uint64_t max)
{
    if (count == 0) return 0;
    double m = SC_HLL_REGS;
    double z = sc_dmul(m, sc_hll_tau(1.0 - c[SC_HLL_Q + 1] / m));
    for (int k = SC_HLL_Q; k >= 1; k--) z = sc_dmul(0.5, sc_dadd(z, c[k]));
    z = sc_dadd(z, sc_dmul(m, sc_hll_sigma(c[0] / m)));
    /* m^2 / (2 ln 2): the products are exact (powers of two apart). */
    double e = sc_dmul(m, m) / (2.0 * 0.6931471805599453094) / z;
    e = floor(sc_dadd(e, 0.5));
    double most = (double)(max - min) + 1.0;
    if ((double)count < most) most = (double)count;
    return e < 1.0 ? 1 : e > most ? (uint64_t)most : (uint64_t)e;
}

/* A signed integer type's ranks are x + 2^(width - 1): their sum, lo:hi,
 * is count times that more than the elements'.  Takes it off, two's
 * complement in 128 bits (a float type's sum is not its ranks'). */
SC_HD void sc_stat_unbias(uint32_t type, uint64_t count, uint64_t *lo,
                          uint64_t *hi)
{
    if (type != SC_I32 && type != SC_I64) return;
    unsigned s = type == SC_I64 ? 63 : 31;
    uint64_t d_lo = count << s, d_hi = count >> (64 - s);
    *hi -= d_hi + (*lo < d_lo);
    *lo -= d_lo;
}

#endif /* SC_HD_H */
