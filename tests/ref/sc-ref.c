/* sc-ref.c -- a deliberately simple reference for the sc test suite.
 *
 * Plain C11, no libsc.  Reads raw elements from standard input (whole
 * elements only; stray trailing bytes are ignored), or text with --in
 * text, writes raw output (or text with -t, or a decimal figure) to
 * standard output.
 *
 *   sc-ref compact [PRED] [-x] [--count] [--indices [-w]]
 *   sc-ref split   [PRED] [-x] [--count]
 *   sc-ref scan    [--op sum|max|min|xor] [-i] [-w] [--carry-in V] [--total]
 *                  [--offsets]   (the exclusive scan, then the total)
 *   sc-ref sort    [-r] [--bits LO:HI] [-u] [--indices[=32|64]]
 *   sc-ref stat    [--hist N] [--head N] [--tail N]   (distinct is exact)
 *   sc-ref bincount [N | --bincount[=N]]   (u32, u64: the count of each
 *                  value 0..N-1, or 0..max, as uint64; a value >= N:
 *                  exit 1, no output)
 *   sc-ref check   [-r] [--bits LO:HI] [-u]   (sc-rsort -C's verdict)
 *   sc-ref gather  --indices FILE   (the input's items at FILE's uint64
 *                  positions, in order: an argsort applied)
 *   sc-ref field   OFF[:T]   (with --record: the T at byte OFF of each
 *                  record, T the key's type unless given, written as an
 *                  element of T: its bytes as they are, or -t its value)
 *   sc-ref gen     -n N [-s SEED]             (test data, no input read)
 *   sc-ref gen     --record N --key OFF:T --keys-in   (records around the
 *                  keys read from standard input, elements of T)
 *
 * Every subcommand also takes, anywhere on the line:
 *   --type T       the elements: u32 (the default), i32, f32, u64, i64, f64
 *   --big-endian   the elements read are big-endian, and so is every binary
 *                  number written (elements, --indices, scan outputs)
 *   --in text      the input is text: numbers in the type (read as the
 *                  values below are) separated by white space; a bad one
 *                  is an error (exit 2) and nothing is written
 *   -t, --text     every element or number that would be written in
 *                  binary is written as text instead, one a line: integers
 *                  in decimal, floats as --total prints them
 *   --record N     (every subcommand) each element is a record of N
 *   --key OFF:T    bytes whose key is the T at byte OFF (OFF: with no T,
 *                  the --type): conditions test the key, in T; whole records
 *                  are written as they were read; --indices count
 *                  records; scan, stat and bincount read the keys alone
 *                  (as elements of T); stray bytes after the last whole
 *                  record are ignored.  --big-endian: the key is
 *                  big-endian.
 * Without them the elements are little-endian uint32, as always.
 *
 * check: exit 0 and no output when the input is in the order that sort
 * with the same options gives (-u: strictly, no two equal keys in a row);
 * else exit 1 with "element POS: X after Y" ("record POS: ..." with
 * --record, X and Y the keys) on standard output, POS the zero-based
 * position of the first element X out of order, Y the one before it, both
 * as text.
 *
 * sort --indices writes, for each output position, the zero-based input
 * position of the element (or record) there, as uint64 (=32: uint32).
 *
 * gen: N elements of the type, from a fixed generator (splitmix64) seeded
 * with SEED (default 1): about 1/5 special values of the type (0, the
 * extremes, for floats both zeros, both infinities, NaNs of both signs
 * with several payloads, denormals), 1/4 drawn from a pool of 97 values
 * (so there are many duplicates), 1/8 small (-1000..1000, floats in
 * steps of 1/8), the rest any bit pattern (floats: half any bits, half
 * uniform in [-1e6, 1e6]).  The same SEED gives the same bytes anywhere.
 * With --record, record i holds the key drawn (or read, --keys-in) at
 * OFF and, in its other 4-byte words in order, i's low 32 bits, its high
 * 32 bits, its low 32 bits again, and so on; every word in the output's
 * byte order.
 *
 * PRED: --eq V --ne V --lt V --le V --gt V --ge V --range LO:HI --mask M,
 * any number of each, all must hold; none given means x != 0.  They compare
 * as C does in the type: signed integers by value, floats as floats (a NaN
 * fails all but --ne; -0.0 == +0.0).  --mask M (integer types only) holds
 * when x & M != 0.
 *
 * Values (V, LO, HI, --carry-in) are read in the type: integers decimal or
 * 0x hex, with a leading '-' for the signed types (-0x10 too); out of the
 * type's range is an error.  Floats as strtod/strtof read them (inf, -inf,
 * nan, -nan, 1.5e-3, 0x1p-4); one that overflows the type is an error.  M
 * and the --bits, --hist, --head and --tail figures are unsigned.  With
 * scan -w the carry is read in the wide type.
 *
 * The order of sort, of scan's max and min and of stat's min and max is
 * the "rank": the value for integers, IEEE 754 totalOrder for floats
 * (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).  --bits (integer
 * types only) keys on bits LO..HI-1 of the rank.
 *
 * scan: -w (32-bit types only) writes u64, i64 or f64.  xor: integer types
 * only.  Integer sums wrap at the output's width.  Float sums add in double
 * in one fixed order, in blocks of 1024 elements (see fsum()); their
 * accumulator is a double, f32 or not: --carry-in is read as a double and
 * --total prints one.  --total prints the final value as text: integers
 * in decimal, floats in the fewest %.Ng digits that read back to the same
 * bits.
 *
 * stat: min and max by rank, an exact sum for integers, zeros counts -0.0
 * too, distinct counts bit patterns.  --hist of floats: equal-width
 * buckets, in double, between the least and greatest finite values
 * (halved first where their difference overflows), the infinities and
 * NaNs on lines of their own (see float_hist()).
 *
 * Clarity over speed everywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "sc-ref: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

/* ------------------------------------------------------------- types */

/* Each element is held as its bit pattern in a uint64_t, whatever the
 * type.  The 32-bit types come first: the wide type of t is t + 3. */
enum { U32, I32, F32, U64, I64, F64 };
static const char *const type_names[] = { "u32", "i32", "f32",
                                          "u64", "i64", "f64" };

static int elem_type = U32;     /* --type */
static int big_endian = 0;      /* --big-endian */
static int text_in = 0;         /* --in text */
static int text_out = 0;        /* -t, --text */
static unsigned rec_size = 0;   /* --record: bytes a record, 0 none */
static unsigned key_off = 0;    /* --key OFF */
static const char *key_arg;     /* --key as given */

static unsigned width_of(int t) { return t < U64 ? 32 : 64; }
static int is_signed(int t) { return t == I32 || t == I64; }
static int is_float(int t) { return t == F32 || t == F64; }

