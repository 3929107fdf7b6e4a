/* test_io64.c — 64-bit elements (u64, i64, f64) through sc.h's writer and
 * reader: raw, gzip, zstd and text, little- and big-endian; an input that
 * ends inside an element; large inputs read in small and large requests,
 * and several files joined with elements straddling them; text values out
 * of the type's range.  The files written are also looked at byte by byte,
 * so that a writer and a reader wrong the same way do not pass. */
#include "sc.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"

static char tmpdir[] = "/tmp/sc-test-io64.XXXXXX";
static sc_ctx *ctx;

static void skip(const char *why, const char *what)
{
    n_tests++;
    printf("ok %d - %s # SKIP %s\n", n_tests, what, why);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        printf("Bail out! out of memory\n");
        exit(1);
    }
    return p;
}

static uint64_t f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* splitmix64: the same data on every run. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void fill_random(uint64_t *v, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) v[i] = next_random(&seed);
}

static const char *in_tmp(const char *name)
{
    static char path[4][600];
    static unsigned k;
    char *p = path[k++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
    return p;
}

static int write_bytes(const char *path, const void *p, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t put = fwrite(p, 1, len, f);
    return fclose(f) == 0 && put == len ? 0 : -1;
}

/* The whole file into a buffer of its own (*len bytes and a NUL after
 * them), NULL if none. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (!f) return NULL;
    size_t cap = 1 << 16;
    unsigned char *p = xmalloc(cap);
    for (size_t got; (got = fread(p + *len, 1, cap - 1 - *len, f)) > 0;) {
        *len += got;
        if (*len == cap - 1) {
            unsigned char *more = realloc(p, cap *= 2);
            if (!more) break;
            p = more;
        }
    }
    fclose(f);
    p[*len] = 0;
    return p;
}

/* n elements of type t written in pieces of `piece`. */
static sc_status write_elems(const char *path, sc_format fmt, sc_type t,
                             int big_endian, const void *v, size_t n,
                             size_t piece)
{
    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = fmt, .level = 6, .type = t,
                         .big_endian = big_endian };
    sc_status st = sc_writer_open(&w, ctx, path, &o);
    if (st != SC_OK) return st;
    size_t size = sc_type_size(t);
    for (size_t i = 0; i < n && st == SC_OK; i += piece) {
        size_t len = piece < n - i ? piece : n - i;
        st = sc_writer_write(w, (const char *)v + i * size, len);
    }
    if (st != SC_OK) {
        sc_writer_abort(w);
        return st;
    }
    return sc_writer_commit(w);
}

/* What a read of whole inputs gave: its elements and how it ended. */
typedef struct readout {
    size_t got;         /* elements */
    sc_status st;       /* the first status that was not SC_OK, or SC_OK */
    char msg[512];      /* the context's message when st is a fault */
    int calls_over;     /* reads that gave more than they were asked */
} readout;

/* Reads the n_paths inputs as elements of t into v (room for cap), at
 * most `request` a call. */
static readout read_elems(const char *const *paths, size_t n_paths,
                          sc_format fmt, sc_type t, int big_endian,
                          void *v, size_t cap, size_t request)
{
    readout o = { 0, SC_OK, "", 0 };
    sc_reader *r = NULL;
    o.st = sc_reader_open(&r, ctx, paths, n_paths, fmt);
    if (o.st == SC_OK) o.st = sc_reader_set_type(r, t, big_endian);
    size_t size = sc_type_size(t);
    while (o.st == SC_OK && o.got < cap) {
        size_t want = cap - o.got < request ? cap - o.got : request, got = 0;
        o.st = sc_reader_read(r, (char *)v + o.got * size, want, &got);
        if (got > want) o.calls_over++;
        if (o.st != SC_OK || got == 0) break;
        o.got += got;
    }
    if (o.st != SC_OK)
        snprintf(o.msg, sizeof o.msg, "%s", sc_ctx_message(ctx));
    sc_reader_close(r);
    return o;
}

