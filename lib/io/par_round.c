/* par_round.c — the parallel decoder's life (par.c) and its rounds:
 * the planned units decoded at once on the reader's own pool, each with a
 * decoding thread's scratch, while one task reads the next compressed
 * bytes. */
#include <stdlib.h>
#include <string.h>
#include "io/par_impl.h"

sc_par *sc_par_new(unsigned threads)
{
    sc_par *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->threads = threads ? threads : 1;
    p->buf = malloc(BUF_BYTES);
    p->free_slots = calloc(p->threads, sizeof *p->free_slots);
    if (!p->buf || !p->free_slots) {
        free(p->buf);
        free(p->free_slots);
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

void sc_par_free(sc_par *p)
{
    if (!p) return;
    sc_par_join(p);
    sc_pool_free(p->pool);
    sc_pool_free(p->copy_pool);
    for (unsigned i = 0; i < p->n_free; i++)
        sc_unit_scratch_free(p->free_slots[i]);
    pthread_mutex_destroy(&p->lock);
    free(p->free_slots);
    free(p->buf);
    free(p->stage);
    free(p->back);
    free(p->units);
    free(p);
}

void sc_par_begin(sc_par *p, sc_reader *r)
{
    sc_par_join(p);
    size_t have = r->z.avail_in;
    if (have) memcpy(p->buf, r->z.next_in, have);   /* the bytes peeked at */
    r->z.avail_in = 0;
    p->pos = 0;
    p->end = have;
    p->eof = 0;
    p->zstd = r->codec == CODEC_ZST;
    p->stage_pos = p->stage_len = 0;
    p->bad_why = NULL;
    p->done_units = 0;
    p->last_empty = 0;
}

/* A decoding thread's scratch, taken and given back. */
sc_unit_scratch *sc_par_take(sc_par *p)
{
    pthread_mutex_lock(&p->lock);
    sc_unit_scratch *s = p->n_free ? p->free_slots[--p->n_free] : NULL;
    pthread_mutex_unlock(&p->lock);
    return s ? s : sc_unit_scratch_new();
}

void sc_par_give(sc_par *p, sc_unit_scratch *s)
{
    pthread_mutex_lock(&p->lock);
    if (p->n_free < p->threads) p->free_slots[p->n_free++] = s;
    else sc_unit_scratch_free(s);
    pthread_mutex_unlock(&p->lock);
}

static void read_more(sc_par *p, sc_reader *r, size_t len)
{
    p->read_got = sc_reader_file_read(r, p->buf + p->end, len);
}

static void task(void *arg, unsigned i)
{
    sc_par *p = arg;
    if (p->reading && i-- == 0) {
        read_more(p, p->r, p->read_len);
        return;
    }
    unit *u = &p->units[i];
    sc_unit_scratch *s = sc_par_take(p);
    if (!s) {
        u->why = "out of memory";
        return;
    }
    u->got = u->dsize;
    if (p->zstd)
        sc_zframe_decode(sc_unit_scratch_zstd(s), u->in, u->csize, u->out,
                         u->dsize, u->exact, &u->got, &u->why);
    else
        sc_bgzf_unit_decode(s, u->in, u->csize, u->out, u->dsize, &u->why);
    sc_par_give(p, s);
}

/* Units that decoded to less than their room (pzstd's) close up, in
 * order, so that the round's bytes lie end to end; the one aside stays
 * in the stage. */
static void close_up(sc_par *p)
{
    unsigned char *to = NULL;
    for (size_t i = 0; i < p->n && !p->units[i].why; i++) {
        unit *u = &p->units[i];
        if (u->aside) break;
        if (to && u->out != to) {
            memmove(to, u->out, u->got);
            u->out = to;
        }
        to = u->out + u->got;
    }
}

static void run_tasks(sc_par *p, unsigned total)
{
    if (!p->pool && p->threads > 1 && total > 1 &&
        sc_pool_new(&p->pool, p->threads) != SC_OK) {
        p->threads = 1;                 /* decodes on this thread alone */
        p->pool = NULL;
    }
    if (p->pool) {
        sc_pool_run(p->pool, total, task, p);
    } else {
        for (unsigned i = 0; i < total; i++) task(p, i);
    }
}

/* The stage is served on the thread that fills the pipeline's chunks
 * while the others wait for it: its copy, on a few threads, is what
 * the serial part of a parallel decode costs. */
void sc_par_copy(sc_par *p, void *dst, const void *src, size_t bytes)
{
    unsigned n = p->threads < COPY_THREADS ? p->threads : COPY_THREADS;
    if (!p->copy_pool && n > 1 && sc_pool_new(&p->copy_pool, n) != SC_OK)
        p->copy_pool = NULL;
    if (!p->copy_pool) {
        memcpy(dst, src, bytes);
        return;
    }
    int was_inline = sc_pool_is_inline();
    sc_pool_set_inline(0);
    sc_pool_copy(p->copy_pool, n, dst, src, bytes);
    sc_pool_set_inline(was_inline);
}

size_t sc_par_room(const sc_par *p, size_t step)
{
    size_t free_bytes = BUF_BYTES - p->end;
    return free_bytes < step ? free_bytes : step;
}

/* Decodes the planned units, reading on meanwhile: as much as makes a
 * round like this one, and a step, in hand after it.  No more: the bytes
 * in hand are what moves when the buffer's end is reached. */
void sc_par_decode_round(sc_par *p, sc_reader *r, size_t to)
{
    size_t target = (to - p->pos) + READ_STEP, after = p->end - to;
    size_t want = after < target ? sc_par_room(p, target - after) : 0;
    p->r = r;
    p->read_len = want;
    p->reading = !p->eof && want >= SC_UNIT_READ_MIN &&
                 (!r->live || !sc_read_would_wait(r->fd, 0));
    run_tasks(p, (unsigned)p->n + (unsigned)p->reading);
    close_up(p);
    if (p->reading) {
        if (p->read_got > 0) p->end += (size_t)p->read_got;
        else p->eof = 1;
    }
}

size_t sc_par_make_room(sc_par *p, size_t from)
{
    if (!from || BUF_BYTES - p->end >= READ_STEP) return from;
    memmove(p->buf, p->buf + from, p->end - from);
    p->end -= from;
    return 0;
}

/* The round's units are done with the buffer when it ends: the bytes
 * after them move here, while the stage is served, rather than on the
 * thread that serves it (units keep their offsets in the file). */
static void *round_thread(void *arg)
{
    sc_par *p = arg;
    sc_par_decode_round(p, p->r, p->bg_to);
    p->bg_to = sc_par_make_room(p, p->bg_to);
    return NULL;
}

int sc_par_launch(sc_par *p, sc_reader *r, size_t to)
{
    p->r = r;
    p->bg_to = to;
    if (pthread_create(&p->bg, NULL, round_thread, p) != 0) return -1;
    p->bg_on = 1;
    return 0;
}

void sc_par_join(sc_par *p)
{
    if (!p->bg_on) return;
    pthread_join(p->bg, NULL);
    p->bg_on = 0;
}

unsigned long long sc_par_units(const sc_par *p) { return p->done_units; }
