/* sc.h — libsc: stream compaction, split, prefix sum and radix sort of
 * integers, floats and records on the GPU or the CPU, on arrays and on
 * streams.
 *
 * Three layers, each usable alone:
 *   arrays   sc_compact(), sc_split(), sc_scan(), sc_sort(), sc_gen() on host
 *            arrays (and records: sc_sort_records() and the like); the
 *            sc_dev_*() variants take device pointers;
 *   streams  sc_reader / sc_writer turn files, pipes and formats into chunks;
 *   jobs     sc_job: one operation over streams, chunk by chunk (sc_run()).
 *
 * Every function that can fail returns an sc_status; sc_strerror() names
 * it, and sc_ctx_message() gives the last detailed message (file, offset).
 * A NULL context, a missing pointer (buffers may be NULL when n is 0) or a
 * value out of range gives SC_ERR_USAGE rather than a crash.
 */
#ifndef SC_H
#define SC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SC_VERSION_MAJOR 0
#define SC_VERSION_MINOR 1
#define SC_VERSION_PATCH 0
#define SC_VERSION_STRING "0.1.0"
#define SC_VERSION_NUMBER \
    (SC_VERSION_MAJOR * 10000 + SC_VERSION_MINOR * 100 + SC_VERSION_PATCH)

/* The version of the library actually linked, as "MAJOR.MINOR.PATCH". */
const char *sc_version(void);
int sc_version_number(void);

typedef enum sc_status {
    SC_OK = 0,
    SC_ERR_USAGE,     /* an argument out of range or malformed */
    SC_ERR_NOMEM,     /* host memory exhausted */
    SC_ERR_IO,        /* read or write failed (errno in the message) */
    SC_ERR_OPEN,      /* an input could not be opened */
    SC_ERR_PARTIAL,   /* the input ends inside an element or record */
    SC_ERR_GZIP,      /* corrupt or truncated gzip data */
    SC_ERR_TEXT,      /* malformed text input */
    SC_ERR_RANGE,     /* a number or index above what the format holds */
    SC_ERR_NODEVICE,  /* the requested GPU does not exist or is unusable */
    SC_ERR_DEVICE,    /* a CUDA call failed */
    SC_ERR_UNSORTED,  /* sort --check / --merge found disorder */
    SC_ERR_PIPE,      /* the reader of the output went away (EPIPE) */
    SC_ERR_SAMEFILE,  /* the output is also an input */
    SC_ERR_INTERRUPTED,
    SC_ERR_ZSTD,      /* corrupt or truncated zstd data */
    SC_ERR_FORMAT,    /* input in a format not read: xz, bzip2, lz4, text
                       * under SC_FMT_AUTO (the message says what to do) */
    SC_STATUS_COUNT
} sc_status;

const char *sc_strerror(sc_status status);

/* ------------------------------------------------------------------ */
/* Context: the device, the host threads, the last error message.      */

typedef enum sc_device_kind { SC_DEVICE_CPU = 0, SC_DEVICE_CUDA = 1 } sc_device_kind;

typedef struct sc_ctx sc_ctx;

/* The most host threads a context takes (sc_ctx_new's threads, -j). */
#define SC_THREADS_MAX 4096

/* spec: "auto", "cpu", "cuda", "cuda:N", "cuda:all" (every GPU), or NULL
 * for $SC_DEVICE or "auto".
 * threads: host threads, 1 to SC_THREADS_MAX, or 0 for the number of
 * online CPUs (at most SC_THREADS_MAX); more is SC_ERR_USAGE, and threads
 * the system will not start are SC_ERR_NOMEM, its message saying why.
 * On error *out is NULL unless the context itself was made (then its
 * message says why); free it with sc_ctx_free(). */
sc_status sc_ctx_new(sc_ctx **out, const char *spec, unsigned threads);
/* As sc_ctx_new, but "cuda" and "cuda:N" start the GPU on a thread of
 * their own and return at once, so the caller can read its input
 * meanwhile: the first call that needs the GPU waits for it and fails
 * with SC_ERR_NODEVICE if it could not start, and sc_run checks it before
 * it commits its outputs, so a job of empty input fails too. */
sc_status sc_ctx_new_background(sc_ctx **out, const char *spec,
                                unsigned threads);
void sc_ctx_free(sc_ctx *ctx);
sc_device_kind sc_ctx_device(const sc_ctx *ctx);
/* "cpu (16 threads)" or "cuda:0 (NVIDIA H200)". */
const char *sc_ctx_device_name(const sc_ctx *ctx);
unsigned sc_ctx_threads(const sc_ctx *ctx);
/* The last error's message, e.g. "data.gz: corrupt gzip at byte 1234". */
const char *sc_ctx_message(const sc_ctx *ctx);
/* Why "auto" chose the CPU, or "" when it did not. */
const char *sc_ctx_fallback_reason(const sc_ctx *ctx);

