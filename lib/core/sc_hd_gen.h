/* sc_hd_gen.h — sc-gen's generator, compiled both for the host and for
 * CUDA kernels (sc_hd.h includes it, after SC_HD), so that the CPU and
 * the GPU make the same bits by construction. */
#ifndef SC_HD_GEN_H
#define SC_HD_GEN_H

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

#endif
