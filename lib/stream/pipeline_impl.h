/* pipeline_impl.h — the pipeline's state, shared by its three files:
 *   pipeline.c  the run: slots, queues, the writer in input order;
 *   ordered.c   one reader thread and one worker that routes each chunk
 *               to the CPU or the GPU: wherever workers.c does not run
 *               (the GPU may be used, the input is read as it comes, a
 *               single thread: sc_workers_count());
 *   workers.c   chunks on the CPU, independent or linked only by a carry
 *               (a scan), one per thread at a time, each read and
 *               processed by the thread that took it, so that the data
 *               stays in that core's cache.
 */
#ifndef SC_PIPELINE_IMPL_H
#define SC_PIPELINE_IMPL_H

#include <pthread.h>
#include "ops/ops.h"
#include "stream/pipeline.h"
#include "stream/progress.h"

/* Ordered: four slots, one being read, two on the GPU (one uploading or
 * computing while the other downloads), one being written; under -d
 * cuda:all two on each GPU.  Workers: one per thread and a few for the
 * writer to hold while it waits for an earlier chunk. */
#define SLOTS 4
#define MAX_WORKERS 64
#define MAX_SLOTS (MAX_WORKERS + 4)
#define RING (MAX_SLOTS + 1)

/* Each queue wakes only its own waiters: with a worker per core, one
 * condition for all made every hand-off wake every thread. */
typedef struct queue {
    sc_slot *items[RING];
    unsigned head, len;
    pthread_cond_t nonempty;
} queue;

typedef struct pipeline {
    const sc_pipeline_cfg *cfg;
    const sc_stage_ops *ops;
    pthread_mutex_t lock;
    queue free_q, full_q, done_q;
    sc_slot slots[MAX_SLOTS];
    unsigned n_slots;
    size_t chunk_elems;         /* cfg's, or the workers' smaller one */
    int stop;
    sc_status read_status, work_status, write_status;
    sc_fault write_fault;       /* the writer thread's message, held */
    sc_pipeline_stats *run;     /* the caller's: what the run did, for -v */
    sc_progress progress;
    /* The writer: the next chunk in input order, and those that came
     * before it from faster workers. */
    uint64_t next_write;
    sc_slot *held[MAX_SLOTS];
    unsigned n_held;
    /* Ordered: the worker's device state. */
    int want_gpu;               /* the GPU takes chunks once it is ready */
    const sc_backend *gpu;      /* the GPU's table once the GPU takes chunks */
    sc_lanes *lanes;
    const sc_backend *sync_gpu; /* the GPU without lanes (memory too tight) */
    int prev_on_gpu;
    uint64_t last_carry;
    /* Workers: one fills at a time; reads it claimed go on outside. */
    unsigned n_workers;
    pthread_mutex_t fill_lock;
    uint64_t next_seq, next_first;
    int src_done;               /* under lock, as claims_out */
    unsigned claims_out;
    pthread_cond_t claims_done;
    /* Workers with a carry: the carry after chunk carry_seq - 1, handed
     * on in input order; none passes chunk carry_stop_at, which failed. */
    uint64_t carry, carry_seq, carry_stop_at;
    pthread_cond_t carry_passed;
} pipeline;

void sc_pl_push(pipeline *p, queue *q, sc_slot *s);
/* Wakes every waiter: the queues' and the claims'. */
void sc_pl_wake_all(pipeline *p);
/* NULL when the pipeline is stopping and q is empty. */
sc_slot *sc_pl_pop(pipeline *p, queue *q);
void sc_pl_stop(pipeline *p);

/* Ordered: whether the GPU takes the chunks (started under auto when the
 * cost model says so); the reader thread; the worker until the end. */
void sc_ordered_choose_device(pipeline *p);
void *sc_ordered_reader(void *arg);
sc_status sc_ordered_work(pipeline *p);
void sc_ordered_close(pipeline *p);

/* Workers: how many a run would use (0: the ordered pipeline runs it);
 * then the loop each of them runs, the caller's thread included. */
unsigned sc_workers_count(const pipeline *p);
size_t sc_workers_chunk(const pipeline *p);
void sc_workers_loop(pipeline *p);

#endif
