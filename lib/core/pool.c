/* pool.c — a fixed set of worker threads running parallel-for loops.
 *
 * The CPU backend's "processors" of the three phases are these threads.
 * Workers sleep between loops; the caller takes part in each loop, so a
 * pool of one thread runs everything inline with no hand-off.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "core/core.h"

struct sc_pool {
    /* One loop at a time: threads that share a pool (one per GPU under
     * -d cuda:all, each copying through its stages) take turns. */
    pthread_mutex_t run_lock;
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    pthread_t *tids;
    unsigned n_workers;
    unsigned generation;        /* bumped per loop so workers see new work */
    unsigned next, total, finished;
    sc_task_fn fn;
    void *arg;
    int stopping;
};

static _Thread_local int run_inline;

void sc_pool_set_inline(int on) { run_inline = on; }
int sc_pool_is_inline(void) { return run_inline; }

/* Claims and runs items of the current loop until none are left. */
static void drain(sc_pool *p)
{
    for (;;) {
        pthread_mutex_lock(&p->lock);
        if (p->next >= p->total) { pthread_mutex_unlock(&p->lock); return; }
        unsigned i = p->next++;
        sc_task_fn fn = p->fn;
        void *arg = p->arg;
        pthread_mutex_unlock(&p->lock);
        fn(arg, i);
        pthread_mutex_lock(&p->lock);
        if (++p->finished == p->total) pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->lock);
    }
}

static void *worker(void *arg)
{
    sc_pool *p = arg;
    unsigned seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (!p->stopping && p->generation == seen)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->stopping) { pthread_mutex_unlock(&p->lock); return NULL; }
        seen = p->generation;
        pthread_mutex_unlock(&p->lock);
        drain(p);
    }
}

sc_status sc_pool_new(sc_pool **out, unsigned threads)
{
    *out = NULL;
    sc_pool *p = calloc(1, sizeof *p);
    if (!p) return SC_ERR_NOMEM;
    pthread_mutex_init(&p->run_lock, NULL);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    unsigned want = threads > 1 ? threads - 1 : 0;
    p->tids = calloc(want ? want : 1, sizeof *p->tids);
    if (!p->tids) { sc_pool_free(p); return SC_ERR_NOMEM; }
    for (unsigned i = 0; i < want; i++) {
        int err = sc_thread_start(&p->tids[i], worker, p);
        if (err) {
            sc_pool_free(p);        /* stops the workers already started */
            errno = err;
            return SC_ERR_NOMEM;
        }
        p->n_workers++;
    }
    *out = p;
    return SC_OK;
}

void sc_pool_free(sc_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->n_workers; i++) pthread_join(p->tids[i], NULL);
    pthread_mutex_destroy(&p->run_lock);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
    free(p->tids);
    free(p);
}

void sc_pool_run(sc_pool *p, unsigned n, sc_task_fn fn, void *arg)
{
    if (n == 0) return;
    if (n == 1 || p->n_workers == 0 || run_inline) {
        for (unsigned i = 0; i < n; i++) fn(arg, i);
        return;
    }
    pthread_mutex_lock(&p->run_lock);
    pthread_mutex_lock(&p->lock);
    p->fn = fn; p->arg = arg;
    p->next = 0; p->total = n; p->finished = 0;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    drain(p);
    pthread_mutex_lock(&p->lock);
    while (p->finished < p->total) pthread_cond_wait(&p->done, &p->lock);
    p->total = 0;
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_unlock(&p->run_lock);
}

#define COPY_PIECE ((size_t)1 << 20)

typedef struct copy_task {
    char *dst;
    const char *src;
    size_t bytes;
    unsigned parts;
} copy_task;

static void copy_part(void *arg, unsigned i)
{
    copy_task *t = arg;
    size_t b = t->bytes * i / t->parts, e = t->bytes * (i + 1) / t->parts;
    memcpy(t->dst + b, t->src + b, e - b);
}

void sc_pool_copy(sc_pool *pool, unsigned parts, void *dst, const void *src,
                  size_t bytes)
{
    size_t most = bytes / COPY_PIECE;
    if (most < parts) parts = (unsigned)most;
    copy_task t = { dst, src, bytes, parts ? parts : 1 };
    sc_pool_run(pool, t.parts, copy_part, &t);
}