static readout read_one(const char *path, sc_format fmt, sc_type t,
                        int big_endian, void *v, size_t cap, size_t request)
{
    const char *paths[1] = { path };
    return read_elems(paths, 1, fmt, t, big_endian, v, cap, request);
}

/* ------------------------------------------------------- the values */

/* Values each type must carry through every format: its ends, zeros,
 * and for f64 the infinities, a NaN, denormals and 1e308. */
static size_t special_values(sc_type t, uint64_t *v)
{
    size_t n = 0;
    if (t == SC_U64) {
        v[n++] = 0;
        v[n++] = 1;
        v[n++] = UINT64_MAX;
        v[n++] = (uint64_t)INT64_MAX;
        v[n++] = (uint64_t)INT64_MAX + 1;
        v[n++] = 0x100000000ULL;
        v[n++] = 0x0102030405060708ULL;
    } else if (t == SC_I64) {
        v[n++] = (uint64_t)INT64_MIN;
        v[n++] = (uint64_t)INT64_MAX;
        v[n++] = 0;
        v[n++] = (uint64_t)-1;
        v[n++] = (uint64_t)INT64_MIN + 1;
        v[n++] = (uint64_t)-4294967296LL;
        v[n++] = 0x0102030405060708ULL;
    } else {
        v[n++] = f64(0.0);
        v[n++] = f64(-0.0);
        v[n++] = f64(INFINITY);
        v[n++] = f64(-INFINITY);
        v[n++] = 0x7ff8000000000000ULL;             /* nan */
        v[n++] = 0xfff8000000000000ULL;             /* -nan */
        v[n++] = 1;                                 /* least denormal */
        v[n++] = 0x000fffffffffffffULL;             /* greatest denormal */
        v[n++] = 0x8000000000000001ULL;             /* -least denormal */
        v[n++] = f64(DBL_MIN);
        v[n++] = f64(1e308);
        v[n++] = f64(-1e308);
        v[n++] = f64(DBL_MAX);
        v[n++] = f64(0.1);
        v[n++] = f64(-1.5);
        v[n++] = f64(1e-300);
    }
    return n;
}

/* The special values, then random ones: any bits for binary formats;
 * for f64 in text doubles of every magnitude, denormals and infinities
 * among them, but no NaN, whose payload text does not carry. */
static size_t test_values(sc_type t, int any_bits, uint64_t *v, size_t n)
{
    size_t k = special_values(t, v);
    uint64_t seed = 1000 + (uint64_t)t;
    for (; k < n; k++) {
        uint64_t x = next_random(&seed);
        if (t == SC_F64 && !any_bits) {
            double d = ldexp((double)(x >> 12), (int)(x % 2100) - 1126);
            x = f64(x >> 11 & 1 ? -d : d);
        }
        v[k] = x;
    }
    return k;
}

/* ------------------------------------------------- binary round trips */

/* Element i of the file is v[i]'s 8 bytes in the order asked for. */
static int bytes_are(const unsigned char *file, size_t len, const uint64_t *v,
                     size_t n, int big_endian)
{
    if (len != n * 8) return 0;
    for (size_t i = 0; i < n; i++)
        for (unsigned b = 0; b < 8; b++) {
            unsigned shift = 8 * (big_endian ? 7 - b : b);
            if (file[i * 8 + b] != (unsigned char)(v[i] >> shift)) return 0;
        }
    return 1;
}

