/* pipeline.c — the run: a ring of slots between the threads that fill and
 * process them (ordered.c or workers.c) and the writer thread, which
 * emits them in input order and hands each slot back to be filled. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "stream/pipeline_impl.h"
#include "stream/slots.h"

/* The source's bytes so far and in all, for -P. */
static void show_progress(pipeline *p, int final)
{
    const sc_source *src = &p->cfg->source;
    double bytes = (double)src->bytes_so_far(src->self);
    double total = (double)src->size_hint(src->self);
    if (final) sc_progress_end(&p->progress, bytes, total);
    else sc_progress_update(&p->progress, bytes, total);
}

/* The writer's next slot in input order, holding back those that came
 * early; NULL when the pipeline stops with none left. */
static sc_slot *next_in_order(pipeline *p)
{
    for (;;) {
        for (unsigned i = 0; i < p->n_held; i++) {
            sc_slot *s = p->held[i];
            if (s->seq == p->next_write) {
                p->held[i] = p->held[--p->n_held];
                p->next_write++;
                return s;
            }
        }
        sc_slot *s = sc_pl_pop(p, &p->done_q);
        if (!s) return NULL;
        p->held[p->n_held++] = s;
    }
}

static void emit(pipeline *p, sc_slot *s)
{
    sc_ctx *ctx = p->cfg->ctx;
    p->run->in += s->c.n;
    if (p->n_workers && p->run->chunks_cpu++ == 0)
        sc_backend_used(ctx, sc_ops_cpu());
    if (p->write_status != SC_OK) return;
    double t0 = sc_now();
    sc_status st = s->on_gpu
        ? p->gpu->lanes_finish(p->lanes, (unsigned)(s - p->slots), &s->c)
        : SC_OK;
    if (st == SC_OK) st = p->ops->emit(p->ops->op, s);
    sc_phase_add(&p->run->phases, SC_PH_WRITE, sc_now() - t0);
    p->run->out += s->n_out;
    p->write_status = st;
    if (st != SC_OK) sc_pl_stop(p);
}

static void *writer_main(void *arg)
{
    pipeline *p = arg;
    sc_fault_catch(&p->write_fault);
    for (;;) {
        sc_slot *s = next_in_order(p);
        if (!s) break;
        sc_slot_kind kind = s->kind;
        /* A write that failed came first in input order: a chunk that
         * failed after it (a scan's, stopped waiting for a carry that the
         * stop will never bring) must not speak instead of it. */
        /* A chunk read only up to a fault is written, then ends it. */
        int last = kind != SC_SLOT_CHUNK || s->status != SC_OK;
        if (kind == SC_SLOT_WORK_FAILED) {
            if (p->write_status == SC_OK) p->work_status = s->status;
        } else {
            if (kind == SC_SLOT_CHUNK) emit(p, s);
            if (last) p->read_status = s->status;
        }
        if (p->cfg->progress) show_progress(p, 0);
        sc_pl_push(p, &p->free_q, s);
        if (last) break;
    }
    /* The stream is over: threads waiting for a slot go. */
    sc_pl_stop(p);
    sc_fault_catch(NULL);
    return NULL;
}

static sc_status thread_failed(const sc_pipeline_cfg *cfg, int err)
{
    return sc_fail(cfg->ctx, SC_ERR_NOMEM, "cannot start threads: %s",
                   strerror(err));
}

static void *worker_main(void *arg)
{
    sc_workers_loop(arg);
    return NULL;
}

/* The workers: the caller's thread and n_workers - 1 more (fewer if the
 * system refuses threads: each takes whole chunks, so any number works). */
static void run_workers(pipeline *p)
{
    pthread_t t[MAX_WORKERS];
    unsigned started = 0;
    while (started + 1 < p->n_workers &&
           sc_thread_start(&t[started], worker_main, p) == 0)
        started++;
    sc_workers_loop(p);
    for (unsigned i = 0; i < started; i++) pthread_join(t[i], NULL);
}

/* Runs the writer thread, and the reader thread and worker (ordered) or
 * the workers between. */
