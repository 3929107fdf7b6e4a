/* detect.h — what an input under --in auto is, from its first bytes; and
 * the white space of --in text, which the text reader shares. */
#ifndef SC_DETECT_H
#define SC_DETECT_H
#include <stddef.h>

/* Bytes of a stream's start that decide its kind: enough for every magic,
 * and the block that text detection looks at. */
#define SC_SNIFF_MAGIC 6
#define SC_SNIFF_BLOCK 4096

/* The white space between --in text's numbers: what the text reader skips
 * and what text detection takes for text. */
static inline int sc_text_space(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' ||
           c == '\f';
}

typedef enum sc_kind {
    SC_KIND_RAW, SC_KIND_GZ, SC_KIND_ZST,       /* read */
    SC_KIND_XZ, SC_KIND_BZ2, SC_KIND_LZ4,       /* refused: named */
    SC_KIND_TEXT,                               /* refused: --in text */
    SC_KIND_CSV                                 /* refused: tr, --in text */
} sc_kind;

/* Whether more bytes could change the verdict on these n first bytes (so
 * a reader asks for more unless the input has ended). Reading stops at
 * the first byte text cannot hold, so live binary input is not held up. */
int sc_sniff_wants_more(const unsigned char *b, size_t n);
/* The same, for the magic alone (--in text) and for the text check alone
 * (the decoded start of a compressed input). */
int sc_sniff_magic_wants_more(const unsigned char *b, size_t n);
int sc_sniff_text_wants_more(const unsigned char *b, size_t n);
/* The kind of a stream whose first n bytes are b (n < SC_SNIFF_MAGIC
 * only when that is the whole input). */
sc_kind sc_sniff(const unsigned char *b, size_t n);
/* SC_KIND_TEXT, SC_KIND_CSV or SC_KIND_RAW, by the text check alone. */
sc_kind sc_sniff_text(const unsigned char *b, size_t n);
/* The refusal of a kind that is not read under auto, as a message
 * "NAME: ..."; name is the input's, shown as given. packed: SC_KIND_GZ
 * or SC_KIND_ZST for text found inside compressed data, else
 * SC_KIND_RAW. */
void sc_sniff_refusal(char *msg, size_t cap, sc_kind kind, sc_kind packed,
                      const char *name, const char *path);

#endif
