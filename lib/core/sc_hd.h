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
 * compare ranks (sc_key), so they run on ranks and write the elements
 * back (widened with `wide`); an i32 wide sum sign-extends.  Sums of
 * i32 that wrap, and xor, are the u32 ones bit for bit; float sums are
 * a scan of their own (fsum.c). */
SC_HD int sc_scan_ranks(uint32_t type, int op)
{
    return type != SC_U32 && (op == SC_OP_MAX || op == SC_OP_MIN);
}

/* No data-dependent branch: every term is evaluated and and-ed.  x as
 * sc_pred_eval reads it: an integer as it is, a float turned. */
SC_HD int sc_pred_eval_bits(const sc_pred *p, uint32_t x)
{
    uint32_t ok = (uint32_t)(x - p->lo) <= (uint32_t)(p->hi - p->lo);
    ok &= p->empty ^ 1u;
    for (uint32_t k = 0; k < p->n_ne; k++)
        ok &= (uint32_t)(x != p->ne[k]);
    for (uint32_t k = 0; k < p->n_mask; k++)
        ok &= (uint32_t)((x & p->mask[k]) != 0);
    return (int)(ok ^ p->invert);
}

/* A float is first read so that it orders as a signed integer does (the
 * rank without its sign flip: sc_pred's lo and hi are circular); the
 * integer types' predicates, whose key_neg is 0, may take
 * sc_pred_eval_bits directly. */
SC_HD int sc_pred_eval(const sc_pred *p, uint32_t x)
{
    return sc_pred_eval_bits(p, x ^ (p->key_neg & (0u - (x >> 31))));
}

/* The generator's parameters reduced to integers, so that host and device
 * agree exactly (floating point only in uniform floats' fma, which rounds
 * once everywhere).  Elements of every type travel in 64 bits, a 32-bit
 * type's in the low half; the type's width (sc_gen_width) is what widens
 * each step, so that a zeroed plan, of type 0, is a u32 one. */
typedef struct sc_gen_plan {
    uint32_t dist;
    uint32_t type;          /* sc_type */
    uint64_t lo;            /* uniform: lowest value drawn */
    uint64_t span;          /* uniform: values drawn, 1 .. 2^width (2^64
                             * wraps to 0) */
    uint64_t skip_from;     /* uniform: draws from here on step over 0
                             * (floats: 0 when a zero drawn becomes hi) */
    double flo, fspan;      /* uniform floats: min and max - min, both
                             * halved when max - min overflows a double */
    uint32_t fhalved;       /* uniform floats: the fma's result doubled */
    uint64_t hi;            /* uniform floats: max */
    uint64_t key;           /* from the seed */
    uint64_t keep_below;    /* element kept when its draw < keep_below */
    uint32_t keep_all;      /* density 1: no draw */
    uint64_t value;         /* constant */
} sc_gen_plan;

SC_HD uint64_t sc_mix64(uint64_t z)
{
    z ^= z >> 30; z *= 0xbf58476d1ce4e5b9ULL;
    z ^= z >> 27; z *= 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return z;
}

/* Counter-based: draw k of element i depends on nothing else. */
SC_HD uint64_t sc_draw(const sc_gen_plan *g, uint64_t i, uint64_t k)
{
    return sc_mix64(g->key + (2 * i + k + 1) * 0x9e3779b97f4a7c15ULL);
}

/* Bits in an element of the type: 32 or 64. */
SC_HD unsigned sc_gen_width(uint32_t type)
{
    return type == SC_U64 || type == SC_I64 || type == SC_F64 ? 64u : 32u;
}

/* The type's bits of x: 32-bit types keep the low half. */
SC_HD uint64_t sc_gen_bits(uint32_t type, uint64_t x)
{
    return x & (~(uint64_t)0 >> (64 - sc_gen_width(type)));
}

SC_HD uint32_t sc_f32_bits(float f)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)__float_as_uint(f);
#else
    union { float f; uint32_t u; } c;
    c.f = f;
    return c.u;
#endif
}

SC_HD uint64_t sc_f64_bits(double d)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(d);
#else
    union { double d; uint64_t u; } c;
    c.d = d;
    return c.u;
