/* zstd_out.c — zstd output through libzstd, on several threads.
 *
 * libzstd's multithreaded mode gives the same bytes for any number of
 * workers from one up, so the output does not depend on -j (sc(7), OUTPUT
 * FORMATS); one worker is used even for -j 1. A libzstd built without
 * threads falls back to compressing in the caller, with the same bytes on
 * every run of that build. */
#include <stdlib.h>
#include <zstd.h>
#include "io/zstdio.h"

#define OUT_BYTES ((size_t)1 << 17)

struct sc_zout {
    ZSTD_CCtx *c;
    unsigned char *buf;
    size_t cap;
};

void sc_zout_free(sc_zout *z)
{
    if (!z) return;
    ZSTD_freeCCtx(z->c);
    free(z->buf);
    free(z);
}

sc_zout *sc_zout_new(int level, unsigned threads, const char **err)
{
    sc_zout *z = calloc(1, sizeof *z);
    *err = "out of memory";
    if (!z) return NULL;
    z->c = ZSTD_createCCtx();
    z->cap = ZSTD_CStreamOutSize() > OUT_BYTES ? ZSTD_CStreamOutSize()
                                               : OUT_BYTES;
    z->buf = malloc(z->cap);
    if (!z->c || !z->buf) { sc_zout_free(z); return NULL; }
    size_t r = ZSTD_CCtx_setParameter(z->c, ZSTD_c_compressionLevel, level);
    /* A checksum per frame, as the zstd command writes: corruption is
     * found, not decoded into wrong numbers. */
    if (!ZSTD_isError(r))
        r = ZSTD_CCtx_setParameter(z->c, ZSTD_c_checksumFlag, 1);
    if (!ZSTD_isError(r))
        ZSTD_CCtx_setParameter(z->c, ZSTD_c_nbWorkers,
                               (int)(threads ? threads : 1));
    if (ZSTD_isError(r)) {
        *err = ZSTD_getErrorName(r);
        sc_zout_free(z);
        return NULL;
    }
    return z;
}

void sc_zout_small_jobs(sc_zout *z)
{
    /* Failing leaves libzstd's default: more memory, still correct. */
    ZSTD_CCtx_setParameter(z->c, ZSTD_c_jobSize, 1 << 20);
}

int sc_zout_write(sc_zout *z, const void *in, size_t len, int end,
                  sc_zout_sink sink, void *arg, const char **err)
{
    ZSTD_inBuffer i = { in, len, 0 };
    ZSTD_EndDirective mode = end ? ZSTD_e_end : ZSTD_e_continue;
    for (;;) {
        ZSTD_outBuffer o = { z->buf, z->cap, 0 };
        size_t left = ZSTD_compressStream2(z->c, &o, &i, mode);
        if (ZSTD_isError(left)) {
            *err = ZSTD_getErrorName(left);
            return -1;
        }
        int code = o.pos ? sink(arg, z->buf, o.pos) : 0;
        if (code) return code;
        /* continue: done once the input is taken; end: once flushed. */
        if (end ? left == 0 : i.pos == i.size) return 0;
    }
}
