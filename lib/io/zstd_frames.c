/* zstd_frames.c — zstd frames that decode on their own, found in the
 * bytes in hand and each decoded whole into its place (par.h): frames
 * that carry their content size, and pzstd's frames, which do not but
 * follow a skippable frame that holds their compressed size. */
#include <stdint.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
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
