/* scan_ops.c — the scan's operators as both backends and the streaming
 * jobs use them: identities, combination, and one piece's reduction.
 * A typed scan's accumulator is kept as its backends run it
 * (sc_scan_ranks): max and min of a signed or float type hold a rank,
 * so the identities and combination are the u32 ones. */
#include "core/core.h"

uint64_t sc_scan_identity(sc_scan_op op, int wide)
{
    (void)wide;
    return op == SC_OP_MIN ? UINT32_MAX : 0;
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

uint64_t sc_scan_reduce_type(const uint32_t *in, uint64_t n, sc_type type,
                             sc_scan_op op, int wide)
{
    uint64_t acc = sc_scan_identity(op, wide);
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

uint64_t sc_scan_identity_of(sc_type type, sc_scan_op op)
{
    if (op != SC_OP_MAX && op != SC_OP_MIN) return 0;
    return sc_key_unrank(sc_key_of((uint32_t)type),
                         op == SC_OP_MIN ? UINT32_MAX : 0);
}

uint64_t sc_scan_reduce(const uint32_t *in, uint64_t n, sc_scan_op op,
                        int wide)
{
    return sc_scan_reduce_type(in, n, SC_U32, op, wide);
}