static uint64_t ones(unsigned bits)
{
    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static uint64_t sign_bit(int t)
{
    return UINT64_C(1) << (width_of(t) - 1);
}

/* The order-preserving unsigned "rank": sorting by rank as an unsigned
 * number sorts integers by value and floats by IEEE 754 totalOrder. */
static uint64_t rank(int t, uint64_t x)
{
    if (is_signed(t))
        return x ^ sign_bit(t);
    if (is_float(t))
        return (x & sign_bit(t)) ? ~x & ones(width_of(t)) : x ^ sign_bit(t);
    return x;
}

/* The element of a given rank. */
static uint64_t unrank(int t, uint64_t r)
{
    if (is_signed(t))
        return r ^ sign_bit(t);
    if (is_float(t))
        return (r & sign_bit(t)) ? r ^ sign_bit(t) : ~r & ones(width_of(t));
    return r;
}

/* A signed element, sign-extended. */
static int64_t to_int(int t, uint64_t x)
{
    return t == I32 ? (int64_t)(int32_t)(uint32_t)x : (int64_t)x;
}

/* A float element as a double (exact for f32). */
static double to_double(int t, uint64_t x)
{
    if (t == F32) {
        uint32_t u = (uint32_t)x;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &x, 8);
    return d;
}

/* A double as an element of float type t (rounded to nearest for f32). */
static uint64_t from_double(int t, double d)
{
    if (t == F32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    uint64_t x;
    memcpy(&x, &d, 8);
    return x;
}

/* A 32-bit element as its wide type (t + 3): zero-extended, sign-extended
 * or converted to double. */
static uint64_t widen(int t, uint64_t x)
{
    if (t == I32)
        return (uint64_t)to_int(t, x);
    if (t == F32)
        return from_double(F64, to_double(t, x));
    return x;
}

/* x < y and x == y, as C compares them in the type. */
static int less(int t, uint64_t x, uint64_t y)
{
    if (is_float(t))
        return to_double(t, x) < to_double(t, y);
    if (is_signed(t))
        return to_int(t, x) < to_int(t, y);
    return x < y;
}

static int equal(int t, uint64_t x, uint64_t y)
{
    if (is_float(t))
        return to_double(t, x) == to_double(t, y);
    return x == y;
}

/* A float type's significand bits. */
static unsigned frac_bits(int t) { return t == F32 ? 23 : 52; }

/* An element as text: integers in decimal, floats in the fewest %g
 * digits (up to 9 for f32, 17 for f64) that read back to the same bits,
 * tried from 6 (15) up, where %g writes any shorter one too without its
 * trailing zeros: 100, not 1e+02; inf and -inf as printf writes them; a
 * NaN as nan or -nan when its significand is the quiet bit alone (what
 * strtod makes of "nan"), else as [-]nan(0xM) with M its significand's
 * bits, so that it reads back to the same bits. */
static void format_value(char *buf, size_t cap, int t, uint64_t x)
{
    if (!is_float(t)) {
        if (is_signed(t))
            snprintf(buf, cap, "%" PRId64, to_int(t, x));
        else
            snprintf(buf, cap, "%" PRIu64, x);
        return;
    }
    double d = to_double(t, x);
    if (isnan(d)) {
        uint64_t m = x & ones(frac_bits(t));
        const char *sign = x & sign_bit(t) ? "-" : "";
        if (m == UINT64_C(1) << (frac_bits(t) - 1))
            snprintf(buf, cap, "%snan", sign);
        else
            snprintf(buf, cap, "%snan(0x%" PRIx64 ")", sign, m);
        return;
    }
    if (isinf(d)) {
        snprintf(buf, cap, "%g", d);
        return;
    }
    int most = t == F32 ? 9 : 17;
    for (int digits = t == F32 ? 6 : 15; digits <= most; digits++) {
        snprintf(buf, cap, "%.*g", digits, d);
        uint64_t back = t == F32 ? from_double(F32, strtof(buf, NULL))
                                 : from_double(F64, strtod(buf, NULL));
        if (back == x)
            break;
    }
}

static void print_value(int t, uint64_t x)
{
    char buf[64];
    format_value(buf, sizeof buf, t, x);
    printf("%s\n", buf);
}

/* A 128-bit figure in decimal. */
static void print_u128(unsigned __int128 v)
{
    char buf[64];
    int k = sizeof buf;
    buf[--k] = '\0';
    do {
        buf[--k] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    fputs(buf + k, stdout);
}

/* ----------------------------------------------------------- numbers */

static uint64_t parse_u64(const char *s)
{
    char *end;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0' || *s == '-' || *s == '+')
        die("bad number", s);
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end != '\0')
        die("bad number", s);
    return (uint64_t)v;
}

/* A float as strtof/strtod read it; "-nan" has its sign bit set; and
 * [-]nan(0xM) the NaN whose significand's bits are M (not 0). */
static uint64_t parse_float(int t, const char *s)
{
    char *end;
    uint64_t x;
    const char *p = s + (s[0] == '-' || s[0] == '+');
    if (strncasecmp(p, "nan(0x", 6) == 0) {
        errno = 0;
        uint64_t m = strtoull(p + 6, &end, 16);
        if (errno || end == p + 6 || strcmp(end, ")") != 0 || m == 0 ||
            m > ones(frac_bits(t)))
            die("bad number", s);
        x = ones(width_of(t) - 1) & ~ones(frac_bits(t));  /* the exponent */
        return (s[0] == '-' ? sign_bit(t) : 0) | x | m;
    }
    errno = 0;
    if (t == F32) {
        float f = strtof(s, &end);
        if (errno == ERANGE && isinf(f))
            die("number out of range for f32", s);
        x = from_double(F32, f);        /* exact: f is a float already */
    } else {
        double d = strtod(s, &end);
        if (errno == ERANGE && isinf(d))
            die("number out of range for f64", s);
        x = from_double(F64, d);
    }
    if (*s == '\0' || *end != '\0')
        die("bad number", s);
    if (isnan(to_double(t, x)))
        x = s[0] == '-' ? x | sign_bit(t) : x & ~sign_bit(t);
    return x;
}

/* A value in type t, as its bit pattern. */
static uint64_t parse_value(int t, const char *s)
{
    if (is_float(t))
        return parse_float(t, s);
    int neg = is_signed(t) && s[0] == '-';
    uint64_t mag = parse_u64(s + neg);
    if (!is_signed(t)) {
        if (mag > ones(width_of(t)))
            die(t == U32 ? "number above 2^32-1" : "number out of range", s);
        return mag;
    }
    /* -2^(w-1) .. 2^(w-1)-1 */
    if (mag > sign_bit(t) - (neg ? 0 : 1))
        die("number out of range for the type", s);
    return (neg ? 0 - mag : mag) & ones(width_of(t));
}

/* --mask M: a bit pattern of the type's width, integer types only; in a
 * signed type a negative M is its two's complement (-1: every bit). */
static uint64_t parse_mask(int t, const char *s)
{
    if (is_float(t))
        die("--mask needs an integer type, not", type_names[t]);
    if (is_signed(t) && s[0] == '-')
        return parse_value(t, s);
    uint64_t m = parse_u64(s);
    if (m > ones(width_of(t)))
        die("mask wider than the type", s);
    return m;
}

/* "A:B" -> A copied into buf, B returned */
static const char *split_pair(const char *s, char *buf, size_t cap)
{
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= cap)
        die("expected LO:HI", s);
    memcpy(buf, s, (size_t)(colon - s));
    buf[colon - s] = '\0';
    return colon + 1;
}

/* ---------------------------------------------------------------- I/O */

/* w bytes of b as a number, in the input's byte order */
static uint64_t get_bytes(const unsigned char *b, unsigned w)
{
    uint64_t x = 0;
    for (unsigned k = 0; k < w; k++)
        x |= (uint64_t)b[k] << (8 * (big_endian ? w - 1 - k : k));
    return x;
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

/* --in text: the numbers of bytes[0..len), in the type. */
static uint64_t *parse_text(char *bytes, size_t len, uint64_t *n_out)
{
    uint64_t n = 0, cap = 1024;
    uint64_t *v = malloc(cap * sizeof *v);
    if (!v)
        die("out of memory", NULL);
    size_t i = 0;
    for (;;) {
        while (i < len && is_space((unsigned char)bytes[i]))
            i++;
        if (i == len)
            break;
        size_t start = i;
        while (i < len && !is_space((unsigned char)bytes[i]))
            i++;
        char tok[256];
        if (i - start >= sizeof tok)
            die("number too long in the text input", NULL);
        memcpy(tok, bytes + start, i - start);
        tok[i - start] = '\0';
        if (n == cap) {
            cap *= 2;
            v = realloc(v, cap * sizeof *v);
            if (!v)
                die("out of memory", NULL);
        }
        v[n++] = parse_value(elem_type, tok);
    }
    *n_out = n;
    return v;
}

static uint64_t *read_all(uint64_t *n_out)
{
    size_t cap = 1 << 20, len = 0;
    unsigned char *bytes = malloc(cap);
    if (!bytes)
        die("out of memory", NULL);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            bytes = realloc(bytes, cap);
            if (!bytes)
                die("out of memory", NULL);
        }
        size_t got = fread(bytes + len, 1, cap - len, stdin);
        if (got == 0)
            break;
        len += got;
    }
    if (text_in) {
        uint64_t *v = parse_text((char *)bytes, len, n_out);
        free(bytes);
        return v;
    }
    unsigned w = width_of(elem_type) / 8;
    uint64_t n = len / w;
    uint64_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        die("out of memory", NULL);
    for (uint64_t i = 0; i < n; i++)
        v[i] = get_bytes(bytes + w * i, w);
    free(bytes);
    *n_out = n;
    return v;
}

