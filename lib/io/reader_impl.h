/* reader_impl.h — an sc_reader's state, shared by the files that read:
 * reader.c (files in turn, raw elements), codecs.c (gzip and zstd) and
 * text_in.c (text numbers); inputs.c decodes a file's start through
 * codecs.c.  Nothing outside lib/io/ includes it. */
#ifndef SC_READER_IMPL_H
#define SC_READER_IMPL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <sys/types.h>
#include <zlib.h>
#include "io/detect.h"
#include "io/io.h"
#include "io/fdio.h"
#include "io/par.h"
#include "io/pread.h"
#include "io/zstdio.h"

#define ZBUF_BYTES ((size_t)1 << 20)
#define TBUF_BYTES ((size_t)1 << 20)

/* What sc_inputs_scan learnt of one input before it was read. */
typedef struct sc_input {
    int fd;                     /* a regular file kept open, else -1 */
    int fd_is_stdin;
    off_t at;                   /* where its data starts */
    off_t size;                 /* regular: bytes from at; else -1 */
    int kind;                   /* under auto and text: its sc_kind (what a
                                 * compressed one decodes to), else -1 */
    int packed;                 /* SC_KIND_GZ or _ZST when compressed */
    size_t unit;                /* what its first unit decodes to where
                                 * claims may take it (a BGZF member, a
                                 * zstd frame with its size), else 0 */
} sc_input;

/* Checks the inputs (inputs.c): each stat'ed once, a regular file opened
 * once and judged once; with out, the first ones stay open for the reader
 * (sc_inputs_release closes what it did not take). */
sc_status sc_inputs_scan(sc_ctx *ctx, const char *const *paths, size_t n,
                         sc_format fmt, sc_input **out);
void sc_inputs_release(sc_input *in, size_t n);
int64_t sc_inputs_known_size(const sc_input *in, size_t n, sc_format fmt);

struct sc_reader {
    sc_ctx *ctx;
    const char *const *paths;
    size_t n_paths, next_path;
    sc_input *inputs;           /* per path, from the check */
    sc_format fmt;
    sc_type type;               /* text: how numbers read */
    unsigned size;              /* bytes an element of type takes, or a
                                 * record (sc_reader_set_record) */
    int record;                 /* elements are records: not swapped */
    int swap;                   /* big-endian elements: reversed */
    int fd;                     /* -1: between files */
    const char *name;           /* current file, for messages */
    enum { CODEC_NONE, CODEC_GZ, CODEC_ZST } codec;  /* current file's */
    int live;                   /* current file is a pipe, tty or socket */
    off_t reg_size;             /* current file's size if regular, else -1 */
    z_stream z;                 /* gzip's, or the cursors of ISA-L's: */
    struct inflate_state *isal;
    const char *z_fault;        /* ISA-L's, held while it holds bytes */
    int z_ready, z_member_done;
    int z_padding;              /* zeros seen after the last member */
    sc_zin *zs;
    int zs_frame_done;          /* zstd: at a frame boundary */
    int zs_more;                /* zstd: output was full, may hold more */
    unsigned char *zbuf;        /* compressed input; before a raw file's
                                 * data, its bytes peeked at for the magic */
    /* Under --in auto, a compressed file's first decoded bytes, judged
     * before they are delivered. */
    unsigned char head[SC_SNIFF_BLOCK];
    size_t head_len, head_pos;
    uint64_t file_bytes;        /* bytes taken from the current file */
    /* From all files, for progress: the pipeline's writer thread reads
     * it while the reader thread adds to it. */
    _Atomic uint64_t total_bytes;
    uint64_t decoded;           /* decoded bytes of the whole stream */
    unsigned char carry[SC_RECORD_MAX];  /* a partial element between
                                          * reads */
    unsigned carry_len;
    char *tbuf;                 /* text: undigested bytes */
    size_t tlen, tpos;
    uint64_t line;              /* text: current line, 1-based */
    int64_t size_hint;
    sc_preader *par;            /* regular files: reads by several threads */
    int par_tried;
    sc_par *units;              /* splittable compressed files (par.c) */
    int streaming;              /* the current file goes to codecs.c */
    /* For -v: how each compressed file was decoded. */
    sc_decoding *decs;
    size_t n_decs;
    int at_end;
    sc_fault fault;             /* to report once the data before it is out */
};

