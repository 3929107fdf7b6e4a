/* scan_ops.c — the scan's operators as both backends and the streaming
 * jobs use them: identities, combination, and one piece's reduction.
 * A typed scan's accumulator is kept as its backends run it
 * (sc_scan_ranks): max and min of a signed or float type hold a rank
 * (sc_key, or sc_key64 for the 8-byte types), so the identities and
 * combination are the unsigned ones of the element's width.  Elements of
 * an 8-byte type have a 64-bit accumulator, as 32-bit ones have with
 * `wide`. */
#include "core/core.h"

static int elems64(sc_type type) { return sc_type_size(type) == 8; }

uint64_t sc_scan_identity(sc_type type, sc_scan_op op)
{
    if (op != SC_OP_MIN) return 0;
    return elems64(type) ? UINT64_MAX : UINT32_MAX;
}

uint64_t sc_scan_combine(sc_scan_op op, int wide, uint64_t a, uint64_t b)
{
    switch (op) {
    case SC_OP_SUM: return wide ? a + b : (uint32_t)(a + b);
    case SC_OP_MAX: return a > b ? a : b;
    case SC_OP_MIN: return a < b ? a : b;
    default:        return a ^ b;
    }
}

/* One loop body per operator so each inner loop is a plain recurrence;
 * READ turns an element into what the accumulator takes. */
#define REDUCE(READ, EXPR)                                             \
    for (uint64_t i = 0; i < n; i++) { uint64_t x = READ; acc = EXPR; }

#define REDUCE_OPS(READ)                                               \
    switch (op) {                                                      \
    case SC_OP_SUM: REDUCE(READ, acc + x); break;                      \
    case SC_OP_MAX: REDUCE(READ, x > acc ? x : acc); break;            \
    case SC_OP_MIN: REDUCE(READ, x < acc ? x : acc); break;            \
    default:        REDUCE(READ, acc ^ x); break;                      \
    }

static uint64_t reduce32(const uint32_t *in, uint64_t n, sc_type type,
                         sc_scan_op op, int wide)
{
    uint64_t acc = sc_scan_identity(type, op);
    sc_key k = sc_key_of((uint32_t)type);
    if (sc_scan_ranks((uint32_t)type, (int)op)) {
        REDUCE_OPS(sc_key_rank(k, in[i]))
    } else if (type == SC_I32 && wide) {
        REDUCE_OPS(sc_widen(SC_I32, in[i]))
    } else {
        REDUCE_OPS(in[i])
    }
    return wide ? acc : (uint32_t)acc;
}

static uint64_t reduce64(const uint64_t *in, uint64_t n, sc_type type,
                         sc_scan_op op)
{
    uint64_t acc = sc_scan_identity(type, op);
    sc_key64 k = sc_key64_of((uint32_t)type);
    if (sc_scan_ranks((uint32_t)type, (int)op)) {
        REDUCE_OPS(sc_key64_rank(k, in[i]))
    } else {
        REDUCE_OPS(in[i])
    }
    return acc;
}

uint64_t sc_scan_reduce_type(const void *in, uint64_t n, sc_type type,
                             sc_scan_op op, int wide)
{
    return elems64(type) ? reduce64(in, n, type, op)
                         : reduce32(in, n, type, op, wide);
}

uint64_t sc_scan_carry_rank(sc_type type, sc_scan_op op, uint64_t carry,
                            int unrank)
{
    return sc_scan_carry((uint32_t)type, (int)op, carry, unrank);
}

uint64_t sc_scan_identity_of(sc_type type, sc_scan_op op)
{
    return sc_scan_carry_rank(type, op, sc_scan_identity(type, op), 1);
}

uint64_t sc_scan_reduce(const uint32_t *in, uint64_t n, sc_scan_op op,
                        int wide)
{
    return sc_scan_reduce_type(in, n, SC_U32, op, wide);
}
