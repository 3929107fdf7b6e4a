/* cpu_scan.c — prefix scan as an instance of the three phases:
 * count = each sequence's reduction, prefix = scan of the reductions from
 * the carry-in, move = local scan plus the sequence's offset.  Elements
 * of 4 or 8 bytes; those of an 8-byte type are never widened, and their
 * accumulator is 64-bit as a 32-bit type's is with `wide`. */
#include "cpu/phases.h"

typedef struct scan_op {
    const void *in;
    uint32_t type;          /* sc_type: see sc_scan_ranks */
    sc_scan_op op;
    int inclusive, wide;
    int acc64;              /* a 64-bit accumulator: wide, or 8-byte elements */
    void *out;
    uint64_t carry;         /* in: carry-in; out: final accumulator */
    unsigned seqs;
} scan_op;

/* Where element b of s's input starts. */
static const void *elems_at(const scan_op *s, uint64_t b)
{
    return (const char *)s->in + b * sc_type_size((sc_type)s->type);
}

static void scan_count(void *arg, uint64_t b, uint64_t e, uint64_t *res)
{
    scan_op *s = arg;
    res[0] = sc_scan_reduce_type(elems_at(s, b), e - b, (sc_type)s->type,
                                 s->op, s->wide);
}

static int scan_prefix(void *arg, uint64_t *res, unsigned seqs)
{
    scan_op *s = arg;
    uint64_t run = s->carry;
    for (unsigned i = 0; i < seqs; i++) {
        uint64_t r = res[i];
        res[i] = run;
        run = sc_scan_combine(s->op, s->acc64, run, r);
    }
    s->seqs = seqs;
    return 0;
}

/* READ: an element as the accumulator takes it; WRITE: the accumulator
 * as the output holds it. */
#define SCAN_LOOP(T, READ, WRITE, EXPR)                                \
    do {                                                               \
        T *out = (T *)s->out;                                          \
        if (s->inclusive)                                              \
            for (uint64_t i = b; i < e; i++) {                         \
                uint64_t x = READ; acc = EXPR; out[i] = (T)(WRITE); }  \
        else                                                           \
            for (uint64_t i = b; i < e; i++) {                         \
                uint64_t x = READ; out[i] = (T)(WRITE); acc = EXPR; }  \
    } while (0)

#define SCAN_OPS(T, READ, WRITE)                                       \
    switch (s->op) {                                                   \
    case SC_OP_SUM: SCAN_LOOP(T, READ, WRITE, acc + x); break;         \
    case SC_OP_MAX: SCAN_LOOP(T, READ, WRITE, x > acc ? x : acc); break; \
    case SC_OP_MIN: SCAN_LOOP(T, READ, WRITE, x < acc ? x : acc); break; \
    default:        SCAN_LOOP(T, READ, WRITE, acc ^ x); break;         \
    }

/* Max and min of a signed or float type, on ranks; the elements written
 * back, widened by `wide`. */
static uint64_t scan_ranks(const scan_op *s, uint64_t b, uint64_t e,
                           uint64_t acc)
{
    const uint32_t *in = s->in;
    sc_key k = sc_key_of(s->type);
    if (s->wide) {
        SCAN_OPS(uint64_t, sc_key_rank(k, in[i]),
                 sc_widen(s->type, sc_key_unrank(k, (uint32_t)acc)))
    } else {
        SCAN_OPS(uint32_t, sc_key_rank(k, in[i]),
                 sc_key_unrank(k, (uint32_t)acc))
    }
    return acc;
}

/* 8-byte elements: max and min on sc_key64 ranks, the rest as they are. */
static uint64_t scan_64(const scan_op *s, uint64_t b, uint64_t e,
                        uint64_t acc)
{
    const uint64_t *in = s->in;
    if (sc_scan_ranks(s->type, (int)s->op)) {
        sc_key64 k = sc_key64_of(s->type);
        SCAN_OPS(uint64_t, sc_key64_rank(k, in[i]), sc_key64_unrank(k, acc))
    } else {
        SCAN_OPS(uint64_t, in[i], acc)
    }
    return acc;
}

static void scan_move(void *arg, unsigned seq, uint64_t b, uint64_t e,
                      const uint64_t *off)
{
    scan_op *s = arg;
    const uint32_t *in = s->in;
    uint64_t acc = off[0];
    if (sc_type_size((sc_type)s->type) == 8) {
        acc = scan_64(s, b, e, acc);
    } else if (sc_scan_ranks(s->type, (int)s->op)) {
        acc = scan_ranks(s, b, e, acc);
    } else if (s->wide && s->type == SC_I32) {
        SCAN_OPS(uint64_t, sc_widen(SC_I32, in[i]), acc)
    } else if (s->wide) {
        SCAN_OPS(uint64_t, in[i], acc)
    } else {
        SCAN_OPS(uint32_t, in[i], acc)
    }
    if (seq == s->seqs - 1)
        s->carry = s->acc64 ? acc : (uint32_t)acc;
}

sc_status sc_cpu_scan(sc_ctx *ctx, sc_phase_times *times, const void *in,
                      uint64_t n, sc_type type, sc_scan_op op, int inclusive,
                      int wide, void *out, uint64_t *carry)
{
    if (n == 0) return SC_OK;
    int acc64 = wide || sc_type_size(type) == 8;
    scan_op s = { in, (uint32_t)type, op, inclusive, wide, acc64, out,
                  acc64 ? *carry : (uint32_t)*carry, 1 };
    sc_phases ph = { n, 1, 1, scan_count, scan_prefix, scan_move, &s };
    sc_status st = sc_phases_run(ctx, times, &ph);
    if (st == SC_OK) *carry = s.carry;
    return st;
}
