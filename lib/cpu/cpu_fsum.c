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

static double f32_at(const uint32_t *in, uint64_t i)
{
    float f;
    memcpy(&f, &in[i], 4);
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

void sc_cpu_fsum(const uint32_t *in, uint64_t n, uint64_t first,
                 int inclusive, int wide, void *out, sc_fsum_state *st)
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
        st->partial += f32_at(in, i);
        st->in_block++;
        if (out && inclusive) put(out, i, st->carry + st->partial, wide);
    }
}
