/* merge.c — sc-rsort beyond one in-memory sort: the k-way merge of runs
 * or of sorted inputs (a binary heap over the sources, ties broken by
 * source number so that the earlier run or input wins: that is what
 * keeps the merge stable), and -C's reading of the inputs. */
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include "jobs/merge.h"
#include "stream/stream.h"

#define MIN_SOURCE_ELEMS ((size_t)1024)
#define MAX_SOURCE_ELEMS ((size_t)1 << 22)
/* Runs merged at once however small -S is: 16 floor-sized buffers are
 * 68 KiB (136 KiB of 64-bit elements), next to the megabytes a process
 * holds anyway, and keep the number of passes low. */
#define MIN_FAN_IN ((size_t)16)

/* ------------------------------------------------------------------ */
/* Sources: a buffer of sorted elements and how to refill it.           */

typedef struct source source;
struct source {
    unsigned char *buf;             /* elements of order->size bytes */
    size_t cap, len, pos;
    uint64_t head_rank;             /* rank of element pos, for the heap */
    /* Refills buf from the start; len == 0 at the end. */
    sc_status (*refill)(source *s);
    sc_ctx *ctx;
    const sc_elem_order *order;
    /* A run: its place in the file, in elements. */
    const sc_runs *runs;
    uint64_t off, left;
    /* An input (-m, -C): its reader, order check and -P count. */
    sc_reader *r;
    sc_order_cursor cur;
    sc_read_meter *meter;
    /* -m --indices: the input's order (order is then the keys with
     * positions that its items become), and its number, their tag. */
    const sc_elem_order *read_order;
    uint64_t tag;
};

/* -m --indices: the n items just read, from position first of the
 * input on, to keys with their tagged positions, in place: from the
 * front where an item is at least as large as the new ones, else from
 * the back, so that none is overwritten before it is read. */
static void to_keypos(source *s, size_t n, uint64_t first)
{
    const sc_elem_order *in = s->read_order;
    uint64_t tag = s->tag << SC_TAG_SHIFT;
    for (size_t k = 0; k < n; k++) {
        size_t i = in->size >= SC_KEYPOS_BYTES ? k : n - 1 - k;
        sc_keypos_make(s->buf + i * SC_KEYPOS_BYTES, in,
                       s->buf + i * in->size, tag | (first + i));
    }
}

static sc_status refill_run(source *s)
{
    size_t want = s->left < s->cap ? (size_t)s->left : s->cap;
    sc_status st = sc_runs_read(s->runs, s->off, s->buf, want);
    if (st != SC_OK) return st;
    s->off += want;
    s->left -= want;
    s->len = want;
    return SC_OK;
}

static sc_status refill_input(source *s)
{
    size_t got = 0;
    double t0 = sc_now();
    sc_status st = sc_reader_read(s->r, s->buf, s->cap, &got);
    sc_phase_add(s->meter->times, SC_PH_READ, sc_now() - t0);
    s->meter->elems += got;
    if (s->meter->progress)
        sc_progress_update(s->meter->progress,
                           (double)s->order->size * (double)s->meter->elems,
                           s->meter->total_bytes);
    uint64_t first = s->cur.pos;
    const sc_elem_order *in = s->read_order ? s->read_order : s->order;
    if (st == SC_OK) st = sc_order_check(s->ctx, in, &s->cur, s->buf, got);
    if (st == SC_OK && s->read_order) to_keypos(s, got, first);
    s->len = st == SC_OK ? got : 0;
    return st;
}

/* Refills an exhausted source; data faults end it and are noted. */
static sc_status advance(source *s, sc_fault *fault)
{
    s->pos = 0;
    sc_status st = s->refill(s);
    if (st != SC_OK) s->len = 0;
    if (s->len) s->head_rank = sc_elem_rank(s->order, s->buf, 0);
    return fault ? sc_fault_note(fault, s->ctx, st) : st;
}

/* The heap holds source numbers; the smaller rank, then the earlier
 * source, comes first. */
static int before(const source *src, size_t a, size_t b)
{
    return src[a].head_rank < src[b].head_rank ||
           (src[a].head_rank == src[b].head_rank && a < b);
}

static void sift_down(const source *src, size_t *heap, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && before(src, heap[l], heap[m])) m = l;
        if (l + 1 < n && before(src, heap[l + 1], heap[m])) m = l + 1;
        if (m == i) return;
        size_t t = heap[i]; heap[i] = heap[m]; heap[m] = t;
        i = m;
    }
}

/* Merges k filled sources into the sink through an output buffer of cap
 * elements. */