/* --record: all of the input's whole records into *recs, their keys
 * returned. */
static uint64_t *read_records(uint64_t *n_out, unsigned char **recs)
{
    size_t cap = 1 << 20, len = 0;
    unsigned char *bytes = malloc(cap);
    if (!bytes)
        die("out of memory", NULL);
    size_t got;
    while ((got = fread(bytes + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap && !(bytes = realloc(bytes, cap *= 2)))
            die("out of memory", NULL);
    }
    uint64_t n = len / rec_size;
    uint64_t *keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys)
        die("out of memory", NULL);
    for (uint64_t i = 0; i < n; i++)
        keys[i] = get_bytes(bytes + i * rec_size + key_off,
                            width_of(elem_type) / 8);
    *n_out = n;
    *recs = bytes;
    return keys;
}

/* --record: the keys of the input's whole records, as elements; else
 * the elements. */
static uint64_t *read_keys(uint64_t *n_out)
{
    if (!rec_size)
        return read_all(n_out);
    unsigned char *recs;
    uint64_t *keys = read_records(n_out, &recs);
    free(recs);
    return keys;
}

/* the low w bytes of x, in the output's byte order */
static void put_bytes(uint64_t x, unsigned w)
{
    unsigned char b[8];
    for (unsigned k = 0; k < w; k++)
        b[k] = (unsigned char)(x >> (8 * (big_endian ? w - 1 - k : k)));
    fwrite(b, 1, w, stdout);
}

/* -t writes the same numbers as text, one a line. */
static void put32(uint32_t x)
{
    if (text_out)
        printf("%" PRIu32 "\n", x);
    else
        put_bytes(x, 4);
}

static void put64(uint64_t x)
{
    if (text_out)
        printf("%" PRIu64 "\n", x);
    else
        put_bytes(x, 8);
}

static void put_elem(int t, uint64_t x)
{
    if (text_out)
        print_value(t, x);
    else
        put_bytes(x, width_of(t) / 8);
}

/* Element i: v[i], or record i of recs as it was read. */
static void put_item(const uint64_t *v, const unsigned char *recs,
                     uint64_t i)
{
    if (recs)
        fwrite(recs + i * rec_size, 1, rec_size, stdout);
    else
        put_elem(elem_type, v[i]);
}

/* ---------------------------------------------------------- predicate */

enum { MAXTERMS = 64 };
typedef struct {
    int kind[MAXTERMS];   /* 0 eq 1 ne 2 lt 3 le 4 gt 5 ge 6 range 7 mask */
    uint64_t a[MAXTERMS], b[MAXTERMS];
    int n;
    int invert;
} pred;

static int term_holds(int kind, uint64_t a, uint64_t b, uint64_t x)
{
    int t = elem_type;
    switch (kind) {
    case 0: return equal(t, x, a);
    case 1: return !equal(t, x, a);
    case 2: return less(t, x, a);
    case 3: return less(t, x, a) || equal(t, x, a);
    case 4: return less(t, a, x);
    case 5: return less(t, a, x) || equal(t, x, a);
    case 6: return (less(t, a, x) || equal(t, a, x)) &&
                   (less(t, x, b) || equal(t, x, b));
    case 7: return (x & a) != 0;
    }
    return 0;
}

static int pred_holds(const pred *p, uint64_t x)
{
    int ok;
    if (p->n == 0) {
        ok = !equal(elem_type, x, 0);   /* 0 is +0.0 for the floats */
    } else {
        ok = 1;
        for (int k = 0; k < p->n; k++)
            if (!term_holds(p->kind[k], p->a[k], p->b[k], x))
                ok = 0;
    }
    return p->invert ? !ok : ok;
}