/* Holds a fault back, to report after the data decoded before it. */
static inline void defer(sc_reader *r, sc_status st, const char *fmt,
                         ...) SC_PRINTF(3, 4);
static inline void defer(sc_reader *r, sc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_fault_vset(&r->fault, st, fmt, ap);
    va_end(ap);
}

/* The status of the fault held back, SC_OK while none is. */
static inline sc_status pending(const sc_reader *r)
{
    return sc_fault_status(&r->fault);
}

/* A live input with whole elements in hand but nothing more for a
 * while: time to hand over what there is. */
#define STALL_MS 50

static inline int stalled(const sc_reader *r, int whole_in_hand)
{
    return r->live && whole_in_hand && r->fd >= 0 &&
           sc_read_would_wait(r->fd, STALL_MS);
}

/* Whether a file is open or any is left. */
static inline int more_files(const sc_reader *r)
{
    return r->fd >= 0 || r->next_path < r->n_paths;
}

/* Bytes of the current file, counted; -1 on a fault, held (reader_file.c). */
ssize_t sc_reader_file_read(sc_reader *r, void *buf, size_t len);
/* Decoded bytes of the current file, opening the next one first when the
 * last has ended: >0; 0 at the end of a file (and when no file is left,
 * with more_files() false); -1 on a fault (reader_bytes.c). */
ssize_t sc_reader_next_bytes(sc_reader *r, unsigned char *dst, size_t len);

/* The next file opened where none is open (as sc_reader_next_bytes
 * would): 1 when one is open, 0 when none is left, -1 on a fault, held. */
int sc_reader_open_current(sc_reader *r);

/* A file's codec started on the bytes peeked at: 1, or -1 on a fault;
 * then bytes produced, 0 at the file's end, -1 (codecs.c). */
int sc_gz_start(sc_reader *r);
ssize_t sc_gz_read(sc_reader *r, unsigned char *dst, size_t len);
int sc_zst_start(sc_reader *r);
ssize_t sc_zst_read(sc_reader *r, unsigned char *dst, size_t len);

/* The first bytes that the gzip (SC_KIND_GZ) or zstd (SC_KIND_ZST) data
 * in[0, len) decodes to, up to cap of them into out: their count, short
 * where the data is short, corrupt or needs more than in (codecs.c). */
size_t sc_decode_head(int packed, const unsigned char *in, size_t len,
                      unsigned char *out, size_t cap);

/* The current compressed file, decoded in parallel where it splits
 * (par.c): begun on the bytes peeked at; then as sc_gz_read, or
 * SC_PAR_STREAM where the rest of the file is for the stream decoder,
 * its input handed over in r->z. */
void sc_par_begin(sc_par *p, sc_reader *r);
ssize_t sc_par_read(sc_par *p, sc_reader *r, unsigned char *dst, size_t len);

/* Whole BGZF members from where the current file's decoding stands,
 * claimed as a chunk of up to max elements (par_claim.c): 1, or 0 where
 * none can be (the stream's reader goes on there); then read and decoded
 * on the calling thread, as sc_reader_claim_read. */
int sc_par_claim(sc_par *p, sc_reader *r, size_t max, sc_claim *cl);
sc_status sc_par_claim_read(sc_par *p, sc_reader *r, const sc_claim *cl,
                            unsigned char *buf, size_t *n);
/* A claim's fault, the first in the stream's order, put where
 * sc_reader_raise() finds it. */
void sc_par_claim_fault(sc_par *p, sc_reader *r);

/* A compressed file begun (decode.c): 1, or -1 on a fault (held); then
 * its bytes decoded, as sc_gz_read. */
int sc_decode_begin(sc_reader *r);
ssize_t sc_decode(sc_reader *r, unsigned char *dst, size_t len);

/* The stream decoder of gzip in this build: "ISA-L" or "zlib". */
extern const char sc_gz_engine[];

/* Text: up to max numbers into buf, elements of r's type (text_in.c). */
sc_status sc_text_read(sc_reader *r, void *buf, size_t max, size_t *got);

#endif
