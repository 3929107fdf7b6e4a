/* deflate_out.c — one block compressed as a raw deflate body by the
 * engine chosen for its level.  Each thread keeps its engines, one per
 * level, for the next block: a pthread key frees them when it ends. */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#ifdef SC_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
#ifdef SC_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include "io/deflate_out.h"

#define LIBDEFLATE SC_ENGINE_LIBDEFLATE
#define ISAL SC_ENGINE_ISAL
#define ZLIB SC_ENGINE_ZLIB

/* Per level, the fastest engine whose BGZF output stays within 3 % of
 * zlib's single stream at that level (bench/RESULTS.md, "gzip engines"):
 * when both are built, which one; without the first, the second. */
static const sc_deflate_engine first[10] = {
    ZLIB, ISAL, ISAL, ISAL, LIBDEFLATE, LIBDEFLATE, LIBDEFLATE, LIBDEFLATE,
    LIBDEFLATE, LIBDEFLATE
};

static int built(sc_deflate_engine e)
{
    (void)e;
#ifndef SC_HAVE_LIBDEFLATE
    if (e == LIBDEFLATE) return 0;
#endif
#ifndef SC_HAVE_ISAL
    if (e == ISAL) return 0;
#endif
    return 1;
}

/* The table's choice, else libdeflate, else zlib. */
static sc_deflate_engine table_choice(int level)
{
    if (built(first[level])) return first[level];
    return built(LIBDEFLATE) ? LIBDEFLATE : ZLIB;
}

sc_deflate_engine sc_deflate_engine_for(int level)
{
    static const char *const names[] = { "zlib", "libdeflate", "isal" };
    const char *env = getenv("SC_GZIP_ENGINE");
    for (int e = 0; env && e < 3; e++)
        if (strcmp(env, names[e]) == 0 && built((sc_deflate_engine)e) &&
            !(e == ISAL && level > 3))
            return (sc_deflate_engine)e;
    return table_choice(level);
}

const char *sc_deflate_engine_name(sc_deflate_engine e)
{
    return e == LIBDEFLATE ? "libdeflate" : e == ISAL ? "isal" : "zlib";
}

typedef struct engines {
    z_stream *z[10];
#ifdef SC_HAVE_LIBDEFLATE
    struct libdeflate_compressor *ld[10];
#endif
#ifdef SC_HAVE_ISAL
    struct isal_zstream *isal;
    unsigned char *isal_buf[4];
#endif
} engines;

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int have_key;

static void free_engines(void *arg)
{
    engines *e = arg;
    for (int l = 0; l < 10; l++) {
        if (e->z[l]) deflateEnd(e->z[l]);
        free(e->z[l]);
#ifdef SC_HAVE_LIBDEFLATE
        libdeflate_free_compressor(e->ld[l]);
#endif
    }
#ifdef SC_HAVE_ISAL
    free(e->isal);
    for (int l = 0; l < 4; l++) free(e->isal_buf[l]);
#endif
    free(e);
}

static void make_key(void)
{
    have_key = pthread_key_create(&key, free_engines) == 0;
}

static engines *mine(void)
{
    pthread_once(&key_once, make_key);
    if (!have_key) return NULL;
    engines *e = pthread_getspecific(key);
    if (e) return e;
    e = calloc(1, sizeof *e);
    if (e && pthread_setspecific(key, e) != 0) { free(e); e = NULL; }
    return e;
}

static long by_zlib(engines *e, int level, const void *in, size_t n,
                    void *out, size_t cap)
{
    z_stream *z = e->z[level];
    if (z) {
        deflateReset(z);
    } else {
        z = calloc(1, sizeof *z);
        if (!z) return -1;
        /* Raw deflate (no zlib or gzip wrapper), gzip's memory level. */
        if (deflateInit2(z, level, Z_DEFLATED, -MAX_WBITS, 8,
                         Z_DEFAULT_STRATEGY) != Z_OK) {
            free(z);
            return -1;
        }
        e->z[level] = z;
    }
    z->next_in = (unsigned char *)in;
    z->avail_in = (uInt)n;
    z->next_out = out;
    z->avail_out = (uInt)cap;
    int rc = deflate(z, Z_FINISH);
    if (rc == Z_STREAM_END) return (long)(cap - z->avail_out);
    return rc == Z_OK || rc == Z_BUF_ERROR ? 0 : -1;
}

