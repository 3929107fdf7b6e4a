/* radix_impl.h — the LSD radix pass for one key width, included by
 * radix.c once per width.  It expects:
 *   KEY_T               the key's type (uint32_t, uint64_t);
 *   ORDER_T             its sc_order (sc_order, sc_order64);
 *   ORDER_INIT(o, lo, hi, desc)  and  ORDER_DIGIT(o, k)  on it;
 *   W(name)             name with the width's suffix;
 *   RANK_FN             its sc_radix_width.rank.
 * The keys are ranks already (sc_key applied), so the order's own key
 * transform is the identity. */

/* A cache line of keys. */
#define LINE_KEYS (64 / sizeof (KEY_T))

typedef struct W(pass) {
    const KEY_T *src;
    KEY_T *dst;
    ORDER_T digit;          /* the digit: the rank over the pass's bits */
    uint64_t n;
    int skipped;            /* set by the prefix when no key moves */
    uint64_t *bounds;       /* if set, the prefix leaves each digit's first
                               position here, and n at [RADIX] */
} W(pass);

/* The pass over bits [lo, lo + bits) of keys src[0..n) into dst. */
static W(pass) W(make_pass)(const KEY_T *src, KEY_T *dst, uint64_t n,
                            unsigned lo, unsigned bits, int descending)
{
    W(pass) p;
    memset(&p, 0, sizeof p);
    p.src = src;
    p.dst = dst;
    p.n = n;
    ORDER_INIT(&p.digit, lo, lo + bits, descending);
    return p;
}

/* The three phases of a pass (sc_phases), usable on one thread as well:
 * hist has RADIX entries per sequence. */
static void W(count)(void *arg, uint64_t b, uint64_t e, uint64_t *hist)
{
    W(pass) *p = arg;
    for (uint64_t i = b; i < e; i++) hist[ORDER_DIGIT(&p->digit, p->src[i])]++;
}

static int W(prefix)(void *arg, uint64_t *res, unsigned seqs)
{
    W(pass) *p = arg;
    if (sc_radix_one_digit(res, seqs, p->n)) return p->skipped = 1;
    sc_radix_offsets(res, seqs, p->bounds);
    return 0;
}

/* The move, key by key with no line buffers: for a destination that
 * fits in cache, where streaming stores would only evict it.  pos holds
 * the offsets and is advanced. */
static void W(scatter)(const W(pass) *p, uint64_t b, uint64_t e,
                       uint64_t *pos)
{
    for (uint64_t i = b; i < e; i++) {
        KEY_T k = p->src[i];
        p->dst[pos[ORDER_DIGIT(&p->digit, k)]++] = k;
    }
}

/* A sequence's scatter state: 160 KiB at 11-bit digits (a line is 64
 * bytes whatever the width), so it lives on the heap rather than on a
 * thread's stack. */
typedef struct W(lines) {
    KEY_T line[RADIX][LINE_KEYS];
    uint64_t pos[RADIX];
    unsigned fill[RADIX], start[RADIX];
} W(lines);

static void W(move_by_lines)(const W(pass) *p, uint64_t b, uint64_t e,
                             W(lines) *sc)
{
    /* A digit's first line is short, so that the later ones end on line
     * boundaries of the destination. */
    for (unsigned d = 0; d < RADIX; d++) {
        uintptr_t at = (uintptr_t)(p->dst + sc->pos[d]);
        sc->fill[d] = sc->start[d] = (unsigned)((at & 63) / sizeof (KEY_T));
    }
    for (uint64_t i = b; i < e; i++) {
        KEY_T k = p->src[i];
        unsigned d = (unsigned)ORDER_DIGIT(&p->digit, k);
        sc->line[d][sc->fill[d]++] = k;
        if (sc->fill[d] == LINE_KEYS) {
            unsigned from = sc->start[d];
            if (from) memcpy(p->dst + sc->pos[d], sc->line[d] + from,
                             (LINE_KEYS - from) * sizeof (KEY_T));
            else put_line(p->dst + sc->pos[d], sc->line[d]);
            sc->pos[d] += LINE_KEYS - from;
            sc->fill[d] = sc->start[d] = 0;
        }
    }
    for (unsigned d = 0; d < RADIX; d++)
        memcpy(p->dst + sc->pos[d], sc->line[d] + sc->start[d],
               (sc->fill[d] - sc->start[d]) * sizeof (KEY_T));
#ifdef __SSE2__
    _mm_sfence();
#endif
}

static void W(move)(void *arg, unsigned seq, uint64_t b, uint64_t e,
                    const uint64_t *off)
{
    const W(pass) *p = arg;
    (void)seq;
    /* Short sequences gain nothing from lines; and without memory for
     * them the keys still go straight to their places. */
    W(lines) *sc = e - b >= (uint64_t)RADIX * LINE_KEYS
                 ? aligned_alloc(64, sizeof *sc) : NULL;
    if (!sc) {
        uint64_t pos[RADIX];
        memcpy(pos, off, sizeof pos);
        W(scatter)(p, b, e, pos);
        return;
    }
    memcpy(sc->pos, off, sizeof sc->pos);
    W(move_by_lines)(p, b, e, sc);
    free(sc);
}

