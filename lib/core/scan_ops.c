/* scan_ops.c — the scan's operators as both backends and the streaming
 * jobs use them: identities, combination, and one piece's reduction. */
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

/* One loop body per operator so each inner loop is a plain recurrence. */
#define REDUCE(EXPR)                                                   \
    for (uint64_t i = 0; i < n; i++) { uint64_t x = in[i]; acc = EXPR; }

uint64_t sc_scan_reduce(const uint32_t *in, uint64_t n, sc_scan_op op,
                        int wide)
{
    uint64_t acc = sc_scan_identity(op, wide);
    switch (op) {
    case SC_OP_SUM: REDUCE(acc + x); break;
    case SC_OP_MAX: REDUCE(x > acc ? x : acc); break;
    case SC_OP_MIN: REDUCE(x < acc ? x : acc); break;
    default:        REDUCE(acc ^ x); break;
    }
    return wide ? acc : (uint32_t)acc;
}
