/* workers.c — chunks on the CPU, a whole chunk per thread: independent
 * ones, or ones that need only the carry of those before (a scan).
 *
 * Each worker takes the next chunk in input order (one thread at a time
 * decides what it is), reads it, processes it alone and hands it to the
 * writer, which puts the chunks back in order.  A chunk of a regular
 * file is only claimed under the lock and read outside it, so the
 * threads read at once; so are BGZF members, each chunk's decoded by
 * the thread that claimed it.  The data is then used while it is in the
 * cache of the core that read it (bench/RESULTS.md, "Workers").
 */
#include <stdlib.h>
#include <string.h>
#include "stream/pipeline_impl.h"

/* A chunk a core's cache holds with its output beside it. */
#define WORKER_CHUNK_BYTES ((size_t)1 << 20)
/* Beyond this, the slots of many workers would take too much memory: one
 * chunk at a time over all threads, as asked. */
#define WORKER_MAX_CHUNK_BYTES ((size_t)4 << 20)

size_t sc_workers_chunk(const pipeline *p)
{
    const sc_source *src = &p->cfg->source;
    size_t asked = p->cfg->chunk_elems, bytes = WORKER_CHUNK_BYTES;
    /* A chunk that holds the input's compressed units whole, so that
     * they can be claimed (zstd's frames of 2 MiB). */
    size_t unit = src->claim_unit ? src->claim_unit(src->self) : 0;
    if (unit > bytes && unit <= WORKER_MAX_CHUNK_BYTES) bytes = unit;
    size_t own = bytes / p->ops->in_bytes_per_elem;
    return p->cfg->chunk_fixed || asked < own ? asked : own;
}

/* SC_TEST_WORKERS=0: the ordered pipeline even where workers would run,
 * so that tests and benchmarks can compare the two. */
static int workers_allowed(void)
{
    const char *v = getenv("SC_TEST_WORKERS");
    return !(v && strcmp(v, "0") == 0);
}

unsigned sc_workers_count(const pipeline *p)
{
    const sc_pipeline_cfg *c = p->cfg;
    const sc_source *src = &c->source;
    if (p->want_gpu || !(p->ops->independent || p->ops->reduce) ||
        c->ctx->threads < 2 || !workers_allowed())
        return 0;
    /* Pipes, text and zstd input are read by one thread as they come:
     * the ordered pipeline, whose reader a stop may cancel.  gzip files
     * may be BGZF, whose members the workers claim. */
    int64_t known = src->size_hint(src->self);
    if (known < 0 && src->claim_hint) known = src->claim_hint(src->self);
    if (known < 0 || (src->in_buffer && !src->claim)) return 0;
    if (c->chunk_fixed &&
        c->chunk_elems * p->ops->in_bytes_per_elem > WORKER_MAX_CHUNK_BYTES)
        return 0;
    size_t chunk = sc_workers_chunk(p);
    uint64_t chunks = ((uint64_t)known / p->ops->in_bytes_per_elem + chunk - 1)
                      / chunk;
    uint64_t n = c->ctx->threads < MAX_WORKERS ? c->ctx->threads : MAX_WORKERS;
    if (chunks < n) n = chunks;
    return n >= 2 ? (unsigned)n : 0;
}

/* Whether the stream is over (its end or a failure was met) or stopped. */
static int ended(pipeline *p)
{
    pthread_mutex_lock(&p->lock);
    int e = p->src_done || p->stop;
    pthread_mutex_unlock(&p->lock);
    return e;
}

/* Before fill() reads on where the claims left off, or closes the file
 * under them, their reads finish; 0 when one failed meanwhile. */
static int wait_claims(pipeline *p)
{
    pthread_mutex_lock(&p->lock);
    while (p->claims_out && !p->stop)
        pthread_cond_wait(&p->claims_done, &p->lock);
    int go = !p->src_done && !p->stop;
    pthread_mutex_unlock(&p->lock);
    return go;
}

/* Under the lock: no chunk follows those taken; when chunk `failed`
 * (NULL: none) failed, no carry comes after it either. */
static void mark_over(pipeline *p, const sc_slot *failed)
{
    p->src_done = 1;
    if (failed && failed->seq < p->carry_stop_at) {
        p->carry_stop_at = failed->seq;
        pthread_cond_broadcast(&p->carry_passed);
    }
}

static void count_claim(pipeline *p, int delta, const sc_slot *failed)
{
    pthread_mutex_lock(&p->lock);
    p->claims_out += (unsigned)delta;
    if (failed) mark_over(p, failed);
    if (p->claims_out == 0) pthread_cond_broadcast(&p->claims_done);
    pthread_mutex_unlock(&p->lock);
}

