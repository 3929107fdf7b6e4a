/* lane.h — the GPU's side of the chunk pipeline: one lane per pipeline
 * slot, each a CUDA stream with its own device buffers, so that one
 * chunk's upload, another's kernels and a third's download overlap.
 * submit() only queues; finish() waits and fetches what depends on the
 * kernels' counts.  The host buffers must stay pinned while lanes use
 * them.  In a build without CUDA lanes never open. */
#ifndef SC_LANE_H
#define SC_LANE_H

#include "chunk.h"

typedef struct sc_lanes sc_lanes;

#ifdef SC_HAVE_CUDA
/* count lanes for chunks of up to `elems` elements; NOMEM when the device
 * lacks the memory. */
sc_status sc_lanes_open(sc_ctx *ctx, sc_lanes **out, unsigned count,
                        size_t elems, const sc_chunk_work *w);
/* Queues chunk c on lane i.  chain: the chunk before was queued on the
 * lanes too, and a scan takes its carry from there (else c->carry_in). */
sc_status sc_lanes_submit(sc_lanes *l, unsigned i, sc_chunk *c, int chain);
/* Waits for lane i and completes c: its outputs, n_sel, carry_out. */
sc_status sc_lanes_finish(sc_lanes *l, unsigned i, sc_chunk *c);
void sc_lanes_close(sc_lanes *l);
#else
static inline sc_status sc_lanes_open(sc_ctx *ctx, sc_lanes **out,
                                      unsigned count, size_t elems,
                                      const sc_chunk_work *w)
{
    (void)count; (void)elems; (void)w;
    *out = NULL;
    return sc_fail(ctx, SC_ERR_NODEVICE, "no CUDA support");
}
static inline sc_status sc_lanes_submit(sc_lanes *l, unsigned i, sc_chunk *c,
                                        int chain)
{
    (void)l; (void)i; (void)c; (void)chain;
    return SC_ERR_NODEVICE;
}
static inline sc_status sc_lanes_finish(sc_lanes *l, unsigned i, sc_chunk *c)
{
    (void)l; (void)i; (void)c;
    return SC_ERR_NODEVICE;
}
static inline void sc_lanes_close(sc_lanes *l) { (void)l; }
#endif

#endif