/* Consumes a predicate option at argv[*i]; returns 1 if it was one. */
static int pred_option(pred *p, int argc, char **argv, int *i)
{
    static const char *names[] = { "--eq", "--ne", "--lt", "--le", "--gt",
                                   "--ge", "--range", "--mask" };
    const char *opt = argv[*i];
    if (strcmp(opt, "-x") == 0 || strcmp(opt, "--invert") == 0) {
        p->invert = 1;
        return 1;
    }
    for (int k = 0; k < 8; k++) {
        if (strcmp(opt, names[k]) != 0)
            continue;
        if (*i + 1 >= argc)
            die("missing value for", opt);
        if (p->n == MAXTERMS)
            die("too many predicate terms", NULL);
        const char *val = argv[++*i];
        p->kind[p->n] = k;
        p->b[p->n] = 0;
        if (k == 6) {
            char lo[128];
            const char *hi = split_pair(val, lo, sizeof lo);
            p->a[p->n] = parse_value(elem_type, lo);
            p->b[p->n] = parse_value(elem_type, hi);
        } else if (k == 7) {
            p->a[p->n] = parse_mask(elem_type, val);
        } else {
            p->a[p->n] = parse_value(elem_type, val);
        }
        p->n++;
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------ compact */

static int cmd_compact(int argc, char **argv)
{
    pred p = { 0 };
    int count = 0, indices = 0, wide = 0;
    for (int i = 0; i < argc; i++) {
        if (pred_option(&p, argc, argv, &i))
            continue;
        if (strcmp(argv[i], "--count") == 0)
            count = 1;
        else if (strcmp(argv[i], "--indices") == 0)
            indices = 1;
        else if (strcmp(argv[i], "-w") == 0 || strcmp(argv[i], "--wide") == 0)
            wide = 1;
        else
            die("compact: unknown option", argv[i]);
    }
    uint64_t n;
    unsigned char *recs = NULL;
    uint64_t *v = rec_size ? read_records(&n, &recs) : read_all(&n);
    uint64_t kept = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!pred_holds(&p, v[i]))
            continue;
        kept++;
        if (count)
            continue;
        if (!indices)
            put_item(v, recs, i);
        else if (wide)
            put64(i);
        else
            put32((uint32_t)i);
    }
    if (count)
        printf("%" PRIu64 "\n", kept);
    free(v);
    free(recs);
    return 0;
}

/* -------------------------------------------------------------- split */

static int cmd_split(int argc, char **argv)
{
    pred p = { 0 };
    int count = 0;
    for (int i = 0; i < argc; i++) {
        if (pred_option(&p, argc, argv, &i))
            continue;
        if (strcmp(argv[i], "--count") == 0)
            count = 1;
        else
            die("split: unknown option", argv[i]);
    }
    uint64_t n, sel = 0;
    unsigned char *recs = NULL;
    uint64_t *v = rec_size ? read_records(&n, &recs) : read_all(&n);
    /* first pass: the selected, in order */
    for (uint64_t i = 0; i < n; i++) {
        if (pred_holds(&p, v[i])) {
            sel++;
            if (!count)
                put_item(v, recs, i);
        }
    }
    /* second pass: the rejected, in order */
    if (!count)
        for (uint64_t i = 0; i < n; i++)
            if (!pred_holds(&p, v[i]))
                put_item(v, recs, i);
    if (count)
        printf("%" PRIu64 " %" PRIu64 "\n", sel, n - sel);
    free(v);
    free(recs);
    return 0;
}

/* --------------------------------------------------------------- scan */

enum { OP_SUM, OP_MAX, OP_MIN, OP_XOR };

/* The one order of a float sum.  The stream is cut into aligned blocks of
 * 1024 elements.  C_0 = carry; within block b, S runs from 0.0 adding the
 * elements in order (all in double); the inclusive output at an element
 * is C_b + S, and C_{b+1} = C_b + S at the block's end.  Fills incl[i]
 * when incl is not NULL; returns the final C (the carry for an empty
 * input). */
enum { FSUM_BLOCK = 1024 };

static double fsum(int t, const uint64_t *v, uint64_t n, double carry,
                   double *incl)
{
    double c = carry, s = 0.0;
    for (uint64_t i = 0; i < n; i++) {
        if (i % FSUM_BLOCK == 0)
            s = 0.0;
        s += to_double(t, v[i]);
        if (incl)
            incl[i] = c + s;
        if (i % FSUM_BLOCK == FSUM_BLOCK - 1 || i == n - 1)
            c = c + s;
    }
    return c;
}

/* The integer sum, max, min and xor: acc (+) x in type t. */
static uint64_t apply(int t, int op, uint64_t acc, uint64_t x)
{
    switch (op) {
    case OP_SUM: return (acc + x) & ones(width_of(t));
    case OP_MAX: return rank(t, x) > rank(t, acc) ? x : acc;
    case OP_MIN: return rank(t, x) < rank(t, acc) ? x : acc;
    default:     return acc ^ x;
    }
}

static int cmd_scan(int argc, char **argv)
{
    int op = OP_SUM, inclusive = 0, wide = 0, total = 0, offsets = 0;
    const char *carry_arg = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--op") == 0) {
            if (++i >= argc)
                die("missing value for", a);
            if (strcmp(argv[i], "sum") == 0) op = OP_SUM;
            else if (strcmp(argv[i], "max") == 0) op = OP_MAX;
            else if (strcmp(argv[i], "min") == 0) op = OP_MIN;
            else if (strcmp(argv[i], "xor") == 0) op = OP_XOR;
            else die("bad --op", argv[i]);
        } else if (strcmp(a, "-i") == 0 || strcmp(a, "--inclusive") == 0) {
            inclusive = 1;
        } else if (strcmp(a, "-w") == 0 || strcmp(a, "--wide") == 0) {
            wide = 1;
        } else if (strcmp(a, "--total") == 0) {
            total = 1;
        } else if (strcmp(a, "--offsets") == 0) {
            offsets = 1;
        } else if (strcmp(a, "--carry-in") == 0) {
            if (++i >= argc)
                die("missing value for", a);
            carry_arg = argv[i];
        } else {
            die("scan: unknown option", a);
        }
    }
    int t = elem_type;
    if (op == OP_XOR && is_float(t))
        die("scan --op xor needs an integer type, not", type_names[t]);
    if (wide && width_of(t) == 64)
        die("scan -w needs a 32-bit type, not", type_names[t]);
    if (offsets && (inclusive || total))
        die("scan --offsets excludes -i and --total", NULL);
    /* ot: the type of the outputs.  With -w the elements are widened
     * first and the scan runs in the wide type.  at: the accumulator's
     * type, ot's but for a float sum: a double even without -w (fsum()),
     * so its --carry-in is read as a double and its --total printed as
     * one, and a scan cut at a block boundary carries across exactly;
     * only its binary outputs are rounded to f32. */
    int ot = wide ? t + 3 : t;
    int at = op == OP_SUM && is_float(t) ? F64 : ot;
    /* Max and min of i32 and f32 compare in the element type (a float
     * widened to a double may change its NaN payload, and so its place
     * in the order), and write the widened element; their --carry-in is
     * an element.  u32's keep the 64-bit accumulator of -w. */
    int narrow = wide && t != U32 && (op == OP_MAX || op == OP_MIN);
    /* The identity: 0 for sum and xor, the least element by rank for max
     * and the greatest for min, of the element type (widened with -w:
     * u32's min starts from 0xffffffff even with -w). */
    uint64_t id = op == OP_MAX ? unrank(t, 0)
                : op == OP_MIN ? unrank(t, ones(width_of(t))) : 0;
    uint64_t acc = carry_arg ? parse_value(narrow ? t : at, carry_arg)
                             : (wide && !narrow ? widen(t, id) : id);
    uint64_t n;
    uint64_t *v = read_keys(&n);
    if (narrow) {
        for (uint64_t i = 0; i < n; i++) {
            uint64_t before = acc;
            acc = apply(t, op, acc, v[i]);
            if (!total)
                put_elem(ot, widen(t, inclusive ? acc : before));
        }
        if (total)
            print_value(ot, widen(t, acc));
        if (offsets)
            put_elem(ot, widen(t, acc));
        free(v);
        return 0;
    }
    if (wide)
        for (uint64_t i = 0; i < n; i++)
            v[i] = widen(t, v[i]);
    if (op == OP_SUM && is_float(ot)) {
        double *incl = malloc((n ? n : 1) * sizeof *incl);
        if (!incl)
            die("out of memory", NULL);
        double c0 = to_double(at, acc);
        double end = fsum(ot, v, n, c0, incl);
        for (uint64_t i = 0; i < n && !total; i++) {
            double out = inclusive ? incl[i] : (i ? incl[i - 1] : c0);
            /* Which NaN a sum gives depends on the order of the operands:
             * the tools write every NaN sum as +nan. */
            if (isnan(out))
                out = NAN;
            put_elem(ot, from_double(ot, out));
        }
        acc = from_double(at, isnan(end) ? NAN : end);
        if (offsets)
            put_elem(ot, from_double(ot, isnan(end) ? NAN : end));
        free(incl);
    } else {
        for (uint64_t i = 0; i < n; i++) {
            uint64_t before = acc;
            acc = apply(ot, op, acc, v[i]);
            if (total)
                continue;
            put_elem(ot, inclusive ? acc : before);
        }
        if (offsets)
            put_elem(ot, acc);
    }
    if (total)
        print_value(at, acc);
    free(v);
    return 0;
}

