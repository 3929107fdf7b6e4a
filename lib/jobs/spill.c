/* spill.c — rejects held in memory, spilling to a temporary file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "io/io.h"
#include "jobs/spill.h"

#define REPLAY_BYTES ((size_t)16 << 20)
/* Memory grows by blocks, never by realloc: growing one buffer copies
 * what it holds again at every doubling, and its 4 KiB pages fault one by
 * one; blocks are huge pages and filled once.  They are mappings of their
 * own (sc_pages_alloc), so the replay may hand them to a pipe by reference:
 * nothing writes them again, even once they are freed. */
#define BLOCK_BYTES ((size_t)64 << 20)

typedef struct block {
    struct block *next;
    size_t len, cap;            /* in elements */
    uint64_t elems[];           /* of the spill's size: 8-byte aligned */
} block;

struct sc_spill {
    sc_ctx *ctx;
    const char *dir;        /* -T's */
    char path[4096];
    int fd;                 /* -1 until the first spill */
    block *head, *tail;     /* in memory, in order */
    size_t size;            /* of an element: 4 or 8 bytes */
    size_t mem_len, limit;  /* in elements */
    uint64_t file_elems;
};

sc_status sc_spill_open(sc_spill **out, sc_ctx *ctx, const char *dir,
                        size_t limit_bytes, size_t elem_size)
{
    sc_spill *sp = calloc(1, sizeof *sp);
    if (!sp) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    sp->ctx = ctx;
    sp->fd = -1;
    sp->size = elem_size;
    sp->limit = limit_bytes / elem_size ? limit_bytes / elem_size : 1;
    sp->dir = sc_temp_dir(dir);
    sc_temp_sweep_dir(sp->dir);
    *out = sp;
    return SC_OK;
}

static void free_blocks(sc_spill *sp)
{
    for (block *b = sp->head, *next; b; b = next) {
        next = b->next;
        sc_pages_free(b, sizeof *b + b->cap * sp->size);
    }
    sp->head = sp->tail = NULL;
    sp->mem_len = 0;
}

/* Moves what memory holds to the end of the file. */
static sc_status spill(sc_spill *sp)
{
    if (sp->fd < 0) {
        sp->fd = sc_temp_open(sp->dir, SC_TEMP_SPILL, sp->path,
                              sizeof sp->path);
        if (sp->fd < 0)
            return sc_fail_errno(sp->ctx, SC_ERR_IO, errno, "%s: cannot create "
                                 "temporary file", sp->path);
    }
    for (block *b = sp->head; b; b = b->next)
        if (sc_write_full(sp->fd, b->elems, b->len * sp->size) != 0)
            return sc_fail_errno(sp->ctx, SC_ERR_IO, errno, "%s: write error",
                                 sp->path);
    sp->file_elems += sp->mem_len;
    free_blocks(sp);
    return SC_OK;
}

/* A block with room at the tail, within the limit. */
static sc_status room(sc_spill *sp, size_t *avail)
{
    block *t = sp->tail;
    if (!t || t->len == t->cap) {
        size_t cap = sp->limit - sp->mem_len;
        if (cap > BLOCK_BYTES / sp->size) cap = BLOCK_BYTES / sp->size;
        block *b = sc_pages_alloc(sizeof *b + cap * sp->size);
        if (!b) return sc_fail(sp->ctx, SC_ERR_NOMEM, "out of memory");
        b->next = NULL;
        b->len = 0;
        b->cap = cap;
        if (t) t->next = b;
        else sp->head = b;
        sp->tail = t = b;
    }
    *avail = t->cap - t->len;
    return SC_OK;
}

sc_status sc_spill_add(sc_spill *sp, const void *elems, size_t n)
{
    const char *from = elems;
    while (n) {
        sc_status st;
        if (sp->mem_len == sp->limit && (st = spill(sp)) != SC_OK) return st;
        size_t avail = 0;
        if ((st = room(sp, &avail)) != SC_OK) return st;
        size_t take = n < avail ? n : avail;
        memcpy((char *)sp->tail->elems + sp->tail->len * sp->size, from,
               take * sp->size);
        sp->tail->len += take;
        sp->mem_len += take;
        from += take * sp->size;
        n -= take;
    }
    return SC_OK;
}

uint64_t sc_spill_count(const sc_spill *sp)
{
    return sp->file_elems + sp->mem_len;
}

/* What the temporary file holds, in order, through fn. */
static sc_status walk_file(sc_spill *sp, sc_spill_fn fn, void *arg)
{
    if (sp->fd < 0) return SC_OK;
    /* No more memory than -S allows the rejects in the first place. */
    size_t step = REPLAY_BYTES / sp->size;
    if (step > sp->limit) step = sp->limit;
    void *buf = malloc(step * sp->size);
    if (!buf) return sc_fail(sp->ctx, SC_ERR_NOMEM, "out of memory");
    sc_status st = SC_OK;
    if (lseek(sp->fd, 0, SEEK_SET) != 0)
        st = sc_fail_errno(sp->ctx, SC_ERR_IO, errno, "%s", sp->path);
    for (uint64_t left = sp->file_elems; left && st == SC_OK;) {
        size_t want = left < step ? (size_t)left : step;
        ssize_t got = sc_read_full(sp->fd, buf, want * sp->size);
        if (got != (ssize_t)(want * sp->size))
            st = sc_fail(sp->ctx, SC_ERR_IO, "%s: short read of temporary "
                         "file", sp->path);
        else
            st = fn(arg, buf, want);
        left -= want;
    }
    free(buf);
    return st;
}

sc_status sc_spill_walk(sc_spill *sp, sc_spill_fn fn, void *arg)
{
    sc_status st = walk_file(sp, fn, arg);
    for (block *b = sp->head; b && st == SC_OK; b = b->next)
        st = fn(arg, b->elems, b->len);
    return st;
}

static sc_status to_writer(void *w, const void *elems, size_t n)
{
    return sc_writer_write(w, elems, n);
}

/* The blocks in memory go out by reference where the output is a pipe:
 * the held half of a split is written after the last input, so its rate
 * is what the reader downstream can take, not what write() can copy. */
sc_status sc_spill_replay(sc_spill *sp, sc_writer *w)
{
    sc_status st = walk_file(sp, to_writer, w);
    for (block *b = sp->head; b && st == SC_OK; b = b->next)
        st = sc_writer_write_pages(w, b->elems, b->len);
    return st;
}

void sc_spill_close(sc_spill *sp)
{
    if (!sp) return;
    if (sp->fd >= 0) {
        close(sp->fd);
        unlink(sp->path);
        sc_temp_unregister(sp->path);
    }
    free_blocks(sp);
    free(sp);
}
