/* pipeline.c — reader thread, worker, writer thread over a ring of slots;
 * each chunk on the CPU or queued on the GPU's lanes. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device.h"
#include "cost.h"
#include "fault.h"
#include "lane.h"
#include "pipeline.h"
#include "progress.h"
#include "slots.h"

/* Four slots: one being read, two on the GPU (one uploading or
 * computing while the other downloads), one being written.  Under
 * -d cuda:all, two on each GPU: slot i's lane is on GPU i % n, so the
 * chunks take the GPUs in turn (slot_count()). */
#define SLOTS 4
#define MAX_SLOTS 16
#define RING (MAX_SLOTS + 1)

typedef struct queue {
    sc_slot *items[RING];
    unsigned head, len;
} queue;

typedef struct pipeline {
    const sc_pipeline_cfg *cfg;
    const sc_stage_ops *ops;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    queue free_q, full_q, done_q;
    sc_slot slots[MAX_SLOTS];
    unsigned n_slots;
    sc_slot end_mark;           /* pushed after the last slot */
    int stop;
    sc_status read_status, write_status;
    sc_fault write_fault;       /* the writer thread's message, held */
    uint64_t elems_in, elems_out;
    sc_progress progress;
    /* The worker's device state. */
    int want_gpu;               /* the GPU takes chunks once it is ready */
    sc_lanes *lanes;
    const sc_backend *sync_gpu; /* the GPU without lanes (memory too tight) */
    int prev_on_gpu;
    uint64_t last_carry;
} pipeline;

static unsigned slot_count(const sc_ctx *ctx)
{
    unsigned n = ctx->n_gpus > 1 ? 2 + 2 * ctx->n_gpus : SLOTS;
    return n < MAX_SLOTS ? n : MAX_SLOTS;
}