/* --------------------------------------------------------------- sort */

static unsigned key_lo = 0, key_hi = 32;    /* cmd_sort: the type's width */
static int descending = 0;

/* Bits key_lo..key_hi-1 of the rank. */
static uint64_t key_of(uint64_t x)
{
    return (rank(elem_type, x) >> key_lo) & ones(key_hi - key_lo);
}

/* Does a belong strictly before b?  Equal keys: no (keeps input order). */
static int before(uint64_t a, uint64_t b)
{
    uint64_t ka = key_of(a), kb = key_of(b);
    return descending ? ka > kb : ka < kb;
}

/* Top-down merge sort of the positions idx[0..n) of the elements (or
 * records' keys) x, stable: on equal keys the left one goes first. */
static void merge_sort(const uint64_t *x, uint64_t *v, uint64_t *tmp,
                       uint64_t n)
{
    if (n < 2)
        return;
    uint64_t mid = n / 2;
    merge_sort(x, v, tmp, mid);
    merge_sort(x, v + mid, tmp, n - mid);
    uint64_t i = 0, j = mid, k = 0;
    while (i < mid && j < n) {
        if (before(x[v[j]], x[v[i]]))
            tmp[k++] = v[j++];
        else
            tmp[k++] = v[i++];
    }
    while (i < mid)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

/* sort's --indices[=W]: 0 none, else the positions' bits. */
static unsigned indices_bits = 0;

/* sort's and check's options: -r, --bits LO:HI, -u, --indices[=32|64];
 * returns -u. */
static int sort_options(const char *cmd, int argc, char **argv)
{
    int unique = 0;
    key_lo = 0;
    key_hi = width_of(elem_type);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-r") == 0 || strcmp(a, "--reverse") == 0) {
            descending = 1;
        } else if (strcmp(a, "-u") == 0 || strcmp(a, "--unique") == 0) {
            unique = 1;
        } else if (strcmp(cmd, "sort") == 0 &&
                   strncmp(a, "--indices", 9) == 0) {
            if (strcmp(a, "--indices") == 0 || strcmp(a, "--indices=64") == 0)
                indices_bits = 64;
            else if (strcmp(a, "--indices=32") == 0)
                indices_bits = 32;
            else
                die("bad --indices (--indices, =32 or =64)", a);
        } else if (strcmp(a, "--bits") == 0) {
            char buf[128];
            if (++i >= argc)
                die("missing value for", a);
            if (is_float(elem_type))
                die("--bits needs an integer type, not", type_names[elem_type]);
            const char *rest = split_pair(argv[i], buf, sizeof buf);
            uint64_t lo = parse_u64(buf), hi = parse_u64(rest);
            if (!(lo < hi && hi <= width_of(elem_type)))
                die("bad --bits", argv[i]);
            key_lo = (unsigned)lo;
            key_hi = (unsigned)hi;
        } else {
            fprintf(stderr, "sc-ref: %s: unknown option: %s\n", cmd, a);
            exit(2);
        }
    }
    return unique;
}

/* The positions 0..n-1 of the elements (or records' keys) x, in sort's
 * order. */
static uint64_t *sorted_positions(const uint64_t *x, uint64_t n)
{
    uint64_t *idx = malloc((n ? n : 1) * sizeof *idx);
    uint64_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!idx || !tmp)
        die("out of memory", NULL);
    for (uint64_t i = 0; i < n; i++)
        idx[i] = i;
    merge_sort(x, idx, tmp, n);
    free(tmp);
    return idx;
}

static int cmd_sort(int argc, char **argv)
{
    int unique = sort_options("sort", argc, argv);
    uint64_t n;
    unsigned char *recs = NULL;
    uint64_t *v = rec_size ? read_records(&n, &recs) : read_all(&n);
    if (indices_bits == 32 && n > UINT64_C(0x100000000))
        die("--indices=32: too many positions", NULL);
    uint64_t *idx = sorted_positions(v, n);
    for (uint64_t i = 0; i < n; i++) {
        /* -u: of each run of equal keys keep the first */
        if (unique && i > 0 && key_of(v[idx[i]]) == key_of(v[idx[i - 1]]))
            continue;
        if (indices_bits == 64)
            put64(idx[i]);
        else if (indices_bits == 32)
            put32((uint32_t)idx[i]);
        else
            put_item(v, recs, idx[i]);
    }
    free(idx);
    free(recs);
    free(v);
    return 0;
}

/* gather --indices FILE: the elements (or records) of the input at the
 * positions FILE holds (uint64, little-endian), in FILE's order; a
 * position past the input is an error.  sc-rsort --indices applied. */
static int cmd_gather(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[0], "--indices") != 0)
        die("usage: gather --indices FILE", NULL);
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        die("cannot open", argv[1]);
    uint64_t n;
    unsigned char *recs = NULL;
    uint64_t *v = rec_size ? read_records(&n, &recs) : read_all(&n);
    unsigned char b[8];
    while (fread(b, 1, 8, f) == 8) {
        uint64_t pos = 0;
        for (unsigned k = 0; k < 8; k++)
            pos |= (uint64_t)b[k] << (8 * k);
        if (pos >= n)
            die("gather: a position past the input", NULL);
        put_item(v, recs, pos);
    }
    fclose(f);
    free(recs);
    free(v);
    return 0;
}

