/* cpu_fsum.c — the sum scan of floats in one fixed order, so that its
 * bits do not depend on the chunks, threads or device (sc(7), ELEMENT
 * TYPES): the stream is cut into aligned blocks of SC_FSUM_BLOCK
 * elements; inside a block the elements are added in order, in double,
 * from 0; an output is the block's carry plus that partial sum; the
 * next block's carry is this one's plus the block's total.  A NaN is
 * written as +nan.  The same order for f32 and f64: only the reading of
 * an element and the width of the outputs differ. */
#include <math.h>
#include <string.h>
#include "cpu/cpu.h"

/* Element i as a double: an f32 (exactly) or an f64.  The width is a
 * constant in each of sc_cpu_fsum's two calls of fsum_run, so the test
 * goes out of the loop. */
static inline double elem_at(const void *in, uint64_t i, unsigned size)
{
    if (size == 8) {
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
 * is written as the one quiet NaN, +nan.  out8: doubles out (f64, or
 * f32 with `wide`), else floats. */
static inline void put(void *out, uint64_t i, double v, int out8)
{
    if (v != v) v = NAN;
    if (out8) {
        memcpy((double *)out + i, &v, 8);
    } else {
        float f = (float)v;
        memcpy((uint32_t *)out + i, &f, 4);
    }
}

static inline void fsum_run(const void *in, uint64_t n, unsigned size,
                            uint64_t first, int inclusive, int out8,
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
                out8);
        st->partial += elem_at(in, i, size);
        st->in_block++;
        if (out && inclusive) put(out, i, st->carry + st->partial, out8);
    }
}

void sc_cpu_fsum(const void *in, sc_type type, uint64_t n, uint64_t first,
                 int inclusive, int wide, void *out, sc_fsum_state *st)
{
    if (type == SC_F64)
        fsum_run(in, n, 8, first, inclusive, 1, out, st);
    else
        fsum_run(in, n, 4, first, inclusive, wide, out, st);
}
