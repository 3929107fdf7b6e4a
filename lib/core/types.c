/* types.c — element types: their names, sizes, and their values read
 * from and written as text (sc(7), "Element types"). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/core.h"

static const struct {
    const char *name;
    unsigned size;
    int is_float, is_signed;
} types[SC_TYPE_COUNT] = {
    [SC_U32] = { "u32", 4, 0, 0 }, [SC_I32] = { "i32", 4, 0, 1 },
    [SC_F32] = { "f32", 4, 1, 1 }, [SC_U64] = { "u64", 8, 0, 0 },
    [SC_I64] = { "i64", 8, 0, 1 }, [SC_F64] = { "f64", 8, 1, 1 },
};

static int known(sc_type t) { return (unsigned)t < SC_TYPE_COUNT; }

const char *sc_type_name(sc_type t) { return known(t) ? types[t].name : NULL; }
unsigned sc_type_size(sc_type t) { return known(t) ? types[t].size : 0; }
int sc_type_is_float(sc_type t) { return known(t) && types[t].is_float; }
int sc_type_is_signed(sc_type t) { return known(t) && types[t].is_signed; }

/* Why an element of type t at byte off is no place in a record of size
 * bytes (NULL: it is one); `what` (0 key, 1 field) picks the words. */
static const char *place_fault(uint32_t size, uint32_t off, sc_type t,
                               int what)
{
    static const char *const bad[][3] = {
        { "invalid key type", "key offset is not a multiple of its size",
          "key is not inside the record" },
        { "invalid field type", "field offset is not a multiple of its size",
          "field is not inside the record" },
    };
    unsigned k = sc_type_size(t);
    if (k == 0) return bad[what][0];
    if (off % k) return bad[what][1];
    if (off >= size || size - off < k) return bad[what][2];
    return NULL;
}

const char *sc_record_fault(const sc_record *rec)
{
    if (rec->size == 0) return NULL;
    if (rec->size % 4 || rec->size > SC_RECORD_MAX)
        return "record size is not a multiple of 4 from 4 to 4096";
    return place_fault(rec->size, rec->key_off, rec->key_type, 0);
}

const char *sc_field_fault(uint32_t size, uint32_t off, sc_type t)
{
    if (size == 0) return "a field needs records";
    return place_fault(size, off, t, 1);
}

int sc_type_ranked(sc_type t)
{
    return sc_type_is_signed(t) || sc_type_is_float(t);
}

sc_type sc_type_wide(sc_type t)
{
    switch (t) {
    case SC_U32: return SC_U64;
    case SC_I32: return SC_I64;
    case SC_F32: return SC_F64;
    default:     return t;
    }
}

sc_status sc_type_parse(const char *s, sc_type *t)
{
    for (unsigned i = 0; s && t && i < SC_TYPE_COUNT; i++)
        if (strcmp(s, types[i].name) == 0) {
            *t = (sc_type)i;
            return SC_OK;
        }
    return SC_ERR_USAGE;
}

