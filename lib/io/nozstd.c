/* nozstd.c — a libsc built without libzstd: zstd is refused by name. */
#include "io/par.h"
#include "io/zstdio.h"

int sc_zstd_built(void) { return 0; }
sc_zin *sc_zin_new(void) { return NULL; }
void sc_zin_free(sc_zin *z) { (void)z; }
void sc_zin_reset(sc_zin *z) { (void)z; }

int sc_zin_decode(sc_zin *z, const void *in, size_t in_len, size_t *in_pos,
                  void *out, size_t out_cap, size_t *out_pos, int *frame_done,
                  const char **err)
{
    (void)z; (void)in; (void)in_len; (void)in_pos; (void)out; (void)out_cap;
    (void)out_pos; (void)frame_done;
    *err = "built without zstd";
    return -1;
}

sc_zout *sc_zout_new(int level, unsigned threads, const char **err)
{
    (void)level; (void)threads;
    *err = "this libsc was built without zstd";
    return NULL;
}

void sc_zout_free(sc_zout *z) { (void)z; }
void sc_zout_small_jobs(sc_zout *z) { (void)z; }

int sc_zout_write(sc_zout *z, const void *in, size_t len, int end,
                  sc_zout_sink sink, void *arg, const char **err)
{
    (void)z; (void)in; (void)len; (void)end; (void)sink; (void)arg;
    *err = "built without zstd";
    return -1;
}

int sc_zframe_unit(const unsigned char *p, size_t len, size_t *csize,
                   size_t *dsize)
{
    (void)p; (void)len; (void)csize; (void)dsize;
    return SC_UNIT_NONE;
}

int sc_zframe_decode(void **dctx, const unsigned char *p, size_t csize,
                     unsigned char *out, size_t cap, int exact, size_t *got,
                     const char **why)
{
    (void)dctx; (void)p; (void)csize; (void)out; (void)cap; (void)exact;
    (void)got;
    *why = "built without zstd";
    return -1;
}

void sc_zframe_dctx_free(void *dctx) { (void)dctx; }

size_t sc_zframe_first_size(const unsigned char *p, size_t len)
{
    (void)p; (void)len;
    return 0;
}

int sc_zframe_size_at(int fd, off_t at, off_t end, size_t *csize,
                      size_t *dsize)
{
    (void)fd; (void)at; (void)end; (void)csize; (void)dsize;
    return SC_UNIT_NONE;
}
