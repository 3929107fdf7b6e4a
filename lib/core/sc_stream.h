/* sc_stream.h — libsc's streams (readers and writers of files, pipes and
 * formats, chunk by chunk) and jobs (one operation over streams).  A
 * program includes sc.h, which includes this after the types these
 * calls take. */
#ifndef SC_STREAM_API_H
#define SC_STREAM_API_H

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Streams.                                                             */

/* SC_FMT_AUTO reads gzip and zstd by their magic, raw otherwise; it
 * refuses xz, bzip2 and lz4 data and input that looks like text with
 * SC_ERR_FORMAT (see sc(7)). SC_FMT_ZST needs a libsc built with libzstd
 * (else SC_ERR_USAGE). */
typedef enum sc_format { SC_FMT_AUTO, SC_FMT_RAW, SC_FMT_GZ, SC_FMT_TEXT,
                         SC_FMT_ZST } sc_format;

typedef struct sc_reader sc_reader;
typedef struct sc_writer sc_writer;

/* paths: n names read in order as one stream; "-" is standard input;
 * n == 0 reads standard input. The files are joined as by cat: an element
 * or a text number may straddle two of them. A missing, unreadable
 * or directory input gives SC_ERR_OPEN here, before anything is read. */
sc_status sc_reader_open(sc_reader **out, sc_ctx *ctx, const char *const *paths,
                         size_t n, sc_format fmt);
/* Reads up to max elements of the reader's type (sc_reader_set_type;
 * buf holds max times its size in bytes). *got == 0 with SC_OK is the
 * end. After all whole elements are delivered, a fault in the data (stray
 * bytes, corrupt gzip, bad text) is returned as its status with *got ==
 * 0. */
sc_status sc_reader_read(sc_reader *r, void *buf, size_t max, size_t *got);
/* Total input bytes if known without reading (raw regular files, not
 * gzip or zstd whether forced or detected, not text), else -1. */
int64_t sc_reader_size_hint(const sc_reader *r);
uint64_t sc_reader_bytes_read(const sc_reader *r);
/* Before the first read (after it: SC_ERR_USAGE): elements of type t
 * (u32 unless set), whose text reads as t's values; big_endian: binary
 * elements are big-endian, handed on in the host's order. */
sc_status sc_reader_set_type(sc_reader *r, sc_type t, int big_endian);
/* Before the first read: records of `size` bytes (sc_record's; 0: back
 * to elements) instead of elements, delivered as they are, never
 * swapped: sc_reader_read's max and *got count records, and an input
 * that ends inside one ends with SC_ERR_PARTIAL after the whole ones.
 * Text input has no records (SC_ERR_USAGE). */
sc_status sc_reader_set_record(sc_reader *r, uint32_t size);
void sc_reader_close(sc_reader *r);

typedef struct sc_writer_opts {
    sc_format fmt;      /* SC_FMT_RAW, SC_FMT_GZ, SC_FMT_ZST or SC_FMT_TEXT */
    int level;          /* gzip level 1..9, zstd 1..19 (others: SC_ERR_USAGE) */
    int wide;           /* elements are the 64-bit form of `type` (a
                           32-bit type) */
    sc_type type;       /* the elements' type (sc_writer_write's n counts
                           them; text writes their values) */
    int big_endian;     /* binary elements written big-endian */
    uint32_t record;    /* records of this many bytes (sc_record's)
                           instead of elements: n counts them, written
                           as they are (not swapped; not text); 0: none */
    /* With record: field nonzero writes only one field of each record,
     * an element of field_type at byte field_off (a multiple of its
     * size, inside the record), as elements of that type are written
     * (text too).  Its bytes are copied as they are: with big_endian
     * they are big-endian in the record and in binary output, and read
     * so for text. */
    int field;
    uint32_t field_off;
    sc_type field_type;
} sc_writer_opts;

/* path NULL or "-": standard output. A file is written beside path and
 * renamed over it by sc_writer_commit(); sc_writer_abort() removes it. */
sc_status sc_writer_open(sc_writer **out, sc_ctx *ctx, const char *path,
                         const sc_writer_opts *opts);
sc_status sc_writer_write(sc_writer *w, const void *elems, size_t n);
sc_status sc_writer_commit(sc_writer *w);
void sc_writer_abort(sc_writer *w);

/* ------------------------------------------------------------------ */
/* Jobs: an operation over streams.                                     */

typedef enum sc_job_kind { SC_JOB_GEN, SC_JOB_COMPACT, SC_JOB_SPLIT,
                           SC_JOB_SCAN, SC_JOB_SORT, SC_JOB_STAT } sc_job_kind;

typedef enum sc_compact_out { SC_OUT_VALUES, SC_OUT_INDICES32,
                              SC_OUT_INDICES64, SC_OUT_COUNT } sc_compact_out;