/* Decimal or 0x hex digits, the whole of s[0..len): the magnitude. */
static sc_status parse_magnitude(const char *s, size_t len, uint64_t *v)
{
    int hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    size_t i = hex ? 2 : 0;
    if (i == len) return SC_ERR_TEXT;
    uint64_t x = 0;
    for (; i < len; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (hex && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (hex && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else return SC_ERR_TEXT;
        unsigned base = hex ? 16 : 10;
        if (x > (UINT64_MAX - d) / base) return SC_ERR_RANGE;
        x = x * base + d;
    }
    *v = x;
    return SC_OK;
}

static sc_status parse_integer(sc_type t, const char *s, size_t len,
                               uint64_t *bits)
{
    int neg = len > 0 && s[0] == '-';
    if (neg && !sc_type_is_signed(t)) return SC_ERR_TEXT;
    uint64_t m;
    sc_status st = parse_magnitude(s + neg, len - (size_t)neg, &m);
    if (st) return st;
    unsigned width = 8 * sc_type_size(t);
    uint64_t top = width == 64 ? UINT64_MAX : ((uint64_t)1 << width) - 1;
    if (sc_type_is_signed(t)) top >>= 1;
    if (m > top + (uint64_t)neg) return SC_ERR_RANGE;
    uint64_t v = neg ? 0 - m : m;
    *bits = width == 64 ? v : v & 0xffffffffu;
    return SC_OK;
}

/* The significand's bits of a float type, and those of the NaN that
 * strtod makes of "nan" (the quiet bit alone). */
static unsigned mant_bits(sc_type t) { return t == SC_F32 ? 23 : 52; }
static uint64_t default_nan(sc_type t)
{
    return (uint64_t)1 << (mant_bits(t) - 1);
}

/* [-]nan(0xM), M a NaN's significand bits in hex, as format_float writes
 * any NaN but the default one: 1 with its bits, -1 for a malformed M, 0
 * for another spelling.  strtod reads nan(...) too, but sets the quiet
 * bit, so it could not give a signaling NaN back. */
static int parse_nan(sc_type t, const char *buf, uint64_t *bits)
{
    int neg = buf[0] == '-';
    const char *p = buf + (buf[0] == '-' || buf[0] == '+');
    if (strncasecmp(p, "nan(0x", 6) != 0) return 0;
    char *end;
    errno = 0;
    unsigned long long m = isxdigit((unsigned char)p[6])
                         ? strtoull(p + 6, &end, 16) : 0;
    if (!m || errno || strcmp(end, ")") != 0 || m >> mant_bits(t)) return -1;
    unsigned width = 8 * (unsigned)sc_type_size(t);
    uint64_t ones = ((uint64_t)1 << (width - 1 - mant_bits(t))) - 1;
    *bits = (uint64_t)neg << (width - 1) | ones << mant_bits(t) | m;
    return 1;
}

/* strtod's syntax, all of buf (len bytes, NUL-terminated); finite text
 * beyond the type's range is an error, not an infinity. */
static sc_status parse_float_str(sc_type t, const char *buf, size_t len,
                                 uint64_t *bits)
{
    if (buf[0] == ' ' || buf[0] == '\t' || buf[0] == '\n') return SC_ERR_TEXT;
    int nan = parse_nan(t, buf, bits);
    if (nan) return nan > 0 ? SC_OK : SC_ERR_TEXT;
    char *end;
    errno = 0;
    if (t == SC_F32) {
        float f = strtof(buf, &end);
        if (end != buf + len || end == buf) return SC_ERR_TEXT;
        if (errno == ERANGE && isinf(f)) return SC_ERR_RANGE;
        uint32_t u;
        memcpy(&u, &f, 4);
        *bits = u;
    } else {
        double d = strtod(buf, &end);
        if (end != buf + len || end == buf) return SC_ERR_TEXT;
        if (errno == ERANGE && isinf(d)) return SC_ERR_RANGE;
        memcpy(bits, &d, 8);
    }
    return SC_OK;
}

/* s as a C string for strtod: on the stack, or for a long spelling (many
 * digits, all of them significant to strtod) on the heap. */
static sc_status parse_float(sc_type t, const char *s, size_t len,
                             uint64_t *bits)
{
    char small[256];
    if (len == 0) return SC_ERR_TEXT;
    char *buf = len < sizeof small ? small : malloc(len + 1);
    if (!buf) return SC_ERR_NOMEM;
    memcpy(buf, s, len);
    buf[len] = 0;
    sc_status st = parse_float_str(t, buf, len, bits);
    if (buf != small) free(buf);
    return st;
}

sc_status sc_value_parse(sc_type t, const char *s, size_t len, uint64_t *bits)
{
    if (!known(t) || !s || !bits) return SC_ERR_USAGE;
    return types[t].is_float ? parse_float(t, s, len, bits)
                             : parse_integer(t, s, len, bits);
}

static size_t format_unsigned(uint64_t v, char *buf)
{
    char tmp[24];
    size_t n = 0, len = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) buf[len++] = tmp[--n];
    buf[len] = 0;
    return len;
}

/* The fewest significant digits that read back to the same bits.  A
 * value that needs at most 6 digits (15 for a double) prints as those at
 * 6 (15), %g dropping the zeros: its type's precision keeps it within
 * half a step of that grid; beyond, one more digit at a time. */
static size_t format_float(sc_type t, uint64_t bits, char *buf)
{
    double d;
    float f = 0;
    if (t == SC_F32) {
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, 4);
        d = f;
    } else {
        memcpy(&d, &bits, 8);
    }
    if (isnan(d)) {
        uint64_t m = bits & (((uint64_t)1 << mant_bits(t)) - 1);
        const char *sign = signbit(d) ? "-" : "";
        if (m == default_nan(t))
            return (size_t)snprintf(buf, SC_VALUE_CHARS, "%snan", sign);
        return (size_t)snprintf(buf, SC_VALUE_CHARS, "%snan(0x%llx)", sign,
                                (unsigned long long)m);
    }
    int first = t == SC_F32 ? 6 : 15, most = t == SC_F32 ? 9 : 17;
    for (int digits = first;; digits++) {
        int len = snprintf(buf, SC_VALUE_CHARS, "%.*g", digits, d);
        int same = t == SC_F32 ? strtof(buf, NULL) == f : strtod(buf, NULL) == d;
        /* -0 and +0 compare equal: signbit tells them apart. */
        if ((same && !signbit(d) == !(buf[0] == '-')) || digits >= most)
            return (size_t)len;
    }
}