static int type_named(const char *name);

/* field OFF[:T]: the field of each record, as sc's --field writes it. */
static int cmd_field(int argc, char **argv)
{
    if (argc != 1 || !rec_size)
        die("usage: field OFF[:T] --record N", NULL);
    char off[32];
    const char *name = strchr(argv[0], ':')
                       ? split_pair(argv[0], off, sizeof off) : NULL;
    int t = name ? type_named(name) : elem_type;
    unsigned at = (unsigned)parse_u64(name ? off : argv[0]);
    unsigned w = width_of(t) / 8;
    if (at % w || at + w > rec_size)
        die("bad field", argv[0]);
    uint64_t n;
    unsigned char *recs = NULL;
    free(read_records(&n, &recs));
    for (uint64_t i = 0; i < n; i++)
        put_elem(t, get_bytes(recs + i * rec_size + at, w));
    free(recs);
    return 0;
}

/* sc-rsort -C: is the input in sort's order?  The first element that
 * sort would put before the one before it, or (-u) that has its key. */
static int cmd_check(int argc, char **argv)
{
    int unique = sort_options("check", argc, argv);
    uint64_t n;
    unsigned char *recs = NULL;
    uint64_t *v = rec_size ? read_records(&n, &recs) : read_all(&n);
    free(recs);
    for (uint64_t i = 1; i < n; i++) {
        if (before(v[i], v[i - 1]) ||
            (unique && key_of(v[i]) == key_of(v[i - 1]))) {
            char x[64], y[64];
            format_value(x, sizeof x, elem_type, v[i]);
            format_value(y, sizeof y, elem_type, v[i - 1]);
            printf("%s %" PRIu64 ": %s after %s\n",
                   rec_size ? "record" : "element", i, x, y);
            free(v);
            return 1;
        }
    }
    free(v);
    return 0;
}

/* ---------------------------------------------------------------- gen */

static uint64_t gen_state;

/* splitmix64 */
static uint64_t next_random(void)
{
    uint64_t z = (gen_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The special values of each type, as bit patterns. */
static const uint64_t specials_u[] = {
    0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
    UINT64_C(0x100000000), UINT64_C(0x100000001), UINT64_C(0x7fffffffffffffff),
    UINT64_C(0x8000000000000000), UINT64_C(0xfffffffffffffffe),
    UINT64_C(0xffffffffffffffff),
};
static const int64_t specials_i[] = {
    0, 1, -1, 2, -2, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1,
    (int64_t)INT32_MIN - 1, INT64_MAX, INT64_MIN, INT64_MAX - 1,
    INT64_MIN + 1, INT64_C(0x100000000), -INT64_C(0x100000000),
};
static const uint64_t specials_f64[] = {
    0, UINT64_C(0x8000000000000000),                        /* +0, -0 */
    UINT64_C(0x7ff0000000000000), UINT64_C(0xfff0000000000000), /* +-inf */
    UINT64_C(0x7ff8000000000000), UINT64_C(0xfff8000000000000), /* +-qNaN */
    UINT64_C(0x7ff0000000000001), UINT64_C(0xfff0000000000001), /* sNaNs */
    UINT64_C(0x7ff8000000000001), UINT64_C(0xfff8000000000123), /* payloads */
    UINT64_C(0x7fffffffffffffff), UINT64_C(0xffffffffffffffff),
    UINT64_C(0x7ff4000000000000),
    1, UINT64_C(0x8000000000000001),                        /* denormals */
    UINT64_C(0x000fffffffffffff), UINT64_C(0x800fffffffffffff),
    UINT64_C(0x0000000100000000),
    UINT64_C(0x0010000000000000), UINT64_C(0x8010000000000000), /* +-DBL_MIN */
    UINT64_C(0x7fefffffffffffff), UINT64_C(0xffefffffffffffff), /* +-DBL_MAX */
    UINT64_C(0x3ff0000000000000), UINT64_C(0xbff0000000000000), /* +-1 */
    UINT64_C(0x3fb999999999999a),                           /* 0.1 */
};
static const uint32_t specials_f32[] = {
    0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
    0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 1, 0x80000001,
    0x007fffff, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000,
    0x3dcccccd,
};

/* One draw of the "any value" kind. */
static uint64_t gen_any(int t)
{
    uint64_t r = next_random();
    if (is_float(t) && (next_random() & 1)) {
        double u = (double)(r >> 11) * 0x1p-53;     /* [0, 1) */
        return from_double(t, u * 2e6 - 1e6);
    }
    return r & ones(width_of(t));
}

/* One draw of the "special" kind. */
static uint64_t gen_special(int t)
{
    uint64_t r = next_random();
    size_t nu = sizeof specials_u / sizeof *specials_u;
    size_t ni = sizeof specials_i / sizeof *specials_i;
    size_t n64 = sizeof specials_f64 / sizeof *specials_f64;
    size_t n32 = sizeof specials_f32 / sizeof *specials_f32;
    switch (t) {
    case F64: return specials_f64[r % n64];
    case F32: return specials_f32[r % n32];
    case I32: case I64:
        /* those that fit the type; the wide ones wrap for i32 */
        return (uint64_t)specials_i[r % ni] & ones(width_of(t));
    default:
        return specials_u[r % nu] & ones(width_of(t));
    }
}

/* One draw of the "small" kind: -1000..1000 (0..2000 unsigned), floats
 * in eighths. */
static uint64_t gen_small(int t)
{
    int64_t k = (int64_t)(next_random() % 2001);
    if (is_float(t))
        return from_double(t, (double)(k - 1000) / 8);
    if (is_signed(t))
        return (uint64_t)(k - 1000) & ones(width_of(t));
    return (uint64_t)k;
}

/* Record i around key x: the key at its offset, i's words in the
 * others. */
static void put_record(uint64_t i, uint64_t x)
{
    unsigned w = width_of(elem_type) / 8, k = 0;
    for (unsigned at = 0; at < rec_size; at += 4) {
        if (at == key_off) {
            put_bytes(x, w);
            at += w - 4;
        } else {
            put_bytes(k++ % 2 ? i >> 32 : i & 0xffffffff, 4);
        }
    }
}

/* --keys-in: records around the keys of standard input. */
static int gen_around_keys(void)
{
    uint64_t n;
    uint64_t *v = read_all(&n);
    for (uint64_t i = 0; i < n; i++)
        put_record(i, v[i]);
    free(v);
    return 0;
}

static int cmd_gen(int argc, char **argv)
{
    uint64_t n = 0, seed = 1;
    int have_n = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--keys-in") == 0) {
            if (!rec_size)
                die("--keys-in goes with --record", NULL);
            return gen_around_keys();
        }
        if (i + 1 >= argc)
            die("missing value for", argv[i]);
        if (strcmp(argv[i], "-n") == 0) {
            n = parse_u64(argv[++i]);
            have_n = 1;
        } else if (strcmp(argv[i], "-s") == 0) {
            seed = parse_u64(argv[++i]);
        } else {
            die("gen: unknown option", argv[i]);
        }
    }
    if (!have_n)
        die("gen needs -n N", NULL);
    int t = elem_type;
    gen_state = seed;
    enum { POOL = 97 };
    uint64_t pool[POOL];
    for (int k = 0; k < POOL; k++)
        pool[k] = k % 3 == 0 ? gen_special(t) : k % 3 == 1 ? gen_small(t)
                                                            : gen_any(t);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t kind = next_random() % 40;
        uint64_t x = kind < 8 ? gen_special(t)           /* 1/5 */
                   : kind < 18 ? pool[next_random() % POOL] /* 1/4 */
                   : kind < 23 ? gen_small(t)            /* 1/8 */
                   : gen_any(t);
        if (rec_size)
            put_record(i, x);
        else
            put_elem(t, x);
    }
    return 0;
}