static sc_status run_threads(pipeline *p)
{
    pthread_t rt, wt;
    int err = sc_thread_start(&wt, writer_main, p);
    if (err) return thread_failed(p->cfg, err);
    if (p->n_workers) {
        run_workers(p);
        pthread_join(wt, NULL);
        return SC_OK;
    }
    if ((err = sc_thread_start(&rt, sc_ordered_reader, p)) != 0) {
        sc_pl_stop(p);
        pthread_join(wt, NULL);
        return thread_failed(p->cfg, err);
    }
    sc_status st = sc_ordered_work(p);
    pthread_join(wt, NULL);
    /* The reader may be blocked on a slow input after a failure: stop it
     * rather than wait (it reads with cancellation enabled). */
    sc_pl_stop(p);
    if (st != SC_OK || p->write_status != SC_OK) pthread_cancel(rt);
    pthread_join(rt, NULL);
    return st;
}

static unsigned ordered_slot_count(const sc_ctx *ctx)
{
    unsigned n = ctx->n_gpus > 1 ? 2 + 2 * ctx->n_gpus : SLOTS;
    return n < MAX_SLOTS ? n : MAX_SLOTS;
}

static void free_slots(pipeline *p)
{
    sc_ordered_close(p);
    sc_slots_free(p->cfg->ctx, p->gpu, p->slots, p->n_slots);
}

/* The end: the first failure in this order speaks (a worker's, the
 * writer's, the input's), with the message its thread held. */
static sc_status outcome(pipeline *p, sc_status st)
{
    const sc_pipeline_cfg *cfg = p->cfg;
    if (st == SC_OK) st = p->work_status;
    if (st == SC_OK && p->write_status != SC_OK) {
        /* The writer's message waited while the worker could still write
         * its own; a broken pipe has none, hence the writer's status. */
        (void)sc_fault_raise(&p->write_fault, cfg->ctx);
        st = p->write_status;
    }
    if (st == SC_OK && p->read_status != SC_OK) {
        sc_status again = cfg->source.raise(cfg->source.self);
        st = again != SC_OK ? again : p->read_status;
    }
    return st;
}

sc_status sc_pipeline_run(const sc_pipeline_cfg *cfg, const sc_stage_ops *ops,
                          sc_pipeline_stats *stats)
{
    pipeline p;
    memset(&p, 0, sizeof p);
    p.cfg = cfg;
    p.ops = ops;
    p.run = stats;
    p.chunk_elems = cfg->chunk_elems;
    p.last_carry = cfg->carry_in;
    sc_progress_start(&p.progress, cfg->prog, cfg->source.verb);
    pthread_mutex_init(&p.lock, NULL);
    pthread_mutex_init(&p.fill_lock, NULL);
    queue *qs[] = { &p.free_q, &p.full_q, &p.done_q };
    for (int i = 0; i < 3; i++) pthread_cond_init(&qs[i]->nonempty, NULL);
    pthread_cond_init(&p.claims_done, NULL);
    pthread_cond_init(&p.carry_passed, NULL);
    p.carry = cfg->carry_in;
    p.carry_stop_at = UINT64_MAX;
    sc_ordered_choose_device(&p);
    p.n_workers = sc_workers_count(&p);
    if (p.n_workers) {
        p.chunk_elems = sc_workers_chunk(&p);
        p.run->chunk_workers = p.n_workers;
        p.run->worker_chunk_bytes = p.chunk_elems * ops->in_bytes_per_elem;
    }
    p.n_slots = p.n_workers ? p.n_workers + 4 : ordered_slot_count(cfg->ctx);
    sc_status st;
    if (sc_slots_alloc(p.slots, p.n_slots, p.chunk_elems, ops,
                       cfg->source.in_buffer) != SC_OK) {
        st = sc_fail(cfg->ctx, SC_ERR_NOMEM, "out of memory for %zu-byte "
                     "chunks", p.chunk_elems * ops->in_bytes_per_elem);
    } else {
        for (unsigned i = 0; i < p.n_slots; i++)
            sc_pl_push(&p, &p.free_q, &p.slots[i]);
        st = outcome(&p, run_threads(&p));
        if (cfg->progress) show_progress(&p, 1);
    }
    free_slots(&p);
    pthread_mutex_destroy(&p.lock);
    pthread_mutex_destroy(&p.fill_lock);
    for (int i = 0; i < 3; i++) pthread_cond_destroy(&qs[i]->nonempty);
    pthread_cond_destroy(&p.claims_done);
    pthread_cond_destroy(&p.carry_passed);
    return st;
}