typedef struct sc_job {
    sc_job_kind kind;
    const char *const *inputs;  size_t n_inputs;
    sc_format in_fmt;
    /* The elements' type, in and out (u32 by default), and whether
     * binary numbers read and written are big-endian.  The job sets
     * out.type and out.big_endian from them.  64-bit types are handled
     * by SC_JOB_GEN and SC_JOB_SORT, on the host's threads (the others:
     * SC_ERR_USAGE). */
    sc_type type;
    int big_endian;
    /* Records instead of elements (size 0, sc_job_init's: none):
     * SC_JOB_GEN, SC_JOB_COMPACT, SC_JOB_SPLIT (by ranges too) and
     * SC_JOB_SORT take them, on the host's threads whatever the device,
     * in binary formats only; SC_JOB_SCAN and SC_JOB_STAT look at their
     * keys alone (a scan writes one value per record, in any format).
     * The key's type is then record.key_type, which pred and gen are of
     * and the scan and stat figures are in (`type` is not used);
     * big_endian says how the key is read and made.  Positions
     * (SC_OUT_INDICES*) count records.  out.field (sc_writer_opts)
     * writes one field of each record written instead of the whole (not
     * with positions or check, nor in a scan or stat). */
    sc_record record;
    const char *output;         /* NULL: standard output */
    sc_writer_opts out;
    size_t chunk_bytes;         /* 0: default */
    int verbose, progress;
    const char *prog;           /* for messages */

    sc_gen_params gen;  uint64_t gen_count;                 /* GEN */
    /* compact_out: SORT too, where SC_OUT_INDICES32 or 64 writes, for
     * each output position, the zero-based input position of the
     * element or record there (argsort; not with check). */
    sc_pred pred;       sc_compact_out compact_out;         /* COMPACT, SPLIT */
    const char *rejects;        /* SPLIT: rejects to this file */
    int count_only;             /* COMPACT, SPLIT */
    size_t buffer_bytes;        /* SPLIT, SORT: -S; 0 default */
    const char *tmpdir;         /* SPLIT, SORT: -T */
    sc_scan_op scan_op; int inclusive; int scan_total;      /* SCAN */
    uint64_t carry_in;
    /* SORT: bits [lo_bit, hi_bit) of the rank (sc_sort_type); hi_bit 0
     * (sc_job_init's) is the type's width. */
    unsigned lo_bit, hi_bit;    int reverse, unique, merge, check;
    /* STAT: a report of "name value" lines (text whatever out.fmt);
     * hist_buckets > 0 adds that many "hist LO HI COUNT" lines (the input
     * is kept in memory, then in tmpdir, for the second look); head or
     * tail > 0 writes the first or last elements as text instead. */
    uint32_t hist_buckets;
    uint64_t head, tail;
    /* SPLIT by ranges (sc-split --ranges), when `ranges` is set: the
     * n_bounds bounds increase strictly, and element x goes to part p,
     * the number of bounds at or below x, in input order; part p is
     * written to `output` with its one %d (or %0Nd) replaced by p, all
     * the parts replaced together or none.  With count_only, the parts'
     * sizes are printed instead, on one line. */
    int ranges;
    /* The bounds are elements' bits (a 32-bit type's in the low half). */
    const uint64_t *bounds;     size_t n_bounds;    /* at most
                                                     * SC_MAX_PARTS - 1 */
    /* STAT: quantiles > 0 adds a line "quantiles B1,B2,..." of bounds
     * cutting the input into that many parts of about equal count (at
     * most SC_MAX_PARTS), estimated from a sample of 2^20 elements;
     * sample in (0, 1) looks at only that fraction of the input, in
     * blocks of 64 KiB chosen by sample_seed (0: all of it). */
    uint32_t quantiles;
    double sample;
    uint64_t sample_seed;
    /* STAT: with bincount, instead of the report, the count of each value
     * 0 .. bins - 1 of the elements (or records' keys), written as u64
     * elements in out's format and the job's byte order; bins 0: max + 1
     * of them (none for empty input).  Unsigned types only (u32, u64); a
     * value at or above a bins given is SC_ERR_RANGE, and nothing is
     * written.  Not with hist_buckets, head, tail, quantiles or sample. */
    int bincount;
    uint64_t bins;
    /* SCAN: an exclusive scan followed by the total (n + 1 values: the
     * offsets of n counts); not with inclusive or scan_total. */
    int offsets;
} sc_job;

/* The most parts a split by ranges writes, and of sc-stat's quantiles. */
#define SC_MAX_PARTS 256

void sc_job_init(sc_job *job, sc_job_kind kind);
/* Runs the job; on failure sc_ctx_message() says why. */
sc_status sc_run(sc_ctx *ctx, const sc_job *job);
/* What sc_run() would refuse before reading or writing anything: options
 * that exclude each other, an output that is also an input, an input that
 * is missing, unreadable, a directory or in a format not read.  Writes
 * nothing, reads only the first bytes of input files (their format) and
 * starts no device: any context will do (a "cpu" one costs nothing). */
sc_status sc_job_check(sc_ctx *ctx, const sc_job *job);

/* Removes the temporary files libsc is writing (an -o file's replacement,
 * sorted runs, held rejects): for a program's fatal-signal handler, so
 * that a killed run leaves nothing behind.  Async-signal-safe. */
void sc_remove_temporaries(void);

#ifdef __cplusplus
}
#endif
#endif /* SC_STREAM_API_H */
