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
/* Where compressed bytes go: 0, or a nonzero code that stops the work. */
typedef int (*sc_zout_sink)(void *arg, const void *buf, size_t len);
/* level 1..19; threads >= 1. NULL with *err on failure. */
sc_zout *sc_zout_new(int level, unsigned threads, const char **err);
void sc_zout_free(sc_zout *z);
/* Compresses in jobs of 1 MiB rather than libzstd's default (several
 * MiB per worker at level 3): less memory for one of many outputs.
 * Before the first byte only. */
void sc_zout_small_jobs(sc_zout *z);
/* Compresses len bytes (end: and closes the frame), handing output to
 * sink. 0, the sink's code, or -1 with *err. */
int sc_zout_write(sc_zout *z, const void *in, size_t len, int end,
                  sc_zout_sink sink, void *arg, const char **err);

#endif
