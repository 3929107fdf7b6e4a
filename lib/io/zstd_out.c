/* zstd_out.c — zstd output as independent frames compressed on every
 * core, followed by zstd's seek table (zstd_seek.c).
 *
 * The input is cut into frames of frame_bytes() whatever the sizes of the
 * writes, and each frame is compressed in one call with its content size
 * and checksum: the bytes do not depend on -j, -c or how many outputs
 * share the cores (sc(7), OUTPUT FORMATS), and a reader can decode the
 * frames on as many cores.
 *
 * The caller fills a ring of slots, one frame each; worker threads, each
 * with its own ZSTD_CCtx, take the filled ones in order, and whichever
 * finishes the oldest frame not yet written writes it and every later
 * one that is done: filling, compressing and writing overlap, and memory
 * stays at the ring's slots. One output of several with one thread
 * (sc_zout_small_jobs) compresses in the caller with a single slot.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "core/core.h"
#include "io/zstd_seek.h"
#include "io/zstdio.h"

/* Input bytes a frame: the smallest size measured to stay within 2 % of
 * one stream's output on sc-gen data and a large .so (bench/RESULTS.md,
 * session 17); higher levels match over longer distances. */
static size_t frame_bytes(int level)
{
    return (size_t)1 << (level <= 3 ? 21 : 23);
}

typedef struct slot {
    unsigned char *in, *out;
    size_t in_len, out_len, out_cap;
    const char *err;                /* compression failed */
    int done;                       /* compressed, not yet written */
} slot;

struct sc_zout {
    int level;
    size_t frame;                   /* input bytes a frame */
    unsigned threads, nslots;
    slot *slots;
    ZSTD_CCtx *cctx;                /* the caller's, when it compresses */
    pthread_t *tids;
    unsigned started;               /* worker threads running */
    pthread_mutex_t lock;
    pthread_cond_t work, room;      /* a frame to take; a slot written */
    uint64_t filled, taken, written;    /* frames so far, in order */
    uint64_t begun;                 /* filled when this stream began */
    slot *cur;                      /* the slot being filled, or NULL */
    int writing;                    /* a thread is writing frames */
    int stop;
    int code;                       /* the first failure, kept */
    const char *err;
    char why[96];
    sc_zout_sink sink;
    void *arg;
    sc_zseek seek;                  /* written only while writing */
};

static slot *slot_of(sc_zout *z, uint64_t seq)
{
    return &z->slots[seq % z->nslots];
}

static ZSTD_CCtx *new_cctx(int level)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    if (!c) return NULL;
    /* A checksum per frame, as the zstd command writes: corruption is
     * found, not decoded into wrong numbers; the seek table repeats it. */
    size_t r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    if (!ZSTD_isError(r))
        r = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
    if (!ZSTD_isError(r))
        r = ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    if (ZSTD_isError(r)) { ZSTD_freeCCtx(c); return NULL; }
    return c;
}

static void compress(slot *s, ZSTD_CCtx *c)
{
    s->err = NULL;
    if (!c) { s->err = "out of memory"; return; }
    size_t r = ZSTD_compress2(c, s->out, s->out_cap, s->in, s->in_len);
    if (ZSTD_isError(r)) s->err = ZSTD_getErrorName(r);
    else s->out_len = r;
}

/* Out to the sink and into the seek table: 0, the sink's code, or -1. */
static int put_frame(sc_zout *z, slot *s, const char **err)
{
    if (s->err) { *err = s->err; return -1; }
    if (sc_zseek_add(&z->seek, s->out, s->out_len, s->in_len, err))
        return -1;
    return z->sink(z->arg, s->out, s->out_len);
}

/* Frame seq is compressed: unless another thread is at it, writes the
 * frames that are done in order. Called and returns with the lock held. */
static void finished(sc_zout *z, uint64_t seq)
{
    slot_of(z, seq)->done = 1;
    if (z->writing) return;
    z->writing = 1;
    slot *s;
    while (z->written < z->filled && (s = slot_of(z, z->written))->done) {
        int failed = z->code != 0;
        pthread_mutex_unlock(&z->lock);
        const char *err = NULL;
        int code = failed ? 0 : put_frame(z, s, &err);
        pthread_mutex_lock(&z->lock);
        if (code && !z->code) { z->code = code; z->err = err; }
        s->done = 0;
        z->written++;
        pthread_cond_broadcast(&z->room);
    }
    z->writing = 0;
}

static void *worker(void *arg)
{
    sc_zout *z = arg;
    ZSTD_CCtx *c = new_cctx(z->level);
    pthread_mutex_lock(&z->lock);
    for (;;) {
        while (z->taken == z->filled && !z->stop)
            pthread_cond_wait(&z->work, &z->lock);
        if (z->taken == z->filled) break;
        uint64_t seq = z->taken++;
        int skip = z->code != 0;
        pthread_mutex_unlock(&z->lock);
        if (!skip) compress(slot_of(z, seq), c);
        pthread_mutex_lock(&z->lock);
        finished(z, seq);
    }
    pthread_mutex_unlock(&z->lock);
    ZSTD_freeCCtx(c);
    return NULL;
}

static void stop_workers(sc_zout *z)
{
    pthread_mutex_lock(&z->lock);
    z->stop = 1;
    pthread_cond_broadcast(&z->work);
    pthread_mutex_unlock(&z->lock);
    for (unsigned i = 0; i < z->started; i++) pthread_join(z->tids[i], NULL);
    z->started = 0;
}

