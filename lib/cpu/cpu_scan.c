/* cpu_scan.c — prefix scan as an instance of the three phases:
 * count = each sequence's reduction, prefix = scan of the reductions from
 * the carry-in, move = local scan plus the sequence's offset. */
#include "cpu/phases.h"

typedef struct scan_op {
    const uint32_t *in;
    sc_scan_op op;
    int inclusive, wide;
    void *out;
    uint64_t carry;         /* in: carry-in; out: final accumulator */
    unsigned seqs;
} scan_op;

static void scan_count(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    scan_op *s = arg;
    res[0] = sc_scan_reduce(s->in + b, e - b, s->op, s->wide);
}

static int scan_prefix(void *arg, uint64_t *res, unsigned seqs)
{
    scan_op *s = arg;
    uint64_t run = s->carry;
    for (unsigned i = 0; i < seqs; i++) {
        uint64_t r = res[i];
        res[i] = run;
        run = sc_scan_combine(s->op, s->wide, run, r);
    }
    s->seqs = seqs;
    return 0;
}

#define SCAN_LOOP(T, EXPR)                                             \
    do {                                                               \
        T *out = (T *)s->out;                                          \
        if (s->inclusive)                                              \
            for (uint64_t i = b; i < e; i++) {                         \
                uint64_t x = in[i]; acc = EXPR; out[i] = (T)acc; }     \
        else                                                           \
            for (uint64_t i = b; i < e; i++) {                         \
                uint64_t x = in[i]; out[i] = (T)acc; acc = EXPR; }     \
    } while (0)

#define SCAN_OPS(T)                                                    \
    switch (s->op) {                                                   \
    case SC_OP_SUM: SCAN_LOOP(T, acc + x); break;                      \
    case SC_OP_MAX: SCAN_LOOP(T, x > acc ? x : acc); break;            \
    case SC_OP_MIN: SCAN_LOOP(T, x < acc ? x : acc); break;            \
    default:        SCAN_LOOP(T, acc ^ x); break;                      \
    }

static void scan_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                      const uint64_t *off)
{
    scan_op *s = arg;
    const uint32_t *in = s->in;
    uint64_t acc = off[0];
    if (s->wide) { SCAN_OPS(uint64_t) } else { SCAN_OPS(uint32_t) }
    if (seq == s->seqs - 1)
        s->carry = s->wide ? acc : (uint32_t)acc;
}

sc_status sc_cpu_scan(sc_ctx *ctx, sc_phase_times *times, const uint32_t *in,
                      uint64_t n, sc_scan_op op, int inclusive, int wide,
                      void *out, uint64_t *carry)
{
    if (n == 0) return SC_OK;
    scan_op s = { in, op, inclusive, wide, out,
                  wide ? *carry : (uint32_t)*carry, 1 };
    sc_phases ph = { n, 1, 1, scan_count, scan_prefix, scan_move, &s };
    sc_status st = sc_phases_run(ctx, times, &ph);
    if (st == SC_OK) *carry = s.carry;
    return st;
}
