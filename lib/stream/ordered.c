/* ordered.c — one reader thread and one worker, chunk after chunk in
 * input order: each chunk on the CPU (the pool's threads share it) or
 * queued on the GPU's lanes.  Under "auto" the GPU starts in the
 * background when the cost model says it pays, and the CPU takes the
 * chunks that come before it is ready. */
#include <stdio.h>
#include <stdlib.h>
#include "cost.h"
#include "device.h"
#include "pipeline_impl.h"
#include "slots.h"

void *sc_ordered_reader(void *arg)
{
    pipeline *p = arg;
    const sc_pipeline_cfg *c = p->cfg;
    uint64_t pos = 0, seq = 0;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    for (;;) {
        sc_slot *s = sc_pl_pop(p, &p->free_q);
        if (!s) break;
        double t0 = sc_now();
        size_t got = 0;
        sc_status st = c->source.fill(c->source.self, s->c.in, p->chunk_elems,
                                      &got);
        sc_phase_add(c->ctx, SC_PH_READ, sc_now() - t0);
        s->c.n = got;
        s->c.first = pos;
        s->seq = seq++;
        s->kind = got ? SC_SLOT_CHUNK : SC_SLOT_END;
        s->status = st;
        pos += got;
        sc_pl_push(p, &p->full_q, s);
        if (got == 0) break;
    }
    return NULL;
}

void sc_ordered_close(pipeline *p)
{
    sc_lanes_close(p->lanes);
    p->lanes = NULL;
}

/* The GPU is ready: pin the slots and open a lane for each.  Where device
 * memory is too tight for lanes, the GPU's synchronous table takes the
 * chunks (it cuts them smaller, and hands them to the CPU at worst). */
static sc_status attach(pipeline *p)
{
    sc_ctx *ctx = p->cfg->ctx;
    sc_status st = sc_device_wait(ctx);
    if (st == SC_OK &&
        sc_slots_pin(ctx, p->slots, p->n_slots, p->chunk_elems, p->ops) != 0)
        st = sc_fail(ctx, SC_ERR_NOMEM, "cannot pin host memory");
    if (st == SC_OK)
        st = sc_lanes_open(ctx, &p->lanes, p->n_slots, p->chunk_elems,
                           &p->ops->work);
    if (st == SC_OK) return SC_OK;
    sc_slots_unpin(ctx, p->slots, p->n_slots);
#ifdef SC_HAVE_CUDA
    if (st == SC_ERR_NOMEM) {
        p->sync_gpu = &sc_cuda_backend;
        return SC_OK;
    }
#endif
    return st;
}

void sc_ordered_choose_device(pipeline *p)
{
    sc_ctx *ctx = p->cfg->ctx;
    const sc_pipeline_cfg *c = p->cfg;
    if (p->ops->cpu_only) return;
    if (ctx->policy == SC_POLICY_CUDA) { p->want_gpu = 1; return; }
    if (ctx->policy != SC_POLICY_AUTO) return;
#ifdef SC_HAVE_CUDA
    int64_t known = c->source.size_hint(c->source.self);
    char why[200];
    int ready = sc_device_ready(ctx);
    double eta = ready == 1 ? 0 : sc_device_eta(ctx);
    p->want_gpu = (ready >= 0 || !ctx->cuda) &&
                  sc_cost_gpu_pays(ctx, p->ops->work.work, known, eta, 1, why,
                                   sizeof why);
    snprintf(ctx->choice, sizeof ctx->choice, "auto %s: %s",
             p->want_gpu ? "started the GPU" : "kept to the CPU", why);
    if (p->want_gpu && sc_device_start(ctx, 1) != SC_OK) p->want_gpu = 0;
#else
    (void)c;
    snprintf(ctx->choice, sizeof ctx->choice, "auto kept to the CPU: %s",
             SC_NO_CUDA_BUILD);
#endif
}
/* SC_TEST_CPU_CHUNKS=N: under auto the first N chunks go to the CPU as
 * if the GPU were still starting, and then the worker waits for it, so
 * that tests hand a stream from one device to the other at a known
 * place on any machine; -1 when unset. */
static int test_cpu_chunks(void)
{
    const char *v = getenv("SC_TEST_CPU_CHUNKS");
    return v && *v ? atoi(v) : -1;
}

/* The table for the next chunk; NULL: queue it on the lanes. */
static sc_status route(pipeline *p, const sc_backend **b)
{
    sc_ctx *ctx = p->cfg->ctx;
    *b = p->lanes ? NULL : p->sync_gpu ? p->sync_gpu : &sc_cpu_backend;
    if (p->lanes || p->sync_gpu || !p->want_gpu) return SC_OK;
    int ready = sc_device_ready(ctx);
    int forced = ctx->policy == SC_POLICY_AUTO ? test_cpu_chunks() : -1;
    if (forced >= 0) {
        if (ctx->chunks_cpu < (uint64_t)forced) return SC_OK;
        if (ready == 0 && sc_device_wait(ctx) == SC_OK) ready = 1;
    }
    if (ready == 0 && ctx->policy == SC_POLICY_AUTO) return SC_OK;
    if (ready < 0 && ctx->policy == SC_POLICY_AUTO) {
        /* Said in -v's note, not in the context's message: that is for
         * the fault the job reports, and this is none. */
        snprintf(ctx->fallback, sizeof ctx->fallback,
                 "device auto: using the CPU (%.900s)", sc_device_failure(ctx));
        p->want_gpu = 0;
        return SC_OK;
    }
    sc_status st = ready < 0 ? sc_device_wait(ctx) : attach(p);
    if (st != SC_OK && ctx->policy == SC_POLICY_AUTO) {
        snprintf(ctx->fallback, sizeof ctx->fallback,
                 "device auto: using the CPU (%.900s)", ctx->message);
        p->want_gpu = 0;
        return SC_OK;
    }
    if (st != SC_OK) return st;
    *b = p->lanes ? NULL : p->sync_gpu;
    return SC_OK;
}

static sc_status run_chunk(pipeline *p, sc_slot *s)
{
    sc_ctx *ctx = p->cfg->ctx;
    const sc_backend *b;
    sc_status st = route(p, &b);
    if (st != SC_OK) return st;
    s->n_out = 0;
    s->c.n_sel = 0;
    s->c.out_wide = 0;
    s->on_gpu = b == NULL;
    if (!p->prev_on_gpu || b) s->c.carry_in = p->last_carry;
    if (b) {
        st = p->ops->process(p->ops->op, s, b);
        p->last_carry = s->c.carry_out;
        sc_backend_used(ctx, b);
    } else {
        st = sc_lanes_submit(p->lanes, (unsigned)(s - p->slots), &s->c,
                             p->prev_on_gpu);
        if (!ctx->chunks_gpu) sc_backend_used(ctx, NULL);
    }
    if (b == &sc_cpu_backend) ctx->chunks_cpu++;
    else ctx->chunks_gpu++;
    p->prev_on_gpu = s->on_gpu;
    return st;
}

sc_status sc_ordered_work(pipeline *p)
{
    for (;;) {
        sc_slot *s = sc_pl_pop(p, &p->full_q);
        if (!s) return SC_OK;                   /* stopped by the writer */
        sc_status st = s->kind == SC_SLOT_CHUNK ? run_chunk(p, s) : SC_OK;
        if (st != SC_OK) {
            /* The chunks before it go out; the writer ends there. */
            s->kind = SC_SLOT_WORK_FAILED;
            s->status = st;
        }
        int last = s->kind != SC_SLOT_CHUNK;
        sc_pl_push(p, &p->done_q, s);       /* the writer's from here */
        if (last) return st;
    }
}
