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

/* No data-dependent branch: every term is evaluated and and-ed. */
SC_HD int sc_pred_eval(const sc_pred *p, uint32_t x)
{
    uint32_t ok = (uint32_t)(x - p->lo) <= (uint32_t)(p->hi - p->lo);
    ok &= p->empty ^ 1u;
    for (uint32_t k = 0; k < p->n_ne; k++)
        ok &= (uint32_t)(x != p->ne[k]);
    for (uint32_t k = 0; k < p->n_mask; k++)
        ok &= (uint32_t)((x & p->mask[k]) != 0);
    return (int)(ok ^ p->invert);
}

/* The generator's parameters reduced to integers, so that host and device
 * agree exactly (no floating point at generation time). */
typedef struct sc_gen_plan {
    uint32_t dist;
    uint32_t lo;            /* uniform: lowest value drawn */
    uint64_t span;          /* uniform: values drawn, 1 .. 2^32 */
    uint64_t key;           /* from the seed */
    uint64_t keep_below;    /* element kept when its draw < keep_below */
    uint32_t keep_all;      /* density 1: no draw */
    uint32_t value;         /* constant */
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

SC_HD uint32_t sc_gen_plan_element(const sc_gen_plan *g, uint64_t i)
{
    uint32_t kept = g->keep_all | (uint32_t)(sc_draw(g, i, 0) < g->keep_below);
    uint32_t v;
    switch (g->dist) {
    case SC_DIST_UNIFORM:
        v = g->lo + (uint32_t)(((sc_draw(g, i, 1) >> 32) * g->span) >> 32);
        break;
    case SC_DIST_STRUCTURED:
        v = (i & 1) ? 0u : (uint32_t)(i + 1);
        break;
    case SC_DIST_IOTA:
        v = (uint32_t)i;
        break;
    default:
        v = g->value;
        break;
    }
    return kept ? v : 0u;
}

/* sc-rsort's key order as one unsigned comparison: the rank of v is bits
 * [lo, hi) of v, inverted for descending order (so descending is
 * ascending rank, and stability means the same thing both ways).  A
 * radix digit is the rank over the digit's bits.  The CPU's sort, its
 * merge, the order checks and the GPU's sort passes all rank by it. */
typedef struct sc_order {
    unsigned shift;
    uint32_t mask, flip;
} sc_order;

/* Bits [lo_bit, hi_bit), 0 <= lo_bit < hi_bit <= 32. */
SC_HD void sc_order_init(sc_order *o, unsigned lo_bit, unsigned hi_bit, int reverse)
{
    unsigned width = hi_bit - lo_bit;
    o->shift = lo_bit;
    o->mask = width >= 32 ? UINT32_MAX : ((uint32_t)1 << width) - 1;
    o->flip = reverse ? o->mask : 0;
}

SC_HD uint32_t sc_order_rank(const sc_order *o, uint32_t v)
{
    return ((v >> o->shift) & o->mask) ^ o->flip;
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