void sc_zout_free(sc_zout *z)
{
    if (!z) return;
    pthread_mutex_lock(&z->lock);
    if (!z->code) z->code = -1;     /* given up: frames not written */
    pthread_mutex_unlock(&z->lock);
    stop_workers(z);
    for (unsigned i = 0; i < z->nslots; i++) {
        free(z->slots[i].in);
        free(z->slots[i].out);
    }
    ZSTD_freeCCtx(z->cctx);
    sc_zseek_free(&z->seek);
    pthread_mutex_destroy(&z->lock);
    pthread_cond_destroy(&z->work);
    pthread_cond_destroy(&z->room);
    free(z->slots);
    free(z->tids);
    free(z);
}

/* A slot a worker, one the caller fills and one done early waiting for
 * the oldest to be written: the workers stay busy. */
static int ring_new(sc_zout *z, unsigned nslots)
{
    slot *s = calloc(nslots, sizeof *s);
    if (!s) return -1;              /* the ring before stays whole */
    free(z->slots);
    z->slots = s;
    z->nslots = nslots;
    return 0;
}

sc_zout *sc_zout_new(int level, unsigned threads, const char **err)
{
    *err = "out of memory";
    sc_zout *z = calloc(1, sizeof *z);
    if (!z) return NULL;
    pthread_mutex_init(&z->lock, NULL);
    pthread_cond_init(&z->work, NULL);
    pthread_cond_init(&z->room, NULL);
    z->level = level;
    z->frame = frame_bytes(level);
    z->threads = threads ? threads : 1;
    z->tids = calloc(z->threads, sizeof *z->tids);
    if (!z->tids || ring_new(z, z->threads + 2)) {
        sc_zout_free(z);
        return NULL;
    }
    return z;
}

void sc_zout_small_jobs(sc_zout *z)
{
    /* Failing leaves the larger ring: more memory, the same bytes. */
    if (z->filled == 0 && !z->cur)
        ring_new(z, z->threads > 1 ? z->threads + 1 : 1);
}

/* The caller compresses: one slot, or the last frame of an output that
 * never started its workers. */
static int inline_only(sc_zout *z)
{
    return z->nslots == 1;
}

static int fail(sc_zout *z, int code, const char *err, const char **errp)
{
    pthread_mutex_lock(&z->lock);
    if (!z->code) { z->code = code; z->err = err; }
    code = z->code;
    *errp = z->err;
    pthread_mutex_unlock(&z->lock);
    return code;
}

static int start_workers(sc_zout *z, const char **err)
{
    while (z->started < z->threads) {
        int e = sc_thread_start(&z->tids[z->started], worker, z);
        if (e) {
            snprintf(z->why, sizeof z->why, "cannot start compression "
                     "threads: %s", strerror(e));
            return fail(z, -1, z->why, err);
        }
        z->started++;
    }
    return 0;
}

/* An empty slot for the next frame, once its last frame is written. */
static int claim(sc_zout *z, const char **err)
{
    slot *s = slot_of(z, z->filled);
    pthread_mutex_lock(&z->lock);
    while (z->filled - z->written >= z->nslots && !z->code)
        pthread_cond_wait(&z->room, &z->lock);
    int code = z->code;
    *err = z->err;
    pthread_mutex_unlock(&z->lock);
    if (code) return code;
    s->out_cap = ZSTD_compressBound(z->frame);
    if (!s->in) s->in = malloc(z->frame);
    if (!s->out) s->out = malloc(s->out_cap);
    if (!s->in || !s->out) return fail(z, -1, "out of memory", err);
    s->in_len = 0;
    z->cur = s;
    return 0;
}

/* Hands the slot being filled on: to the workers, or compressed and
 * written here. */
static int submit(sc_zout *z, int last, const char **err)
{
    z->cur = NULL;
    if (!z->started && (last || inline_only(z))) {
        if (!z->cctx && !(z->cctx = new_cctx(z->level)))
            return fail(z, -1, "out of memory", err);
        compress(slot_of(z, z->filled), z->cctx);
        pthread_mutex_lock(&z->lock);
        uint64_t seq = z->filled++;
        z->taken++;
        finished(z, seq);
        pthread_mutex_unlock(&z->lock);
        return 0;
    }
    int code = start_workers(z, err);
    if (code) return code;
    pthread_mutex_lock(&z->lock);
    z->filled++;
    pthread_cond_signal(&z->work);
    pthread_mutex_unlock(&z->lock);
    return 0;
}

/* Every frame written, then the seek table. */
static int finish(sc_zout *z, const char **err)
{
    pthread_mutex_lock(&z->lock);
    while (z->written < z->filled && !z->code)
        pthread_cond_wait(&z->room, &z->lock);
    int code = z->code;
    *err = z->err;
    pthread_mutex_unlock(&z->lock);
    if (code) return code;
    const unsigned char *table;
    size_t len;
    if (sc_zseek_finish(&z->seek, &table, &len, err))
        return fail(z, -1, *err, err);
    code = z->sink(z->arg, table, len);
    return code ? fail(z, code, NULL, err) : 0;
}

int sc_zout_write(sc_zout *z, const void *in, size_t len, int end,
                  sc_zout_sink sink, void *arg, const char **err)
{
    const unsigned char *p = in;
    int code = 0;
    if (!z->sink) { z->sink = sink; z->arg = arg; }
    while (len && !code) {
        if (!z->cur && (code = claim(z, err))) break;
        size_t take = z->frame - z->cur->in_len;
        if (take > len) take = len;
        memcpy(z->cur->in + z->cur->in_len, p, take);
        z->cur->in_len += take;
        p += take;
        len -= take;
        if (z->cur->in_len == z->frame) code = submit(z, 0, err);
    }
    if (code || !end) return code;
    /* Empty output too is one frame: content size 0, then the table. */
    if (!z->cur && z->filled == z->begun && (code = claim(z, err)))
        return code;
    if (z->cur && (code = submit(z, 1, err))) return code;
    z->begun = z->filled;
    return finish(z, err);
}
