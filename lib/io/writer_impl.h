/* writer_impl.h — what writer.c (opening, encoding) and writer_commit.c
 * (putting the output in place, or removing it) share. */
#ifndef SC_WRITER_IMPL_H
#define SC_WRITER_IMPL_H

#include "io/io.h"
#include "io/gz_out.h"
#include "io/zstdio.h"

#define TEXT_BUF ((size_t)1 << 20)

struct sc_writer {
    sc_ctx *ctx;
    int fd;
    int direct;                 /* fd opened on a device or FIFO: close it */
    int pipe;                   /* fd is a pipe: sc_writer_write_pages splices */
    char *path, *tmp;           /* tmp: written beside path */
    const char *name;           /* for messages */
    sc_writer_opts o;
    sc_gzout *gz;               /* gzip */
    sc_zout *zout;              /* zstd */
    int figures;                /* --count's figures are the whole output */
    sc_type type;               /* the elements', wide already applied */
    unsigned size;              /* bytes an element */
    void *swapped;              /* big-endian: a piece reversed; a
                                   field: a piece's fields */
    int field_swap;             /* text of big-endian fields */
    char *text;                 /* text: formatted numbers */
    size_t text_len;
    int failed;
};

/* A failed write, reported (EPIPE quietly, as SC_ERR_PIPE). */
sc_status sc_writer_error(sc_writer *w, int err);
/* What the encoders still hold, out. */
sc_status sc_writer_drain(sc_writer *w);
/* Frees w, its buffers and its pool; the file is left as it is. */
void sc_writer_release(sc_writer *w);
/* The compression threads (gzip's, zstd's) stopped, with what they had
 * not written given up: before the descriptor they write to is closed. */
void sc_writer_stop_threads(sc_writer *w);

#endif