static void test_binary(sc_type t, sc_format fmt, const char *fmt_name,
                        int big_endian)
{
    const size_t n = 20011;
    uint64_t *v = xmalloc(n * 8), *back = xmalloc((n + 1) * 8);
    test_values(t, 1, v, n);
    char name[64];
    snprintf(name, sizeof name, "rt-%s-%s%s", sc_type_name(t), fmt_name,
             big_endian ? "-be" : "");
    const char *path = in_tmp(name);
    sc_status st = write_elems(path, fmt, t, big_endian, v, n, 999);
    if (fmt == SC_FMT_ZST && st == SC_ERR_USAGE) {
        skip("libsc built without zstd", name);
        goto out;
    }
    ok(st == SC_OK, "%s: written (status %d: %s)", name, (int)st,
       st ? sc_ctx_message(ctx) : "");
    readout o = read_one(path, SC_FMT_AUTO, t, big_endian, back, n + 1, 4093);
    ok(o.st == SC_OK && o.got == n && !o.calls_over &&
       memcmp(v, back, n * 8) == 0,
       "%s: read back, %zu elements (status %d, got %zu) %s", name, n,
       (int)o.st, o.got, o.msg);
    /* The bytes themselves: decoded by the reader as raw u64 with no swap
     * where compressed, as they lie where raw. */
    size_t len = 0;
    unsigned char *file = NULL;
    if (fmt == SC_FMT_RAW) {
        file = slurp(path, &len);
    } else {
        o = read_one(path, SC_FMT_AUTO, SC_U32, 0, back, 2 * n + 1, 4093);
        file = xmalloc(o.got * 4);
        memcpy(file, back, o.got * 4);
        len = o.st == SC_OK ? o.got * 4 : 0;
    }
    ok(bytes_are(file, len, v, n, big_endian),
       "%s: each element is 8 %s-endian bytes (%zu bytes)", name,
       big_endian ? "big" : "little", len);
    free(file);
out:
    free(v);
    free(back);
}

/* -------------------------------------------------------------- text */

/* The text sc_value_format writes for these bits, one a line. */
static char *expected_text(sc_type t, const uint64_t *v, size_t n)
{
    char *s = xmalloc(n * (SC_VALUE_CHARS + 1) + 1), *at = s;
    for (size_t i = 0; i < n; i++) {
        at += sc_value_format(t, v[i], at);
        *at++ = '\n';
    }
    *at = 0;
    return s;
}

/* Integers in text are what printf writes; floats read back to their
 * bits (checked by the round trip). */
static int integers_are_decimal(sc_type t, const char *text, const uint64_t *v,
                                size_t n)
{
    if (t == SC_F64) return 1;
    const char *at = text;
    for (size_t i = 0; i < n; i++) {
        char want[32];
        int len = t == SC_I64 ? snprintf(want, sizeof want, "%" PRId64 "\n",
                                         (int64_t)v[i])
                              : snprintf(want, sizeof want, "%" PRIu64 "\n",
                                         v[i]);
        if (strncmp(at, want, (size_t)len) != 0) return 0;
        at += len;
    }
    return *at == 0;
}

static void test_text(sc_type t, int big_endian)
{
    const size_t n = 5003;
    uint64_t *v = xmalloc(n * 8), *back = xmalloc((n + 1) * 8);
    test_values(t, 0, v, n);
    char name[64];
    snprintf(name, sizeof name, "rt-%s-text%s", sc_type_name(t),
             big_endian ? "-be" : "");
    const char *path = in_tmp(name);
    sc_status st = write_elems(path, SC_FMT_TEXT, t, big_endian, v, n, 1000);
    ok(st == SC_OK, "%s: written (status %d)", name, (int)st);
    size_t len = 0;
    char *text = (char *)slurp(path, &len);
    char *want = expected_text(t, v, n);
    ok(text && len == strlen(want) && memcmp(text, want, len) == 0,
       "%s: one value a line, as sc_value_format writes it", name);
    ok(text && len == strlen(want) && integers_are_decimal(t, text, v, n),
       "%s: integers in decimal", name);
    readout o = read_one(path, SC_FMT_TEXT, t, big_endian, back, n + 1, 777);
    ok(o.st == SC_OK && o.got == n && memcmp(v, back, n * 8) == 0,
       "%s: read back to the same bits (status %d, got %zu) %s", name,
       (int)o.st, o.got, o.msg);
    free(text);
    free(want);
    free(v);
    free(back);
}

/* A value the type cannot hold, after others: those, then SC_ERR_RANGE
 * naming the line; a malformed one gives SC_ERR_TEXT. */
