/* zstd_frames.c — zstd frames that decode on their own, found in the
 * bytes in hand and each decoded whole into its place (par.h): frames
 * that carry their content size, and pzstd's frames, which do not but
 * follow a skippable frame that holds their compressed size. */
#include <stdint.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include "io/fdio.h"
#include "io/par.h"

/* pzstd's header before each frame: a skippable frame of four bytes, the
 * compressed size of the frame after it (programs/pzstd in zstd's
 * sources). */
#define PZSTD_MAGIC 0x184D2A50u
#define PZSTD_HEAD 12

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* A pzstd header and its frame, whole in hand: the frame's size is
 * bounded by its blocks (each at most 128 KiB decoded), the bound is the
 * room it decodes into.  A header whose frame is too large to decode
 * alone, or is not the frame it says, is skipped as any skippable frame
 * is, and the frame after it is read as a stream. */
static int pzstd_unit(const unsigned char *p, size_t len, size_t *csize,
                      size_t *dsize)
{
    size_t frame = le32(p + 8);
    *csize = PZSTD_HEAD;
    if (frame > ZSTD_COMPRESSBOUND(SC_UNIT_MAX_DECODED)) return SC_UNIT_SKIP;
    if (PZSTD_HEAD + frame > len) return SC_UNIT_MORE;
    const unsigned char *f = p + PZSTD_HEAD;
    if (ZSTD_findFrameCompressedSize(f, frame) != frame)
        return SC_UNIT_SKIP;
    unsigned long long bound = ZSTD_decompressBound(f, frame);
    if (bound == ZSTD_CONTENTSIZE_ERROR || bound > SC_UNIT_MAX_DECODED)
        return SC_UNIT_SKIP;
    *csize = PZSTD_HEAD + frame;
    *dsize = (size_t)bound;
    return ZSTD_getFrameContentSize(f, frame) == bound ? SC_UNIT_WHOLE
                                                       : SC_UNIT_BOUND;
}

int sc_zframe_unit(const unsigned char *p, size_t len, size_t *csize,
                   size_t *dsize)
{
    ZSTD_frameHeader h;
    size_t need = ZSTD_getFrameHeader(&h, p, len);
    if (ZSTD_isError(need)) return SC_UNIT_NONE;
    if (need > 0) return SC_UNIT_MORE;
    if (h.frameType == ZSTD_skippableFrame) {
        /* libzstd leaves headerSize 0 for these: 8 bytes of magic and
         * size, then the content. */
        if (le32(p) == PZSTD_MAGIC && h.frameContentSize == 4)
            return len < PZSTD_HEAD ? SC_UNIT_MORE
                                    : pzstd_unit(p, len, csize, dsize);
        size_t whole = 8 + (size_t)h.frameContentSize;
        if (whole > len) return SC_UNIT_MORE;
        *csize = whole;
        return SC_UNIT_SKIP;
    }
    if (h.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN ||
        h.frameContentSize > SC_UNIT_MAX_DECODED)
        return SC_UNIT_NONE;
    /* An error here is a frame cut short or a corrupt one: the caller
     * reads more, and at the end the stream reader reports which. */
    size_t whole = ZSTD_findFrameCompressedSize(p, len);
    if (ZSTD_isError(whole)) return SC_UNIT_MORE;
    *csize = whole;
    *dsize = (size_t)h.frameContentSize;
    return SC_UNIT_WHOLE;
}

int sc_zframe_decode(void **dctx, const unsigned char *p, size_t csize,
                     unsigned char *out, size_t cap, int exact, size_t *got,
                     const char **why)
{
    if (!*dctx && !(*dctx = ZSTD_createDCtx())) {
        *why = "out of memory";
        return -1;
    }
    /* A pzstd unit's header is a skippable frame, which libzstd skips. */
    size_t n = ZSTD_decompressDCtx(*dctx, out, cap, p, csize);
    if (ZSTD_isError(n)) {
        *why = ZSTD_getErrorName(n);
        return -1;
    }
    if (exact && n != cap) {
        *why = "frame content size mismatch";
        return -1;
    }
    *got = n;
    return 0;
}

void sc_zframe_dctx_free(void *dctx) { ZSTD_freeDCtx(dctx); }

size_t sc_zframe_first_size(const unsigned char *p, size_t len)
{
    ZSTD_frameHeader h;
    if (ZSTD_getFrameHeader(&h, p, len) != 0 ||
        h.frameType == ZSTD_skippableFrame ||
        h.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN ||
        h.frameContentSize > SC_UNIT_MAX_DECODED)
        return 0;
    return (size_t)h.frameContentSize;
}

/* Where the blocks of the frame whose first block starts at pos end:
 * each block's 3-byte header gives its size; -1 where one is reserved
 * or runs past end. */
static off_t blocks_end(int fd, off_t pos, off_t end)
{
    for (;;) {
        unsigned char b[3];
        if (end - pos < 3 || sc_pread_full(fd, b, 3, pos) != 3) return -1;
        uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
                     (uint32_t)b[2] << 16;
        unsigned type = (v >> 1) & 3;
        if (type == 3) return -1;
        /* An RLE block holds its one byte; the others, their size. */
        pos += 3 + (type == 1 ? 1 : (off_t)(v >> 3));
        if (pos > end) return -1;
        if (v & 1) return pos;
    }
}

int sc_zframe_size_at(int fd, off_t at, off_t end, size_t *csize,
                      size_t *dsize)
{
    unsigned char p[ZSTD_FRAMEHEADERSIZE_MAX];
    size_t want = end - at < (off_t)sizeof p ? (size_t)(end - at) : sizeof p;
    ZSTD_frameHeader h;
    if (sc_pread_full(fd, p, want, at) != (ssize_t)want ||
        ZSTD_getFrameHeader(&h, p, want) != 0)
        return SC_UNIT_NONE;
    if (h.frameType == ZSTD_skippableFrame) {
        /* pzstd's header bounds the frame after it: the stream's reader
         * (par.c) takes those. */
        if (le32(p) == PZSTD_MAGIC && h.frameContentSize == 4)
            return SC_UNIT_NONE;
        if (end - at < 8 + (off_t)h.frameContentSize) return SC_UNIT_NONE;
        *csize = 8 + (size_t)h.frameContentSize;
        *dsize = 0;
        return SC_UNIT_SKIP;
    }
    if (h.frameContentSize == ZSTD_CONTENTSIZE_UNKNOWN ||
        h.frameContentSize > SC_UNIT_MAX_DECODED)
        return SC_UNIT_NONE;
    off_t to = blocks_end(fd, at + (off_t)h.headerSize, end);
    if (to < 0 || (h.checksumFlag && end - to < 4)) return SC_UNIT_NONE;
    *csize = (size_t)(to - at) + (h.checksumFlag ? 4 : 0);
    *dsize = (size_t)h.frameContentSize;
    return SC_UNIT_WHOLE;
}
