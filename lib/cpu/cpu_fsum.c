/* cpu_fsum.c — the sum scan of floats in one fixed order, so that its
 * bits do not depend on the chunks, threads or device (sc(7), ELEMENT
 * TYPES): the stream is cut into aligned blocks of SC_FSUM_BLOCK
 * elements; inside a block the elements are added in order, in double,
 * from 0; an output is the block's carry plus that partial sum; the
 * next block's carry is this one's plus the block's total.  A NaN is
 * written as +nan. */
#include <math.h>
#include <string.h>
#include "cpu/cpu.h"

/* Element i of f32 or f64 elements, as a double (exact either way). */
static inline double float_at(const void *in, int f64, uint64_t i)
{
    if (f64) {
        double d;
        memcpy(&d, (const double *)in + i, 8);
        return d;
    }
    float f;
    memcpy(&f, (const float *)in + i, 4);
    return f;
}

/* Which NaN an addition gives (its sign, its payload) depends on the
 * order of the operands the compiler or the device picked: every NaN
 * is written as the one quiet NaN, +nan. */
static void put(void *out, uint64_t i, double v, int wide)
{
    if (v != v) v = NAN;
    if (wide) {
        memcpy((double *)out + i, &v, 8);
    } else {
        float f = (float)v;
        memcpy((uint32_t *)out + i, &f, 4);
    }
}

/* The scan of one element width: f64 is a constant where it is called,
 * so each width gets its own plain loop. */
static inline void fsum_run(const void *in, int f64, uint64_t n,
                            uint64_t first, int inclusive, int wide,
                            void *out, sc_fsum_state *st)
{
    uint64_t pos = first;
    for (uint64_t i = 0; i < n; i++, pos++) {
        if (pos % SC_FSUM_BLOCK == 0 && st->in_block) {
            /* A new block: the last one's total joins the carry. */
            st->carry += st->partial;
            st->partial = 0.0;
            st->in_block = 0;
        }
        /* Before a block's first element the output is the carry itself
         * (a -0 stays -0). */
        if (out && !inclusive)
            put(out, i, st->in_block ? st->carry + st->partial : st->carry,
                wide);
        st->partial += float_at(in, f64, i);
        st->in_block++;
        if (out && inclusive) put(out, i, st->carry + st->partial, wide);
    }
}

void sc_cpu_fsum(const void *in, sc_type type, uint64_t n, uint64_t first,
                 int inclusive, int wide, void *out, sc_fsum_state *st)
{
    if (type == SC_F64) fsum_run(in, 1, n, first, inclusive, wide, out, st);
    else fsum_run(in, 0, n, first, inclusive, wide, out, st);
}
