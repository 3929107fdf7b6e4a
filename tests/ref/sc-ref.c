/* sc-ref.c -- a deliberately simple reference for the sc test suite.
 *
 * Plain C11, no libsc.  Reads raw little-endian uint32 elements from
 * standard input (whole elements only; stray trailing bytes are ignored),
 * writes raw output (or a decimal figure) to standard output.
 *
 *   sc-ref compact [PRED] [-x] [--count] [--indices [-w]]
 *   sc-ref split   [PRED] [-x] [--count]
 *   sc-ref scan    [--op sum|max|min|xor] [-i] [-w] [--carry-in V] [--total]
 *   sc-ref sort    [-r] [--bits LO:HI] [-u]
 *   sc-ref stat    [--hist N] [--head N] [--tail N]   (distinct is exact)
 *
 * PRED: --eq V --ne V --lt V --le V --gt V --ge V --range LO:HI --mask M,
 * any number of each, all must hold; none given means x != 0.
 * Numbers are decimal or 0x hex.  Clarity over speed everywhere.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "sc-ref: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

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

static uint32_t parse_u32(const char *s)
{
    uint64_t v = parse_u64(s);
    if (v > UINT32_MAX)
        die("number above 2^32-1", s);
    return (uint32_t)v;
}

/* "A:B" -> two numbers */
static void parse_pair(const char *s, uint64_t *a, uint64_t *b)
{
    char buf[128];
    const char *colon = strchr(s, ':');
    if (!colon || (size_t)(colon - s) >= sizeof buf)
        die("expected LO:HI", s);
    memcpy(buf, s, (size_t)(colon - s));
    buf[colon - s] = '\0';
    *a = parse_u64(buf);
    *b = parse_u64(colon + 1);
}

/* ---------------------------------------------------------------- I/O */

static uint32_t *read_all(uint64_t *n_out)
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
    uint64_t n = len / 4;
    uint32_t *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        die("out of memory", NULL);
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *b = bytes + 4 * i;
        v[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
               (uint32_t)b[3] << 24;
    }
    free(bytes);
    *n_out = n;
    return v;
}

static void put32(uint32_t x)
{
    unsigned char b[4] = { x & 0xff, (x >> 8) & 0xff, (x >> 16) & 0xff, x >> 24 };
    fwrite(b, 1, 4, stdout);
}

static void put64(uint64_t x)
{
    unsigned char b[8];
    for (int k = 0; k < 8; k++)
        b[k] = (unsigned char)(x >> (8 * k));
    fwrite(b, 1, 8, stdout);
}

/* ---------------------------------------------------------- predicate */

enum { MAXTERMS = 64 };
typedef struct {
    int kind[MAXTERMS];   /* 0 eq 1 ne 2 lt 3 le 4 gt 5 ge 6 range 7 mask */
    uint32_t a[MAXTERMS], b[MAXTERMS];
    int n;
    int invert;
} pred;

static int term_holds(int kind, uint32_t a, uint32_t b, uint32_t x)
{
    switch (kind) {
    case 0: return x == a;
    case 1: return x != a;
    case 2: return x < a;
    case 3: return x <= a;
    case 4: return x > a;
    case 5: return x >= a;
    case 6: return a <= x && x <= b;
    case 7: return (x & a) != 0;
    }
    return 0;
}

static int pred_holds(const pred *p, uint32_t x)
{
    int ok;
    if (p->n == 0) {
        ok = (x != 0);
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
        if (k == 6) {
            uint64_t lo, hi;
            parse_pair(val, &lo, &hi);
            if (lo > UINT32_MAX || hi > UINT32_MAX)
                die("range bound above 2^32-1", val);
            p->a[p->n] = (uint32_t)lo;
            p->b[p->n] = (uint32_t)hi;
        } else {
            p->a[p->n] = parse_u32(val);
            p->b[p->n] = 0;
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
    uint32_t *v = read_all(&n);
    uint64_t kept = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (!pred_holds(&p, v[i]))
            continue;
        kept++;
        if (count)
            continue;
        if (!indices)
            put32(v[i]);
        else if (wide)
            put64(i);
        else
            put32((uint32_t)i);
    }
    if (count)
        printf("%" PRIu64 "\n", kept);
    free(v);
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
    uint32_t *v = read_all(&n);
    /* first pass: the selected, in order */
    for (uint64_t i = 0; i < n; i++) {
        if (pred_holds(&p, v[i])) {
            sel++;
            if (!count)
                put32(v[i]);
        }
    }
    /* second pass: the rejected, in order */
    if (!count)
        for (uint64_t i = 0; i < n; i++)
            if (!pred_holds(&p, v[i]))
                put32(v[i]);
    if (count)
        printf("%" PRIu64 " %" PRIu64 "\n", sel, n - sel);
    free(v);
    return 0;
}

/* --------------------------------------------------------------- scan */

enum { OP_SUM, OP_MAX, OP_MIN, OP_XOR };

static uint64_t apply(int op, uint64_t acc, uint64_t x, int wide)
{
    uint64_t r;
    switch (op) {
    case OP_SUM: r = acc + x; break;
    case OP_MAX: r = acc > x ? acc : x; break;
    case OP_MIN: r = acc < x ? acc : x; break;
    default:     r = acc ^ x; break;
    }
    return wide ? r : (uint32_t)r;
}

static int cmd_scan(int argc, char **argv)
{
    int op = OP_SUM, inclusive = 0, wide = 0, total = 0, have_carry = 0;
    uint64_t carry = 0;
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
        } else if (strcmp(a, "--carry-in") == 0) {
            if (++i >= argc)
                die("missing value for", a);
            carry = parse_u64(argv[i]);
            have_carry = 1;
        } else {
            die("scan: unknown option", a);
        }
    }
    /* The identity: 0 for sum, max and xor; all ones (of 32 bits: the
     * elements are uint32) for min. */
    uint64_t acc = have_carry ? carry : (op == OP_MIN ? UINT32_MAX : 0);
    if (!wide)
        acc = (uint32_t)acc;
    uint64_t n;
    uint32_t *v = read_all(&n);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t before = acc;
        acc = apply(op, acc, v[i], wide);
        if (total)
            continue;
        uint64_t out = inclusive ? acc : before;
        if (wide)
            put64(out);
        else
            put32((uint32_t)out);
    }
    if (total)
        printf("%" PRIu64 "\n", acc);
    free(v);
    return 0;
}

