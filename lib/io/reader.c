/* reader.c — input streams: FILE operands in order as one stream, each
 * raw, gzip or zstd (auto-detected or forced) or text, delivered as whole
 * elements of the reader's type (4 or 8 bytes) straight into the caller's
 * buffer.
 *
 * Under --in auto each FILE's first bytes decide how it is decoded
 * (detect.c), as zcat -f decides per file: a gzip file and a raw one may
 * be given together; a compressed file's first decoded bytes are judged
 * again, so that compressed text is refused as plain text is. What they
 * decode to is one stream. Regular files are judged when the reader
 * opens, so a refused one (xz, text, ...) stops the run before anything
 * is written; pipes are judged when reached. Text input may be gzip or
 * zstd too: its numbers are read in what it decodes to.
 *
 * Faults in the data are held back until every whole element decoded
 * before them has been delivered, so a tool writes all it could decode
 * and then reports the fault: a fault is an error after everything decoded
 * before it has been processed (sc(7), INPUT FORMATS).
 *
 * The files are one stream, as cat would join them: an element or a text
 * number may straddle two files (pieces cut by split -b join up again).
 * Text line numbers in messages count from each file's start.
 *
 * A pipe or terminal is read as it comes: when the producer stalls, the
 * elements already there go out as a short chunk rather than waiting for
 * a whole one, so a slow live stream flows through (the output does not
 * depend on chunk sizes, so this changes only when it appears).
 *
 * This file gathers whole elements from the decoded bytes; the files are
 * read in reader_file.c, opened in turn and judged in reader_bytes.c,
 * gzip and zstd decoded in codecs.c, text numbers parsed in text_in.c,
 * and the inputs checked before reading in inputs.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "io/detect.h"
#include "io/io.h"
#include "io/reader_impl.h"

static const char *const stdin_only[] = { "-" };

sc_status sc_reader_open(sc_reader **out, sc_ctx *ctx, const char *const *paths,
                         size_t n, sc_format fmt)
{
    if (out) *out = NULL;
    if (!out || !ctx || (n && !paths) || (unsigned)fmt > SC_FMT_ZST)
        return ctx ? sc_fail(ctx, SC_ERR_USAGE, "sc_reader_open: bad argument")
                   : SC_ERR_USAGE;
    if (fmt == SC_FMT_ZST && !sc_zstd_built())
        return sc_fail(ctx, SC_ERR_USAGE, "zstd input: this libsc was built "
                       "without zstd");
    if (n == 0) { paths = stdin_only; n = 1; }
    sc_input *inputs = NULL;
    sc_status st = sc_inputs_scan(ctx, paths, n, fmt, &inputs);
    if (st) return st;
    sc_reader *r = calloc(1, sizeof *r);
    if (!r) {
        sc_inputs_release(inputs, n);
        return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    }
    r->inputs = inputs;
    r->ctx = ctx;
    r->paths = paths;
    r->n_paths = n;
    r->fmt = fmt;
    r->fd = -1;
    r->line = 1;
    r->type = SC_U32;
    r->size = sc_type_size(SC_U32);
    r->zbuf = malloc(ZBUF_BYTES);
    r->tbuf = fmt == SC_FMT_TEXT ? malloc(TBUF_BYTES + 1) : NULL;
    if (!r->zbuf || (fmt == SC_FMT_TEXT && !r->tbuf)) {
        sc_reader_close(r);
        return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    }
    r->size_hint = sc_inputs_known_size(inputs, n, fmt);
    *out = r;
    return SC_OK;
}

void sc_reader_close(sc_reader *r)
{
    if (!r) return;
    /* First: a round decoding ahead still reads the file through the
     * read pool when a consumer stops early (a write error, say). */
    sc_par_free(r->units);
    if (r->fd > 0) close(r->fd);
    sc_inputs_release(r->inputs, r->n_paths);
    if (r->z_ready) inflateEnd(&r->z);
    sc_preader_free(r->par);
    sc_zin_free(r->zs);
    free(r->isal);
    free(r->decs);
    free(r->zbuf);
    free(r->tbuf);
    free(r);
}

sc_status sc_reader_set_type(sc_reader *r, sc_type t, int big_endian)
{
    if (!r || sc_type_size(t) == 0)
        return r ? sc_fail(r->ctx, SC_ERR_USAGE, "sc_reader_set_type: no "
                           "such element type (%d)", (int)t)
                 : SC_ERR_USAGE;
    /* Elements of one size are carried between reads: a partial one
     * could not be cut again into another size. */
    if (r->decoded || r->carry_len)
        return sc_fail(r->ctx, SC_ERR_USAGE, "sc_reader_set_type: called "
                       "after the first read");
    r->type = t;
    r->size = sc_type_size(t);
    r->swap = big_endian != 0;
    r->record = 0;
    return SC_OK;
}

