/* gz_out.c — gzip output as BGZF, compressed on several threads.
 *
 * The input is cut into members of SC_BGZF_MAX_INPUT bytes by its place
 * in the stream alone, each compressed on its own (deflate_out.c), so the
 * bytes do not depend on the threads, the batches or the calls' sizes.
 *
 * The ring: batch s lives in slot s % nb.  The caller fills the slot of
 * batch `queued`, then queues it and goes on to the next slot; the
 * compressing threads claim its members one by one; the writer thread
 * writes batch `written` once all its members are done, then frees its
 * slot.  The caller waits for a free slot on a condition variable, so at
 * most nb batches are held: about 32 MiB for 4 of 64 members.  Without
 * threads of its own (one of several outputs sharing a pool, or one
 * thread) the one slot is compressed and written when it is full. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "io/bgzf.h"
#include "io/deflate_out.h"
#include "io/gz_out.h"

#define IN_BYTES SC_BGZF_MAX_INPUT
#define OUT_BYTES SC_BGZF_MAX_BLOCK
#define RING 4
#define RING_MEMBERS 64u
#define MAX_THREADS 1024u

typedef struct batch {
    unsigned char *in, *out;    /* members' input; member i at i * OUT_BYTES */
    size_t *len;                /* each member's size; 0: it failed */
    size_t staged;              /* input bytes */
    unsigned n, next, done;     /* members; the next to claim; compressed */
} batch;

struct sc_gzout {
    int level;
    sc_deflate_engine eng;
    sc_gzout_sink sink;
    void *arg;
    sc_pool *pool;
    unsigned members, nb;
    batch ring[RING];
    int status;                 /* the caller's: the first error it saw */
    int finished;
    /* The threads: the fields below are under lock. */
    int threaded, stopping;
    int err;                    /* the first error of the writer thread */
    uint64_t queued, claimed, written;
    pthread_mutex_t lock;
    pthread_cond_t work, done, space;
    pthread_t *tids;
    unsigned n_tids;
};

static void compress_member(sc_gzout *g, batch *b, unsigned i)
{
    size_t off = (size_t)i * IN_BYTES;
    size_t n = b->staged - off < IN_BYTES ? b->staged - off : IN_BYTES;
    const unsigned char *in = b->in + off;
    unsigned char *out = b->out + (size_t)i * OUT_BYTES;
    long body = sc_deflate_block(g->eng, g->level, in, n,
                                 out + SC_BGZF_HEADER,
                                 OUT_BYTES - SC_BGZF_HEADER - SC_BGZF_TRAILER);
    b->len[i] = 0;
    if (body <= 0) return;
    sc_bgzf_header(out, (size_t)body);
    sc_bgzf_trailer(out + SC_BGZF_HEADER + body, sc_crc32(0, in, n),
                    (uint32_t)n);
    b->len[i] = SC_BGZF_HEADER + (size_t)body + SC_BGZF_TRAILER;
}

/* The members packed one after another, out in one piece. */
static int write_batch(sc_gzout *g, batch *b)
{
    size_t at = 0;
    for (unsigned i = 0; i < b->n; i++) {
        if (!b->len[i]) return SC_GZOUT_NOMEM;
        if (at != (size_t)i * OUT_BYTES)
            memmove(b->out + at, b->out + (size_t)i * OUT_BYTES, b->len[i]);
        at += b->len[i];
    }
    return g->sink(g->arg, b->out, at);
}

