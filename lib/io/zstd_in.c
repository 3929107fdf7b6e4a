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

int sc_zin_decode(sc_zin *z, const void *in, size_t in_len, size_t *in_pos,
                  void *out, size_t out_cap, size_t *out_pos, int *frame_done,
                  const char **err)
{
    ZSTD_inBuffer i = { in, in_len, *in_pos };
    ZSTD_outBuffer o = { out, out_cap, *out_pos };
    size_t ret = ZSTD_decompressStream(z->d, &o, &i);
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
