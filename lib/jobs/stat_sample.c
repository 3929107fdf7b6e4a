/* stat_sample.c — sc-stat --sample: which part of the input is looked at.
 *
 * The stream is cut into blocks of 64 KiB; a block is taken when the
 * hash of its number falls below the fraction asked for, so the sample
 * depends on the seed and the data alone.  Whole blocks, rather than
 * single elements, so that a regular file can be read at the blocks
 * taken and nowhere else (pread), which is what makes a small fraction
 * of a large file fast; any other input (a pipe, gzip, text) is read
 * through and filtered to the same blocks, with the same result.
 *
 * Where no block is taken at all (an input of a few blocks and a small
 * fraction), the first block is looked at instead: a sample of an input
 * that is not empty is never empty, and one shorter than a block is
 * looked at whole. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jobs/stat.h"

#define BLOCK_BYTES ((uint64_t)1 << 16)    /* 64 KiB */
#define BATCH_BLOCKS 64                     /* read per call to look() */

sc_status sc_blocks_init(sc_ctx *ctx, sc_blocks *b, double fraction,
                         uint64_t seed, unsigned size)
{
    b->all = !(fraction > 0 && fraction < 1);
    b->size = size;
    b->elems = BLOCK_BYTES / size;
    b->below = b->all ? UINT64_MAX : (uint64_t)ldexp(fraction, 64);
    b->salt = sc_mix64(seed ^ 0xb10c5a3b1e5eedULL);
    b->any = 0;
    b->first_n = 0;
    b->first = b->all ? NULL : malloc(BLOCK_BYTES);
    return b->all || b->first ? SC_OK
                              : sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
}

void sc_blocks_free(sc_blocks *b)
{
    free(b->first);
    b->first = NULL;
}

size_t sc_blocks_untaken(const sc_blocks *b, void **x)
{
    *x = b->first;
    return b->all || b->any ? 0 : b->first_n;
}

/* The elements of x[0..n), at stream positions first..., that lie in the
 * first block, copied to where they go in it. */
static void hold_first(sc_blocks *b, const void *x, size_t n,
                       uint64_t first)
{
    if (b->any || first >= b->elems) return;
    size_t m = b->elems - first < n ? (size_t)(b->elems - first) : n;
    memcpy((unsigned char *)b->first + first * b->size, x, m * b->size);
    b->first_n = (size_t)first + m;
}

static int taken(const sc_blocks *b, uint64_t block)
{
    return b->all || sc_mix64(block ^ b->salt) < b->below;
}

size_t sc_blocks_keep(sc_blocks *b, void *x, size_t n, uint64_t first)
{
    if (b->all) return n;
    hold_first(b, x, n, first);
    unsigned char *e = x;
    size_t kept = 0;
    for (size_t i = 0; i < n;) {
        uint64_t block = (first + i) / b->elems;
        size_t end = (size_t)((block + 1) * b->elems - first);
        if (end > n) end = n;
        if (taken(b, block)) {
            memmove(e + kept * b->size, e + i * b->size,
                    (end - i) * b->size);
            kept += end - i;
            b->any = 1;
        }
        i = end;
    }
    return kept;
}

typedef struct files {
    size_t n;
    int *fd;
    uint64_t *end;          /* where each file ends in the stream, bytes */
    const char *const *names;
} files;

static void close_files(files *f)
{
    for (size_t i = 0; f->fd && i < f->n; i++)
        if (f->fd[i] >= 0) close(f->fd[i]);
    free(f->fd);
    free(f->end);
}

static sc_status open_files(sc_ctx *ctx, const sc_job *j, files *f)
{
    f->n = j->n_inputs;
    f->names = j->inputs;
    f->fd = malloc(f->n * sizeof *f->fd);
    f->end = malloc(f->n * sizeof *f->end);
    if (!f->fd || !f->end) return sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    uint64_t at = 0;
    for (size_t i = 0; i < f->n; i++) f->fd[i] = -1;
    for (size_t i = 0; i < f->n; i++) {
        f->fd[i] = open(f->names[i], O_RDONLY);
        off_t size = f->fd[i] < 0 ? -1 : lseek(f->fd[i], 0, SEEK_END);
        if (size < 0)
            return sc_fail_errno(ctx, SC_ERR_OPEN, errno, "%s", f->names[i]);
        f->end[i] = at += (uint64_t)size;
    }
    return SC_OK;
}

