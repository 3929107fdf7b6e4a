/* cpu_rsort.c — the stable sort of records (and argsort of elements or
 * records) by their key, on the thread pool, for every key type and
 * record size.
 *
 * Each item's key is ranked (sc_elem_order: type, --bits, -r) and put
 * above the item's index in one 64-bit word, rank << I | index, I the
 * bits an index needs; those words are distinct, so the existing 64-bit
 * radix sort (cpu_sort.c) orders them stably for free, and their low I
 * bits are then the permutation.  A rank too wide to share a word with
 * the index (64-bit keys) is sorted in digits of 64 - I bits, least
 * significant first, each pass a sort of (digit << I | position) words:
 * an LSD radix sort whose passes are themselves stable.  The items are
 * then gathered, whole or as their key and position (SC_KEYPOS_BYTES),
 * piece by piece on the pool, each piece handed on as it is made.
 *
 * Memory beyond the items: 16 bytes an item (the words and the sort's
 * other buffer), 32 where the rank needs several passes, and one piece.
 *
 * Words rather than a sort of (key, index) pairs: ranking, gathering and
 * I/O dominate a record sort, and the little a pairs sort would save did
 * not pay for a payload carried through radix_impl.h and cpu_buckets.c
 * (bench/RESULTS.md, "Session 25").
 *
 * 8-byte records with a 4-byte key in the host's order (an edge list)
 * need neither: each record is a 64-bit word, its key field ranked in
 * place (sc_key: nothing to do for u32), so the records themselves are
 * sorted on the key's bits (stable: the other half rides along), and the
 * sort hands each piece on as it is final, its keys turned back, with
 * no gather through memory at random.
 */
#include <stdlib.h>
#include <string.h>
#include "cpu/phases.h"

/* Bytes of output a piece: big enough that each thread's share of the
 * gather is worth its start, small enough to stay near the cache. */
#define PIECE_BYTES ((size_t)4 << 20)
/* Least bytes a thread's share of a piece or of the ranking. */
#define PART_BYTES ((uint64_t)64 << 10)

typedef struct rsort {
    sc_ctx *ctx;
    const unsigned char *in;
    uint64_t n;
    const sc_elem_order *o;
    unsigned ibits;         /* bits of an index */
    unsigned dbits;         /* bits of the rank's digit a word takes */
    unsigned lo;            /* the digit's first bit in the rank */
    uint64_t *words;        /* digit << ibits | index */
    uint64_t *ranks;        /* the ranks, where several passes need them */
    const uint64_t *perm;   /* in the pass: item at each position so far */
    /* The gather. */
    int keypos;             /* SC_GATHER_* */
    uint64_t base;
    uint64_t first;         /* the piece's first output position */
    uint64_t len;
    unsigned char *out;
    unsigned parts;
} rsort;

static uint64_t ones(unsigned bits)
{
    return bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
}

/* The width of the ranks: the order's bit range. */
static unsigned rank_bits(const sc_elem_order *o)
{
    uint64_t mask = o->key_size == 8 ? o->o64.mask : o->o32.mask;
    return (unsigned)__builtin_popcountll(mask);
}

/* Part i of parts of [0, n). */
static void part_of(uint64_t n, unsigned parts, unsigned i, uint64_t *b,
                    uint64_t *e)
{
    *b = (uint64_t)((unsigned __int128)n * i / parts);
    *e = (uint64_t)((unsigned __int128)n * (i + 1) / parts);
}

/* Parts for n items of `bytes` each: one a thread at most, each at least
 * PART_BYTES. */
static unsigned parts_for(const sc_ctx *ctx, uint64_t n, size_t bytes)
{
    uint64_t parts = n * bytes / PART_BYTES;
    unsigned threads = sc_phases_seqs(ctx, UINT64_MAX);
    if (parts > threads) parts = threads;
    return parts ? (unsigned)parts : 1;
}

static void run_parts(rsort *rs, unsigned parts, sc_task_fn fn)
{
    rs->parts = parts;
    if (parts > 1) sc_pool_run(rs->ctx->pool, parts, fn, rs);
    else fn(rs, 0);
}

/* The first pass's words straight from the items (ranks kept aside
 * where later passes need them). */
static void rank_part(void *arg, unsigned i)
{
    rsort *rs = arg;
    uint64_t b, e, mask = ones(rs->dbits);
    part_of(rs->n, rs->parts, i, &b, &e);
    for (uint64_t k = b; k < e; k++) {
        uint64_t r = sc_elem_rank(rs->o, rs->in, k);
        if (rs->ranks) rs->ranks[k] = r;
        rs->words[k] = (r & mask) << rs->ibits | k;
    }
}

/* A later pass's words: position k holds item perm[k] so far.  Sorted
 * words are read through the index's mask wherever they are read, which
 * spares a pass to clear their digits. */
