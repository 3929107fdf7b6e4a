/* ordered.c — one reader thread and one worker, chunk after chunk in
 * input order: each chunk on the CPU (the pool's threads share it) or
 * queued on the GPU's lanes.  Under "auto" the GPU starts in the
 * background when the cost model says it pays, and the CPU takes the
 * chunks that come before it is ready. */
#include "stream/pipeline_impl.h"
#include "stream/slots.h"

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
        sc_phase_add(&p->run->phases, SC_PH_READ, sc_now() - t0);
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
    if (p->lanes) p->gpu->lanes_close(p->lanes);
    p->lanes = NULL;
}

/* The GPU is ready: pin the slots and open a lane for each.  Where device
 * memory is too tight for lanes, the GPU's synchronous table takes the
 * chunks (it cuts them smaller, and hands them to the CPU at worst). */
static sc_status attach(pipeline *p)
{
    sc_ctx *ctx = p->cfg->ctx;
    sc_status st = SC_OK;
    p->gpu = sc_ops_gpu();
    if (sc_slots_pin(ctx, p->gpu, p->slots, p->n_slots, p->chunk_elems,
                     p->ops) != 0)
        st = sc_fail(ctx, SC_ERR_NOMEM, "cannot pin host memory");
    if (st == SC_OK)
        st = p->gpu->lanes_open(ctx, &p->run->phases, &p->lanes, p->n_slots,
                                p->chunk_elems, &p->ops->work);
    if (st == SC_OK) return SC_OK;
    sc_slots_unpin(ctx, p->gpu, p->slots, p->n_slots);
    if (st == SC_ERR_NOMEM) {
        p->sync_gpu = p->gpu;
        return SC_OK;
    }
    return st;
}

void sc_ordered_choose_device(pipeline *p)
{
    const sc_source *src = &p->cfg->source;
    if (p->ops->cpu_only) return;
    p->want_gpu = sc_policy_stream_gpu(p->cfg->ctx, p->ops->work.work,
                                       src->size_hint(src->self));
}

/* The table for the next chunk; NULL: queue it on the lanes. */
static sc_status route(pipeline *p, const sc_backend **b)
{
    sc_ctx *ctx = p->cfg->ctx;
    *b = p->lanes ? NULL : p->sync_gpu ? p->sync_gpu : sc_ops_cpu();
    if (p->lanes || p->sync_gpu || !p->want_gpu) return SC_OK;
    sc_status st;
    switch (sc_policy_gpu_turn(ctx, p->run->chunks_cpu, &st)) {
    case SC_GPU_NOT_YET: return SC_OK;
    case SC_GPU_NEVER: p->want_gpu = 0; return st;
    case SC_GPU_TAKE: break;
    }
    if ((st = attach(p)) != SC_OK) {
        p->want_gpu = 0;
        return sc_policy_gpu_lost(ctx, st);
    }
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
        st = p->gpu->lanes_submit(p->lanes, (unsigned)(s - p->slots), &s->c,
                             p->prev_on_gpu);
        if (!p->run->chunks_gpu) sc_backend_used(ctx, NULL);
    }
    if (b == sc_ops_cpu()) p->run->chunks_cpu++;
    else p->run->chunks_gpu++;
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
