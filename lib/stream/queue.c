/* queue.c — the hand-offs between the pipeline's threads: queues of
 * slots under the pipeline's one lock, and the stop that wakes them all. */
#include <pthread.h>
#include "stream/pipeline_impl.h"

void sc_pl_push(pipeline *p, queue *q, sc_slot *s)
{
    pthread_mutex_lock(&p->lock);
    q->items[(q->head + q->len++) % RING] = s;
    pthread_cond_signal(&q->nonempty);
    pthread_mutex_unlock(&p->lock);
}

sc_slot *sc_pl_pop(pipeline *p, queue *q)
{
    pthread_mutex_lock(&p->lock);
    while (q->len == 0 && !p->stop) pthread_cond_wait(&q->nonempty, &p->lock);
    sc_slot *s = NULL;
    if (q->len) {
        s = q->items[q->head];
        q->head = (q->head + 1) % RING;
        q->len--;
    }
    pthread_mutex_unlock(&p->lock);
    return s;
}

void sc_pl_wake_all(pipeline *p)
{
    pthread_cond_broadcast(&p->free_q.nonempty);
    pthread_cond_broadcast(&p->full_q.nonempty);
    pthread_cond_broadcast(&p->done_q.nonempty);
    pthread_cond_broadcast(&p->claims_done);
    pthread_cond_broadcast(&p->carry_passed);
}

void sc_pl_stop(pipeline *p)
{
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    sc_pl_wake_all(p);
    pthread_mutex_unlock(&p->lock);
}
