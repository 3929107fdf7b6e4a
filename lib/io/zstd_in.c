/* zstd_in.c — zstd frames decoded through libzstd's streaming API.
 *
 * Any window that zstd can write is read, up to 2 GiB (zstd --long=31),
 * where libzstd by default refuses more than 128 MiB and zstd -d wants
 * --long=31 or --memory: a file is read whatever made it. The decoder
 * holds up to one window of memory, as zstd -d does for that file. */
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>
#include "io/zstdio.h"

struct sc_zin { ZSTD_DCtx *d; };

int sc_zstd_built(void) { return 1; }

sc_zin *sc_zin_new(void)
{
    sc_zin *z = malloc(sizeof *z);
    if (!z) return NULL;
    z->d = ZSTD_createDCtx();
    ZSTD_bounds wlog = ZSTD_dParam_getBounds(ZSTD_d_windowLogMax);
    if (!z->d || ZSTD_isError(wlog.error) ||
        ZSTD_isError(ZSTD_DCtx_setParameter(z->d, ZSTD_d_windowLogMax,
                                            wlog.upperBound))) {
        ZSTD_freeDCtx(z->d);
        free(z);
        return NULL;
    }
    return z;
}

void sc_zin_free(sc_zin *z)
{
    if (!z) return;
    ZSTD_freeDCtx(z->d);
    free(z);
}

void sc_zin_reset(sc_zin *z)
{
    ZSTD_DCtx_reset(z->d, ZSTD_reset_session_only);
}

/* libzstd forgets what it wrote in a call that then fails: a block
 * decoded, handed out and followed by a bad checksum or a corrupt block
 * in the same call would be lost, more of it the larger the output (a
 * whole chunk). So each block is decoded in a call with no room for
 * output, where a fault loses nothing, and handed out by a call with no
 * input, where none can arise: what comes out is every block before the
 * fault, whatever the chunk. */
int sc_zin_decode(sc_zin *z, const void *in, size_t in_len, size_t *in_pos,
                  void *out, size_t out_cap, size_t *out_pos, int *frame_done,
                  const char **err)
{
    ZSTD_inBuffer i = { in, in_len, *in_pos };
    ZSTD_outBuffer o = { out, out_cap, *out_pos };
    size_t ret;
    for (;;) {
        ZSTD_inBuffer none = { in, i.pos, i.pos };
        size_t out_was = o.pos, in_was = i.pos;
        ret = ZSTD_decompressStream(z->d, &o, &none);
        if (ZSTD_isError(ret) || ret == 0 || o.pos == o.size) break;
        ZSTD_outBuffer held = { (char *)out + o.pos, 0, 0 };
        ret = ZSTD_decompressStream(z->d, &held, &i);
        if (ZSTD_isError(ret) || ret == 0) break;
        if (i.pos == in_was && o.pos == out_was) break;
    }
    *in_pos = i.pos;
    *out_pos = o.pos;
    if (ZSTD_isError(ret)) {
        *err = ZSTD_getErrorName(ret);
        return ZSTD_getErrorCode(ret) == ZSTD_error_memory_allocation ? -2
                                                                      : -1;
    }
    /* 0: a frame is decoded and flushed whole; the next byte, if any,
     * starts another. */
    *frame_done = ret == 0;
    return 0;
}
