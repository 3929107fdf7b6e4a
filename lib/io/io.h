/* io.h — the io layer as the layers above it see it: inputs checked and
 * read (raw, gzip, zstd, text) by an sc_reader, outputs written by an
 * sc_writer and replaced only on success, temporary files removed on
 * failure and on signals, and whole reads and writes of descriptors
 * (fdio.h).  Under it only core. */
#ifndef SC_IO_H
#define SC_IO_H

#include "core/core.h"
#include "io/fdio.h"

/* Temporary files removed on failure and on signals (tempfiles.c). */
int sc_temp_register(const char *path);
void sc_temp_unregister(const char *path);
void sc_temp_remove_all(void);   /* async-signal-safe */
/* -T's directory: asked, else $TMPDIR, else /tmp. */
const char *sc_temp_dir(const char *asked);
/* Creates dir/PREFIX-PID-START-XXXXXX (path, cap bytes, gets the name),
 * registered for removal on signals: a later run's sc_temp_sweep tells
 * it from a live run's.  Returns the descriptor, or -1 with errno. */
int sc_temp_open(const char *dir, const char *prefix, char *path, size_t cap);
/* Removes from dir the temporaries of the NULL-terminated prefixes whose
 * writer is gone (killed by SIGKILL, say). */
void sc_temp_sweep(const char *dir, const char *const *prefixes);
/* The same for the temporaries of -T: SC_TEMP_RUNS and SC_TEMP_SPILL. */
void sc_temp_sweep_dir(const char *dir);
#define SC_TEMP_RUNS "sc-rsort"     /* sc-rsort's sorted runs */
#define SC_TEMP_SPILL "sc-spill"    /* sc-split's rejects, sc-stat --hist */

/* sc_reader_read() for a thread other than the job's (the pipeline's
 * reader): a fault ends the input and its status comes back, but its
 * message stays held for sc_reader_raise(), which the job calls once
 * every thread is done, so that no thread's message takes another's
 * place. */
sc_status sc_reader_fill(sc_reader *r, void *buf, size_t max, size_t *got);
sc_status sc_reader_raise(sc_reader *r);
/* A whole chunk of a regular file that any thread may read, so that the
 * pipeline's workers read at once (source.h's claim() and claim_read()):
 * up to max elements of the reader's type, which buf holds.  Plain bytes
 * make a claim of max elements; BGZF members (and zstd frames with their
 * size) make one of the whole units that fit, read and decoded by the
 * claim's own thread. */
typedef struct sc_claim {
    int fd;
    off_t at;                   /* in the file, where its bytes start */
    size_t len;                 /* its bytes in the file */
    size_t n;                   /* the elements it gives */
    int members;                /* compressed units, else plain bytes */
    uint64_t member_at;         /* units: at, as messages count it */
    size_t dec;                 /* units: its file's decoding, for -v */
} sc_claim;
int sc_reader_claim(sc_reader *r, size_t max, sc_claim *cl);
/* Reads a claim into buf: SC_OK, or the fault, held for
 * sc_reader_raise() (the first in the stream's order where several
 * claims fail), with *n the elements in buf before it. */
sc_status sc_reader_claim_read(sc_reader *r, const sc_claim *cl,
                               void *buf, size_t *n);
/* Where every input is a regular file that claims may cut (raw, or gzip
 * or zstd that starts with a unit claims take), so that workers may read
 * them at once: about the bytes they decode to (for compressed ones, a
 * guess from their size); else -1. */
int64_t sc_reader_claim_hint(const sc_reader *r);
/* The most that one unit of the inputs' first ones decodes to: a chunk
 * smaller than it takes no claim. */
size_t sc_reader_claim_unit(const sc_reader *r);

/* How a compressed input was decoded, for -v: parallel where it splits
 * into BGZF members or zstd frames with their sizes, else as one stream
 * by the named decoder; its decoded bytes and the seconds spent reading
 * and decoding them. */
typedef struct sc_decoding {
    const char *name;
    int zstd;                   /* else gzip */
    uint64_t par_units;         /* units decoded in parallel */
    int streamed;               /* bytes went through the stream decoder */
    uint64_t bytes;
    double seconds;             /* the stream's, and the claims' span: */
    double claims_from, claims_to;
} sc_decoding;
/* The i-th compressed input opened, in order: a pointer valid until the
 * reader closes, or NULL past the last. */
const sc_decoding *sc_reader_decoding(const sc_reader *r, size_t i);
/* Bytes of the stream handed on so far, decoded: none when a fault came
 * before any data. */
uint64_t sc_reader_decoded(const sc_reader *r);
/* How d was decoded, in words: "parallel BGZF", "one stream (zlib)", ... */
void sc_decoding_how(const sc_decoding *d, char *buf, size_t cap);

/* An input's name in messages: "-" is "(standard input)" (inputs.c). */
const char *sc_input_name(const char *path);
/* SC_ERR_USAGE, not a crash, where a library caller's paths hold a NULL. */
sc_status sc_inputs_named(sc_ctx *ctx, const char *const *paths, size_t n);
/* The decoded bytes of the inputs when known without reading them (raw
 * regular files), else -1. */
int64_t sc_inputs_size(const char *const *paths, size_t n, sc_format fmt);

/* Refuses, before anything is written, outputs that are inputs, a rejects
 * file that is the output, and empty names (outputs.c). */
sc_status sc_check_outputs(sc_ctx *ctx, const sc_job *j);

/* Commits two writers so that both files are replaced or neither
 * (sc-split -r); either one on standard output or a device is committed
 * as it comes. Both writers are gone afterwards. */
sc_status sc_writer_commit_pair(sc_writer *a, sc_writer *b);
/* The same for n writers (sc-split --ranges' parts): all the files are
 * replaced or none. */
sc_status sc_writer_commit_all(sc_writer **w, size_t n);
/* A writer of one of `writers` files written at once (sc-split --ranges'
 * parts): it keeps less in memory, and compresses on its share of the
 * context's threads.  Gzip compresses once 64 / writers MiB are staged
 * rather than 64, on `pool` (when not NULL; shared by the writers, which
 * must be written from one thread, and freed by the caller after them):
 * the same bytes.  Zstd compresses in jobs of 1 MiB: about 12 MiB of
 * memory per writer rather than 55, and other bytes than a writer alone
 * would give. */
sc_status sc_writer_open_shared(sc_writer **out, sc_ctx *ctx,
                                const char *path, const sc_writer_opts *opts,
                                unsigned writers, sc_pool *pool);

/* Raw bytes whatever the output format: --count's one-line figures. */
sc_status sc_writer_write_bytes(sc_writer *w, const void *buf, size_t len);
/* sc_writer_write of elements in sc_pages_alloc memory that is never
 * written again: into a pipe, by reference instead of by copy. */
sc_status sc_writer_write_pages(sc_writer *w, const void *elems, size_t n);

/* A missing, unreadable or directory input, or under auto a file in a
 * format not read, is refused before anything is read, so no tool writes
 * part of a result and then names it. */
sc_status sc_inputs_check(sc_ctx *ctx, const char *const *paths, size_t n,
                          sc_format fmt);
/* Whether an input of this sc_kind is refused under --in auto. */
int sc_kind_refused(int kind);

#endif