sc_status sc_reader_set_record(sc_reader *r, uint32_t size)
{
    if (!r) return SC_ERR_USAGE;
    if (size == 0) return sc_reader_set_type(r, r->type, r->swap);
    /* Records are bytes: their key is read where it is used, swapped
     * there if need be (r->swap stays for a return to elements). */
    sc_record rec = { size, 0, SC_U32 };
    if (sc_record_fault(&rec))
        return sc_fail(r->ctx, SC_ERR_USAGE, "sc_reader_set_record: %s",
                       sc_record_fault(&rec));
    if (r->fmt == SC_FMT_TEXT)
        return sc_fail(r->ctx, SC_ERR_USAGE, "records are not read from "
                       "text");
    if (r->decoded || r->carry_len)
        return sc_fail(r->ctx, SC_ERR_USAGE, "sc_reader_set_record: called "
                       "after the first read");
    r->size = size;
    r->record = 1;
    return SC_OK;
}

int64_t sc_reader_size_hint(const sc_reader *r) { return r->size_hint; }
uint64_t sc_reader_bytes_read(const sc_reader *r)
{
    return atomic_load_explicit(&r->total_bytes, memory_order_relaxed);
}

uint64_t sc_reader_decoded(const sc_reader *r)
{
    return r->decoded;
}

/* The fault of an input that ends inside an element, held back. */
static void defer_stray(sc_reader *r)
{
    unsigned stray = r->carry_len;
    uint64_t whole = r->decoded / r->size;
    /* The offset counts decoded bytes, not a compressed file's own: any
     * file decoded so far makes it so. */
    int packed = r->n_decs > 0;
    defer(r, SC_ERR_PARTIAL, "%s: the input ends with %u stray byte%s "
          "after %llu whole %s%s (byte offset %llu%s%s)", r->name,
          stray, stray == 1 ? "" : "s", (unsigned long long)whole,
          r->record ? "record" : "element", whole == 1 ? "" : "s",
          (unsigned long long)(r->decoded - stray),
          r->n_paths > 1 ? " of the joined input files"
                         : packed ? " of the decompressed data" : "",
          r->n_paths > 1 && packed ? ", decompressed" : "");
}

/* Raw (and gunzipped raw): whole elements, a partial one carried. */
static sc_status read_raw(sc_reader *r, void *buf, size_t max, size_t *got)
{
    unsigned char *bytes = buf;
    size_t want = max * r->size, have = r->carry_len;
    memcpy(bytes, r->carry, have);
    r->carry_len = 0;
    while (have < want && !r->at_end) {
        if (r->z.avail_in == 0 && stalled(r, have >= r->size)) break;
        ssize_t n = sc_reader_next_bytes(r, bytes + have, want - have);
        if (n < 0) break;
        if (n == 0 && !more_files(r)) r->at_end = 1;
        have += (size_t)n;
    }
    *got = have / r->size;
    r->carry_len = (unsigned)(have % r->size);
    memcpy(r->carry, bytes + *got * r->size, r->carry_len);
    if (*got == 0 && r->at_end && r->carry_len && !pending(r))
        defer_stray(r);
    return SC_OK;
}

sc_status sc_reader_fill(sc_reader *r, void *buf, size_t max, size_t *got)
{
    *got = 0;
    if (max == 0) return SC_OK;
    if (!pending(r))
        (r->fmt == SC_FMT_TEXT ? sc_text_read : read_raw)(r, buf, max, got);
    if (r->swap && !r->record && r->fmt != SC_FMT_TEXT)
        sc_swap_bytes(buf, *got, r->size);
    return *got == 0 ? pending(r) : SC_OK;
}

sc_status sc_reader_read(sc_reader *r, void *buf, size_t max, size_t *got)
{
    if (!r || !got || (max && !buf))
        return r ? sc_fail(r->ctx, SC_ERR_USAGE, "sc_reader_read: bad "
                           "argument") : SC_ERR_USAGE;
    sc_status st = sc_reader_fill(r, buf, max, got);
    return st != SC_OK ? sc_reader_raise(r) : SC_OK;
}