static void test_text_faults(void)
{
    static const struct {
        sc_type t; const char *text; sc_status st; size_t before;
        uint64_t first; const char *says;
    } c[] = {
        { SC_I64, "5\n9223372036854775808\n", SC_ERR_RANGE, 1, 5,
          "line 2: number out of range for i64 '9223372036854775808'" },
        { SC_I64, "-9223372036854775808 -9223372036854775809", SC_ERR_RANGE,
          1, (uint64_t)INT64_MIN, "out of range for i64" },
        { SC_I64, "0x7fffffffffffffff 0x8000000000000000", SC_ERR_RANGE, 1,
          (uint64_t)INT64_MAX, "out of range for i64" },
        { SC_U64, "18446744073709551615 18446744073709551616", SC_ERR_RANGE,
          1, UINT64_MAX, "out of range for u64" },
        /* 0x7fe1ccf385ebc8a0: 1e308 */
        { SC_F64, "1e308 1e309", SC_ERR_RANGE, 1, 0x7fe1ccf385ebc8a0ULL,
          "out of range for f64" },
        { SC_U64, "7 -1", SC_ERR_TEXT, 1, 7, "malformed number '-1'" },
        { SC_I64, "7 1.5", SC_ERR_TEXT, 1, 7, "malformed number '1.5'" },
        { SC_I64, "7 1,2", SC_ERR_TEXT, 1, 7, "CSV" },
    };
    const char *path = in_tmp("fault.txt");
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        uint64_t back[4] = { 0 };
        readout o = { 0, SC_ERR_IO, "", 0 };
        if (write_bytes(path, c[k].text, strlen(c[k].text)) == 0)
            o = read_one(path, SC_FMT_TEXT, c[k].t, 0, back, 4, 4);
        ok(o.st == c[k].st && o.got == c[k].before && back[0] == c[k].first &&
           strstr(o.msg, c[k].says),
           "text %s '%s': %zu element(s), then %s (status %d, got %zu: %s)",
           sc_type_name(c[k].t), c[k].text, c[k].before,
           sc_strerror(c[k].st), (int)o.st, o.got, o.msg);
    }
    /* A number cut between two files is one number. */
    const char *a = in_tmp("cut-a.txt"), *b = in_tmp("cut-b.txt");
    uint64_t back[4] = { 0 };
    readout o = { 0, SC_ERR_IO, "", 0 };
    const char *paths[2] = { a, b };
    if (write_bytes(a, "1 -92233720", 11) == 0 &&
        write_bytes(b, "36854775807\n", 12) == 0)
        o = read_elems(paths, 2, SC_FMT_TEXT, SC_I64, 0, back, 4, 4);
    ok(o.st == SC_OK && o.got == 2 && back[0] == 1 &&
       back[1] == (uint64_t)(INT64_MIN + 1),
       "text i64: a number cut between two files reads whole (got %zu)",
       o.got);
}

/* --------------------------------------------------- partial elements */

