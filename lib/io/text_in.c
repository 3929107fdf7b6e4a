/* text_in.c — text input: whitespace-separated decimal or 0x hex
 * numbers, each a value of the reader's type (sc_value_parse; u32 by a
 * parser of its own, the common case kept fast); line numbers in messages
 * count from each file's start. */
#include <stdio.h>
#include <string.h>
#include "io/detect.h"
#include "io/reader_impl.h"

/* Whether a token holds what CSV puts between numbers. */
static int has_sep(const char *s, size_t len)
{
    return memchr(s, ',', len) || memchr(s, ';', len);
}

/* Parses one token; returns 0 and the value, or -1 / -2 (range). */
static int parse_u32(const char *s, size_t len, uint32_t *v)
{
    uint64_t x = 0;
    size_t i = 0;
    int hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex) i = 2;
    if (len == 0 || (hex && len == 2)) return -1;
    for (; i < len; i++) {
        unsigned d;
        char c = s[i];
        if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
        else if (hex && c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
        else if (hex && c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
        else return -1;
        x = x * (hex ? 16 : 10) + d;
        if (x > UINT32_MAX) return -2;
    }
    *v = (uint32_t)x;
    return 0;
}

/* Parses one token as parse_u32 does, into the value's bits. */
static int parse_token(const sc_reader *r, const char *s, size_t len,
                       uint64_t *bits)
{
    if (r->type == SC_U32) {
        uint32_t v;
        int e = parse_u32(s, len, &v);
        if (e == 0) *bits = v;
        return e;
    }
    sc_status st = sc_value_parse(r->type, s, len, bits);
    return st == SC_OK ? 0 : st == SC_ERR_RANGE ? -2 : -1;
}

/* Element i of buf, an array of r's type, set to bits. */
static void store(const sc_reader *r, void *buf, size_t i, uint64_t bits)
{
    if (r->size == 8) ((uint64_t *)buf)[i] = bits;
    else ((uint32_t *)buf)[i] = (uint32_t)bits;
}

/* A token as a message may show it: bytes that are not printable ASCII
 * (a NUL, say) as \xHH, and at most 40 of them. */
static void printable(char *dst, size_t cap, const char *s, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len && i < 40 && o + 5 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f) dst[o++] = (char)c;
        else o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", c);
    }
    dst[o] = 0;
}

sc_status sc_text_read(sc_reader *r, void *buf, size_t max, size_t *got)
{
    size_t n = 0;
    while (n < max) {
        while (r->tpos < r->tlen && sc_text_space(r->tbuf[r->tpos])) {
            if (r->tbuf[r->tpos] == '\n') r->line++;
            r->tpos++;
        }
        size_t end = r->tpos;
        while (end < r->tlen && !sc_text_space(r->tbuf[end])) end++;
        if (end == r->tlen && !r->at_end) {
            /* The token may go on past the buffer: refill first. */
            memmove(r->tbuf, r->tbuf + r->tpos, r->tlen - r->tpos);
            r->tlen -= r->tpos;
            r->tpos = 0;
            if (r->tlen == TBUF_BYTES) {
                defer(r, SC_ERR_TEXT, "%s: line %llu: token too long", r->name,
                      (unsigned long long)r->line);
                break;
            }
            if (r->z.avail_in == 0 && stalled(r, n > 0)) break;
            unsigned char *room = (unsigned char *)r->tbuf + r->tlen;
            ssize_t k = sc_reader_next_bytes(r, room, TBUF_BYTES - r->tlen);
            if (k < 0) break;
            if (k == 0 && !more_files(r)) r->at_end = 1;
            r->tlen += (size_t)k;
            continue;
        }
        if (r->tpos == end) break;              /* nothing but space left */
        uint64_t bits;
        int e = parse_token(r, r->tbuf + r->tpos, end - r->tpos, &bits);
        if (e) {
            char shown[64], range[48];
            if (r->type == SC_U32)
                snprintf(range, sizeof range, "number above 4294967295");
            else
                snprintf(range, sizeof range, "number out of range for %s",
                         sc_type_name(r->type));
            printable(shown, sizeof shown, r->tbuf + r->tpos, end - r->tpos);
            defer(r, e == -2 ? SC_ERR_RANGE : SC_ERR_TEXT,
                  "%s: line %llu: %s '%s'%s", r->name,
                  (unsigned long long)r->line,
                  e == -2 ? range : "malformed number",
                  shown, has_sep(r->tbuf + r->tpos, end - r->tpos)
                  ? " (numbers are separated by white space: tr ',;' "
                    "'\\n\\n' makes CSV so)" : "");
            break;
        }
        store(r, buf, n++, bits);
        r->tpos = end;
    }
    *got = n;
    return SC_OK;
}
