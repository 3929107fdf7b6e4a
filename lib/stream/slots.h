/* slots.h — the memory of the pipeline's slots: plain host memory for the
 * CPU, page-locked in place once the GPU is ready to take chunks. */
#ifndef SC_SLOTS_H
#define SC_SLOTS_H

#include "stream/pipeline.h"

/* Each slot's input (when in_buffer), output and aux buffers, of elems
 * elements each, as ops asks. */
sc_status sc_slots_alloc(sc_slot *s, unsigned n, size_t elems,
                         const sc_stage_ops *ops, int in_buffer);
/* Page-locks the buffers; -1 when one could not be. */
int sc_slots_pin(sc_ctx *ctx, const sc_backend *gpu, sc_slot *s, unsigned n,
                 size_t elems, const sc_stage_ops *ops);
void sc_slots_unpin(sc_ctx *ctx, const sc_backend *gpu, sc_slot *s,
                    unsigned n);
/* Unpins and frees. */
void sc_slots_free(sc_ctx *ctx, const sc_backend *gpu, sc_slot *s,
                   unsigned n);

#endif
