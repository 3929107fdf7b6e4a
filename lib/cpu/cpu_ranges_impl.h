/* cpu_ranges_impl.h — sc-split --ranges' count and move phases for one
 * element (or record key) width, included by cpu_ranges.c once per
 * width.  It expects:
 *   ELEM_T        the element's type (uint32_t, uint64_t);
 *   W(name)       name with the width's suffix;
 *   BOUNDS(op)    the op's bounds, ranks as ELEM_T;
 *   RANK(op, x)   the rank of element x (sc_key or sc_key64);
 *   BSWAP(x)      x's bytes reversed.
 * Records (op->stride set) are cut by their key, read op->stride bytes
 * apart, and moved whole; elements keep their plain array loops. */

/* The number of bounds at or below x, without branches to mispredict:
 * the parts of random data are a coin toss at every step. */
static inline unsigned W(part_of)(const ELEM_T *b, unsigned nb, ELEM_T x)
{
    if (nb == 0) return 0;
    const ELEM_T *base = b;
    unsigned len = nb;
    while (len > 1) {
        unsigned half = len / 2;
        base = base[half] <= x ? base + half : base;
        len -= half;
    }
    return (unsigned)(base - b) + (*base <= x);
}

/* Record i's part, by its key. */
static inline unsigned W(record_part)(const ranges_op *op, uint64_t i)
{
    ELEM_T x;
    memcpy(&x, (const unsigned char *)op->in + i * op->stride + op->key_off,
           sizeof x);
    if (op->swap) x = BSWAP(x);
    return W(part_of)(BOUNDS(op), op->nb, RANK(op, x));
}

static void W(ranges_count)(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    const ranges_op *op = arg;
    const ELEM_T *in = op->in;
    if (op->stride) {
        for (uint64_t i = b; i < e; i++) res[W(record_part)(op, i)]++;
        return;
    }
    for (uint64_t i = b; i < e; i++)
        res[W(part_of)(BOUNDS(op), op->nb, RANK(op, in[i]))]++;
}

static void W(ranges_move)(void *arg, unsigned seq, uint64_t b, uint64_t e,
                           const uint64_t *offsets)
{
    const ranges_op *op = arg;
    const ELEM_T *in = op->in;
    ELEM_T *out = op->out;
    uint64_t at[SC_MAX_PARTS];
    (void)seq;
    memcpy(at, offsets, (op->nb + 1) * sizeof *at);
    if (op->stride) {
        for (uint64_t i = b; i < e; i++)
            copy_record(op, at[W(record_part)(op, i)]++, i);
        return;
    }
    for (uint64_t i = b; i < e; i++) {
        ELEM_T x = in[i];
        out[at[W(part_of)(BOUNDS(op), op->nb, RANK(op, x))]++] = x;
    }
}
