/* order.c — the key order: checks that a stream keeps it, and -u's
 * filter of equal keys. */
#include <inttypes.h>
#include "jobs/order.h"

/* The type whose key o orders by, for messages. */
static sc_type type_of(const sc_order *o)
{
    return o->key.neg ? SC_F32 : o->key.sign ? SC_I32 : SC_U32;
}

sc_status sc_order_check(sc_ctx *ctx, const sc_order *o, sc_order_cursor *c,
                         const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (c->has_prev) {
            uint32_t a = sc_order_rank(o, c->prev), b = sc_order_rank(o, v[i]);
            if (b < a || (c->strict && b == a)) {
                char now[SC_VALUE_CHARS], before[SC_VALUE_CHARS];
                sc_value_format(type_of(o), v[i], now);
                sc_value_format(type_of(o), c->prev, before);
                return sc_fail(ctx, SC_ERR_UNSORTED, "%s: disorder at element "
                               "%" PRIu64 ": %s after %s", c->name,
                               c->pos + i, now, before);
            }
        }
        c->prev = v[i];
        c->has_prev = 1;
    }
    c->pos += n;
    return SC_OK;
}

size_t sc_uniq_apply(const sc_order *o, sc_uniq *u, uint32_t *v, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = sc_order_rank(o, v[i]);
        if (u->has_last && r == u->last_rank) continue;
        u->last_rank = r;
        u->has_last = 1;
        v[kept++] = v[i];
    }
    return kept;
}
