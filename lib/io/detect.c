/* detect.c — --in auto: gzip and zstd are read, xz, bzip2 and lz4 are
 * named and refused, text is refused with a pointer to --in text, and
 * everything else is raw elements.
 *
 * Text is told from binary by its first block (SC_SNIFF_BLOCK bytes, or
 * the whole input when shorter): only numbers as --in text reads them,
 * white space, and at least one newline; a whole block of them counts
 * without one (a long line, as echo or xargs write). The newline keeps a
 * few raw elements that happen to be digits (printf '1234') raw. Raw
 * elements whose bytes all happen to be such characters are possible but
 * rare; --in raw reads them. */
#include <stdio.h>
#include <string.h>
#include "io/detect.h"

static int is_digit(unsigned char c, int hex)
{
    if (c >= '0' && c <= '9') return 1;
    c |= 0x20;
    return hex && c >= 'a' && c <= 'f';
}

/* Whether b could be the start of text input: decimal or 0x hex tokens
 * and white space (a token cut at the end counts). *newline: one seen;
 * *space: white space seen. */
static int text_prefix(const unsigned char *b, size_t n, int *newline,
                       int *space)
{
    size_t i = 0;
    *newline = *space = 0;
    while (i < n) {
        if (sc_text_space(b[i])) {
            *space = 1;
            *newline |= b[i++] == '\n';
            continue;
        }
        int hex = b[i] == '0' && i + 1 < n && (b[i + 1] | 0x20) == 'x';
        if (hex) i += 2;
        for (; i < n && !sc_text_space(b[i]); i++)
            if (!is_digit(b[i], hex)) return 0;
    }
    return 1;
}

static int has(const unsigned char *b, size_t n, const char *magic, size_t len)
{
    return n >= len && memcmp(b, magic, len) == 0;
}

/* Whether b, n bytes, is the start of a magic but not yet all of it. */
static int magic_prefix(const unsigned char *b, size_t n)
{
    static const struct { const char *m; size_t len; } magics[] = {
        { "\x1f\x8b", 2 }, { "\x28\xb5\x2f\xfd", 4 }, { "\xfd" "7zXZ\0", 6 },
        { "BZh", 4 },                           /* and a digit 1-9 */
        { "\x04\x22\x4d\x18", 4 }, { "\x02\x21\x4c\x18", 4 } };
    for (size_t k = 0; k < sizeof magics / sizeof magics[0]; k++) {
        size_t fixed = strlen(magics[k].m) + (magics[k].m[0] == '\xfd');
        if (n < magics[k].len && !memcmp(b, magics[k].m, n < fixed ? n : fixed))
            return 1;
    }
    /* a skippable frame: 5? 2a 4d 18 */
    return n < 4 && (n < 1 || (b[0] & 0xf0) == 0x50) &&
           (n < 2 || b[1] == 0x2a) && (n < 3 || b[2] == 0x4d);
}

/* A live input is judged as soon as its bytes settle it: one raw element
 * that is no magic's start goes through without waiting for more. */
int sc_sniff_wants_more(const unsigned char *b, size_t n)
{
    int newline, space;
    if (n < SC_SNIFF_MAGIC && magic_prefix(b, n)) return 1;
    return n < SC_SNIFF_BLOCK && text_prefix(b, n, &newline, &space);
}

sc_kind sc_sniff(const unsigned char *b, size_t n)
{
    if (has(b, n, "\x1f\x8b", 2)) return SC_KIND_GZ;
    if (has(b, n, "\x28\xb5\x2f\xfd", 4)) return SC_KIND_ZST;
    /* A skippable frame (magic 0x184D2A5?) opens zstd data as often as
     * lz4's; libzstd skips it and then judges what follows. */
    if (n >= 4 && (b[0] & 0xf0) == 0x50 && has(b + 1, n - 1, "\x2a\x4d\x18", 3))
        return SC_KIND_ZST;
    if (has(b, n, "\xfd" "7zXZ\0", 6)) return SC_KIND_XZ;
    if (has(b, n, "BZh", 3) && n >= 4 && b[3] >= '1' && b[3] <= '9')
        return SC_KIND_BZ2;
    if (has(b, n, "\x04\x22\x4d\x18", 4) || has(b, n, "\x02\x21\x4c\x18", 4))
        return SC_KIND_LZ4;
    int newline, space;
    if (n > 0 && text_prefix(b, n, &newline, &space) &&
        (newline || (space && n >= SC_SNIFF_BLOCK)))
        return SC_KIND_TEXT;
    return SC_KIND_RAW;
}

/* The program that runs: under glibc the tools set its short name to
 * theirs; a library user's program keeps its own. */
static const char *program(void)
{
#ifdef __GLIBC__
    extern char *program_invocation_short_name;
    if (program_invocation_short_name && *program_invocation_short_name)
        return program_invocation_short_name;
#endif
    return "sc";
}

void sc_sniff_refusal(char *msg, size_t cap, sc_kind kind, const char *name,
                      const char *path)
{
    static const char *const tool[] = {
        [SC_KIND_ZST] = "zstd", [SC_KIND_XZ] = "xz", [SC_KIND_BZ2] = "bzip2",
        [SC_KIND_LZ4] = "lz4" };
    if (kind == SC_KIND_TEXT) {
        snprintf(msg, cap, "%s: the input looks like text, not binary "
                 "elements; use --in text to read its numbers (or --in raw "
                 "to take its bytes as elements)", name);
        return;
    }
    const char *t = kind < sizeof tool / sizeof tool[0] && tool[kind]
                    ? tool[kind] : "?";
    int is_stdin = strcmp(path, "-") == 0;
    snprintf(msg, cap, "%s: %s-compressed input%s; decompress it first: "
             "%s -dc%s%s | %s ...", name, t,
             kind == SC_KIND_ZST ? " (this sc was built without zstd)" : "",
             t, is_stdin ? "" : " ", is_stdin ? "" : path, program());
}