static void digit_part(void *arg, unsigned i)
{
    rsort *rs = arg;
    uint64_t b, e, mask = ones(rs->dbits), imask = ones(rs->ibits);
    part_of(rs->n, rs->parts, i, &b, &e);
    for (uint64_t k = b; k < e; k++)
        rs->words[k] = ((rs->ranks[rs->perm[k] & imask] >> rs->lo) & mask)
                       << rs->ibits | k;
}

/* After a later pass: the item at each position, through perm. */
static void follow_part(void *arg, unsigned i)
{
    rsort *rs = arg;
    uint64_t b, e, mask = ones(rs->ibits);
    part_of(rs->n, rs->parts, i, &b, &e);
    for (uint64_t k = b; k < e; k++)
        rs->words[k] = rs->perm[rs->words[k] & mask] & mask;
}

/* Sorts the words on the digit's bits and the index's. */
static sc_status sort_words(rsort *rs, sc_phase_times *times, unsigned bits)
{
    return sc_cpu_sort(rs->ctx, times, rs->words, rs->n, SC_U64, 0,
                       rs->ibits + bits, 0);
}

/* The passes: afterwards the low ibits of words[k] are the index of the
 * item at output position k. */
static sc_status order_items(rsort *rs, sc_phase_times *times)
{
    unsigned width = rank_bits(rs->o);
    unsigned parts = parts_for(rs->ctx, rs->n, rs->o->size);
    double t0 = sc_now();
    run_parts(rs, parts, rank_part);
    sc_phase_add(times, SC_PH_COUNT, sc_now() - t0);
    unsigned bits = width < rs->dbits ? width : rs->dbits;
    sc_status st = sort_words(rs, times, bits);
    if (st != SC_OK) return st;
    uint64_t *perm = NULL;
    for (rs->lo = bits; rs->lo < width; rs->lo += bits) {
        bits = width - rs->lo < rs->dbits ? width - rs->lo : rs->dbits;
        /* The permutation so far moves aside; the words take the
         * next digit. */
        uint64_t *t = perm ? perm : malloc(rs->n * sizeof *t);
        if (!t) return sc_fail(rs->ctx, SC_ERR_NOMEM, "out of memory");
        perm = rs->words;
        rs->words = t;
        rs->perm = perm;
        run_parts(rs, parts, digit_part);
        if ((st = sort_words(rs, times, bits)) != SC_OK) break;
        run_parts(rs, parts, follow_part);
    }
    free(perm);
    return st;
}

/* Output positions of the piece, whole items or key and position. */
static void gather_part(void *arg, unsigned i)
{
    rsort *rs = arg;
    const sc_elem_order *o = rs->o;
    uint64_t b, e, mask = ones(rs->ibits);
    part_of(rs->len, rs->parts, i, &b, &e);
    const uint64_t *word = rs->words + rs->first;
    for (uint64_t k = b; k < e; k++) {
        uint64_t idx = word[k] & mask;
        const unsigned char *item = rs->in + idx * o->size;
        uint64_t pos = rs->base + idx;
        if (rs->keypos == SC_GATHER_ITEMS)
            memcpy(rs->out + k * o->size, item, o->size);
        else if (rs->keypos == SC_GATHER_KEYPOS)
            sc_keypos_make(rs->out + k * SC_KEYPOS_BYTES, o, item, pos);
        else
            memcpy(rs->out + k * sizeof pos, &pos, sizeof pos);
    }
}

