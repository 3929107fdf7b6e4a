/* par.c — a splittable compressed file (BGZF, zstd frames with their
 * content size) decoded on every thread: each request for len bytes takes
 * the whole units in hand, puts each at its decoded offset in the
 * caller's buffer and decodes them at once on the reader's own pool,
 * while one task of the same loop reads the next compressed bytes.  The
 * unit that runs past the end of the buffer is decoded aside and served
 * first by the next request.  Memory: BUF_BYTES of compressed input and
 * one unit aside.
 *
 * Whatever does not split (an ordinary gzip member, a frame without its
 * size, padding, garbage, a unit cut short) goes to the stream decoders
 * of codecs.c from its first byte on, for the rest of the file: they read
 * it and report its faults as they do for any file. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "io/par.h"
#include "io/reader_impl.h"

#define BUF_BYTES ((size_t)32 << 20)
#define READ_STEP ((size_t)8 << 20)

typedef struct unit {
    const unsigned char *in;
    size_t csize, dsize;
    unsigned char *out;
    uint64_t at;                /* compressed offset in the file */
    const char *why;            /* NULL, or why it did not decode */
} unit;

struct sc_par {
    sc_pool *pool;
    unsigned threads;
    pthread_mutex_t lock;       /* the free scratch */
    sc_unit_scratch **free_slots;
    unsigned n_free;
    unsigned char *buf;         /* compressed bytes in hand: [pos, end) */
    size_t pos, end;
    int eof, zstd;
    unsigned char *side;        /* the unit that ran past a request */
    size_t side_cap, side_pos, side_len;
    unit *units;
    size_t units_cap, n;
    uint64_t done_units;        /* units decoded in this file */
    int last_empty;             /* BGZF: the last member was empty (EOF) */
    sc_reader *r;               /* this loop's: reading task 0 */
    size_t read_len;
    ssize_t read_got;
    int reading;
};

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
    sc_pool_free(p->pool);
    for (unsigned i = 0; i < p->n_free; i++)
        sc_unit_scratch_free(p->free_slots[i]);
    pthread_mutex_destroy(&p->lock);
    free(p->free_slots);
    free(p->buf);
    free(p->side);
    free(p->units);
    free(p);
}

void sc_par_begin(sc_par *p, sc_reader *r)
{
    size_t have = r->z.avail_in;
    if (have) memcpy(p->buf, r->z.next_in, have);   /* the bytes peeked at */
    r->z.avail_in = 0;
    p->pos = 0;
    p->end = have;
    p->eof = 0;
    p->zstd = r->codec == CODEC_ZST;
    p->side_pos = p->side_len = 0;
    p->done_units = 0;
    p->last_empty = 0;
}

/* A decoding thread's scratch, taken and given back. */
static sc_unit_scratch *take(sc_par *p)
{
    pthread_mutex_lock(&p->lock);
    sc_unit_scratch *s = p->n_free ? p->free_slots[--p->n_free] : NULL;
    pthread_mutex_unlock(&p->lock);
    return s ? s : sc_unit_scratch_new();
}

static void give(sc_par *p, sc_unit_scratch *s)
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
    sc_unit_scratch *s = take(p);
    if (!s) {
        u->why = "out of memory";
        return;
    }
    if (p->zstd)
        sc_zframe_decode(sc_unit_scratch_zstd(s), u->in, u->csize, u->out,
                         u->dsize, &u->why);
    else
        sc_bgzf_unit_decode(s, u->in, u->csize, u->out, u->dsize, &u->why);
    give(p, s);
}

static int add_unit(sc_par *p, const unit *u)
{
    if (p->n == p->units_cap) {
        size_t cap = p->units_cap ? 2 * p->units_cap : 256;
        unit *more = realloc(p->units, cap * sizeof *more);
        if (!more) return -1;
        p->units = more;
        p->units_cap = cap;
    }
    p->units[p->n++] = *u;
    return 0;
}

static unsigned char *side_for(sc_par *p, size_t dsize)
{
    if (dsize > p->side_cap) {
        unsigned char *b = realloc(p->side, dsize);
        if (!b) return NULL;
        p->side = b;
        p->side_cap = dsize;
    }
    return p->side;
}

/* The whole units from pos that fill dst[0, len), the last one aside if
 * it runs past; *stop: what came after them. Returns where they end. */
static size_t plan(sc_par *p, sc_reader *r, unsigned char *dst, size_t len,
                   int *stop)
{
    uint64_t base = r->file_bytes - (p->end - p->pos);
    size_t at = p->pos, out = 0;
    p->n = 0;
    *stop = SC_UNIT_MORE;
    while (out < len) {
        size_t cs = 0, ds = 0;
        int k = (p->zstd ? sc_zframe_unit : sc_bgzf_unit)(
            p->buf + at, p->end - at, &cs, &ds);
        if (k == SC_UNIT_SKIP) { at += cs; continue; }
        if (k != SC_UNIT_WHOLE) { *stop = k; break; }
        unit u = { p->buf + at, cs, ds, NULL, base + (at - p->pos), NULL };
        u.out = out + ds <= len ? dst + out : side_for(p, ds);
        if (!u.out || add_unit(p, &u) != 0) { *stop = SC_UNIT_NONE; break; }
        at += cs;
        out += ds;
    }
    return at;
}

