/* zstd_seek.h — the seek table of zstd's seekable format: a skippable
 * frame after the data frames, listing each frame's compressed size,
 * decompressed size and checksum, so that a reader finds every frame
 * without decoding the ones before it. */
#ifndef SC_ZSTD_SEEK_H
#define SC_ZSTD_SEEK_H
#include <stddef.h>
#include <stdint.h>

typedef struct sc_zseek {
    unsigned char *buf;         /* the skippable frame, entries so far */
    size_t len, cap;
    uint32_t frames;
} sc_zseek;

/* Records a frame of csize compressed bytes (ending in its 4-byte
 * content checksum) holding dsize bytes. 0, or -1 with *err. */
int sc_zseek_add(sc_zseek *t, const unsigned char *frame, size_t csize,
                 size_t dsize, const char **err);
/* The whole skippable frame in *out, *len bytes; t then starts over
 * empty. 0, or -1 with *err. */
int sc_zseek_finish(sc_zseek *t, const unsigned char **out, size_t *len,
                    const char **err);
void sc_zseek_free(sc_zseek *t);

#endif