#ifdef SC_HAVE_LIBDEFLATE
static long by_libdeflate(engines *e, int level, const void *in, size_t n,
                          void *out, size_t cap)
{
    /* Levels 8 and 9 search harder than libdeflate's own 8 and 9: with
     * the window cut every member, those were 4 to 7 % over gzip -8 and
     * -9's single stream on sc-gen's small values; 10 and 12 are within
     * 3 %, and still faster than zlib (bench/RESULTS.md). */
    static const int ld_level[10] = { 0, 1, 2, 3, 4, 5, 6, 7, 10, 12 };
    if (!e->ld[level] &&
        !(e->ld[level] = libdeflate_alloc_compressor(ld_level[level])))
        return -1;
    return (long)libdeflate_deflate_compress(e->ld[level], in, n, out, cap);
}
#endif

#ifdef SC_HAVE_ISAL
/* ISA-L's level 1 is left out: its bytes vary from run to run when
 * several threads compress at once, and sc's bytes must not depend on -j
 * (bench/RESULTS.md, "ISA-L's level 1 gives bytes that vary").  Its level 2 is nearly
 * as fast. */
static int isal_level(int level)
{
    return level < 2 ? 2 : level > 3 ? 3 : level;
}

static long by_isal(engines *e, int level, const void *in, size_t n,
                    void *out, size_t cap)
{
    static const unsigned sizes[4] = { ISAL_DEF_LVL0_DEFAULT,
        ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT };
    if (!e->isal && !(e->isal = malloc(sizeof *e->isal))) return -1;
    if (!e->isal_buf[level] && !(e->isal_buf[level] = malloc(sizes[level])))
        return -1;
    struct isal_zstream *z = e->isal;
    /* isal_deflate_stateless_init leaves some of the last block's state:
     * without a clean stream the bytes depended on which thread had
     * compressed what before (tests/bgzf-out.bats, the piped run). */
    memset(z, 0, sizeof *z);
    isal_deflate_stateless_init(z);
    z->level = (uint32_t)level;
    z->level_buf = e->isal_buf[level];
    z->level_buf_size = sizes[level];
    z->end_of_stream = 1;
    z->flush = NO_FLUSH;
    z->gzip_flag = IGZIP_DEFLATE;
    z->next_in = (uint8_t *)in;
    z->avail_in = (uint32_t)n;
    z->next_out = out;
    z->avail_out = (uint32_t)cap;
    int rc = isal_deflate_stateless(z);
    if (rc == COMP_OK) return (long)z->total_out;
    return rc == STATELESS_OVERFLOW ? 0 : -1;
}
#endif

/* The input as stored blocks, for a block an engine did not fit in cap
 * (data that does not compress): 0 when even these do not fit. */
static long stored(const unsigned char *in, size_t n, unsigned char *out,
                   size_t cap)
{
    size_t need = n + 5 * (n / 65535 + 1), at = 0;
    if (need > cap) return 0;
    do {
        size_t take = n > 65535 ? 65535 : n;
        out[at] = n == take;                    /* BFINAL, BTYPE 00 */
        out[at + 1] = (unsigned char)take;
        out[at + 2] = (unsigned char)(take >> 8);
        out[at + 3] = (unsigned char)~take;
        out[at + 4] = (unsigned char)(~take >> 8);
        memcpy(out + at + 5, in, take);
        at += 5 + take;
        in += take;
        n -= take;
    } while (n);
    return (long)at;
}

long sc_deflate_block(sc_deflate_engine eng, int level, const void *in,
                      size_t n, void *out, size_t cap)
{
    engines *e = mine();
    if (!e || level < 1 || level > 9 || n > UINT_MAX || cap > UINT_MAX)
        return -1;
    long got;
    switch (eng) {
#ifdef SC_HAVE_LIBDEFLATE
    case SC_ENGINE_LIBDEFLATE: got = by_libdeflate(e, level, in, n, out, cap);
                               break;
#endif
#ifdef SC_HAVE_ISAL
    case SC_ENGINE_ISAL:       got = by_isal(e, isal_level(level), in, n,
                                             out, cap);
                               break;
#endif
    default:                   got = by_zlib(e, level, in, n, out, cap);
    }
    return got == 0 ? stored(in, n, out, cap) : got;
}