static sc_status merge(source *src, size_t k, sc_sink *sink, void *out,
                       size_t cap, sc_fault *fault)
{
    const unsigned size = sink->order->size;
    size_t *heap = malloc((k ? k : 1) * sizeof *heap), n = 0, len = 0;
    if (!heap) return sc_fail(sink->ctx, SC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < k; i++)
        if (src[i].len) heap[n++] = i;
    for (size_t i = n / 2; i-- > 0;) sift_down(src, heap, n, i);
    sc_status st = SC_OK;
    while (n && st == SC_OK) {
        source *s = &src[heap[0]];
        memcpy((unsigned char *)out + len++ * size, s->buf + s->pos++ * size,
               size);
        if (len == cap) {
            st = sc_sink_put(sink, out, len);
            len = 0;
        }
        if (s->pos < s->len)
            s->head_rank = sc_elem_rank(s->order, s->buf, s->pos);
        else if (st == SC_OK && (st = advance(s, fault)) == SC_OK && !s->len)
            heap[0] = heap[--n];
        sift_down(src, heap, n, 0);
    }
    if (st == SC_OK) st = sc_sink_put(sink, out, len);
    free(heap);
    return st;
}

/* k sources and the output buffer in one block, about mem_bytes in all
 * but no less than MIN_SOURCE_ELEMS each (so many runs still read in
 * useful pieces), of `room` bytes an item: o's, or more where items
 * grow once read (to_keypos). */
typedef struct source_set {
    source *src;
    size_t k, per;
    unsigned room;
    unsigned char *block;
} source_set;

static sc_status sources_new(source_set *ss, sc_ctx *ctx,
                             const sc_elem_order *o, size_t k,
                             size_t mem_bytes, unsigned room)
{
    size_t per = mem_bytes / room / (k + 1);
    if (per < MIN_SOURCE_ELEMS) per = MIN_SOURCE_ELEMS;
    if (per > MAX_SOURCE_ELEMS) per = MAX_SOURCE_ELEMS;
    ss->k = k;
    ss->per = per;
    ss->room = room;
    ss->src = calloc(k ? k : 1, sizeof *ss->src);
    ss->block = malloc((k + 1) * per * room);
    if (!ss->src || !ss->block)
        return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < k; i++) {
        ss->src[i].buf = ss->block + i * per * room;
        ss->src[i].cap = per;
        ss->src[i].ctx = ctx;
        ss->src[i].order = o;
    }
    return SC_OK;
}

static sc_status sources_run(source_set *ss, sc_sink *sink, sc_fault *fault)
{
    sc_status st = SC_OK;
    for (size_t i = 0; i < ss->k && st == SC_OK; i++)
        st = advance(&ss->src[i], fault);
    if (st == SC_OK)
        st = merge(ss->src, ss->k, sink,
                   ss->block + ss->k * ss->per * ss->room, ss->per,
                   fault);
    return st;
}

static void sources_free(source_set *ss)
{
    free(ss->src);
    free(ss->block);
}

/* Merges the k runs from run first on (its elements start at off) into
 * the sink. */
static sc_status merge_group(sc_runs *rs, size_t first, size_t k,
                             uint64_t off, const sc_elem_order *o,
                             sc_sink *sink,
                             size_t mem_bytes)
{
    source_set ss = { 0 };
    sc_status st = sources_new(&ss, sink->ctx, o, k, mem_bytes, o->size);
    for (size_t i = 0; st == SC_OK && i < k; i++) {
        ss.src[i].refill = refill_run;
        ss.src[i].runs = rs;
        ss.src[i].off = off;
        ss.src[i].left = sc_runs_length(rs, first + i);
        off += ss.src[i].left;
    }
    if (st == SC_OK) st = sources_run(&ss, sink, NULL);
    sources_free(&ss);
    return st;
}

/* Runs merged at once within mem_bytes: one floor-sized buffer each and
 * one for the output, but never fewer than MIN_FAN_IN. */
static size_t fan_in(size_t mem_bytes, unsigned size)
{
    size_t k = mem_bytes / (MIN_SOURCE_ELEMS * size);
    k = k > 1 ? k - 1 : 0;
    return k < MIN_FAN_IN ? MIN_FAN_IN : k;
}

/* One pass: each group of fan consecutive runs becomes one run of a new
 * file, which then takes the old one's place. Consecutive groups and the
 * merge's ties (earlier run first) keep the order stable. */
static sc_status merge_pass(sc_ctx *ctx, sc_runs *rs, size_t fan,
                            const sc_elem_order *o, size_t mem_bytes)
{
    sc_runs *next;
    sc_status st = sc_runs_open_beside(&next, rs);
    size_t n = sc_runs_count(rs);
    uint64_t off = 0;
    for (size_t g = 0; st == SC_OK && g < n; g += fan) {
        size_t k = n - g < fan ? n - g : fan;
        sc_sink to = { .ctx = ctx, .order = o, .to_runs = next };
        if ((st = sc_runs_begin(next)) == SC_OK)
            st = merge_group(rs, g, k, off, o, &to, mem_bytes);
        for (size_t i = g; i < g + k; i++) off += sc_runs_length(rs, i);
    }
    if (st != SC_OK) { sc_runs_close(next); return st; }
    sc_runs_replace(rs, next);
    return SC_OK;
}

