/* cpu_stat_impl.h — sc-stat's count phase for one element width,
 * included by cpu_stat.c once per width.  It expects:
 *   ELEM_T    the element's type (uint32_t, uint64_t);
 *   W(name)   name with the width's suffix.
 * The elements are of an unsigned type (the others' ranks, sc_key). */

/* The sketch's rule is sc_hd.h's, which the GPU's kernel shares. */
static void W(sketch)(const ELEM_T *in, uint64_t b, uint64_t e, uint8_t *reg)
{
    for (uint64_t i = b; i < e; i++) {
        uint64_t h = sc_hll_hash(in[i]);
        uint32_t idx = sc_hll_reg(h), rank = sc_hll_rank(h);
        if (rank > reg[idx]) reg[idx] = (uint8_t)rank;
    }
}

static void W(stat_count)(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    const ELEM_T *in = ((stat_op *)arg)->in;
    uint64_t lo = 0, hi = 0, zeros = 0;
    ELEM_T mn = (ELEM_T)-1, mx = 0;
    for (uint64_t i = b; i < e;) {
        uint64_t stop = e - i > SUM_BLOCK ? i + SUM_BLOCK : e, s = 0, s_hi = 0;
        /* One plain loop the compiler vectorises; the sketch is apart.
         * An element adds in its two 32-bit halves, so that neither sum
         * passes 2^64 within a block (a 32-bit element's high half is 0,
         * and its sum is the one plain sum). */
        for (; i < stop; i++) {
            ELEM_T x = in[i];
            s += (uint32_t)x;
            s_hi += (uint64_t)x >> 32;
            zeros += x == 0;
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
        }
        sc_add128(&lo, &hi, s, 0);
        sc_add128(&lo, &hi, s_hi << 32, s_hi >> 32);
    }
    res[0] = lo;
    res[1] = hi;
    res[2] = zeros;
    res[3] = mn;
    res[4] = mx;
    W(sketch)(in, b, e, (uint8_t *)(res + RES_FIXED));
}