/* A claim of plain bytes is a whole chunk inside the current regular
 * file, with nothing decoded or peeked waiting before it; the file's
 * offset moves past it, so that fill() goes on after it.  The caller
 * keeps fill() and the file's close waiting until its read is done. */
static int claim_plain(sc_reader *r, size_t max, sc_claim *cl)
{
    size_t want = max * r->size;
    if (r->z.avail_in || r->at_end) return 0;
    off_t at = lseek(r->fd, 0, SEEK_CUR);
    if (at < 0 || r->reg_size - at < (off_t)want ||
        lseek(r->fd, at + (off_t)want, SEEK_SET) < 0)
        return 0;
    cl->fd = r->fd;
    cl->at = at;
    cl->len = want;
    cl->n = max;
    cl->members = 0;
    r->file_bytes += want;
    r->decoded += want;
    return 1;
}

/* Claims of zstd frames wait to be measured against the rounds on the
 * 16-core machine: SC_TEST_ZSTD_CLAIMS=1 turns them on. */
static int zstd_claims(void)
{
    const char *v = getenv("SC_TEST_ZSTD_CLAIMS");
    return v && strcmp(v, "1") == 0;
}

int sc_reader_claim(sc_reader *r, size_t max, sc_claim *cl)
{
    if (max == 0 || pending(r) || r->fmt == SC_FMT_TEXT || r->carry_len ||
        (r->fd < 0 && sc_reader_open_current(r) <= 0) || r->live ||
        r->reg_size < 0 || r->head_pos < r->head_len)
        return 0;
    if (r->codec == CODEC_NONE) return claim_plain(r, max, cl);
    if ((r->codec == CODEC_ZST && !zstd_claims()) || r->streaming ||
        !r->units)
        return 0;
    return sc_par_claim(r->units, r, max, cl);
}

static sc_status read_plain(sc_reader *r, const sc_claim *cl, void *buf)
{
    ssize_t got = sc_pread_full(cl->fd, buf, cl->len, cl->at);
    if (got < 0) {
        defer(r, SC_ERR_IO, "%s: read error: %s", r->name, strerror(errno));
    } else if ((size_t)got < cl->len) {
        /* Its size was taken when it opened: what follows would be
         * another length of data than the one the chunks before it
         * stand on. */
        defer(r, SC_ERR_IO, "%s: the file shrank while it was read "
              "(at byte %llu)", r->name,
              (unsigned long long)(cl->at + got));
    } else {
        atomic_fetch_add_explicit(&r->total_bytes, (uint64_t)got,
                                  memory_order_relaxed);
    }
    return pending(r);
}

sc_status sc_reader_claim_read(sc_reader *r, const sc_claim *cl,
                               void *buf, size_t *n)
{
    *n = cl->n;
    sc_status st = cl->members ? sc_par_claim_read(r->units, r, cl, buf, n)
                               : read_plain(r, cl, buf);
    /* A plain read that failed gives nothing; units, those before it. */
    if (st != SC_OK && !cl->members) *n = 0;
    if (*n && r->swap && !r->record) sc_swap_bytes(buf, *n, r->size);
    return st;
}

/* Whether the input may be cut by claims: a regular file, raw or
 * starting with a unit that claims take. */
static int claimable(const sc_reader *r, const sc_input *in)
{
    int zst = in->packed == SC_KIND_ZST || r->fmt == SC_FMT_ZST;
    int gz = in->packed == SC_KIND_GZ || r->fmt == SC_FMT_GZ;
    if (in->size < 0 || (zst && !zstd_claims())) return 0;
    if (zst || gz) return in->unit > 0;
    return r->fmt != SC_FMT_AUTO || in->kind == SC_KIND_RAW;
}

int64_t sc_reader_claim_hint(const sc_reader *r)
{
    if (r->fmt == SC_FMT_TEXT) return -1;
    int64_t total = 0;
    for (size_t i = 0; i < r->n_paths; i++) {
        const sc_input *in = &r->inputs[i];
        if (!claimable(r, in)) return -1;
        /* A compressed one's decoded size is not known: about what
         * binary data shrinks by, so that small files take few workers. */
        total += (in->unit ? 4 : 1) * in->size;
    }
    return total;
}

size_t sc_reader_claim_unit(const sc_reader *r)
{
    size_t most = 0;
    for (size_t i = 0; i < r->n_paths; i++)
        if (r->inputs[i].unit > most) most = r->inputs[i].unit;
    return most;
}

sc_status sc_reader_raise(sc_reader *r)
{
    sc_par_claim_fault(r->units, r);
    return sc_fault_raise(&r->fault, r->ctx);
}