sc_status sc_merge_runs(sc_runs *rs, const sc_elem_order *o, sc_sink *sink,
                        size_t mem_bytes)
{
    /* More runs than fit in memory at once (-S): merge in passes, so the
     * buffers stay near -S for any input size. */
    size_t fan = fan_in(mem_bytes, o->size);
    sc_status st = SC_OK;
    while (st == SC_OK && sc_runs_count(rs) > fan)
        st = merge_pass(sink->ctx, rs, fan, o, mem_bytes);
    return st == SC_OK ? merge_group(rs, 0, sc_runs_count(rs), 0, o, sink,
                                     mem_bytes) : st;
}

/* No operands: standard input. */
static const char *const *inputs_or_stdin(const char *const *paths, size_t *n)
{
    static const char *const stdin_only[] = { "-" };
    if (*n) return paths;
    *n = 1;
    return stdin_only;
}

/* -m --indices: the positions held, now that each input's length is
 * known. */
static sc_status release_positions(sc_sink *sink, const source_set *ss,
                                   const sc_job *j)
{
    uint64_t *len = malloc((ss->k ? ss->k : 1) * sizeof *len);
    if (!len) return sc_fail(sink->ctx, SC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < ss->k; i++) len[i] = ss->src[i].cur.pos;
    sc_status st = sc_sink_release(sink, j, len, ss->k);
    free(len);
    return st;
}

/* -m holds every input open at once: lift the soft limit on open files to
 * the hard one, and refuse, before anything is written, what still does
 * not fit. */
static sc_status room_for_inputs(sc_ctx *ctx, size_t n)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return SC_OK;
    if (rl.rlim_cur < rl.rlim_max) {
        rlim_t was = rl.rlim_cur;
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) != 0) rl.rlim_cur = was;
    }
    const rlim_t spare = 32;       /* standard streams, output, temp files */
    if (rl.rlim_cur != RLIM_INFINITY && n + spare > rl.rlim_cur)
        return sc_fail(ctx, SC_ERR_IO, "-m with %zu inputs needs more open "
                       "files than the limit of %llu (ulimit -n); merge them "
                       "in groups", n, (unsigned long long)rl.rlim_cur);
    return SC_OK;
}

sc_status sc_merge_inputs(sc_ctx *ctx, const sc_job *j,
                          const char *const *paths, size_t n,
                          const sc_elem_order *o, sc_sink *sink,
                          size_t mem_bytes, sc_fault *fault,
                          sc_read_meter *meter)
{
    paths = inputs_or_stdin(paths, &n);
    source_set ss = { 0 };
    /* --indices: each input's items become keys with their positions,
     * held (sink.c) until every input's length is known. */
    int keypos = sink->positions != 0;
    unsigned room = keypos && o->size < SC_KEYPOS_BYTES ? SC_KEYPOS_BYTES
                                                        : o->size;
    sc_status st = room_for_inputs(ctx, n);
    if (st == SC_OK && keypos && n >> (64 - SC_TAG_SHIFT))
        st = sc_fail(ctx, SC_ERR_USAGE, "-m --indices takes at most %llu "
                     "inputs", (unsigned long long)1 << (64 - SC_TAG_SHIFT));
    if (st == SC_OK && keypos) st = sc_sink_hold(sink, j->tmpdir, mem_bytes);
    if (st == SC_OK) st = sources_new(&ss, ctx, o, n, mem_bytes, room);
    for (size_t i = 0; st == SC_OK && i < n; i++) {
        source *s = &ss.src[i];
        s->refill = refill_input;
        s->meter = meter;
        s->cur.name = sc_input_name(paths[i]);
        if (keypos) {
            s->read_order = o;
            s->order = sink->order;
            s->tag = i;
        }
        st = sc_job_open_reader(ctx, j, &paths[i], 1, &s->r);
    }
    if (st == SC_OK) st = sources_run(&ss, sink, fault);
    if (st == SC_OK && keypos) st = release_positions(sink, &ss, j);
    for (size_t i = 0; ss.src && i < n; i++)
        sc_reader_close(ss.src[i].r);
    sources_free(&ss);
    sc_sink_close_held(sink);
    return st;
}

sc_status sc_check_inputs(sc_ctx *ctx, const sc_job *j,
                          const char *const *paths, size_t n,
                          const sc_elem_order *o, int strict,
                          size_t chunk_elems, sc_fault *fault,
                          sc_read_meter *meter)
{
    paths = inputs_or_stdin(paths, &n);
    /* One reader over all inputs, as cat would join them: an element or
     * a text number may straddle two files, and the order carries on from
     * one input into the next. Positions count from the first input. */
    source s = { 0 };
    s.cap = chunk_elems;
    s.buf = malloc(chunk_elems * o->size);
    s.refill = refill_input;
    s.meter = meter;
    s.ctx = ctx;
    s.order = o;
    s.cur.strict = strict;
    s.cur.name = n == 1 ? sc_input_name(paths[0]) : "(inputs as one stream)";
    sc_status st = s.buf ? SC_OK : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (st == SC_OK) st = sc_job_open_reader(ctx, j, paths, n, &s.r);
    while (st == SC_OK && (st = advance(&s, fault)) == SC_OK && s.len) {}
    sc_reader_close(s.r);
    free(s.buf);
    return st;
}
