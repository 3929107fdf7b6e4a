/* source.h — where a stream's chunks come from: the elements of an input
 * (an sc_reader), or, for sc-gen, positions alone.  The pipeline asks
 * nothing else of its input, so it knows no job kind.
 */
#ifndef SC_SOURCE_H
#define SC_SOURCE_H

#include "io/io.h"

typedef struct sc_source {
    /* The pipeline's reader thread: the next chunk, up to max elements
     * (of the job's type),
     * into buf (NULL when !in_buffer); *got == 0 at the end.  A fault met
     * on the way only ends the stream: its status comes back, but its
     * message stays held for raise(), as the job's thread may be writing
     * the context's message meanwhile. */
    sc_status (*fill)(void *self, void *buf, size_t max, size_t *got);
    /* Bytes in all when known before reading them, else -1: auto's cost
     * model and -P's total. */
    int64_t (*size_hint)(const void *self);
    /* Bytes taken so far, for -P (from any thread). */
    uint64_t (*bytes_so_far)(const void *self);
    /* The job's thread, once the pipeline is over: a held fault put into
     * the context's message; its status, or SC_OK if none. */
    sc_status (*raise)(void *self);
    /* Optional: 1 when the next chunk, up to max elements (cl->n), was
     * claimed (the fill is then skipped), 0 when it must come from
     * fill().  Called where fill() would be; the file stays open while
     * claims are out. */
    int (*claim)(void *self, size_t max, sc_claim *cl);
    /* Reads a claimed chunk (from any thread): *n its elements in buf,
     * fewer where a fault came after them.  A fault is held as fill()'s
     * are, for raise(). */
    sc_status (*claim_read)(void *self, const sc_claim *cl, void *buf,
                            size_t *n);
    /* With claim: the bytes in all, as size_hint, where claims may cut an
     * input whose decoded size is not known (BGZF), else -1. */
    int64_t (*claim_hint)(const void *self);
    /* With claim_hint: the bytes the largest unit of the input decodes
     * to, which a chunk must hold for a claim to take it (0: any). */
    size_t (*claim_unit)(const void *self);
    void *self;
    const char *verb;       /* -P: what bytes_so_far counts ("read") */
    int in_buffer;          /* chunks carry input elements (not sc-gen's) */
} sc_source;

/* The elements r reads; r stays the caller's to close. */
sc_source sc_reader_source(sc_reader *r);

#endif