static void push(pipeline *p, queue *q, sc_slot *s)
{
    pthread_mutex_lock(&p->lock);
    q->items[(q->head + q->len++) % RING] = s;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

/* NULL when the pipeline is stopping and q is empty. */
static sc_slot *pop(pipeline *p, queue *q)
{
    pthread_mutex_lock(&p->lock);
    while (q->len == 0 && !p->stop) pthread_cond_wait(&p->changed, &p->lock);
    sc_slot *s = NULL;
    if (q->len) {
        s = q->items[q->head];
        q->head = (q->head + 1) % RING;
        q->len--;
    }
    pthread_mutex_unlock(&p->lock);
    return s;
}

static void stop_all(pipeline *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
}

static void *reader_main(void *arg)
{
    pipeline *p = arg;
    const sc_pipeline_cfg *c = p->cfg;
    uint64_t pos = 0;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    for (;;) {
        sc_slot *s = pop(p, &p->free_q);
        if (!s) break;
        double t0 = sc_now();
        size_t got = 0;
        sc_status st = c->source.fill(c->source.self, s->c.in, c->chunk_elems,
                                      &got);
        sc_phase_add(c->ctx, SC_PH_READ, sc_now() - t0);
        s->c.n = got;
        s->c.first = pos;
        pos += got;
        if (got == 0) {
            p->read_status = st;
            push(p, &p->full_q, &p->end_mark);
            break;
        }
        push(p, &p->full_q, s);
    }
    return NULL;
}

/* The source's bytes so far and in all, for -P. */
static void show_progress(pipeline *p, int final)
{
    const sc_source *src = &p->cfg->source;
    double bytes = (double)src->bytes_so_far(src->self);
    double total = (double)src->size_hint(src->self);
    if (final) sc_progress_end(&p->progress, bytes, total);
    else sc_progress_update(&p->progress, bytes, total);
}

static void *writer_main(void *arg)
{
    pipeline *p = arg;
    sc_fault_catch(&p->write_fault);
    for (;;) {
        sc_slot *s = pop(p, &p->done_q);
        if (!s || s == &p->end_mark) break;
        if (p->write_status == SC_OK) {
            double t0 = sc_now();
            sc_status st = s->on_gpu
                ? sc_lanes_finish(p->lanes, (unsigned)(s - p->slots), &s->c)
                : SC_OK;
            if (st == SC_OK) st = p->ops->emit(p->ops->op, s);
            sc_phase_add(p->cfg->ctx, SC_PH_WRITE, sc_now() - t0);
            p->elems_out += s->n_out;
            p->write_status = st;
            if (st != SC_OK) stop_all(p);
        }
        if (p->cfg->progress) show_progress(p, 0);
        push(p, &p->free_q, s);
    }
    sc_fault_catch(NULL);
    return NULL;
}

static void free_slots(pipeline *p)
{
    sc_lanes_close(p->lanes);
    p->lanes = NULL;
    sc_slots_free(p->cfg->ctx, p->slots, p->n_slots);
}

/* The GPU is ready: pin the slots and open a lane for each.  Where device
 * memory is too tight for lanes, the GPU's synchronous table takes the
 * chunks (it cuts them smaller, and hands them to the CPU at worst). */
static sc_status attach(pipeline *p)
{
    sc_ctx *ctx = p->cfg->ctx;
    sc_status st = sc_device_wait(ctx);
    if (st == SC_OK &&
        sc_slots_pin(ctx, p->slots, p->n_slots, p->cfg->chunk_elems, p->ops) != 0)
        st = sc_fail(ctx, SC_ERR_NOMEM, "cannot pin host memory");
    if (st == SC_OK)
        st = sc_lanes_open(ctx, &p->lanes, p->n_slots, p->cfg->chunk_elems,
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

/* Whether the GPU should take this job's chunks, and if so starting it
 * (in the background under "auto"). */
static void choose_device(pipeline *p)
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

/* The worker: runs on the caller's thread until the end mark. */
static sc_status work(pipeline *p)
{
    for (;;) {
        sc_slot *s = pop(p, &p->full_q);
        if (!s) return SC_OK;                   /* stopped by the writer */
        if (s == &p->end_mark) {
            push(p, &p->done_q, s);
            return SC_OK;
        }
        p->elems_in += s->c.n;
        sc_status st = run_chunk(p, s);
        if (st != SC_OK) {
            push(p, &p->done_q, &p->end_mark);
            return st;
        }
        push(p, &p->done_q, s);
    }
}

static sc_status thread_failed(const sc_pipeline_cfg *cfg, int err)
{
    return sc_fail(cfg->ctx, SC_ERR_NOMEM, "cannot start threads: %s",
                   strerror(err));
}

/* Runs the worker between the reader and writer threads. */
static sc_status run_threads(pipeline *p)
{
    pthread_t rt, wt;
    int err = sc_thread_start(&rt, reader_main, p);
    if (err) return thread_failed(p->cfg, err);
    if ((err = sc_thread_start(&wt, writer_main, p)) != 0) {
        stop_all(p);
        pthread_cancel(rt);
        pthread_join(rt, NULL);
        return thread_failed(p->cfg, err);
    }
    sc_status st = work(p);
    pthread_join(wt, NULL);
    /* The reader may be blocked on a slow input after a failure: stop it
     * rather than wait (it reads with cancellation enabled). */
    stop_all(p);
    if (st != SC_OK || p->write_status != SC_OK) pthread_cancel(rt);
    pthread_join(rt, NULL);
    return st;
}

sc_status sc_pipeline_run(const sc_pipeline_cfg *cfg, const sc_stage_ops *ops,
                          sc_pipeline_stats *stats)
{
    pipeline p;
    memset(&p, 0, sizeof p);
    p.cfg = cfg;
    p.ops = ops;
    p.n_slots = slot_count(cfg->ctx);
    p.last_carry = cfg->carry_in;
    sc_progress_start(&p.progress, cfg->prog, cfg->source.verb);
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    stats->in = stats->out = 0;
    if (sc_slots_alloc(p.slots, p.n_slots, cfg->chunk_elems, ops,
                       cfg->source.in_buffer) != SC_OK) {
        free_slots(&p);
        return sc_fail(cfg->ctx, SC_ERR_NOMEM, "out of memory for %zu-byte "
                       "chunks", cfg->chunk_elems * 4);
    }
    choose_device(&p);
    for (unsigned i = 0; i < p.n_slots; i++) push(&p, &p.free_q, &p.slots[i]);
    sc_status st = run_threads(&p);
    if (cfg->progress) show_progress(&p, 1);
    free_slots(&p);
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.changed);
    stats->in = p.elems_in;
    stats->out = p.elems_out;
    if (st == SC_OK && p.write_status != SC_OK) {
        /* The writer's message waited while the worker could still write
         * its own; a broken pipe has none, hence the writer's status. */
        (void)sc_fault_raise(&p.write_fault, cfg->ctx);
        st = p.write_status;
    }
    if (st == SC_OK && p.read_status != SC_OK) {
        sc_status again = cfg->source.raise(cfg->source.self);
        st = again != SC_OK ? again : p.read_status;
    }
    return st;
}