/* ------------------------------------------------------------------ */
/* Element types (sc(7), "Element types").  An element's bits travel in
 * a uint32_t (32-bit types) or a uint64_t; the type says how they order,
 * compare, add and read and print as text. */

typedef enum sc_type { SC_U32 = 0, SC_I32, SC_F32, SC_U64, SC_I64, SC_F64,
                       SC_TYPE_COUNT } sc_type;

/* "u32", "i32", "f32", "u64", "i64", "f64"; NULL for no such type. */
const char *sc_type_name(sc_type t);
/* The type named s; SC_ERR_USAGE for none. */
sc_status sc_type_parse(const char *s, sc_type *t);
/* Bytes an element takes: 4 or 8 (0 for no such type). */
unsigned sc_type_size(sc_type t);
int sc_type_is_float(sc_type t);
int sc_type_is_signed(sc_type t);
/* The 64-bit type of the same kind (u32 -> u64, i32 -> i64, f32 -> f64):
 * what sc_scan's `wide` writes. */
sc_type sc_type_wide(sc_type t);
/* Reads s (len bytes, no terminator needed) as a value of type t into
 * its bits: integers in decimal, with a '-' for signed types, or 0x hex;
 * floats as strtod reads them (inf, nan, exponents, hex floats), and
 * [-]nan(0xM) as the NaN whose significand bits are M.  SC_ERR_TEXT for
 * malformed text, SC_ERR_RANGE for a value the type cannot hold (a float
 * finite in text beyond the type's largest). */
sc_status sc_value_parse(sc_type t, const char *s, size_t len, uint64_t *bits);
/* Writes the value whose bits are `bits` as text: integers in decimal,
 * floats in the fewest digits that read back to the same bits (inf,
 * -inf, nan and -nan for strtod's NaNs, [-]nan(0xM) for the others,
 * M their significand bits).  buf holds at least SC_VALUE_CHARS; returns
 * the length, with a terminator after it. */
#define SC_VALUE_CHARS 32
size_t sc_value_format(sc_type t, uint64_t bits, char *buf);
/* -1, 0 or 1 as a comes before, with or after b (their bits) in the
 * order sc_sort_type gives elements of type t (floats: IEEE 754
 * totalOrder). */
int sc_value_order(sc_type t, uint64_t a, uint64_t b);
/* Elements of `size` bytes (4 or 8) reversed in place: big-endian data
 * to the host's order and back. */
void sc_swap_bytes(void *elems, size_t n, unsigned size);

/* Records (sc(7), "Element types and records"): each element is a
 * record of `size` bytes (a multiple of 4, 4 to SC_RECORD_MAX) that moves
 * whole, tested by its key: an element of key_type at byte key_off, a
 * multiple of the key's size, inside the record.  Records are bytes: only
 * the key is read (big-endian where the job says so), never the rest.
 * size 0: plain elements, no record. */
#define SC_RECORD_MAX 4096
typedef struct sc_record {
    uint32_t size;
    uint32_t key_off;
    sc_type key_type;
} sc_record;

/* ------------------------------------------------------------------ */
/* Predicates: all given conditions must hold; invert negates the whole. */

#define SC_PRED_MAX_TERMS 8

typedef struct sc_pred {
    /* Words of the type's width: a 32-bit type's in the low half. */
    uint64_t lo, hi;                    /* lo <= x <= hi */
    uint64_t ne[SC_PRED_MAX_TERMS];     /* x != ne[k] for every k */
    uint32_t n_ne;
    uint32_t n_mask;
    uint64_t mask[SC_PRED_MAX_TERMS];   /* (x & mask[k]) != 0 for every k */
    uint32_t empty;                     /* the bounds admit nothing */
    uint32_t invert;
    /* The element type (sc_type) and what it takes to compare its
     * elements as unsigned numbers: each x of w bits is read as
     * x ^ (key_neg & -(x >> (w - 1))), which orders floats as signed
     * integers order; lo and hi bound that in circular unsigned order,
     * so that signed bounds are one interval too.  Set by the calls
     * below; values given to them are the type's bits. */
    uint32_t type;
    uint64_t key_neg;
} sc_pred;

/* For uint32 elements: x != 0; everything (narrowed by the calls below). */
void sc_pred_default(sc_pred *p);
void sc_pred_all(sc_pred *p);
/* The same for elements of type t.  Conditions compare as C does in t: a NaN fails every one but SC_NE,
 * and -0.0 equals +0.0 (so the default drops both zeros). */