static void test_stray(void)
{
    const size_t k = 1000;
    uint64_t *v = xmalloc((k + 1) * 8), *back = xmalloc((k + 2) * 8);
    fill_random(v, k + 1, 7);
    const char *path = in_tmp("stray.bin");
    int made = write_bytes(path, v, k * 8 + 4) == 0;
    readout o = read_one(path, SC_FMT_RAW, SC_U64, 0, back, k + 2, 333);
    ok(made && o.st == SC_ERR_PARTIAL && o.got == k &&
       memcmp(v, back, k * 8) == 0,
       "raw u64 of 8k+4 bytes: k elements, then SC_ERR_PARTIAL (status %d, "
       "got %zu)", (int)o.st, o.got);
    ok(strstr(o.msg, "ends with 4 stray bytes after 1000 whole elements "
                     "(byte offset 8000)") != NULL,
       "the message names 4 stray bytes after 1000 elements: %s", o.msg);
    /* The same bytes are whole u32 elements: the size is the type's. */
    o = read_one(path, SC_FMT_RAW, SC_U32, 0, back, 2 * k + 2, 333);
    ok(o.st == SC_OK && o.got == 2 * k + 1,
       "the same file as u32: 2k+1 elements, no fault (got %zu)", o.got);
    /* Compressed: gzip of 8k+4 bytes, written as 2k+1 u32 elements. */
    const char *gz = in_tmp("stray.gz");
    sc_status st = write_elems(gz, SC_FMT_GZ, SC_U32, 0, v, 2 * k + 1, 100);
    o = read_one(gz, SC_FMT_AUTO, SC_F64, 0, back, k + 2, 1);
    ok(st == SC_OK && o.st == SC_ERR_PARTIAL && o.got == k &&
       memcmp(v, back, k * 8) == 0 && strstr(o.msg, "4 stray bytes"),
       "gzip of 8k+4 bytes as f64, one element a call: k elements, then "
       "SC_ERR_PARTIAL (got %zu: %s)", o.got, o.msg);
    /* 8k+1 .. 8k+7 bytes: the stray count is the length mod 8. */
    int all = 1;
    for (unsigned extra = 1; extra < 8; extra++) {
        made = write_bytes(path, v, 16 + extra) == 0;
        o = read_one(path, SC_FMT_RAW, SC_I64, 1, back, 4, 4);
        char says[64];
        snprintf(says, sizeof says, "with %u stray byte%s after 2 whole",
                 extra, extra == 1 ? "" : "s");
        all = all && made && o.st == SC_ERR_PARTIAL && o.got == 2 &&
              strstr(o.msg, says);
    }
    ok(all, "16+j bytes, j = 1..7: 2 elements, then j stray bytes");
    free(v);
    free(back);
}

/* ------------------------------------------------------ large inputs */

/* The file cut into pieces at offsets that are not multiples of 8 (nor
 * of 4 for all but the gzip piece), the middle one gzip: elements
 * straddle every pair of pieces. */
static int write_pieces(const unsigned char *bytes, size_t len,
                        const char *const *paths)
{
    size_t cut1 = 3, cut2 = cut1 + 4 * ((len / 3) / 4) + 4, cut3 = len - 13;
    if (write_bytes(paths[0], bytes, cut1) != 0) return -1;
    /* A u32 writer writes any bytes whose length is a multiple of 4. */
    size_t words = (cut2 - cut1) / 4;
    uint32_t *w = xmalloc(words * 4);
    memcpy(w, bytes + cut1, words * 4);
    sc_status st = write_elems(paths[1], SC_FMT_GZ, SC_U32, 0, w, words,
                               65536);
    free(w);
    if (st != SC_OK) return -1;
    if (write_bytes(paths[2], bytes + cut2, cut3 - cut2) != 0) return -1;
    return write_bytes(paths[3], bytes + cut3, len - cut3);
}