static void end_stream(pipeline *p, const sc_slot *failed)
{
    pthread_mutex_lock(&p->lock);
    mark_over(p, failed);
    pthread_mutex_unlock(&p->lock);
}

/* The next chunk into s, in input order: claimed (*claimed) for this
 * thread to read, or filled here.  0 when the stream has ended. */
static int take_chunk(pipeline *p, sc_slot *s, int *claimed)
{
    const sc_source *src = &p->cfg->source;
    size_t got = 0;
    sc_status st = SC_OK;
    pthread_mutex_lock(&p->fill_lock);
    *claimed = 0;
    if (ended(p)) goto over;
    if (src->claim && src->claim(src->self, p->chunk_elems, &s->claim)) {
        *claimed = 1;
        got = s->claim.n;
        count_claim(p, 1, NULL);
    } else {
        if (!wait_claims(p)) goto over;
        double t0 = sc_now();
        st = src->fill(src->self, s->c.in, p->chunk_elems, &got);
        sc_phase_add(&p->run->phases, SC_PH_READ, sc_now() - t0);
    }
    s->seq = p->next_seq++;
    s->c.first = p->next_first;
    s->c.n = got;
    p->next_first += got;
    s->kind = got ? SC_SLOT_CHUNK : SC_SLOT_END;
    s->status = st;
    /* A fault met at the end comes after every chunk: no carry waits on
     * it. */
    if (!got) end_stream(p, NULL);
    pthread_mutex_unlock(&p->fill_lock);
    return 1;
over:
    pthread_mutex_unlock(&p->fill_lock);
    return 0;
}

static void read_claim(pipeline *p, sc_slot *s)
{
    const sc_source *src = &p->cfg->source;
    double t0 = sc_now();
    size_t n = s->c.n;
    sc_status st = src->claim_read(src->self, &s->claim, s->c.in, &n);
    sc_phase_add(&p->run->phases, SC_PH_READ, sc_now() - t0);
    if (st != SC_OK) {
        /* The elements before the fault are worked on and written; the
         * stream ends with this chunk. */
        s->kind = n ? SC_SLOT_CHUNK : SC_SLOT_READ_FAILED;
        s->status = st;
        s->c.n = n;
    }
    count_claim(p, -1, st != SC_OK ? s : NULL);
}

/* The carry before s, taken in input order, and the one after it passed
 * on at once, so that the next chunk's thread need not wait for this
 * one's work; 0 when a chunk before failed and no carry will come. */
static int pass_carry(pipeline *p, sc_slot *s)
{
    const sc_stage_ops *o = p->ops;
    uint64_t reduced = o->reduce(o->op, s);
    pthread_mutex_lock(&p->lock);
    while (p->carry_seq != s->seq && s->seq <= p->carry_stop_at && !p->stop)
        pthread_cond_wait(&p->carry_passed, &p->lock);
    int ok = p->carry_seq == s->seq;
    if (ok) {
        s->c.carry_in = p->carry;
        p->carry = o->combine(o->op, p->carry, reduced);
        p->carry_seq++;
        pthread_cond_broadcast(&p->carry_passed);
    }
    pthread_mutex_unlock(&p->lock);
    return ok;
}

static void process(pipeline *p, sc_slot *s)
{
    s->n_out = 0;
    s->c.n_sel = 0;
    s->c.out_wide = 0;
    s->on_gpu = 0;
    if (p->ops->reduce && !pass_carry(p, s)) {
        /* Behind a failed chunk: the writer stops before this one. */
        s->kind = SC_SLOT_WORK_FAILED;
        s->status = SC_ERR_IO;
        return;
    }
    sc_status st = p->ops->process(p->ops->op, s, sc_ops_cpu());
    if (st != SC_OK) {
        s->kind = SC_SLOT_WORK_FAILED;
        s->status = st;
        end_stream(p, s);
    }
}

void sc_workers_loop(pipeline *p)
{
    /* The other cores have chunks of their own. */
    sc_pool_set_inline(1);
    for (;;) {
        sc_slot *s = sc_pl_pop(p, &p->free_q);
        if (!s) break;
        int claimed;
        if (!take_chunk(p, s, &claimed)) {
            sc_pl_push(p, &p->free_q, s);
            break;
        }
        if (claimed) read_claim(p, s);
        if (s->kind == SC_SLOT_CHUNK) process(p, s);
        int last = s->kind != SC_SLOT_CHUNK;
        sc_pl_push(p, &p->done_q, s);       /* the writer's from here */
        if (last) break;
    }
    sc_pool_set_inline(0);
}
