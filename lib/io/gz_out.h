/* gz_out.h — gzip output as BGZF (gz_out.c): members of at most
 * SC_BGZF_MAX_INPUT input bytes, compressed on several threads while the
 * caller stages the next bytes and a thread writes the finished members in
 * order, then the end-of-file block.  The bytes depend on the input and
 * the level alone. */
#ifndef SC_GZ_OUT_H
#define SC_GZ_OUT_H
#include <stddef.h>
#include "core/core.h"

typedef struct sc_gzout sc_gzout;
/* Where the output goes: 0, or an errno value that stops the writing. */
typedef int (*sc_gzout_sink)(void *arg, const void *buf, size_t len);
/* What the calls below return besides 0 and a sink's errno value. */
#define SC_GZOUT_NOMEM (-1)         /* an engine's memory ran out */

/* level 1..9.  With pool (shared by several outputs written from one
 * thread), or threads <= 1: each batch of `members` members is compressed
 * on pool (or in the caller) and written by the caller when it is full.
 * Else `threads` threads of its own compress and one writes, overlapped
 * with the caller, in a ring of a few batches of 64 members.  NULL with
 * errno set when memory or a thread could not be had. */
sc_gzout *sc_gzout_new(int level, unsigned threads, sc_pool *pool,
                       unsigned members, sc_gzout_sink sink, void *arg);
/* Stops the threads; what is not written yet is dropped. */
void sc_gzout_free(sc_gzout *g);
/* Takes len bytes.  0, or the first error (every call after it too). */
int sc_gzout_write(sc_gzout *g, const void *p, size_t len);
/* Writes out everything taken and the end-of-file block; once. */
int sc_gzout_finish(sc_gzout *g);

#endif