sc_status sc_pred_default_type(sc_pred *p, sc_type t);
sc_status sc_pred_all_type(sc_pred *p, sc_type t);
typedef enum sc_cmp { SC_EQ, SC_NE, SC_LT, SC_LE, SC_GT, SC_GE } sc_cmp;
/* Values are elements' bits, a 32-bit type's in the low half (an i32's
 * may come sign-extended). */
sc_status sc_pred_add_cmp(sc_pred *p, sc_cmp cmp, uint64_t v);
sc_status sc_pred_add_range(sc_pred *p, uint64_t lo, uint64_t hi);
/* Integer types only (SC_ERR_USAGE for floats). */
sc_status sc_pred_add_mask(sc_pred *p, uint64_t mask);
int sc_pred_test(const sc_pred *p, uint64_t x);

/* ------------------------------------------------------------------ */
/* Generator: element i is a pure function of the parameters and i.    */

typedef enum sc_dist { SC_DIST_UNIFORM, SC_DIST_STRUCTURED, SC_DIST_IOTA,
                       SC_DIST_CONSTANT } sc_dist;

typedef struct sc_gen_params {
    sc_dist dist;
    uint64_t seed;
    uint64_t min, max;      /* uniform */
    uint64_t value;         /* constant */
    double density;         /* probability an element is kept nonzero */
    /* The elements' type; min, max and value are its bits.
     * uniform draws integers evenly from [min, max] and floats as
     * min + u * (max - min), u even in [0, 1) in steps of 2^-53;
     * structured and iota write i + 1 and i in the type (an integer
     * wraps, a float rounds). */
    sc_type type;
} sc_gen_params;

void sc_gen_params_default(sc_gen_params *g);
/* Element i's bits (in the low 32 bits for a 32-bit type). */
uint64_t sc_gen_element(const sc_gen_params *g, uint64_t i);

/* ------------------------------------------------------------------ */
/* Operations on host arrays (run on the context's device).            */

typedef enum sc_scan_op { SC_OP_SUM, SC_OP_MAX, SC_OP_MIN, SC_OP_XOR } sc_scan_op;

/* in: n elements of pred's type (64-bit ones are handled on the host's
 * threads).  Keeps in[i] that pass; out has room for n; *kept: how many. */
sc_status sc_compact(sc_ctx *ctx, const void *in, uint64_t n,
                     const sc_pred *pred, void *out, uint64_t *kept);
/* Positions (first_index + i) of passing elements, as uint64. */
sc_status sc_compact_indices(sc_ctx *ctx, const void *in, uint64_t n,
                             const sc_pred *pred, uint64_t first_index,
                             uint64_t *out, uint64_t *kept);
/* Stable partition: out = passing elements then the others. */
sc_status sc_split(sc_ctx *ctx, const void *in, uint64_t n,
                   const sc_pred *pred, void *out, uint64_t *selected);
/* Prefix scan. out is uint32_t[n], or uint64_t[n] when wide.
 * *carry holds the carry-in and receives the final accumulator. */
sc_status sc_scan(sc_ctx *ctx, const uint32_t *in, uint64_t n, sc_scan_op op,
                  int inclusive, int wide, void *out, uint64_t *carry);
/* The same for elements of any type: in holds 4- or 8-byte ones (the
 * 64-bit types run on the host's threads and take no `wide`).  Integer
 * sums wrap at the accumulator's width, i32's sign-extended with `wide`;
 * max and min follow the type's order (sc_sort_type's: floats by
 * totalOrder) and, with `wide`, write the int64 or double of the element;
 * xor takes an integer type.  Float sums accumulate in double in one
 * fixed order: inside aligned blocks of 1024 elements in order, then the
 * block totals in order; outputs are of the type (f32 wide: doubles).
 * *carry holds the element's bits (with `wide`, a sum's or xor's in the
 * 64-bit type) or a double's (every float sum), and receives the final
 * accumulator: a float sum continues from it exactly at n % 1024 == 0. */
sc_status sc_scan_type(sc_ctx *ctx, const void *in, uint64_t n,
                       sc_type type, sc_scan_op op, int inclusive, int wide,
                       void *out, uint64_t *carry);
/* The identity of op over elements of any type, as *carry holds it:
 * 0 for sums and xor; for max the least element of the type's order,
 * for min the greatest (for floats NaNs: -NaN and +NaN with every
 * payload bit set). */
uint64_t sc_scan_identity_of(sc_type type, sc_scan_op op);
/* Stable LSD radix sort on bits [lo_bit, hi_bit), in place. */
sc_status sc_sort(sc_ctx *ctx, uint32_t *keys, uint64_t n,
                  unsigned lo_bit, unsigned hi_bit, int descending);
