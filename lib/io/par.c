/* par.c — a splittable compressed file (BGZF, zstd frames with their
 * content size, pzstd's frames) decoded on every thread, while one task of the same loop
 * reads the next compressed bytes.  A request for len bytes that holds
 * 2 x threads units takes the whole units in hand and decodes each at its
 * offset in the caller's buffer; the unit that runs past its end is
 * decoded aside and served first by the next request.  A smaller request
 * (or larger units) gets a round decoded ahead into the stage: what 2 x
 * threads units decode to, up to AHEAD_MAX, served by copy to the
 * requests that follow, while the round after it decodes into back on a
 * thread of its own.  Memory: BUF_BYTES of compressed input, and the
 * stage and back, each at most AHEAD_MAX.
 *
 * Whatever does not split (an ordinary gzip member, a frame without its
 * size, padding, garbage, a unit cut short) goes to the stream decoders
 * of codecs.c from its first byte on, for the rest of the file: they read
 * it and report its faults as they do for any file. */
#include <stdlib.h>
#include <string.h>
#include "io/par.h"
#include "io/par_impl.h"

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

/* *buf holding at least need bytes (its contents kept), or NULL. */
static unsigned char *grown(unsigned char **buf, size_t *cap, size_t need)
{
    if (need > *cap) {
        unsigned char *b = realloc(*buf, need);
        if (!b) return NULL;
        *buf = b;
        *cap = need;
    }
    return *buf;
}

static unsigned char *stage_for(sc_par *p, size_t dsize)
{
    return grown(&p->stage, &p->stage_cap, dsize);
}

static int find(const sc_par *p, size_t at, size_t *cs, size_t *ds)
{
    int (*unit_at)(const unsigned char *, size_t, size_t *, size_t *) =
        p->zstd ? sc_zframe_unit : sc_bgzf_unit;
    return unit_at(p->buf + at, p->end - at, cs, ds);
}

static int whole(int kind)
{
    return kind == SC_UNIT_WHOLE || kind == SC_UNIT_BOUND;
}

/* The size of a round decoded ahead into the stage: what the next
 * 2 x threads units in hand decode to, and at least AHEAD_MIN (a round
 * on the pool has its cost: BGZF's small members in 4 MiB requests read
 * at a third of the rate of 32 MiB rounds), up to AHEAD_MAX; 0 where the
 * request holds that many (or one thread decodes), which then decodes
 * straight into the caller's buffer, with no copy.  Units of a bounded
 * size go ahead whatever the request: they close up on the round's own
 * thread (par_round.c), not on the one that waits for them. */
static size_t ahead_bytes(const sc_par *p, size_t len)
{
    size_t at = p->pos, sum = 0;
    unsigned k = 0;
    int bounded = 0;
    while (p->threads > 1 && (k < 2 * p->threads || sum < AHEAD_MIN) &&
           sum < AHEAD_MAX) {
        size_t cs = 0, ds = 0;
        int kind = find(p, at, &cs, &ds);
        if (kind == SC_UNIT_SKIP) { at += cs; continue; }
        if (!whole(kind)) break;
        bounded |= kind == SC_UNIT_BOUND;
        at += cs;
        sum += ds;
        k++;
    }
    if (sum <= len && !bounded) return 0;
    return sum < AHEAD_MAX ? sum : AHEAD_MAX;
}

/* The whole units from pos that fill dst[0, len): straight, the last
 * one aside if it runs past; ahead (dst the stage), those that fit.
 * *stop: what came after them. Returns where they end. */
static size_t plan(sc_par *p, sc_reader *r, unsigned char *dst, size_t len,
                   int ahead, int *stop)
{
    uint64_t base = r->file_bytes - (p->end - p->pos);
    size_t at = p->pos, out = 0;
    p->n = 0;
    *stop = SC_UNIT_MORE;
    while (out < len) {
        size_t cs = 0, ds = 0;
        int k = find(p, at, &cs, &ds);
        if (k == SC_UNIT_SKIP) { at += cs; continue; }
        if (!whole(k)) { *stop = k; break; }
        if (ahead && out + ds > len) break;     /* the next round's */
        unit u = { p->buf + at, cs, ds, NULL, base + (at - p->pos), NULL,
                   0, k == SC_UNIT_WHOLE, out + ds > len };
        u.out = u.aside ? stage_for(p, ds) : dst + out;
        if (!u.out || add_unit(p, &u) != 0) { *stop = SC_UNIT_NONE; break; }
        at += cs;
        out += ds;
    }
    return at;
}

/* With no whole unit in hand: reads more now. 1 when bytes came or the
 * file ended; 0 when the buffer is full (a unit larger than it); -1 on a
 * fault (held). */
static int read_now(sc_par *p, sc_reader *r)
{
    size_t want = sc_par_room(p, READ_STEP);
    if (!want) return 0;
    p->read_got = sc_reader_file_read(r, p->buf + p->end, want);
    if (p->read_got < 0) return -1;
    if (p->read_got == 0) p->eof = 1;
    p->end += (size_t)p->read_got;
    return 1;
}