/* --------------------------------------------------------------- sort */

static unsigned key_lo = 0, key_hi = 32;
static int descending = 0;

static uint32_t key_of(uint32_t x)
{
    uint32_t shifted = x >> key_lo;
    unsigned width = key_hi - key_lo;
    return width >= 32 ? shifted : (shifted & ((UINT32_C(1) << width) - 1));
}

/* Does a belong strictly before b?  Equal keys: no (keeps input order). */
static int before(uint32_t a, uint32_t b)
{
    uint32_t ka = key_of(a), kb = key_of(b);
    return descending ? ka > kb : ka < kb;
}

/* Top-down merge sort, stable: on equal keys the left element goes first. */
static void merge_sort(uint32_t *v, uint32_t *tmp, uint64_t n)
{
    if (n < 2)
        return;
    uint64_t mid = n / 2;
    merge_sort(v, tmp, mid);
    merge_sort(v + mid, tmp, n - mid);
    uint64_t i = 0, j = mid, k = 0;
    while (i < mid && j < n) {
        if (before(v[j], v[i]))
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

static int cmd_sort(int argc, char **argv)
{
    int unique = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-r") == 0 || strcmp(a, "--reverse") == 0) {
            descending = 1;
        } else if (strcmp(a, "-u") == 0 || strcmp(a, "--unique") == 0) {
            unique = 1;
        } else if (strcmp(a, "--bits") == 0) {
            uint64_t lo, hi;
            if (++i >= argc)
                die("missing value for", a);
            parse_pair(argv[i], &lo, &hi);
            if (!(lo < hi && hi <= 32))
                die("bad --bits", argv[i]);
            key_lo = (unsigned)lo;
            key_hi = (unsigned)hi;
        } else {
            die("sort: unknown option", a);
        }
    }
    uint64_t n;
    uint32_t *v = read_all(&n);
    uint32_t *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        die("out of memory", NULL);
    merge_sort(v, tmp, n);
    for (uint64_t i = 0; i < n; i++) {
        /* -u: of each run of equal keys keep the first */
        if (unique && i > 0 && key_of(v[i]) == key_of(v[i - 1]))
            continue;
        put32(v[i]);
    }
    free(tmp);
    free(v);
    return 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* sc-stat's report, the slow and obvious way. */
static int cmd_stat(int argc, char **argv)
{
    uint64_t hist = 0, head = 0, tail = 0, n;
    for (int i = 0; i < argc; i++) {
        if (i + 1 >= argc) die("missing value", argv[i]);
        uint64_t *dst = strcmp(argv[i], "--hist") == 0 ? &hist
                      : strcmp(argv[i], "--head") == 0 ? &head
                      : strcmp(argv[i], "--tail") == 0 ? &tail : NULL;
        if (!dst) die("unknown stat option", argv[i]);
        *dst = parse_u64(argv[++i]);
    }
    uint32_t *v = read_all(&n);
    if (head || tail) {
        uint64_t from = head ? 0 : (n > tail ? n - tail : 0);
        uint64_t to = head ? (n < head ? n : head) : n;
        for (uint64_t i = from; i < to; i++) printf("%" PRIu32 "\n", v[i]);
        free(v);
        return 0;
    }
    printf("count %" PRIu64 "\n", n);
    if (n == 0) { free(v); return 0; }
    unsigned __int128 sum = 0;
    uint64_t zeros = 0;
    for (uint64_t i = 0; i < n; i++) { sum += v[i]; zeros += v[i] == 0; }
    qsort(v, n, 4, cmp_u32);
    uint64_t distinct = 1;
    for (uint64_t i = 1; i < n; i++) distinct += v[i] != v[i - 1];
    unsigned __int128 q = sum / n, r = sum % n;
    uint64_t frac = (uint64_t)((r * 1000000 + n / 2) / n);
    if (frac == 1000000) { q++; frac = 0; }
    /* The sums of the tests stay below 2^64. */
    printf("min %" PRIu32 "\nmax %" PRIu32 "\nsum %" PRIu64 "\nmean %" PRIu64
           ".%06" PRIu64 "\nzeros %" PRIu64 "\ndistinct %" PRIu64 "\n",
           v[0], v[n - 1], (uint64_t)sum, (uint64_t)q, frac, zeros, distinct);
    uint64_t range = (uint64_t)v[n - 1] - v[0] + 1, b = hist < range ? hist : range;
    for (uint64_t k = 0, i = 0; k < b; k++) {
        /* Bucket k: the values x with k*range <= (x-min)*b < (k+1)*range. */
        uint64_t c = 0;
        for (; i < n && ((uint64_t)v[i] - v[0]) * b < (k + 1) * range; i++) c++;
        uint64_t lo = v[0] + (k * range + b - 1) / b;
        uint64_t hi = v[0] + ((k + 1) * range + b - 1) / b - 1;
        printf("hist %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", lo, hi, c);
    }
    free(v);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: sc-ref compact|split|scan|sort|stat [options] <in >out", NULL);
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
    else
        die("unknown subcommand", cmd);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "sc-ref: write error\n");
        return 1;
    }
    return rc;
}
