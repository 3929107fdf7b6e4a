/* slots.c — the pipeline's slot memory. */
#include <stdlib.h>
#include "stream/slots.h"

/* Plain memory: the CPU needs nothing else, and the GPU pins it once it
 * is ready (page-locking keeps the contents). */
sc_status sc_slots_alloc(sc_slot *s, unsigned n, size_t elems,
                         const sc_stage_ops *ops, int in_buffer)
{
    for (unsigned i = 0; i < n; i++) {
        sc_chunk *c = &s[i].c;
        if (in_buffer && !(c->in = sc_big_alloc(elems * ops->in_bytes_per_elem)))
            return SC_ERR_NOMEM;
        if (ops->out_bytes_per_elem &&
            !(c->out = sc_big_alloc(elems * ops->out_bytes_per_elem)))
            return SC_ERR_NOMEM;
        if (ops->need_aux &&
            !(c->aux = sc_big_alloc(elems * ops->in_bytes_per_elem)))
            return SC_ERR_NOMEM;
    }
    return SC_OK;
}

int sc_slots_pin(sc_ctx *ctx, const sc_backend *gpu, sc_slot *s, unsigned n,
                 size_t elems, const sc_stage_ops *ops)
{
    for (unsigned i = 0; i < n; i++) {
        sc_chunk *c = &s[i].c;
        int bad = (c->in && gpu->pin(ctx, c->in, elems * ops->in_bytes_per_elem)) ||
                  (c->out && gpu->pin(ctx, c->out,
                                      elems * ops->out_bytes_per_elem)) ||
                  (c->aux && gpu->pin(ctx, c->aux, elems * ops->in_bytes_per_elem));
        s[i].pinned = 1;
        if (bad) return -1;
    }
    return 0;
}

void sc_slots_unpin(sc_ctx *ctx, const sc_backend *gpu, sc_slot *s,
                    unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (!s[i].pinned) continue;
        gpu->unpin(ctx, s[i].c.in);
        gpu->unpin(ctx, s[i].c.out);
        gpu->unpin(ctx, s[i].c.aux);
        s[i].pinned = 0;
    }
}

void sc_slots_free(sc_ctx *ctx, const sc_backend *gpu, sc_slot *s,
                   unsigned n)
{
    if (gpu) sc_slots_unpin(ctx, gpu, s, n);
    for (unsigned i = 0; i < n; i++) {
        free(s[i].c.in);
        free(s[i].c.out);
        free(s[i].c.aux);
    }
}