size_t sc_value_format(sc_type t, uint64_t bits, char *buf)
{
    if (!known(t)) { buf[0] = 0; return 0; }
    if (types[t].is_float) return format_float(t, bits, buf);
    if (!types[t].is_signed) return format_unsigned(bits, buf);
    int neg = t == SC_I32 ? (int)((bits >> 31) & 1) : (int)(bits >> 63);
    uint64_t m = t == SC_I32 ? (neg ? 0 - (uint64_t)(int32_t)(uint32_t)bits
                                    : (uint32_t)bits)
                             : (neg ? 0 - bits : bits);
    if (neg) buf[0] = '-';
    return (size_t)neg + format_unsigned(m, buf + neg);
}

int sc_value_order(sc_type t, uint64_t a, uint64_t b)
{
    uint64_t ra, rb;
    if (sc_type_size(t) == 8) {
        sc_key64 k = sc_key64_of((uint32_t)t);
        ra = sc_key64_rank(k, a);
        rb = sc_key64_rank(k, b);
    } else {
        sc_key k = sc_key_of((uint32_t)t);
        ra = sc_key_rank(k, (uint32_t)a);
        rb = sc_key_rank(k, (uint32_t)b);
    }
    return ra < rb ? -1 : ra > rb;
}

void sc_swap_bytes(void *elems, size_t n, unsigned size)
{
    if (size == 8) {
        uint64_t *v = elems;
        for (size_t i = 0; i < n; i++) v[i] = __builtin_bswap64(v[i]);
    } else {
        uint32_t *v = elems;
        for (size_t i = 0; i < n; i++) v[i] = __builtin_bswap32(v[i]);
    }
}

void sc_elem_order_make(sc_elem_order *o, unsigned size, unsigned key_off,
                        sc_type type, int swap, unsigned lo, unsigned hi,
                        int reverse)
{
    memset(o, 0, sizeof *o);
    o->size = size;
    o->key_off = key_off;
    o->key_size = sc_type_size(type);
    o->swap = swap;
    o->type = type;
    if (o->key_size == 8)
        sc_order64_init(&o->o64, lo, hi, reverse, (uint32_t)type);
    else
        sc_order_init_type(&o->o32, lo, hi, reverse, (uint32_t)type);
}

void sc_elem_order_keypos(const sc_elem_order *o, sc_elem_order *kp)
{
    *kp = *o;
    kp->size = SC_KEYPOS_BYTES;
    kp->key_off = 0;
}

/* Ranking 32-bit keys (v) or 64-bit ones (v64, under key64). */
typedef struct rank_task {
    sc_key key;
    sc_key64 key64;
    uint32_t *v;
    uint64_t *v64;
    uint64_t n;
    unsigned parts;
    int unrank;
} rank_task;

static void rank_part(void *arg, unsigned i)
{
    rank_task *t = arg;
    uint64_t b = t->n / t->parts * i, e = i + 1 == t->parts ? t->n
                                          : t->n / t->parts * (i + 1);
    if (t->v64 && t->unrank)
        for (uint64_t k = b; k < e; k++)
            t->v64[k] = sc_key64_unrank(t->key64, t->v64[k]);
    else if (t->v64)
        for (uint64_t k = b; k < e; k++)
            t->v64[k] = sc_key64_rank(t->key64, t->v64[k]);
    else if (t->unrank)
        for (uint64_t k = b; k < e; k++) t->v[k] = sc_key_unrank(t->key, t->v[k]);
    else
        for (uint64_t k = b; k < e; k++) t->v[k] = sc_key_rank(t->key, t->v[k]);
}

static void rank_run(sc_pool *pool, unsigned threads, rank_task *t)
{
    /* A part of at least 1 Mi elements: less is not worth a thread. */
    uint64_t parts = t->n >> 20;
    if (parts > threads) parts = threads;
    t->parts = parts ? (unsigned)parts : 1;
    if (t->parts > 1 && pool) sc_pool_run(pool, t->parts, rank_part, t);
    else for (unsigned i = 0; i < t->parts; i++) rank_part(t, i);
}

void sc_keys_rank(sc_pool *pool, unsigned threads, sc_key key, uint32_t *v,
                  uint64_t n, int unrank)
{
    rank_task t = { key, { 0, 0 }, v, NULL, n, 1, unrank };
    rank_run(pool, threads, &t);
}

void sc_keys_rank64(sc_pool *pool, unsigned threads, sc_key64 key,
                    uint64_t *v, uint64_t n, int unrank)
{
    rank_task t = { { 0, 0 }, key, NULL, v, n, 1, unrank };
    rank_run(pool, threads, &t);
}
