/* par_units.c — BGZF members found in the bytes in hand and each decoded
 * whole, by the fastest whole-buffer inflater in the build: libdeflate,
 * else ISA-L, else zlib; then checked against its CRC-32 and ISIZE. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef SC_HAVE_LIBDEFLATE
#include <libdeflate.h>
#elif defined SC_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "io/bgzf.h"
#include "io/par.h"

struct sc_unit_scratch {
#ifdef SC_HAVE_LIBDEFLATE
    struct libdeflate_decompressor *d;
#elif defined SC_HAVE_ISAL
    struct inflate_state isal;
#endif
    void *zstd;                 /* a ZSTD_DCtx, made when first needed */
    unsigned char *in;          /* a claim's compressed bytes */
    size_t in_cap;
};

sc_unit_scratch *sc_unit_scratch_new(void)
{
    sc_unit_scratch *s = calloc(1, sizeof *s);
#ifdef SC_HAVE_LIBDEFLATE
    if (s && !(s->d = libdeflate_alloc_decompressor())) {
        free(s);
        return NULL;
    }
#endif
    return s;
}

void sc_unit_scratch_free(sc_unit_scratch *s)
{
    if (!s) return;
#ifdef SC_HAVE_LIBDEFLATE
    libdeflate_free_decompressor(s->d);
#endif
    sc_zframe_dctx_free(s->zstd);
    free(s->in);
    free(s);
}

void **sc_unit_scratch_zstd(sc_unit_scratch *s) { return &s->zstd; }

unsigned char *sc_unit_scratch_input(sc_unit_scratch *s, size_t len)
{
    if (len > s->in_cap) {
        unsigned char *b = realloc(s->in, len);
        if (!b) return NULL;
        s->in = b;
        s->in_cap = len;
    }
    return s->in;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

int sc_bgzf_isize_fits(uint32_t isize, size_t csize)
{
    /* Deflate shrinks at most 1032 times: a larger ISIZE is a lie, and
     * the stream reader reports it. */
    return isize <= SC_UNIT_MAX_DECODED && isize / 1032 <= csize;
}

int sc_bgzf_unit(const unsigned char *p, size_t len, size_t *csize,
                 size_t *dsize)
{
    long size = sc_bgzf_block_size(p, len);
    if (size < 0) return SC_UNIT_MORE;
    if (size == 0) return SC_UNIT_NONE;
    if ((size_t)size > len) return SC_UNIT_MORE;
    uint32_t isize = sc_bgzf_isize(p, (size_t)size);
    if (!sc_bgzf_isize_fits(isize, (size_t)size)) return SC_UNIT_NONE;
    *csize = (size_t)size;
    *dsize = isize;
    return SC_UNIT_WHOLE;
}

/* Where the deflate body of a whole member starts: after the extra
 * field, and a name, comment or header CRC if the flags say so; 0 when
 * they run past the member. */
static size_t body_start(const unsigned char *p, size_t csize)
{
    unsigned flags = p[3];
    size_t at = 12 + (size_t)(p[10] | p[11] << 8);
    for (unsigned f = 8; f <= 16; f <<= 1) {
        if (!(flags & f)) continue;
        const unsigned char *z = at < csize ? memchr(p + at, 0, csize - at)
                                            : NULL;
        if (!z) return 0;
        at = (size_t)(z - p) + 1;
    }
    if (flags & 2) at += 2;
    return flags & 0xe0 || at + SC_BGZF_TRAILER > csize ? 0 : at;
}

/* Raw deflate in[0, n) to exactly out[0, dsize): 0; -2 when it decodes
 * to another size than dsize (the member's ISIZE); -1. */
static int inflate_whole(sc_unit_scratch *s, const unsigned char *in,
                         size_t n, unsigned char *out, size_t dsize)
{
#ifdef SC_HAVE_LIBDEFLATE
    enum libdeflate_result ret =
        libdeflate_deflate_decompress(s->d, in, n, out, dsize, NULL);
    return ret == LIBDEFLATE_SUCCESS ? 0
           : ret == LIBDEFLATE_SHORT_OUTPUT ||
             ret == LIBDEFLATE_INSUFFICIENT_SPACE ? -2 : -1;
#elif defined SC_HAVE_ISAL
    isal_inflate_init(&s->isal);
    s->isal.next_in = (unsigned char *)in;
    s->isal.avail_in = (uint32_t)n;
    s->isal.next_out = out;
    s->isal.avail_out = (uint32_t)dsize;
    s->isal.crc_flag = ISAL_DEFLATE;
    int ret = isal_inflate_stateless(&s->isal);
    if (ret == ISAL_OUT_OVERFLOW) return -2;
    if (ret != ISAL_DECOMP_OK && ret != ISAL_END_INPUT) return -1;
    return s->isal.avail_in ? -1 : s->isal.avail_out ? -2 : 0;
#else
    (void)s;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return -1;
    unsigned char spare;
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)n;
    z.next_out = dsize ? out : &spare;
    z.avail_out = (uInt)(dsize ? dsize : 1);
    int ret = inflate(&z, Z_FINISH);
    int ok = ret == Z_STREAM_END && z.avail_in == 0 ? 0 : -1;
    if (ret == Z_STREAM_END ? z.total_out != dsize
                            : ret != Z_DATA_ERROR && z.avail_out == 0)
        ok = -2;
    inflateEnd(&z);
    return ok;
#endif
}

int sc_bgzf_unit_decode(sc_unit_scratch *s, const unsigned char *p,
                        size_t csize, unsigned char *out, size_t dsize,
                        const char **why)
{
    size_t body = body_start(p, csize);
    if (!body) {
        *why = "bad member header";
        return -1;
    }
    int ret = inflate_whole(s, p + body, csize - body - SC_BGZF_TRAILER, out,
                            dsize);
    if (ret != 0) {
        /* Corrupt data as often ends early or late as it fails, so a
         * size that does not match blames neither the data nor ISIZE. */
        *why = ret == -2 ? "invalid deflate data, or not of the size in "
                           "its trailer (ISIZE)"
                         : "invalid deflate data";
        return -1;
    }
    if (sc_crc32(0, out, dsize) != le32(p + csize - SC_BGZF_TRAILER)) {
        *why = "CRC-32 mismatch";
        return -1;
    }
    return 0;
}