static int cmp_rank(const void *a, const void *b)
{
    uint64_t x = rank(elem_type, *(const uint64_t *)a);
    uint64_t y = rank(elem_type, *(const uint64_t *)b);
    return x < y ? -1 : x > y;
}

/* "q.ffffff": a / n rounded to 6 decimals, halves up (away from zero) */
static void print_mean(unsigned __int128 mag, int negative, uint64_t n)
{
    unsigned __int128 q = mag / n, r = mag % n;
    uint64_t frac = (uint64_t)((r * 1000000 + n / 2) / n);
    if (frac == 1000000) { q++; frac = 0; }
    printf("mean %s%" PRIu64 ".%06" PRIu64 "\n",
           negative && (q || frac) ? "-" : "", (uint64_t)q, frac);
}

/* One "hist LO HI COUNT" line of floats. */
static void float_hist_line(int t, double lo, double hi, uint64_t c)
{
    char a[64], b[64];
    format_value(a, sizeof a, t, from_double(t, lo));
    format_value(b, sizeof b, t, from_double(t, hi));
    printf("hist %s %s %" PRIu64 "\n", a, b, c);
}

/* --hist of the float values v[0..n), in rank order: -inf's line, `want` buckets of the
 * finite values (one where they are all equal), inf's and the NaNs'. */
static void float_hist(int t, const uint64_t *v, uint64_t n, uint64_t want)
{
    uint64_t ninf = 0, pinf = 0, nans = 0;
    int any = 0;
    double lo = 0, hi = 0;
    /* v is in rank order: the ends are the first and last finite values
     * (-0 before +0). */
    for (uint64_t i = 0; i < n; i++) {
        double x = to_double(t, v[i]);
        if (isnan(x)) nans++;
        else if (isinf(x)) x < 0 ? ninf++ : pinf++;
        else {
            if (!any) lo = x;
            hi = x;
            any = 1;
        }
    }
    uint64_t b = !any ? 0 : lo == hi ? 1 : want;
    /* A width that overflows: both ends halved (exact at that size). */
    int half = isinf(hi - lo);
    double s = half ? 0.5 : 1.0, width = b == 1 ? 1 : hi * s - lo * s;
    uint64_t *count = calloc(b + 1, sizeof *count);
    if (!count) die("out of memory", "");
    for (uint64_t i = 0; i < n; i++) {
        double x = to_double(t, v[i]);
        if (isnan(x) || isinf(x)) continue;
        uint64_t k = (uint64_t)((x * s - lo * s) / width * (double)b);
        count[k < b ? k : b - 1]++;
    }
    if (ninf) float_hist_line(t, -INFINITY, -INFINITY, ninf);
    for (uint64_t k = 0; k < b; k++) {
        double e[2];
        for (int j = 0; j < 2; j++) {
            double step = width * ((double)(k + j) / (double)b);
            e[j] = k + j >= b ? hi : half ? lo + step + step : lo + step;
        }
        float_hist_line(t, e[0], e[1], count[k]);
    }
    if (pinf) float_hist_line(t, INFINITY, INFINITY, pinf);
    if (nans) float_hist_line(t, NAN, NAN, nans);
    free(count);
}

/* sc-stat's report, the slow and obvious way. */
static int cmd_stat(int argc, char **argv)
{
    uint64_t hist = 0, head = 0, tail = 0, n;
    int t = elem_type;
    for (int i = 0; i < argc; i++) {
        if (i + 1 >= argc) die("missing value", argv[i]);
        uint64_t *dst = strcmp(argv[i], "--hist") == 0 ? &hist
                      : strcmp(argv[i], "--head") == 0 ? &head
                      : strcmp(argv[i], "--tail") == 0 ? &tail : NULL;
        if (!dst) die("unknown stat option", argv[i]);
        *dst = parse_u64(argv[++i]);
    }
    uint64_t *v = read_keys(&n);
    if (head || tail) {
        uint64_t from = head ? 0 : (n > tail ? n - tail : 0);
        uint64_t to = head ? (n < head ? n : head) : n;
        for (uint64_t i = from; i < to; i++) print_value(t, v[i]);
        free(v);
        return 0;
    }
    printf("count %" PRIu64 "\n", n);
    if (n == 0) { free(v); return 0; }
    /* sum: exact for integers (128 bits), fsum()'s order for floats */
    unsigned __int128 usum = 0;
    __int128 ssum = 0;
    double fs = is_float(t) ? fsum(t, v, n, 0.0, NULL) : 0.0;
    if (isnan(fs))
        fs = NAN;       /* as a scan writes every NaN sum */
    uint64_t zeros = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (is_signed(t)) ssum += to_int(t, v[i]);
        else usum += v[i];
        /* the floats' zeros: -0.0 as well as +0.0 */
        zeros += is_float(t) ? (v[i] & ~sign_bit(t)) == 0 : v[i] == 0;
    }
    qsort(v, n, sizeof *v, cmp_rank);
    uint64_t distinct = 1;
    for (uint64_t i = 1; i < n; i++) distinct += v[i] != v[i - 1];
    printf("min "); print_value(t, v[0]);
    printf("max "); print_value(t, v[n - 1]);
    printf("sum ");
    if (is_float(t)) {
        print_value(F64, from_double(F64, fs));
        printf("mean %.6f\n", fs / (double)n);
    } else if (is_signed(t)) {
        unsigned __int128 mag = ssum < 0 ? -(unsigned __int128)ssum
                                         : (unsigned __int128)ssum;
        printf("%s", ssum < 0 ? "-" : "");
        print_u128(mag);
        printf("\n");
        print_mean(mag, ssum < 0, n);
    } else {
        print_u128(usum);
        printf("\n");
        print_mean(usum, 0, n);
    }
    printf("zeros %" PRIu64 "\ndistinct %" PRIu64 "\n", zeros, distinct);
    if (is_float(t)) {
        if (hist) float_hist(t, v, n, hist);
        free(v);
        return 0;
    }
    /* Integers by value, which is the rank less a constant: the sorted
     * values' offsets from the least, in 128 bits (a 64-bit type's
     * range, max - min + 1, is up to 2^64). */
    typedef unsigned __int128 u128;
    uint64_t least = rank(t, v[0]);
    u128 range = (u128)(rank(t, v[n - 1]) - least) + 1;
    uint64_t b = hist < range ? hist : (uint64_t)range;
    for (uint64_t k = 0, i = 0; k < b; k++) {
        /* Bucket k: the values x with k*range <= (x-min)*b < (k+1)*range. */
        uint64_t c = 0;
        for (; i < n && (u128)(rank(t, v[i]) - least) * b < (k + 1) * range;
             i++)
            c++;
        uint64_t lo = least + (uint64_t)((k * range + b - 1) / b);
        uint64_t hi = least + (uint64_t)(((k + 1) * range + b - 1) / b) - 1;
        char lo_text[64], hi_text[64];
        format_value(lo_text, sizeof lo_text, t, unrank(t, lo));
        format_value(hi_text, sizeof hi_text, t, unrank(t, hi));
        printf("hist %s %s %" PRIu64 "\n", lo_text, hi_text, c);
    }
    free(v);
    return 0;
}