static sc_status W(lsd)(sc_ctx *ctx, sc_phase_times *times, void *src_,
                        void *dst_, uint64_t n, unsigned lo, unsigned hi,
                        int descending, void **result)
{
    KEY_T *src = src_, *dst = dst_;
    for (; lo < hi; lo += DIGIT_BITS) {
        unsigned bits = hi - lo < DIGIT_BITS ? hi - lo : DIGIT_BITS;
        W(pass) p = W(make_pass)(src, dst, n, lo, bits, descending);
        sc_phases ph = { n, RADIX, 0, W(count), W(prefix), W(move), &p };
        sc_status st = sc_phases_run(ctx, times, &ph);
        if (st != SC_OK) return st;
        if (!p.skipped) { KEY_T *t = src; src = dst; dst = t; }
    }
    *result = src;
    return SC_OK;
}

/* LSD passes on the calling thread; returns the buffer that holds the
 * keys. */
static KEY_T *W(lsd_local)(KEY_T *src, KEY_T *dst, uint64_t m, unsigned lo,
                           unsigned hi, int descending)
{
    uint64_t hist[RADIX];
    for (; m > 1 && lo < hi; lo += DIGIT_BITS) {
        unsigned bits = hi - lo < DIGIT_BITS ? hi - lo : DIGIT_BITS;
        W(pass) p = W(make_pass)(src, dst, m, lo, bits, descending);
        memset(hist, 0, sizeof hist);
        W(count)(&p, 0, m, hist);
        if (W(prefix)(&p, hist, 1)) continue;
        W(scatter)(&p, 0, m, hist);
        KEY_T *t = src; src = dst; dst = t;
    }
    return src;
}

static void W(local)(void *src_, void *dst_, uint64_t m, unsigned lo,
                     unsigned hi, int descending, int in_src);

/* One pass on the top digit of [lo, hi), src to dst through the line
 * buffers, then each digit's keys sorted on the bits below it where
 * the keys end (in src where in_src is set).  0: done; -1: nothing
 * done (no memory). */
static int W(local_msd)(KEY_T *src, KEY_T *dst, uint64_t m, unsigned lo,
                        unsigned hi, int descending, int in_src)
{
    unsigned top = hi - DIGIT_BITS;
    uint64_t *hist = malloc((2 * RADIX + 1) * sizeof *hist);
    if (!hist) return -1;
    uint64_t *bounds = hist + RADIX;
    W(pass) p = W(make_pass)(src, dst, m, top, DIGIT_BITS, descending);
    p.bounds = bounds;
    memset(hist, 0, RADIX * sizeof *hist);
    W(count)(&p, 0, m, hist);
    if (W(prefix)(&p, hist, 1)) {
        free(hist);
        W(local)(src, dst, m, lo, top, descending, in_src);
        return 0;
    }
    W(move)(&p, 0, 0, m, hist);
    for (unsigned d = 0; d < RADIX; d++) {
        uint64_t b = bounds[d], e = bounds[d + 1];
        if (e > b)
            W(local)(dst + b, src + b, e - b, lo, top, descending, !in_src);
    }
    free(hist);
    return 0;
}

/* The keys end in dst, or back in src where in_src is set.  Many keys
 * (a large bucket of skewed keys) are cut on their top digit first: LSD
 * passes over them would miss the cache on every key, pass after pass. */
static void W(local)(void *src_, void *dst_, uint64_t m, unsigned lo,
                     unsigned hi, int descending, int in_src)
{
    KEY_T *src = src_, *dst = dst_;
    if (m >= SC_CUT_MIN_KEYS && hi - lo > DIGIT_BITS &&
        W(local_msd)(src, dst, m, lo, hi, descending, in_src) == 0)
        return;
    KEY_T *res = W(lsd_local)(src, dst, m, lo, hi, descending);
    KEY_T *want = in_src ? src : dst;
    if (res != want) memcpy(want, res, m * sizeof (KEY_T));
}

static sc_status W(split)(sc_ctx *ctx, sc_phase_times *times,
                          const void *src, void *dst, uint64_t n,
                          unsigned lo, unsigned bits, int descending,
                          uint64_t *bounds, int *one)
{
    W(pass) p = W(make_pass)(src, dst, n, lo, bits, descending);
    p.bounds = bounds;
    sc_phases ph = { n, RADIX, 0, W(count), W(prefix), W(move), &p };
    sc_status st = sc_phases_run(ctx, times, &ph);
    *one = p.skipped;
    return st;
}

/* The keys' AND and OR: a count phase and a reduction, nothing moved. */
typedef struct W(span) {
    const KEY_T *keys;
    uint64_t all, any;
} W(span);

static void W(span_count)(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    const KEY_T *k = ((const W(span) *)arg)->keys;
    KEY_T all = (KEY_T)~(KEY_T)0, any = 0;
    for (uint64_t i = b; i < e; i++) { all &= k[i]; any |= k[i]; }
    res[0] = all;
    res[1] = any;
}

static int W(span_reduce)(void *arg, uint64_t *res, unsigned seqs)
{
    W(span) *sp = arg;
    sp->all = UINT64_MAX;
    sp->any = 0;
    for (unsigned s = 0; s < seqs; s++) {
        sp->all &= res[2 * s];
        sp->any |= res[2 * s + 1];
    }
    return 1;               /* no move */
}

static sc_status W(varying)(sc_ctx *ctx, sc_phase_times *times,
                            const void *keys, uint64_t n, uint64_t *bits)
{
    W(span) sp = { keys, 0, 0 };
    sc_phases ph = { n, 2, 0, W(span_count), W(span_reduce), NULL, &sp };
    sc_status st = sc_phases_run(ctx, times, &ph);
    *bits = sp.all ^ sp.any;
    return st;
}

const sc_radix_width W(sc_radix) = {
    sizeof (KEY_T), W(lsd), W(local), W(split), W(varying), RANK_FN
};

#undef LINE_KEYS