/* len bytes of the stream from byte `at`, across files as cat joins
 * them; *file is where to start looking, moved along. */
static sc_status read_at(sc_ctx *ctx, const files *f, size_t *file,
                         uint64_t at, unsigned char *to, size_t len)
{
    while (len) {
        while (*file < f->n && f->end[*file] <= at) (*file)++;
        if (*file == f->n) break;
        uint64_t start = *file ? f->end[*file - 1] : 0;
        size_t want = f->end[*file] - at < len ? (size_t)(f->end[*file] - at)
                                                : len;
        ssize_t got = pread(f->fd[*file], to, want, (off_t)(at - start));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            return sc_fail_errno(ctx, SC_ERR_IO, errno, "%s: read error",
                                 f->names[*file]);
        if (got == 0) break;
        at += (uint64_t)got;
        to += got;
        len -= (size_t)got;
    }
    return len ? sc_fail(ctx, SC_ERR_IO, "%s: file shrank while read",
                         f->names[*file < f->n ? *file : f->n - 1])
               : SC_OK;
}

/* Whether the taken blocks can be read where they lie: named raw regular
 * files of whole elements in the host's order (with stray bytes the
 * stream is read through, to report them as any tool does; big-endian
 * elements too, which the reader turns). */
int sc_blocks_direct(const sc_blocks *b, const sc_job *j, sc_reader *r)
{
    int64_t bytes = sc_reader_size_hint(r);
    if (b->all || bytes < 0 || bytes % b->size || j->n_inputs == 0 ||
        j->big_endian || j->record.size)
        return 0;
    for (size_t i = 0; i < j->n_inputs; i++)
        if (strcmp(j->inputs[i], "-") == 0) return 0;
    return 1;
}

static sc_status read_blocks(sc_ctx *ctx, sc_phase_times *times,
                             sc_blocks *b, const files *f, unsigned char *buf,
                             sc_look_fn look, void *arg, uint64_t *in)
{
    uint64_t bytes = f->n ? f->end[f->n - 1] : 0;
    uint64_t blocks = (bytes + BLOCK_BYTES - 1) / BLOCK_BYTES;
    for (uint64_t k = 0; k < blocks && !b->any; k++) b->any = taken(b, k);
    size_t file = 0, have = 0;
    sc_status st = SC_OK;
    for (uint64_t k = 0; k < blocks && st == SC_OK; k++) {
        if (!taken(b, k) && (b->any || k > 0)) continue;
        uint64_t at = k * BLOCK_BYTES;
        size_t len = bytes - at < BLOCK_BYTES ? (size_t)(bytes - at)
                                              : BLOCK_BYTES;
        double t0 = sc_now();
        st = read_at(ctx, f, &file, at, buf + have * b->size, len);
        sc_phase_add(times, SC_PH_READ, sc_now() - t0);
        have += len / b->size;
        if (st == SC_OK && have == BATCH_BLOCKS * b->elems) {
            st = look(arg, buf, have);
            *in += have;
            have = 0;
        }
    }
    if (st == SC_OK && have) {
        st = look(arg, buf, have);
        *in += have;
    }
    return st;
}

sc_status sc_blocks_read(sc_ctx *ctx, sc_phase_times *times, const sc_job *j,
                         sc_blocks *b, sc_look_fn look, void *arg,
                         uint64_t *in)
{
    files f = { 0, NULL, NULL, NULL };
    sc_status st = open_files(ctx, j, &f);
    unsigned char *buf = NULL;
    if (st == SC_OK && !(buf = malloc(BATCH_BLOCKS * BLOCK_BYTES)))
        st = sc_fail(ctx, SC_ERR_NOMEM, "out of memory");
    if (st == SC_OK) st = read_blocks(ctx, times, b, &f, buf, look, arg, in);
    free(buf);
    close_files(&f);
    return st;
}
