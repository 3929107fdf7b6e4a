/* par_impl.h — the parallel decoder's state, shared by par.c (what a
 * request takes, in order) and par_round.c (a round of units decoded on
 * the reader's pool). */
#ifndef SC_PAR_IMPL_H
#define SC_PAR_IMPL_H

#include <pthread.h>
#include "io/par.h"
#include "io/reader_impl.h"

#define BUF_BYTES ((size_t)64 << 20)
#define AHEAD_MAX ((size_t)64 << 20)
#define AHEAD_MIN ((size_t)32 << 20)
#define READ_STEP ((size_t)8 << 20)
#define COPY_THREADS 4u

typedef struct unit {
    const unsigned char *in;
    size_t csize, dsize;        /* dsize: the room it decodes into */
    unsigned char *out;
    uint64_t at;                /* compressed offset in the file */
    const char *why;            /* NULL, or why it did not decode */
    size_t got;                 /* decoded: dsize where exact */
    int exact;                  /* dsize is its size, not a bound */
    int aside;                  /* decoded into the stage, past dst's end */
} unit;

struct sc_par {
    sc_pool *pool;
    sc_pool *copy_pool;         /* serves the stage; NULL: one thread */
    unsigned threads;
    pthread_mutex_t lock;       /* the free scratch */
    sc_unit_scratch **free_slots;
    unsigned n_free;
    unsigned char *buf;         /* compressed bytes in hand: [pos, end) */
    size_t pos, end;
    int eof, zstd;
    /* Decoded bytes served by copy: the unit that ran past a request,
     * or a round decoded ahead of small requests. */
    unsigned char *stage;
    size_t stage_cap, stage_pos, stage_len;
    /* The next round, decoded ahead into back by the thread bg (units
     * ending at bg_to in buf) while the stage is served. */
    unsigned char *back;
    size_t back_cap, bg_to;
    pthread_t bg;
    int bg_on;
    unit *units;
    size_t units_cap, n;
    uint64_t bad_at;            /* the first unit that did not decode, */
    const char *bad_why;        /* reported once those before it are out */
    uint64_t done_units;        /* units decoded in this file */
    int last_empty;             /* BGZF: the last member was empty (EOF) */
    sc_reader *r;               /* this loop's: reading task 0 */
    size_t read_len;
    ssize_t read_got;
    int reading;
    /* Workers have claimed members (par_claim.c): no round is decoded
     * ahead, so that the stage empties and claims go on from there. */
    int claiming;
    sc_status claim_st;         /* the first claim's fault in the file's */
    uint64_t claim_at;          /* order, and where it is */
    char claim_msg[512];
};

/* A decoding thread's scratch, taken (NULL: no memory) and given back. */
sc_unit_scratch *sc_par_take(sc_par *p);
void sc_par_give(sc_par *p, sc_unit_scratch *s);
/* Bytes to read after the bytes in hand: step, or what room is left. */
size_t sc_par_room(const sc_par *p, size_t step);
/* dst = src on the copy pool's threads (started with the first copy),
 * whatever the calling thread's loops do. */
void sc_par_copy(sc_par *p, void *dst, const void *src, size_t bytes);
/* Moves the bytes in hand from from on to the start of the buffer when
 * too little room is left after them to read a step; where they start
 * now. Units point into the buffer: only between loops. */
size_t sc_par_make_room(sc_par *p, size_t from);
/* Decodes the planned units p->units[0, n), which end at to in the
 * buffer, on the pool, reading on meanwhile. */
void sc_par_decode_round(sc_par *p, sc_reader *r, size_t to);

/* The planned round decoded by a thread of its own: 0, or -1 where none
 * could be started; then joined, where one was. */
int sc_par_launch(sc_par *p, sc_reader *r, size_t to);
void sc_par_join(sc_par *p);

#endif
