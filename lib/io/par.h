/* par.h — a compressed file cut into units that decode on their own:
 * BGZF members (their size in the BC subfield, their decoded size in
 * ISIZE) and zstd frames whose header carries their content size.  The
 * reader decodes many at once, each straight to its place (par.c); the
 * units are found and decoded here (par_units.c, and zstd_frames.c
 * where built with zstd). */
#ifndef SC_PAR_H
#define SC_PAR_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What the bytes at hand start with. */
enum {
    SC_UNIT_WHOLE,      /* a unit, whole in hand: *csize, *dsize */
    SC_UNIT_BOUND,      /* the same, *dsize the most it decodes to */
    SC_UNIT_SKIP,       /* a skippable zstd frame, whole: *csize */
    SC_UNIT_MORE,       /* more bytes are needed to tell */
    SC_UNIT_NONE        /* no unit that decodes alone: read it as a stream */
};

/* The largest unit decoded on its own; a larger one is streamed, so that
 * the memory a unit takes stays bounded whatever its header says. */
#define SC_UNIT_MAX_DECODED ((size_t)32 << 20)

int sc_bgzf_unit(const unsigned char *p, size_t len, size_t *csize,
                 size_t *dsize);
/* Whether a member of csize bytes can decode to isize: one that says
 * more is the stream reader's to report. */
int sc_bgzf_isize_fits(uint32_t isize, size_t csize);
int sc_zframe_unit(const unsigned char *p, size_t len, size_t *csize,
                   size_t *dsize);

/* The zstd frame at `at` in a file, found by its headers alone for
 * claims (par_claim.c, which finds BGZF members so too): whole before
 * end, SC_UNIT_WHOLE with its sizes (SC_UNIT_SKIP for a skippable frame,
 * *dsize 0), else SC_UNIT_NONE. */
int sc_zframe_size_at(int fd, off_t at, off_t end, size_t *csize,
                      size_t *dsize);
/* What the zstd frame at p decodes to where its header says and it
 * decodes alone; else 0 (a skippable frame, no size, too large). */
size_t sc_zframe_first_size(const unsigned char *p, size_t len);

/* A decoding thread's own state: one per thread that decodes at once. */
typedef struct sc_unit_scratch sc_unit_scratch;
sc_unit_scratch *sc_unit_scratch_new(void);
void sc_unit_scratch_free(sc_unit_scratch *s);

/* Decodes a whole unit of csize bytes into out[0, dsize) and checks it
 * (the CRC-32 and ISIZE of a member, a frame's size and checksum): 0, or
 * -1 with *why.  A zstd unit decodes into out[0, cap), *got bytes, which
 * must be all of cap where the unit is exact (SC_UNIT_WHOLE). */
int sc_bgzf_unit_decode(sc_unit_scratch *s, const unsigned char *p,
                        size_t csize, unsigned char *out, size_t dsize,
                        const char **why);
int sc_zframe_decode(void **dctx, const unsigned char *p, size_t csize,
                     unsigned char *out, size_t cap, int exact, size_t *got,
                     const char **why);
void sc_zframe_dctx_free(void *dctx);
void **sc_unit_scratch_zstd(sc_unit_scratch *s);
/* Room for len compressed bytes, kept with the scratch; NULL: no memory. */
unsigned char *sc_unit_scratch_input(sc_unit_scratch *s, size_t len);

/* The decoder the reader keeps (par.c); its functions that need the
 * reader are declared in reader_impl.h. */
typedef struct sc_par sc_par;
/* Reads below this many bytes wait for the next loop. */
#define SC_UNIT_READ_MIN ((size_t)64 << 10)
/* sc_par_read's answer for "not splittable from here: stream the rest". */
#define SC_PAR_STREAM (-2)
sc_par *sc_par_new(unsigned threads);
void sc_par_free(sc_par *p);
/* Units decoded in parallel in the current file. */
unsigned long long sc_par_units(const sc_par *p);

#endif