/* The same for elements of any type (keys: n elements of
 * sc_type_size(type) bytes): signed integers by value, floats by IEEE
 * 754 totalOrder; the bits are those of the element's rank, in which a
 * signed type's sign bit is flipped (so bits 0:32, or 0:64, are the
 * signed order); hi_bit is at most the type's width.  64-bit elements
 * are sorted on the host's threads whatever the context's device. */
sc_status sc_sort_type(sc_ctx *ctx, void *keys, uint64_t n, sc_type type,
                       unsigned lo_bit, unsigned hi_bit, int descending);
/* One pass over an array: what sc-stat prints.  The sum is exact (128
 * bits: sum_hi carries what passes 2^64); distinct is a HyperLogLog
 * estimate (2^14 registers: standard error 0.8 %, within 2.5 % nearly
 * always, exact or nearly so below a few hundred values). Empty arrays
 * give count 0, min UINT32_MAX, max 0. */
typedef struct sc_stats {
    uint64_t count, zeros;
    uint64_t sum, sum_hi;
    uint32_t min, max;
    uint64_t distinct;
} sc_stats;
sc_status sc_stat(sc_ctx *ctx, const uint32_t *in, uint64_t n, sc_stats *out);
/* The same of elements of any type, sc_type_size(type) bytes each: min
 * and max are elements' bits, first and last in sc_sort_type's order
 * (floats by totalOrder); an integer type's sum is exact, sum_hi:sum a
 * 128-bit two's complement number (a signed type's sum may be negative);
 * a float type's is fsum, a double added in sc_scan_type's fixed order
 * (sum and sum_hi 0); zeros counts both zeros of a float.  The elements
 * are ranked (and a float sum added) on the host's threads, the ranks
 * figured on the context's device, 4- and 8-byte ones alike.  Empty
 * arrays give count 0, min and max 0. */
typedef struct sc_stats_typed {
    sc_type type;
    uint64_t count, zeros;
    uint64_t min, max;
    uint64_t sum, sum_hi;
    double fsum;
    uint64_t distinct;
} sc_stats_typed;
sc_status sc_stat_type(sc_ctx *ctx, const void *in, uint64_t n, sc_type type,
                       sc_stats_typed *out);
/* out[k] = element first_index + k: n elements of g->type's size.
 * 64-bit elements are made on the host's threads. */
sc_status sc_gen(sc_ctx *ctx, const sc_gen_params *g, uint64_t first_index,
                 void *out, uint64_t n);

/* Records in host arrays (sc_record's layout, sc(7) "Element types and
 * records"): n records of r->size bytes back to back, each tested or
 * ordered by its key, in the host's byte order, and moved whole.  They
 * run on the host's threads whatever the context's device.  pred is of
 * the key's type (sc_pred_default_type(p, r->key_type) and the like);
 * in and out must not overlap.  A plain array of elements of type t is
 * records of sc_type_size(t) bytes whose key is the whole. */
/* The records that pass, in order, to out (room for n); *kept: how
 * many. */
sc_status sc_compact_records(sc_ctx *ctx, const void *in, uint64_t n,
                             const sc_record *r, const sc_pred *pred,
                             void *out, uint64_t *kept);
/* Their positions (first_index + i), as uint64. */
sc_status sc_compact_records_indices(sc_ctx *ctx, const void *in,
                                     uint64_t n, const sc_record *r,
                                     const sc_pred *pred,
                                     uint64_t first_index, uint64_t *out,
                                     uint64_t *kept);
/* Stable partition: out (room for n) = the passing records, then the
 * others, each group in input order; *selected: how many passed. */
sc_status sc_split_records(sc_ctx *ctx, const void *in, uint64_t n,
                           const sc_record *r, const sc_pred *pred,
                           void *out, uint64_t *selected);
/* Stable sort of recs in place by the key, ascending (floats by IEEE
 * 754 totalOrder, as sc_sort_type) or descending; equal keys keep their
 * order.  Memory: n times the record size and 16 bytes a record (32 for
 * a 64-bit key, or past 2^32 records). */
sc_status sc_sort_records(sc_ctx *ctx, void *recs, uint64_t n,
                          const sc_record *r, int descending);
/* Argsort: idx[k] (room for n) is the position in recs of the record
 * that sc_sort_records() puts at k. */
sc_status sc_argsort_records(sc_ctx *ctx, const void *recs, uint64_t n,
                             const sc_record *r, int descending,
                             uint64_t *idx);

/* Device arrays: sc_dev.h. */
#include "sc_dev.h"

/* Streams and jobs: sc_stream.h. */
#include "sc_stream.h"

#ifdef __cplusplus
}
#endif
#endif /* SC_H */
