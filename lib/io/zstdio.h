/* zstdio.h — zstd decoding and encoding for the reader and the writer,
 * through libzstd when built with it (zstd_in.c, zstd_out.c), else stubs
 * that say so (nozstd.c). */
#ifndef SC_ZSTDIO_H
#define SC_ZSTDIO_H
#include <stddef.h>

/* Whether this libsc reads and writes zstd. */
int sc_zstd_built(void);

typedef struct sc_zin sc_zin;
/* NULL: out of memory, or no zstd in this build. */
sc_zin *sc_zin_new(void);
void sc_zin_free(sc_zin *z);
/* Forgets any frame in progress: the next byte starts a new one. */
void sc_zin_reset(sc_zin *z);
/* Decodes in[*in_pos, in_len) into out[*out_pos, out_cap), advancing
 * both. *frame_done: it stopped at the end of a frame (frames follow one
 * another; skippable ones are skipped). 0, or with *err -1 for data
 * that is not zstd, -2 when memory for its window ran out. */
int sc_zin_decode(sc_zin *z, const void *in, size_t in_len, size_t *in_pos,
                  void *out, size_t out_cap, size_t *out_pos, int *frame_done,
                  const char **err);

typedef struct sc_zout sc_zout;
/* Where compressed bytes go: 0, or a nonzero code that stops the work.
 * Called on the encoder's threads, one call at a time, in order. */
typedef int (*sc_zout_sink)(void *arg, const void *buf, size_t len);
/* level 1..19; threads >= 1: the threads that compress. NULL with *err
 * on failure. Output: independent frames of a fixed input size, each
 * with its content size and checksum, then the seek table of zstd's
 * seekable format; the bytes depend on the input and level alone. */
sc_zout *sc_zout_new(int level, unsigned threads, const char **err);
/* Stops its threads; frames not yet written are dropped. */
void sc_zout_free(sc_zout *z);
/* One output of several: fewer frames in flight (threads + 1, or one
 * compressed on the caller's thread for one thread), so less memory.
 * Before the first byte only; the bytes stay the same. */
void sc_zout_small_jobs(sc_zout *z);
/* Takes len bytes (end: then writes every frame and the seek table),
 * handing output to sink, the same sink on every call. 0, the sink's
 * code, or -1 with *err; a failure is returned again by later calls. */
int sc_zout_write(sc_zout *z, const void *in, size_t len, int end,
                  sc_zout_sink sink, void *arg, const char **err);

#endif