#endif
}

/* The high 64 bits of a * b: the device's instruction, the host
 * compiler's 128-bit product, or four 32-bit products (nvcc's host pass
 * among others), all exact. */
SC_HD uint64_t sc_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#elif defined(__SIZEOF_INT128__) && !defined(__CUDACC__)
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#else
    uint64_t al = a & 0xffffffffu, ah = a >> 32;
    uint64_t bl = b & 0xffffffffu, bh = b >> 32;
    uint64_t lh = al * bh, hl = ah * bl;
    uint64_t mid = ((al * bl) >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return ah * bh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* A draw scaled to [0, span), evenly: the draw's top `width` bits x give
 * x * span / 2^width, rounded down.  32-bit types: one 64-bit product
 * (span <= 2^32).  64-bit types: the multiply-high of draw * span, taken
 * as draw * (span - 1) + draw so that a span of 2^64, stored as 0, needs
 * no 65th bit. */
SC_HD uint64_t sc_gen_scale(uint64_t draw, uint64_t span, unsigned width)
{
    if (width == 32) return ((draw >> 32) * span) >> 32;
    uint64_t less = span - 1, low = draw * less;
    return sc_mulhi64(draw, less) + (uint64_t)(low + draw < low);
}

/* Position i as an element of the type: integers wrap, floats round
 * (once, from the integer). */
SC_HD uint64_t sc_gen_count_value(uint32_t type, uint64_t i)
{
    if (type == SC_F32) return sc_f32_bits((float)i);
    if (type == SC_F64) return sc_f64_bits((double)i);
    return sc_gen_bits(type, i);
}

/* u = (draw >> 11) * 2^-53, then fma rounds once, the same on the host
 * and the GPU (an f32 rounds a second time, from the double).  A range
 * of one value is that value (-0 too); a zero drawn where zeros come
 * from the density alone becomes the bound farther from zero. */
SC_HD uint64_t sc_gen_uniform_float(const sc_gen_plan *g, uint64_t draw)
{
    if (g->fspan == 0.0) return g->lo;
    double u = (double)(draw >> 11) * 0x1p-53;
    double x = fma(u, g->fspan, g->flo);
    if (g->fhalved) x *= 2.0;
    uint64_t f = g->type == SC_F32 ? sc_f32_bits((float)x) : sc_f64_bits(x);
    uint64_t magnitude = sc_gen_bits(g->type, ~(uint64_t)0) >> 1;
    if ((f & magnitude) == 0 && g->skip_from == 0)
        return (g->hi & magnitude) ? g->hi : g->lo;
    return f;
}

SC_HD uint64_t sc_gen_uniform(const sc_gen_plan *g, uint64_t i)
{
    uint64_t draw = sc_draw(g, i, 1);
    if (g->type == SC_F32 || g->type == SC_F64)
        return sc_gen_uniform_float(g, draw);
    uint64_t d = sc_gen_scale(draw, g->span, sc_gen_width(g->type));
    return sc_gen_bits(g->type, g->lo + d + (uint64_t)(d >= g->skip_from));
}

/* Element i's bits, a 32-bit type's in the low half. */
SC_HD uint64_t sc_gen_plan_element(const sc_gen_plan *g, uint64_t i)
{
    uint32_t kept = g->keep_all | (uint32_t)(sc_draw(g, i, 0) < g->keep_below);
    uint64_t v;
    switch (g->dist) {
    case SC_DIST_UNIFORM:
        v = sc_gen_uniform(g, i);
        break;
    case SC_DIST_STRUCTURED:
        v = (i & 1) ? 0u : sc_gen_count_value(g->type, i + 1);
        break;
    case SC_DIST_IOTA:
        v = sc_gen_count_value(g->type, i);
        break;
    default:
        v = sc_gen_bits(g->type, g->value);
        break;
    }
    return kept ? v : 0u;
}

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
 * never collide, and every bit of the hash depends on every input bit. */
SC_HD uint64_t sc_hll_hash(uint32_t x)
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

#endif /* SC_HD_H */