static void test_large(void)
{
    const size_t n = (size_t)3 << 20;       /* 24 MiB of u64 */
    uint64_t *v = xmalloc(n * 8), *back = xmalloc((n + 1) * 8);
    fill_random(v, n, 42);
    const char *raw = in_tmp("large.raw");
    int made = write_bytes(raw, v, n * 8) == 0;
    static const size_t requests[] = { 1, 7, 4099, (size_t)1 << 20, 0 };
    for (size_t k = 0; k < sizeof requests / sizeof requests[0]; k++) {
        /* 1 element a call for the first 100000 only: it is slow. */
        size_t request = requests[k] ? requests[k] : n + 1;
        size_t cap = request == 1 ? 100000 : n + 1;
        memset(back, 0, cap * 8);
        readout o = read_one(raw, SC_FMT_AUTO, SC_U64, 0, back, cap, request);
        size_t want = cap < n ? cap : n;
        ok(made && o.st == SC_OK && o.got == want && !o.calls_over &&
           memcmp(v, back, want * 8) == 0,
           "raw u64, %zu MiB, %zu elements a call: read whole (got %zu) %s",
           n * 8 >> 20, request, o.got, o.msg);
    }
    /* Big-endian: every element reversed as 8 bytes. */
    readout o = read_one(raw, SC_FMT_RAW, SC_U64, 1, back, n + 1, 65537);
    int reversed = o.st == SC_OK && o.got == n;
    for (size_t i = 0; reversed && i < n; i++)
        reversed = back[i] == __builtin_bswap64(v[i]);
    ok(reversed, "raw u64 read big-endian: each element's 8 bytes reversed");

    const char *gz = in_tmp("large.gz"), *zst = in_tmp("large.zst");
    sc_status st = write_elems(gz, SC_FMT_GZ, SC_U64, 0, v, n, 100003);
    o = read_one(gz, SC_FMT_AUTO, SC_U64, 0, back, n + 1, 4099);
    ok(st == SC_OK && o.st == SC_OK && o.got == n &&
       memcmp(v, back, n * 8) == 0,
       "gzip (BGZF, decoded in parallel) u64, 4099 elements a call (got %zu)",
       o.got);
    st = write_elems(zst, SC_FMT_ZST, SC_U64, 0, v, n, 100003);
    if (st == SC_ERR_USAGE) {
        skip("libsc built without zstd", "zstd u64 large");
    } else {
        o = read_one(zst, SC_FMT_AUTO, SC_U64, 0, back, n + 1, 999);
        ok(st == SC_OK && o.st == SC_OK && o.got == n &&
           memcmp(v, back, n * 8) == 0,
           "zstd u64, 999 elements a call (got %zu)", o.got);
    }

    const char *paths[4] = { in_tmp("piece0"), in_tmp("piece1.gz"),
                             in_tmp("piece2"), in_tmp("piece3") };
    made = write_pieces((const unsigned char *)v, n * 8, paths) == 0;
    static const size_t joined[] = { 1021, (size_t)1 << 20 };
    for (size_t k = 0; k < 2; k++) {
        memset(back, 0, (n + 1) * 8);
        o = read_elems(paths, 4, SC_FMT_AUTO, SC_U64, 0, back, n + 1,
                       joined[k]);
        ok(made && o.st == SC_OK && o.got == n &&
           memcmp(v, back, n * 8) == 0,
           "4 files joined (raw, gzip, raw, raw), elements straddling each "
           "pair, %zu elements a call (got %zu) %s", joined[k], o.got, o.msg);
    }
    /* The joined files less their last byte: a stray 7 bytes. */
    made = write_bytes(paths[3], (const unsigned char *)v + n * 8 - 13,
                       12) == 0;
    o = read_elems(paths, 4, SC_FMT_AUTO, SC_U64, 0, back, n + 1, 4099);
    ok(made && o.st == SC_ERR_PARTIAL && o.got == n - 1 &&
       memcmp(v, back, (n - 1) * 8) == 0 &&
       strstr(o.msg, "7 stray bytes") && strstr(o.msg, "of the joined input"),
       "the joined files a byte short: n-1 elements, then 7 stray bytes "
       "(got %zu: %s)", o.got, o.msg);
    free(v);
    free(back);
}

/* ------------------------------------------------------- live input */

static void pause_ms(long ms)
{
    struct timespec t = { ms / 1000, ms % 1000 * 1000000L };
    while (nanosleep(&t, &t) != 0) {}
}

/* A pipe whose writer stalls with an element and a half sent: the whole
 * one is handed over, and the half waits for the rest rather than end
 * the input (a reader that took 4 bytes for an element would end it). */
