/* zstd_seek.c — building the seek table of zstd's seekable format
 * (contrib/seekable_format in zstd's sources):
 *
 *   magic 0x184D2A5E, frame size        the skippable frame's header
 *   per frame: compressed size, decompressed size, checksum
 *   frames, descriptor 0x80, magic 0x8F92EAB1     the footer
 *
 * all little-endian 32-bit fields but the one-byte descriptor, whose top
 * bit says the entries carry checksums. A frame's checksum is the low 32
 * bits of the XXH64 of its content, the same value zstd's own frame
 * checksum holds, so it is copied from the frame's last four bytes. */
#include <stdlib.h>
#include <string.h>
#include "io/zstd_seek.h"

#define HEAD 8
#define ENTRY 12
#define FOOT 9
/* The reference reader's limit on frames (ZSTD_SEEKABLE_MAXFRAMES). */
#define MAX_FRAMES 0x8000000u

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static int reserve(sc_zseek *t, size_t more, const char **err)
{
    if (!t->buf) t->len = HEAD;
    if (t->len + more <= t->cap) return 0;
    size_t cap = t->cap ? 2 * t->cap : 64 * ENTRY;
    while (cap < t->len + more) cap *= 2;
    unsigned char *b = realloc(t->buf, cap);
    if (!b) { *err = "out of memory"; return -1; }
    t->buf = b;
    t->cap = cap;
    return 0;
}

int sc_zseek_add(sc_zseek *t, const unsigned char *frame, size_t csize,
                 size_t dsize, const char **err)
{
    if (t->frames >= MAX_FRAMES || csize > UINT32_MAX || dsize > UINT32_MAX
        || csize < 4) {
        *err = "too many frames for a seek table";
        return -1;
    }
    if (reserve(t, ENTRY, err)) return -1;
    unsigned char *e = t->buf + t->len;
    put32(e, (uint32_t)csize);
    put32(e + 4, (uint32_t)dsize);
    memcpy(e + 8, frame + csize - 4, 4);
    t->len += ENTRY;
    t->frames++;
    return 0;
}

int sc_zseek_finish(sc_zseek *t, const unsigned char **out, size_t *len,
                    const char **err)
{
    if (reserve(t, FOOT, err)) return -1;
    unsigned char *f = t->buf + t->len;
    put32(f, t->frames);
    f[4] = 0x80;                            /* Checksum_Flag */
    put32(f + 5, 0x8F92EAB1u);
    t->len += FOOT;
    put32(t->buf, 0x184D2A5Eu);
    put32(t->buf + 4, (uint32_t)(t->len - HEAD));
    *out = t->buf;
    *len = t->len;
    t->len = HEAD;                          /* the next stream's table */
    t->frames = 0;
    return 0;
}

void sc_zseek_free(sc_zseek *t)
{
    free(t->buf);
    t->buf = NULL;
    t->len = t->cap = 0;
    t->frames = 0;
}