/* Moves the bytes in hand to the start of the buffer when too little
 * room is left after them to read a step. Units point into the buffer:
 * only between loops. */
static void make_room(sc_par *p)
{
    if (p->pos && BUF_BYTES - p->end < READ_STEP) {
        memmove(p->buf, p->buf + p->pos, p->end - p->pos);
        p->end -= p->pos;
        p->pos = 0;
    }
}

static size_t room(const sc_par *p)
{
    size_t free_bytes = BUF_BYTES - p->end;
    return free_bytes < READ_STEP ? free_bytes : READ_STEP;
}

/* With no whole unit in hand: reads more now. 1 when bytes came or the
 * file ended; 0 when the buffer is full (a unit larger than it); -1 on a
 * fault (held). */
static int read_now(sc_par *p, sc_reader *r)
{
    size_t want = room(p);
    if (!want) return 0;
    read_more(p, r, want);
    if (p->read_got < 0) return -1;
    if (p->read_got == 0) p->eof = 1;
    p->end += (size_t)p->read_got;
    return 1;
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

/* Decodes the planned units, reading on meanwhile; then delivers them in
 * order up to the first that failed, whose fault is held. Returns the
 * bytes put in dst, -1 for a fault with nothing before it. */
static ssize_t run(sc_par *p, sc_reader *r, unsigned char *dst, size_t len,
                   size_t to)
{
    size_t want = room(p);
    p->r = r;
    p->read_len = want;
    p->reading = !p->eof && want >= SC_UNIT_READ_MIN &&
                 (!r->live || !sc_read_would_wait(r->fd, 0));
    run_tasks(p, (unsigned)p->n + (unsigned)p->reading);
    if (p->reading) {
        if (p->read_got > 0) p->end += (size_t)p->read_got;
        else p->eof = 1;
    }
    size_t out = 0;
    for (size_t i = 0; i < p->n; i++) {
        const unit *u = &p->units[i];
        if (u->why) {
            defer(r, p->zstd ? SC_ERR_ZSTD : SC_ERR_GZIP, "%s: corrupt %s "
                  "data near compressed byte %llu: %s (in the %s that "
                  "starts there)", r->name, p->zstd ? "zstd" : "gzip",
                  (unsigned long long)u->at, u->why,
                  p->zstd ? "frame" : "BGZF member");
            p->pos = p->end;
            return out ? (ssize_t)out : -1;
        }
        p->last_empty = u->dsize == 0;
        if (u->out == p->side && u->dsize) {
            size_t head = len - out;
            memcpy(dst + out, p->side, head);
            p->side_pos = head;
            p->side_len = u->dsize;
            out = len;
        } else {
            out += u->dsize;
        }
    }
    p->done_units += p->n;
    p->pos = to;
    return (ssize_t)out;
}

/* The file's end at a unit's end: BGZF ends with its end-of-file block,
 * and without it is cut short, as bgzip says. */
static ssize_t at_end(sc_par *p, sc_reader *r)
{
    if (p->zstd || !p->done_units || p->last_empty) return 0;
    defer(r, SC_ERR_GZIP, "%s: truncated gzip data (unexpected end after "
          "%llu compressed bytes: the BGZF end-of-file block is missing)",
          r->name, (unsigned long long)r->file_bytes);
    return -1;
}

/* The rest of the file to the stream decoder, from the bytes in hand. */
static ssize_t hand_over(sc_par *p, sc_reader *r)
{
    r->z.next_in = p->buf + p->pos;
    r->z.avail_in = (uInt)(p->end - p->pos);
    p->pos = p->end;
    /* After whole members the stream reader starts at a member's end,
     * where it takes padding and tells garbage from another member. */
    if (!p->zstd) r->z_member_done = p->done_units > 0 || !r->z.avail_in;
    return SC_PAR_STREAM;
}

ssize_t sc_par_read(sc_par *p, sc_reader *r, unsigned char *dst, size_t len)
{
    if (p->side_pos < p->side_len) {
        size_t n = p->side_len - p->side_pos;
        if (n > len) n = len;
        memcpy(dst, p->side + p->side_pos, n);
        p->side_pos += n;
        return (ssize_t)n;
    }
    for (;;) {
        make_room(p);
        int stop;
        size_t to = plan(p, r, dst, len, &stop);
        if (p->n) {
            ssize_t got = run(p, r, dst, len, to);
            if (got != 0) return got;
            continue;                   /* empty units only */
        }
        p->pos = to;                    /* past skippable frames */
        if (stop == SC_UNIT_MORE && !p->eof) {
            int more = read_now(p, r);
            if (more < 0) return -1;
            if (more > 0) continue;
        }
        if (stop == SC_UNIT_MORE && p->eof && p->pos == p->end)
            return at_end(p, r);
        return hand_over(p, r);
    }
}

unsigned long long sc_par_units(const sc_par *p) { return p->done_units; }
