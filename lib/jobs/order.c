/* order.c — the key order: checks that a stream keeps it, and -u's
 * filter of equal keys. */
#include <inttypes.h>
#include "jobs/order.h"

void sc_elem_order_init(sc_elem_order *o, const sc_job *j)
{
    const sc_record *r = &j->record;
    if (r->size) {
        sc_elem_order_make(o, r->size, r->key_off, r->key_type,
                           j->big_endian, j->lo_bit, j->hi_bit, j->reverse);
        o->records = 1;
    } else
        sc_elem_order_make(o, sc_type_size(j->type), 0, j->type, 0,
                           j->lo_bit, j->hi_bit, j->reverse);
}

sc_status sc_order_check(sc_ctx *ctx, const sc_elem_order *o,
                         sc_order_cursor *c, const void *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t x = sc_elem_key(o, v, i);
        if (c->has_prev) {
            uint64_t a = sc_elem_rank_of(o, c->prev), b = sc_elem_rank_of(o, x);
            if (b < a || (c->strict && b == a)) {
                char now[SC_VALUE_CHARS], before[SC_VALUE_CHARS];
                sc_value_format(o->type, x, now);
                sc_value_format(o->type, c->prev, before);
                int rec = o->records;
                return sc_fail(ctx, SC_ERR_UNSORTED, "%s: disorder at %s "
                               "%" PRIu64 ": %s%s after %s%s", c->name,
                               rec ? "record" : "element", c->pos + i,
                               rec ? "key " : "", now, rec ? "key " : "",
                               before);
            }
        }
        c->prev = x;
        c->has_prev = 1;
    }
    c->pos += n;
    return SC_OK;
}

size_t sc_uniq_apply(const sc_elem_order *o, sc_uniq *u, void *v, size_t n)
{
    unsigned char *p = v;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = sc_elem_rank(o, v, i);
        if (u->has_last && r == u->last_rank) continue;
        u->last_rank = r;
        u->has_last = 1;
        if (kept != i) memcpy(p + kept * o->size, p + i * o->size, o->size);
        kept++;
    }
    return kept;
}