static void *compressor(void *arg)
{
    sc_gzout *g = arg;
    pthread_mutex_lock(&g->lock);
    for (;;) {
        while (!g->stopping && g->claimed == g->queued)
            pthread_cond_wait(&g->work, &g->lock);
        if (g->stopping) break;
        batch *b = &g->ring[g->claimed % g->nb];
        unsigned i = b->next++;
        if (b->next == b->n) g->claimed++;
        pthread_mutex_unlock(&g->lock);
        compress_member(g, b, i);
        pthread_mutex_lock(&g->lock);
        if (++b->done == b->n) pthread_cond_signal(&g->done);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

/* After an error the batches are still taken, unwritten, so that no one
 * waits for a slot forever. */
static void *writer(void *arg)
{
    sc_gzout *g = arg;
    pthread_mutex_lock(&g->lock);
    for (;;) {
        batch *b = &g->ring[g->written % g->nb];
        while (!g->stopping &&
               (g->written == g->queued || b->done < b->n))
            pthread_cond_wait(&g->done, &g->lock);
        if (g->stopping) break;
        int skip = g->err != 0;
        pthread_mutex_unlock(&g->lock);
        int rc = skip ? 0 : write_batch(g, b);
        pthread_mutex_lock(&g->lock);
        if (rc && !g->err) g->err = rc;
        g->written++;
        pthread_cond_broadcast(&g->space);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

static void run_member(void *arg, unsigned i)
{
    sc_gzout *g = arg;
    compress_member(g, &g->ring[0], i);
}

/* The full (or last) batch compressed and written: by the threads, the
 * caller waiting only for a free slot; else here. */
static int ship(sc_gzout *g, batch *b)
{
    b->n = (unsigned)((b->staged + IN_BYTES - 1) / IN_BYTES);
    if (!g->threaded) {
        if (g->pool) sc_pool_run(g->pool, b->n, run_member, g);
        else for (unsigned i = 0; i < b->n; i++) run_member(g, i);
        b->staged = 0;
        return g->status = write_batch(g, b);
    }
    pthread_mutex_lock(&g->lock);
    b->next = b->done = 0;
    g->queued++;
    pthread_cond_broadcast(&g->work);
    while (!g->err && g->queued - g->written >= g->nb)
        pthread_cond_wait(&g->space, &g->lock);
    g->status = g->err;
    /* After an error the next slot may still be the threads': left alone. */
    if (!g->status) g->ring[g->queued % g->nb].staged = 0;
    pthread_mutex_unlock(&g->lock);
    return g->status;
}

static int alloc_batch(sc_gzout *g, batch *b)
{
    b->in = malloc((size_t)g->members * IN_BYTES);
    b->out = malloc((size_t)g->members * OUT_BYTES);
    b->len = malloc(g->members * sizeof *b->len);
    return b->in && b->out && b->len ? 0 : SC_GZOUT_NOMEM;
}

int sc_gzout_write(sc_gzout *g, const void *p, size_t len)
{
    const unsigned char *src = p;
    const size_t cap = (size_t)g->members * IN_BYTES;
    while (len && !g->status) {
        batch *b = &g->ring[g->queued % g->nb];
        if (!b->len && alloc_batch(g, b)) return g->status = SC_GZOUT_NOMEM;
        size_t take = cap - b->staged < len ? cap - b->staged : len;
        memcpy(b->in + b->staged, src, take);
        b->staged += take;
        src += take;
        len -= take;
        if (b->staged == cap) ship(g, b);
    }
    return g->status;
}

int sc_gzout_finish(sc_gzout *g)
{
    if (g->finished || g->status) return g->status;
    g->finished = 1;
    batch *b = &g->ring[g->queued % g->nb];
    if (b->staged && ship(g, b)) return g->status;
    if (g->threaded) {
        pthread_mutex_lock(&g->lock);
        while (!g->err && g->written < g->queued)
            pthread_cond_wait(&g->space, &g->lock);
        g->status = g->err;
        pthread_mutex_unlock(&g->lock);
        if (g->status) return g->status;
    }
    /* The writer thread is idle: the end-of-file block follows its last
     * write. */
    return g->status = g->sink(g->arg, sc_bgzf_eof, sizeof sc_bgzf_eof);
}

static void stop_threads(sc_gzout *g)
{
    pthread_mutex_lock(&g->lock);
    g->stopping = 1;
    pthread_cond_broadcast(&g->work);
    pthread_cond_broadcast(&g->done);
    pthread_mutex_unlock(&g->lock);
    for (unsigned i = 0; i < g->n_tids; i++) pthread_join(g->tids[i], NULL);
    g->n_tids = 0;
}

void sc_gzout_free(sc_gzout *g)
{
    if (!g) return;
    if (g->threaded) {
        stop_threads(g);
        pthread_mutex_destroy(&g->lock);
        pthread_cond_destroy(&g->work);
        pthread_cond_destroy(&g->done);
        pthread_cond_destroy(&g->space);
    }
    free(g->tids);
    for (int i = 0; i < RING; i++) {
        free(g->ring[i].in);
        free(g->ring[i].out);
        free(g->ring[i].len);
    }
    free(g);
}

/* The compressing threads, then the writer's: all of them or none. */
static int start_threads(sc_gzout *g, unsigned threads)
{
    g->tids = calloc(threads + 1, sizeof *g->tids);
    if (!g->tids) return ENOMEM;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->work, NULL);
    pthread_cond_init(&g->done, NULL);
    pthread_cond_init(&g->space, NULL);
    g->threaded = 1;
    for (unsigned i = 0; i <= threads; i++) {
        int err = sc_thread_start(&g->tids[i], i < threads ? compressor
                                                           : writer, g);
        if (err) { stop_threads(g); return err; }
        g->n_tids++;
    }
    return 0;
}

sc_gzout *sc_gzout_new(int level, unsigned threads, sc_pool *pool,
                       unsigned members, sc_gzout_sink sink, void *arg)
{
    sc_gzout *g = calloc(1, sizeof *g);
    if (!g) return NULL;
    g->level = level;
    g->eng = sc_deflate_engine_for(level);
    g->sink = sink;
    g->arg = arg;
    g->pool = pool;
    g->nb = 1;
    g->members = members ? members : RING_MEMBERS;
    if (pool || threads <= 1) return g;
    g->nb = RING;
    g->members = RING_MEMBERS;
    int err = start_threads(g, threads < MAX_THREADS ? threads : MAX_THREADS);
    if (err) {
        sc_gzout_free(g);
        errno = err;
        return NULL;
    }
    return g;
}