static void test_live(void)
{
    int fds[2];
    if (pipe(fds) != 0) {
        skip("no pipe", "live input");
        return;
    }
    const uint64_t v[3] = { 0x1111111122222222ULL, 0x3333333344444444ULL,
                            0x5555555566666666ULL };
    pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        const unsigned char *b = (const unsigned char *)v;
        int bad = write(fds[1], b, 12) != 12;
        pause_ms(300);
        bad |= write(fds[1], b + 12, 4) != 4;
        pause_ms(300);
        bad |= write(fds[1], b + 16, 8) != 8;
        _exit(bad);
    }
    close(fds[1]);
    char path[32];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    uint64_t back[4] = { 0 };
    size_t calls = 0;
    readout o = { 0, SC_ERR_IO, "", 0 };
    sc_reader *r = NULL;
    const char *paths[1] = { path };
    if (child > 0) o.st = sc_reader_open(&r, ctx, paths, 1, SC_FMT_RAW);
    if (o.st == SC_OK) o.st = sc_reader_set_type(r, SC_U64, 0);
    for (size_t got = 1; o.st == SC_OK && got && o.got < 4; calls++) {
        o.st = sc_reader_read(r, back + o.got, 4 - o.got, &got);
        o.got += got;
    }
    sc_reader_close(r);
    close(fds[0]);
    int status = 1;
    if (child > 0) waitpid(child, &status, 0);
    ok(status == 0 && o.st == SC_OK && o.got == 3 &&
       memcmp(v, back, 24) == 0 && calls >= 3,
       "a stalling pipe, u64: each element whole as it comes, the input "
       "not ended early (got %zu in %zu calls)", o.got, calls);
}

/* ---------------------------------------------------------- refusals */

static void test_refusals(void)
{
    static const sc_type types[] = { SC_U64, SC_I64, SC_F64 };
    for (size_t k = 0; k < 3; k++) {
        sc_writer *w = NULL;
        sc_writer_opts o = { .fmt = SC_FMT_RAW, .level = 6, .wide = 1,
                             .type = types[k] };
        sc_status st = sc_writer_open(&w, ctx, in_tmp("wide"), &o);
        ok(st == SC_ERR_USAGE && !w, "writer: wide %s is SC_ERR_USAGE (%s)",
           sc_type_name(types[k]), sc_ctx_message(ctx));
        if (w) sc_writer_abort(w);
    }
    sc_writer *w = NULL;
    sc_writer_opts o = { .fmt = SC_FMT_RAW, .level = 6, .type = SC_TYPE_COUNT };
    ok(sc_writer_open(&w, ctx, in_tmp("none"), &o) == SC_ERR_USAGE && !w,
       "writer: no such type is SC_ERR_USAGE");
    if (w) sc_writer_abort(w);

    const char *path = in_tmp("stray.bin");
    const char *paths[1] = { path };
    sc_reader *r = NULL;
    sc_status st = sc_reader_open(&r, ctx, paths, 1, SC_FMT_RAW);
    if (st == SC_OK) {
        ok(sc_reader_set_type(r, SC_TYPE_COUNT, 0) == SC_ERR_USAGE,
           "reader: no such type is SC_ERR_USAGE");
        uint64_t x;
        size_t got = 0;
        st = sc_reader_read(r, &x, 1, &got);
        ok(st == SC_OK && got == 1 &&
           sc_reader_set_type(r, SC_U64, 0) == SC_ERR_USAGE,
           "reader: a type set after the first read is SC_ERR_USAGE");
        sc_reader_close(r);
    }
}

int main(void)
{
    if (sc_ctx_new(&ctx, "cpu", 4) != SC_OK || !mkdtemp(tmpdir)) {
        printf("Bail out! cannot make a context or %s\n", tmpdir);
        return 1;
    }
    static const sc_type types[] = { SC_U64, SC_I64, SC_F64 };
    static const struct { sc_format f; const char *name; } fmts[] = {
        { SC_FMT_RAW, "raw" }, { SC_FMT_GZ, "gz" }, { SC_FMT_ZST, "zst" } };
    for (size_t t = 0; t < 3; t++) {
        for (int be = 0; be < 2; be++) {
            for (size_t f = 0; f < 3; f++)
                test_binary(types[t], fmts[f].f, fmts[f].name, be);
            test_text(types[t], be);
        }
    }
    test_text_faults();
    test_stray();
    test_large();
    test_live();
    test_refusals();
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) printf("# could not remove %s\n", tmpdir);
    sc_ctx_free(ctx);
    printf("1..%d\n", n_tests);
    return n_failed != 0;
}