static sc_status gather(rsort *rs, sc_phase_times *times, sc_ready_fn ready,
                        void *arg)
{
    size_t size = sc_gather_bytes(rs->o, rs->keypos);
    /* With no one to hand pieces to, the caller's array is one piece. */
    size_t piece = !ready ? rs->n
                 : PIECE_BYTES / size ? PIECE_BYTES / size : 1;
    if (piece > rs->n) piece = rs->n;
    rs->out = ready ? malloc(piece * size) : arg;
    if (!rs->out) return sc_fail(rs->ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = SC_OK;
    for (rs->first = 0; st == SC_OK && rs->first < rs->n;
         rs->first += rs->len) {
        rs->len = rs->n - rs->first < piece ? rs->n - rs->first : piece;
        double t0 = sc_now();
        run_parts(rs, parts_for(rs->ctx, rs->len, size), gather_part);
        sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
        if (ready) st = ready(arg, rs->out, rs->len);
    }
    if (ready) free(rs->out);
    return st;
}

/* A key at byte 0 or 4 of a record is bits 0-31 or 32-63 of its word
 * on a little-endian host only. */
int sc_cpu_sorts_whole(const sc_elem_order *o, int keypos)
{
    return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&
           keypos == SC_GATHER_ITEMS && o->size == 8 && o->key_size == 4 &&
           !o->swap;
}

/* Each record's key field in words[b, e) to its rank (or back). */
static void rank_fields(const sc_elem_order *o, uint64_t *w, uint64_t b,
                        uint64_t e, int unrank)
{
    sc_key key = o->o32.key;
    if (!key.sign) return;
    unsigned at = 8 * o->key_off;
    for (uint64_t k = b; k < e; k++) {
        uint32_t x = (uint32_t)(w[k] >> at);
        uint32_t y = unrank ? sc_key_unrank(key, x) : sc_key_rank(key, x);
        w[k] ^= (uint64_t)(x ^ y) << at;
    }
}

/* Part i of the copy of the items into words, their keys ranked. */
static void copy_part(void *arg, unsigned i)
{
    rsort *rs = arg;
    uint64_t b, e;
    part_of(rs->n, rs->parts, i, &b, &e);
    memcpy(rs->words + b, rs->in + b * 8, (e - b) * 8);
    rank_fields(rs->o, rs->words, b, e, 0);
}

/* Part i of the sorted words' keys turned back. */
static void unrank_part(void *arg, unsigned i)
{
    rsort *rs = arg;
    uint64_t b, e;
    part_of(rs->n, rs->parts, i, &b, &e);
    rank_fields(rs->o, rs->words, b, e, 1);
}

/* A sorted piece handed on with its keys turned back. */
typedef struct direct_out {
    const sc_elem_order *o;
    sc_ready_fn ready;
    void *arg;
} direct_out;

/* The sort hands on what is final, up to the whole array at once: it
 * goes on in pieces of PIECE_BYTES, as the gather's do, each turned back
 * while it is in the cache for the write. */
static sc_status hand_on_direct(void *arg, void *items, uint64_t n)
{
    direct_out *d = arg;
    uint64_t *w = items, piece = PIECE_BYTES / 8;
    sc_status st = SC_OK;
    for (uint64_t at = 0; st == SC_OK && at < n; at += piece) {
        uint64_t len = n - at < piece ? n - at : piece;
        rank_fields(d->o, w + at, 0, len, 1);
        st = d->ready(d->arg, w + at, len);
    }
    return st;
}

/* The records (sc_cpu_sorts_whole's) copied into words (the caller's array
 * where nothing is handed on) and sorted there on the key's bits. */
static sc_status sort_direct(rsort *rs, sc_phase_times *times,
                             sc_ready_fn ready, void *arg)
{
    const sc_order *k = &rs->o->o32;
    rs->words = ready ? sc_big_alloc(rs->n * 8) : arg;
    if (!rs->words)
        return sc_fail(rs->ctx, SC_ERR_NOMEM, "out of memory sorting %llu "
                       "records", (unsigned long long)rs->n);
    unsigned parts = parts_for(rs->ctx, rs->n, 8);
    double t0 = sc_now();
    run_parts(rs, parts, copy_part);
    sc_phase_add(times, SC_PH_COUNT, sc_now() - t0);
    unsigned lo = 8 * rs->o->key_off + k->shift;
    unsigned hi = lo + (unsigned)__builtin_popcount(k->mask);
    direct_out d = { rs->o, ready, arg };
    sc_status st = sc_cpu_sort_ready(rs->ctx, times, rs->words, rs->n, SC_U64,
                                     lo, hi, k->flip != 0,
                                     ready ? hand_on_direct : NULL, &d);
    if (ready) {
        free(rs->words);
    } else {
        /* Also after a failure: the array holds records, not ranks. */
        t0 = sc_now();
        run_parts(rs, parts, unrank_part);
        sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    }
    return st;
}

sc_status sc_cpu_sort_records(sc_ctx *ctx, sc_phase_times *times,
                              const void *in, uint64_t n,
                              const sc_elem_order *o, int keypos,
                              uint64_t base, sc_ready_fn ready, void *arg)
{
    if (n == 0) return SC_OK;
    if (sc_cpu_sorts_whole(o, keypos)) {
        rsort rs = { .ctx = ctx, .in = in, .n = n, .o = o };
        return sort_direct(&rs, times, ready, arg);
    }
    rsort rs = { .ctx = ctx, .in = in, .n = n, .o = o, .keypos = keypos,
                 .base = base };
    rs.ibits = n > 1 ? 64 - (unsigned)__builtin_clzll(n - 1) : 0;
    rs.dbits = 64 - rs.ibits;
    rs.words = sc_big_alloc(n * sizeof *rs.words);
    if (rank_bits(o) > rs.dbits) rs.ranks = malloc(n * sizeof *rs.ranks);
    sc_status st = SC_OK;
    if (!rs.words || (rank_bits(o) > rs.dbits && !rs.ranks))
        st = sc_fail(ctx, SC_ERR_NOMEM, "out of memory sorting %llu records",
                     (unsigned long long)n);
    if (st == SC_OK) st = order_items(&rs, times);
    free(rs.ranks);
    rs.ranks = NULL;
    if (st == SC_OK) st = gather(&rs, times, ready, arg);
    free(rs.words);
    return st;
}
