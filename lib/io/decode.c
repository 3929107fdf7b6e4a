/* decode.c — a compressed file's decoded bytes: from the parallel decoder
 * (par.c) while the file splits into units, then from the stream decoder
 * (codecs.c); timed and counted per file for -v. */
#include <stdio.h>
#include <stdlib.h>
#include "io/reader_impl.h"

/* Bytes decoded into dst, as sc_gz_read. */
static ssize_t decode_any(sc_reader *r, unsigned char *dst, size_t len)
{
    if (!r->streaming) {
        ssize_t got = sc_par_read(r->units, r, dst, len);
        if (got != SC_PAR_STREAM) return got;
        r->streaming = 1;
    }
    return r->codec == CODEC_GZ ? sc_gz_read(r, dst, len)
                                : sc_zst_read(r, dst, len);
}

int sc_decode_begin(sc_reader *r)
{
    if (!r->decs && !(r->decs = calloc(r->n_paths, sizeof *r->decs))) {
        defer(r, SC_ERR_NOMEM, "out of memory");
        return -1;
    }
    if (!r->units) r->units = sc_par_new(r->ctx->threads);
    r->streaming = !r->units;
    if (r->units) sc_par_begin(r->units, r);
    sc_decoding *d = &r->decs[r->n_decs++];
    d->name = r->name;
    d->zstd = r->codec == CODEC_ZST;
    return 1;
}

ssize_t sc_decode(sc_reader *r, unsigned char *dst, size_t len)
{
    double t0 = sc_now();
    int was_streaming = r->streaming;
    ssize_t got = decode_any(r, dst, len);
    sc_decoding *d = &r->decs[r->n_decs - 1];
    d->seconds += sc_now() - t0;
    if (got > 0) d->bytes += (uint64_t)got;
    if (r->units) d->par_units = sc_par_units(r->units);
    if (r->streaming && (got > 0 || !was_streaming)) d->streamed = 1;
    return got;
}

const sc_decoding *sc_reader_decoding(const sc_reader *r, size_t i)
{
    return i < r->n_decs ? &r->decs[i] : NULL;
}

void sc_decoding_how(const sc_decoding *d, char *buf, size_t cap)
{
    const char *one = d->zstd ? "libzstd" : sc_gz_engine;
    if (!d->par_units)
        snprintf(buf, cap, "one stream (%s)", one);
    else if (d->streamed)
        snprintf(buf, cap, "parallel %s, then one stream (%s)",
                 d->zstd ? "zstd frames" : "BGZF", one);
    else
        snprintf(buf, cap, "parallel %s", d->zstd ? "zstd frames" : "BGZF");
}
