/* zstd_frames.c — zstd frames that carry their content size, found in
 * the bytes in hand and each decoded whole into its place (par.h). */
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include "io/par.h"

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
                     unsigned char *out, size_t dsize, const char **why)
{
    if (!*dctx && !(*dctx = ZSTD_createDCtx())) {
        *why = "out of memory";
        return -1;
    }
    size_t got = ZSTD_decompressDCtx(*dctx, out, dsize, p, csize);
    if (ZSTD_isError(got)) {
        *why = ZSTD_getErrorName(got);
        return -1;
    }
    if (got != dsize) {
        *why = "frame content size mismatch";
        return -1;
    }
    return 0;
}

void sc_zframe_dctx_free(void *dctx) { ZSTD_freeDCtx(dctx); }