/* Decoded bytes from the stage, as many as len takes. */
static size_t serve(sc_par *p, unsigned char *dst, size_t len)
{
    size_t n = p->stage_len - p->stage_pos;
    if (n > len) n = len;
    sc_par_copy(p, dst, p->stage + p->stage_pos, n);
    p->stage_pos += n;
    return n;
}

static void report(sc_par *p, sc_reader *r)
{
    defer(r, p->zstd ? SC_ERR_ZSTD : SC_ERR_GZIP, "%s: corrupt %s data near "
          "compressed byte %llu: %s (in the %s that starts there)", r->name,
          p->zstd ? "zstd" : "gzip", (unsigned long long)p->bad_at,
          p->bad_why, p->zstd ? "frame" : "BGZF member");
    p->bad_why = NULL;
}

static unsigned char *back_for(sc_par *p, size_t dsize)
{
    return grown(&p->back, &p->back_cap, dsize);
}

/* The decoded round's units in order, up to the first that failed, whose
 * fault is held until the bytes before it are out. Straight, they are in
 * dst already (but for the one aside); ahead, in the stage. Returns the
 * bytes put in dst (straight) or in the stage (ahead). */
static size_t deliver(sc_par *p, unsigned char *dst, size_t len, size_t to)
{
    size_t out = 0, i;
    for (i = 0; i < p->n && !p->units[i].why; i++) {
        const unit *u = &p->units[i];
        p->last_empty = u->got == 0;
        if (u->aside) {
            /* Units before it that closed up may have left it room. */
            size_t head = len - out < u->got ? len - out : u->got;
            memcpy(dst + out, p->stage, head);
            p->stage_pos = head;
            p->stage_len = u->got;
            out += head;
        } else {
            out += u->got;
        }
    }
    p->done_units += i;
    p->pos = to;
    if (i < p->n) {
        p->bad_at = p->units[i].at;
        p->bad_why = p->units[i].why;
        p->pos = p->end;
    }
    return out;
}

/* Starts the round after the staged one decoding into back, so that it
 * is ready when the stage has been served: where the bytes in hand make
 * a round ahead, no unit failed and no worker claims members. */
static void launch_next(sc_par *p, sc_reader *r, size_t len)
{
    if (p->bad_why || p->claiming) return;
    p->pos = sc_par_make_room(p, p->pos);
    int stop;
    size_t ahead = ahead_bytes(p, len);
    if (!ahead || !back_for(p, ahead)) return;
    size_t to = plan(p, r, p->back, ahead, 1, &stop);
    if (p->n && sc_par_launch(p, r, to) != 0) p->n = 0;
}

/* A round decoded ahead, out bytes in the stage: the next one started,
 * then the request served from it, or its fault reported (-1). */
static ssize_t staged(sc_par *p, sc_reader *r, unsigned char *dst,
                      size_t len, size_t out)
{
    p->stage_pos = 0;
    p->stage_len = out;
    launch_next(p, r, len);
    out = serve(p, dst, len);
    if (out || !p->bad_why) return (ssize_t)out;
    report(p, r);
    return -1;
}

/* The round from the background: it becomes the stage. */
static ssize_t joined(sc_par *p, sc_reader *r, unsigned char *dst,
                      size_t len)
{
    sc_par_join(p);
    unsigned char *b = p->stage;
    size_t cap = p->stage_cap;
    p->stage = p->back;
    p->stage_cap = p->back_cap;
    p->back = b;
    p->back_cap = cap;
    return staged(p, r, dst, len, deliver(p, dst, len, p->bg_to));
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
    if (p->stage_pos < p->stage_len) return (ssize_t)serve(p, dst, len);
    for (;;) {
        /* The round decoding in the background comes next, and nothing
         * may touch the buffer or the units before it is joined; a round
         * of empty units only (pzstd's empty frames) starts the next one
         * and gives nothing, so this comes round again. */
        if (p->bg_on) {
            ssize_t got = joined(p, r, dst, len);
            if (got != 0) return got;
            continue;
        }
        if (p->bad_why) {
            report(p, r);
            return -1;
        }
        p->pos = sc_par_make_room(p, p->pos);
        int stop;
        size_t ahead = ahead_bytes(p, len);
        if (ahead && !stage_for(p, ahead)) ahead = 0;
        size_t to = ahead ? plan(p, r, p->stage, ahead, 1, &stop)
                          : plan(p, r, dst, len, 0, &stop);
        if (p->n) {
            sc_par_decode_round(p, r, to);
            size_t out = deliver(p, dst, len, to);
            ssize_t got = ahead ? staged(p, r, dst, len, out)
                        : out || !p->bad_why ? (ssize_t)out
                        : (report(p, r), -1);
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