/* numpy's bincount: counts[x] for each value x, as uint64. */
static int cmd_bincount(int argc, char **argv)
{
    /* N, or sc-stat's own spelling: --bincount or --bincount=N. */
    if (argc == 1 && strncmp(argv[0], "--bincount", 10) == 0) {
        if (argv[0][10] == '=')
            argv[0] += 11;
        else if (argv[0][10] == '\0')
            argc = 0;
        else
            die("bad option", argv[0]);
    }
    if (argc > 1)
        die("usage: bincount [N | --bincount[=N]]", NULL);
    if (elem_type != U32 && elem_type != U64)
        die("bincount takes u32 or u64, not", type_names[elem_type]);
    uint64_t n;
    uint64_t *v = read_keys(&n);
    uint64_t bins = 0;
    for (uint64_t i = 0; i < n; i++)
        if (v[i] >= bins)
            bins = v[i] + 1;
    if (argc == 1) {
        uint64_t given = parse_u64(argv[0]);
        for (uint64_t i = 0; i < n; i++)
            if (v[i] >= given) {
                fprintf(stderr, "sc-ref: position %" PRIu64 ": value %"
                        PRIu64 " >= %" PRIu64 "\n", i, v[i], given);
                return 1;
            }
        bins = given;
    }
    uint64_t *count = calloc(bins ? bins : 1, sizeof *count);
    if (!count)
        die("out of memory", NULL);
    for (uint64_t i = 0; i < n; i++)
        count[v[i]]++;
    for (uint64_t k = 0; k < bins; k++)
        put64(count[k]);
    free(count);
    free(v);
    return 0;
}

/* The type named name (what is given to --type or --key). */
static int type_named(const char *name)
{
    int t = 0;
    while (t < 6 && strcmp(name, type_names[t]) != 0)
        t++;
    if (t == 6)
        die("bad type (u32, i32, f32, u64, i64 or f64)", name);
    return t;
}

/* --key OFF[:T] of a --record: the key's place, and its type becomes
 * the elements' (conditions and gen are in it). */
static void record_layout(void)
{
    char off[32];
    const char *t = key_arg ? split_pair(key_arg, off, sizeof off) : NULL;
    key_off = key_arg ? (unsigned)parse_u64(off) : 0;
    if (t && *t)
        elem_type = type_named(t);
    unsigned w = width_of(elem_type) / 8;
    if (rec_size % 4 || rec_size == 0 || key_off % w ||
        key_off + w > rec_size)
        die("bad --record / --key", key_arg);
    if (text_in)
        die("records are not read from text", NULL);
}

/* Takes --type T, --big-endian, --in FMT and -t out of argv, wherever
 * they stand (no value of another option can be any of them); returns the
 * new argc. */
static int global_options(int argc, char **argv)
{
    int m = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--type") == 0) {
            if (i + 1 >= argc)
                die("missing value for", argv[i]);
            elem_type = type_named(argv[++i]);
        } else if (strcmp(argv[i], "--big-endian") == 0) {
            big_endian = 1;
        } else if (strcmp(argv[i], "--in") == 0) {
            if (i + 1 >= argc)
                die("missing value for", argv[i]);
            const char *fmt = argv[++i];
            if (strcmp(fmt, "text") == 0)
                text_in = 1;
            else if (strcmp(fmt, "raw") == 0)
                text_in = 0;
            else
                die("bad --in (raw or text)", fmt);
        } else if (strcmp(argv[i], "-t") == 0 ||
                   strcmp(argv[i], "--text") == 0) {
            text_out = 1;
        } else if (strcmp(argv[i], "--record") == 0 ||
                   strcmp(argv[i], "--key") == 0) {
            if (i + 1 >= argc)
                die("missing value for", argv[i]);
            if (argv[i][2] == 'r')
                rec_size = (unsigned)parse_u64(argv[++i]);
            else
                key_arg = argv[++i];
        } else {
            argv[m++] = argv[i];
        }
    }
    argv[m] = NULL;
    if (rec_size)
        record_layout();
    else if (key_arg)
        die("--key goes with --record", NULL);
    return m;
}

int main(int argc, char **argv)
{
    argc = global_options(argc, argv);
    if (argc < 2)
        die("usage: sc-ref compact|split|scan|sort|stat|bincount|check|gather|gen|field"
            " [options]"
            " [--type T] [--big-endian] [--in text] [-t] <in >out", NULL);
    const char *cmd = argv[1];
    int rc;
    if (strcmp(cmd, "compact") == 0)
        rc = cmd_compact(argc - 2, argv + 2);
    else if (strcmp(cmd, "split") == 0)
        rc = cmd_split(argc - 2, argv + 2);
    else if (strcmp(cmd, "scan") == 0)
        rc = cmd_scan(argc - 2, argv + 2);
    else if (strcmp(cmd, "sort") == 0)
        rc = cmd_sort(argc - 2, argv + 2);
    else if (strcmp(cmd, "stat") == 0)
        rc = cmd_stat(argc - 2, argv + 2);
    else if (strcmp(cmd, "check") == 0)
        rc = cmd_check(argc - 2, argv + 2);
    else if (strcmp(cmd, "gather") == 0)
        rc = cmd_gather(argc - 2, argv + 2);
    else if (strcmp(cmd, "gen") == 0)
        rc = cmd_gen(argc - 2, argv + 2);
    else if (strcmp(cmd, "field") == 0)
        rc = cmd_field(argc - 2, argv + 2);
    else if (strcmp(cmd, "bincount") == 0)
        rc = cmd_bincount(argc - 2, argv + 2);
    else
        die("unknown subcommand", cmd);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sc-ref: write error\n");
        return 1;
    }
    return rc;
}
