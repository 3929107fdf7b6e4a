/* pread.c — one read cut into pieces that the threads of a small pool of
 * its own read with pread(2), each into its place in the buffer. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
#include "io/fdio.h"
#include "io/pread.h"

#define PIECE ((size_t)1 << 20)

struct sc_preader {
    sc_pool *pool;
    unsigned threads;
};

typedef struct piece_task {
    int fd;
    off_t at;
    char *buf;
    size_t len;
    unsigned parts;
    ssize_t got[64];
    int err[64];
} piece_task;

static void read_piece(void *arg, unsigned i)
{
    piece_task *t = arg;
    size_t b = t->len * i / t->parts, e = t->len * (i + 1) / t->parts;
    t->got[i] = sc_pread_full(t->fd, t->buf + b, e - b, t->at + (off_t)b);
    t->err[i] = t->got[i] < 0 ? errno : 0;
}

sc_preader *sc_preader_new(unsigned threads)
{
    if (threads < 2) return NULL;
    if (threads > 64) threads = 64;
    sc_preader *p = calloc(1, sizeof *p);
    if (!p || sc_pool_new(&p->pool, threads) != SC_OK) {
        free(p);
        return NULL;
    }
    p->threads = threads;
    return p;
}

void sc_preader_free(sc_preader *p)
{
    if (!p) return;
    sc_pool_free(p->pool);
    free(p);
}

ssize_t sc_preader_read(sc_preader *p, int fd, void *buf, size_t len)
{
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0) return -1;
    size_t parts = len / PIECE;
    if (parts > p->threads) parts = p->threads;
    piece_task t = { fd, at, buf, len, parts ? (unsigned)parts : 1, {0}, {0} };
    sc_pool_run(p->pool, t.parts, read_piece, &t);
    /* The bytes up to the first short piece are the file's. */
    size_t total = 0;
    for (unsigned i = 0; i < t.parts; i++) {
        if (t.got[i] < 0) { errno = t.err[i]; return -1; }
        total += (size_t)t.got[i];
        size_t want = len * (i + 1) / t.parts - len * i / t.parts;
        if ((size_t)t.got[i] < want) break;
    }
    if (lseek(fd, at + (off_t)total, SEEK_SET) < 0) return -1;
    return (ssize_t)total;
}
