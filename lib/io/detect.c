/* detect.c — --in auto: gzip and zstd are read, xz, bzip2 and lz4 are
 * named and refused, text is refused with a pointer to --in text, and
 * everything else is raw elements.
 *
 * Text is told from binary by its first block (SC_SNIFF_BLOCK bytes, or
 * the whole input when shorter): only numbers as --in text reads them,
 * white space, and at least one newline; a whole block of them counts
 * without one (a long line, as echo or xargs write). The newline keeps a
 * few raw elements that happen to be digits (printf '1234') raw. Numbers
 * separated by commas or semicolons (CSV) are text too, refused with the
 * command that turns them into what --in text reads. Raw elements whose
 * bytes all happen to be such characters are possible but rare; --in raw
 * reads them. A gzip or zstd input is judged by what it decodes to
 * (reader.c), by the same rule. */
#include <stdio.h>
#include <string.h>
#include "io/detect.h"

/* What CSV puts between numbers. */
static int is_sep(unsigned char c)
{
    return c == ',' || c == ';';
}

static int is_digit(unsigned char c, int hex)
{
    if (c >= '0' && c <= '9') return 1;
    c |= 0x20;
    return hex && c >= 'a' && c <= 'f';
}

/* What the first bytes of a text-like input hold. */
typedef struct text_seen { int newline, space, sep; } text_seen;

/* Whether b could be the start of text input: decimal or 0x hex tokens
 * between white space, commas and semicolons (a token cut at the end
 * counts). */
static int text_prefix(const unsigned char *b, size_t n, text_seen *seen)
{
    size_t i = 0;
    *seen = (text_seen){ 0, 0, 0 };
    while (i < n) {
        if (sc_text_space(b[i]) || is_sep(b[i])) {
            seen->space |= sc_text_space(b[i]);
            seen->sep |= is_sep(b[i]);
            seen->newline |= b[i++] == '\n';
            continue;
        }
        int hex = b[i] == '0' && i + 1 < n && (b[i + 1] | 0x20) == 'x';
        if (hex) i += 2;
        for (; i < n && !sc_text_space(b[i]) && !is_sep(b[i]); i++)
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
    return sc_sniff_magic_wants_more(b, n) || sc_sniff_text_wants_more(b, n);
}

int sc_sniff_magic_wants_more(const unsigned char *b, size_t n)
{
    return n < SC_SNIFF_MAGIC && magic_prefix(b, n);
}

int sc_sniff_text_wants_more(const unsigned char *b, size_t n)
{
    text_seen seen;
    return n < SC_SNIFF_BLOCK && text_prefix(b, n, &seen);
}

sc_kind sc_sniff_text(const unsigned char *b, size_t n)
{
    text_seen seen;
    if (n == 0 || !text_prefix(b, n, &seen)) return SC_KIND_RAW;
    if (!seen.newline && !((seen.space || seen.sep) && n >= SC_SNIFF_BLOCK))
        return SC_KIND_RAW;
    return seen.sep ? SC_KIND_CSV : SC_KIND_TEXT;
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
    return sc_sniff_text(b, n);
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

/* Text refused, with what to run instead: --in text for numbers between
 * white space, tr first for CSV (decompressing first, as tr cannot). */
static void text_refusal(char *msg, size_t cap, sc_kind kind, sc_kind packed,
                         const char *name, const char *path)
{
    const char *tool = packed == SC_KIND_GZ ? "gzip"
                     : packed == SC_KIND_ZST ? "zstd" : NULL;
    const char *as_is = packed == SC_KIND_GZ ? "gz"
                      : packed == SC_KIND_ZST ? "zst" : "raw";
    char what[64];
    if (tool) snprintf(what, sizeof what, "is %s-compressed text", tool);
    else snprintf(what, sizeof what, "looks like text");
    if (kind == SC_KIND_TEXT) {
        snprintf(msg, cap, "%s: the input %s, not binary elements; use --in "
                 "text to read its numbers (or --in %s to take its bytes as "
                 "elements)", name, what, as_is);
        return;
    }
    int is_stdin = strcmp(path, "-") == 0;
    char from[1024];
    if (tool)
        snprintf(from, sizeof from, "%s -dc%s%s | tr ',;' '\\n\\n'", tool,
                 is_stdin ? "" : " ", is_stdin ? "" : path);
    else if (is_stdin)
        snprintf(from, sizeof from, "tr ',;' '\\n\\n'");
    else
        snprintf(from, sizeof from, "tr ',;' '\\n\\n' < %s", path);
    snprintf(msg, cap, "%s: the input %s of numbers separated by commas or "
             "semicolons, not binary elements; --in text reads numbers "
             "separated by white space: %s%s | %s --in text ...", name, what,
             is_stdin && !tool ? "... | " : "", from, program());
}

void sc_sniff_refusal(char *msg, size_t cap, sc_kind kind, sc_kind packed,
                      const char *name, const char *path)
{
    static const char *const tool[] = {
        [SC_KIND_ZST] = "zstd", [SC_KIND_XZ] = "xz", [SC_KIND_BZ2] = "bzip2",
        [SC_KIND_LZ4] = "lz4" };
    if (kind == SC_KIND_TEXT || kind == SC_KIND_CSV) {
        text_refusal(msg, cap, kind, packed, name, path);
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
