/* pipeline.c — reader thread, worker, writer thread over a ring of slots. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "progress.h"

#define SLOTS 3

typedef struct queue {
    sc_slot *items[SLOTS + 1];
    unsigned head, len;
} queue;

typedef struct pipeline {
    const sc_pipeline_cfg *cfg;
    const sc_stage_ops *ops;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    queue free_q, full_q, done_q;
    sc_slot slots[SLOTS];
    sc_slot end_mark;           /* pushed after the last slot */
    int stop;
    sc_status read_status, write_status;
    uint64_t elems_in, elems_out;
    sc_progress progress;
} pipeline;

static void push(pipeline *p, queue *q, sc_slot *s)
{
    pthread_mutex_lock(&p->lock);
    q->items[(q->head + q->len++) % (SLOTS + 1)] = s;
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
        q->head = (q->head + 1) % (SLOTS + 1);
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
        sc_status st = SC_OK;
        if (c->reader) {
            st = sc_reader_read(c->reader, s->in, c->chunk_elems, &got);
        } else {
            uint64_t left = c->gen_total - pos;
            got = left < c->chunk_elems ? (size_t)left : c->chunk_elems;
        }
        sc_phase_add(c->ctx, SC_PH_READ, sc_now() - t0);
        s->n = got;
        s->first = pos;
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

/* Input bytes so far and in all, for -P (sc-gen: bytes made). */
static void progress_figures(const pipeline *p, double *bytes, double *total)
{
    const sc_pipeline_cfg *c = p->cfg;
    *bytes = c->reader ? (double)sc_reader_bytes_read(c->reader)
                       : 4.0 * (double)p->elems_in;
    *total = c->reader ? (double)sc_reader_size_hint(c->reader)
                       : 4.0 * (double)c->gen_total;
}

static void show_progress(pipeline *p, int final)
{
    double bytes, total;
    progress_figures(p, &bytes, &total);
    if (final) sc_progress_end(&p->progress, bytes, total);
    else sc_progress_update(&p->progress, bytes, total);
}

static void *writer_main(void *arg)
{
    pipeline *p = arg;
    for (;;) {
        sc_slot *s = pop(p, &p->done_q);
        if (!s || s == &p->end_mark) break;
        if (p->write_status == SC_OK) {
            double t0 = sc_now();
            p->write_status = p->ops->emit(p->ops->op, s);
            sc_phase_add(p->cfg->ctx, SC_PH_WRITE, sc_now() - t0);
            p->elems_out += s->n_out;
            if (p->write_status != SC_OK) stop_all(p);
        }
        if (p->cfg->progress) show_progress(p, 0);
        push(p, &p->free_q, s);
    }
    return NULL;
}

static sc_status alloc_slots(pipeline *p)
{
    sc_ctx *ctx = p->cfg->ctx;
    size_t n = p->cfg->chunk_elems;
    for (int i = 0; i < SLOTS; i++) {
        sc_slot *s = &p->slots[i];
        if (p->cfg->reader && !(s->in = sc_host_alloc(ctx, n * 4)))
            return SC_ERR_NOMEM;
        if (p->ops->out_bytes_per_elem &&
            !(s->out = sc_host_alloc(ctx, n * p->ops->out_bytes_per_elem)))
            return SC_ERR_NOMEM;
        if (p->ops->need_aux && !(s->aux = sc_host_alloc(ctx, n * 4)))
            return SC_ERR_NOMEM;
    }
    return SC_OK;
}

static void free_slots(pipeline *p)
{
    for (int i = 0; i < SLOTS; i++) {
        sc_host_free(p->cfg->ctx, p->slots[i].in);
        sc_host_free(p->cfg->ctx, p->slots[i].out);
        sc_host_free(p->cfg->ctx, p->slots[i].aux);
    }
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
        p->elems_in += s->n;
        s->n_out = s->n_aux = 0;
        sc_status st = p->ops->process(p->ops->op, s);
        if (st != SC_OK) {
            push(p, &p->done_q, &p->end_mark);
            return st;
        }
        push(p, &p->done_q, s);
    }
}

sc_status sc_pipeline_run(const sc_pipeline_cfg *cfg, const sc_stage_ops *ops,
                          sc_pipeline_stats *stats)
{
    pipeline p;
    memset(&p, 0, sizeof p);
    p.cfg = cfg;
    p.ops = ops;
    sc_progress_start(&p.progress, cfg->prog, cfg->reader ? "read" : "made");
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.changed, NULL);
    sc_status st = alloc_slots(&p);
    if (st != SC_OK) {
        free_slots(&p);
        return sc_fail(cfg->ctx, SC_ERR_NOMEM, "out of memory for %zu-byte "
                       "chunks", cfg->chunk_elems * 4);
    }
    for (int i = 0; i < SLOTS; i++) push(&p, &p.free_q, &p.slots[i]);
    pthread_t rt, wt;
    pthread_create(&rt, NULL, reader_main, &p);
    pthread_create(&wt, NULL, writer_main, &p);
    st = work(&p);
    pthread_join(wt, NULL);
    /* The reader may be blocked on a slow input after a failure: stop it
     * rather than wait (it reads with cancellation enabled). */
    stop_all(&p);
    if (st != SC_OK || p.write_status != SC_OK) pthread_cancel(rt);
    pthread_join(rt, NULL);
    if (cfg->progress) show_progress(&p, 1);
    free_slots(&p);
    stats->in = p.elems_in;
    stats->out = p.elems_out;
    if (st == SC_OK) st = p.write_status;
    if (st == SC_OK) st = p.read_status;
    return st;
}
