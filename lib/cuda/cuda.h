/* cuda.h — the CUDA backend as the ops layer sees it: the GPU's life in
 * a context, the table of its operations (sc_cuda_backend), and its side
 * of the chunk pipeline (lanes).  In a build without CUDA every call says
 * "no GPU".  Under it core and the kernels (kernels/sc_kernels.h). */
#ifndef SC_CUDA_H
#define SC_CUDA_H

#include "core/core.h"

#ifdef SC_HAVE_CUDA
extern const sc_backend sc_cuda_backend;
#endif

/* device.h — the GPU's life in a context, as the rest of libsc sees it:
 * started on demand (in the background for "auto", so the CPU works
 * meanwhile), polled without blocking, waited for, and buffers pinned
 * for fast transfers.  In a build without CUDA every call says "no GPU". */
#ifdef SC_HAVE_CUDA
/* Starts the GPU ctx->cuda_index: in the background, or here and now. A
 * second call does nothing.  SC_OK, or why no GPU can be started. */
sc_status sc_device_start(sc_ctx *ctx, int background);
/* 1 ready, 0 still starting, -1 failed or never started; never blocks. */
int sc_device_ready(sc_ctx *ctx);
/* -d cuda:all, once the first GPU is ready: starts every other visible
 * GPU (at most SC_MAX_GPUS in all) and waits for them; SC_OK, or why one
 * cannot start. */
sc_status sc_device_start_others(sc_ctx *ctx);
/* With several GPUs, what each ran ("cuda:0 12 chunks (...), ..."), for
 * -v; 0 and "" with one. */
size_t sc_device_usage(const sc_ctx *ctx, char *buf, size_t len);
/* Blocks until the start has ended; SC_OK when the GPU is ready. */
sc_status sc_device_wait(sc_ctx *ctx);
/* Seconds until a start under way is likely done (0 once ready). */
double sc_device_eta(const sc_ctx *ctx);
/* Ends the GPU's use; a start still under way is left to finish alone,
 * so a short run never waits for it. */
void sc_device_close(sc_ctx *ctx);
/* Pins (page-locks) host memory already allocated, so transfers run at
 * full speed; 0 on success. */
int sc_device_pin(sc_ctx *ctx, void *p, size_t bytes);
void sc_device_unpin(sc_ctx *ctx, void *p);
/* "cuda:0 (NVIDIA H200)" once started. */
const char *sc_device_name(const sc_ctx *ctx);
/* Why the start failed, or "". */
const char *sc_device_failure(const sc_ctx *ctx);
/* "no CUDA GPU: ..." when plainly none can start (no CUDA driver), asked
 * without starting one; NULL otherwise.  It loads the driver: for -v's
 * report, not for a run that may never need the GPU. */
const char *sc_device_absent(void);
/* How long the first GPU took to start, or -1 when it is not ready. */
double sc_device_start_seconds(const sc_ctx *ctx);
#else
/* What auto says it kept to the CPU for, and cuda fails with. */
#define SC_NO_CUDA_BUILD "this build of libsc has no CUDA support"
static inline sc_status sc_device_start(sc_ctx *ctx, int background)
{
    (void)background;
    return sc_fail(ctx, SC_ERR_NODEVICE, "no CUDA device: " SC_NO_CUDA_BUILD);
}
static inline sc_status sc_device_start_others(sc_ctx *ctx)
{
    return sc_device_start(ctx, 0);
}
static inline size_t sc_device_usage(const sc_ctx *ctx, char *buf,
                                     size_t len)
{
    (void)ctx;
    if (len) buf[0] = '\0';
    return 0;
}
static inline int sc_device_ready(sc_ctx *ctx) { (void)ctx; return -1; }
static inline sc_status sc_device_wait(sc_ctx *ctx)
{
    return sc_device_start(ctx, 0);
}
static inline double sc_device_eta(const sc_ctx *ctx) { (void)ctx; return 0; }
static inline void sc_device_close(sc_ctx *ctx) { (void)ctx; }
static inline int sc_device_pin(sc_ctx *ctx, void *p, size_t bytes)
{
    (void)ctx; (void)p; (void)bytes;
    return -1;
}
static inline void sc_device_unpin(sc_ctx *ctx, void *p) { (void)ctx; (void)p; }
static inline const char *sc_device_name(const sc_ctx *ctx)
{
    (void)ctx;
    return "none";
}
static inline double sc_device_start_seconds(const sc_ctx *ctx)
{
    (void)ctx;
    return -1;
}
static inline const char *sc_device_failure(const sc_ctx *ctx)
{
    (void)ctx;
    return "this build of libsc has no CUDA support";
}
static inline const char *sc_device_absent(void) { return NULL; }
#endif

/* lane.h — the GPU's side of the chunk pipeline: one lane per pipeline
 * slot, each a CUDA stream with its own device buffers, so that one
 * chunk's upload, another's kernels and a third's download overlap.
 * submit() only queues; finish() waits and fetches what depends on the
 * kernels' counts.  The host buffers must stay pinned while lanes use
 * them.  In a build without CUDA lanes never open. */


#ifdef SC_HAVE_CUDA
/* count lanes for chunks of up to `elems` elements, adding the time of
 * their transfers to times (NULL: none); NOMEM when the device lacks the
 * memory. */
sc_status sc_lanes_open(sc_ctx *ctx, sc_phase_times *times, sc_lanes **out,
                        unsigned count, size_t elems, const sc_chunk_work *w);
/* Queues chunk c on lane i.  chain: the chunk before was queued on the
 * lanes too, and a scan takes its carry from there (else c->carry_in). */
sc_status sc_lanes_submit(sc_lanes *l, unsigned i, sc_chunk *c, int chain);
/* Waits for lane i and completes c: its outputs, n_sel, carry_out. */
sc_status sc_lanes_finish(sc_lanes *l, unsigned i, sc_chunk *c);
void sc_lanes_close(sc_lanes *l);
#else
static inline sc_status sc_lanes_open(sc_ctx *ctx, sc_phase_times *times,
                                      sc_lanes **out, unsigned count,
                                      size_t elems, const sc_chunk_work *w)
{
    (void)times; (void)count; (void)elems; (void)w;
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
