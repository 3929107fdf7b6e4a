/* reader_file.c — the bytes of the reader's current file as they are on
 * disk or in the pipe: a live input as it comes, a regular file in whole
 * reads, large ones on several threads.  Counted here, for -P and for
 * messages. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "io/io.h"
#include "io/reader_impl.h"

/* Large reads of a regular file go to several threads: half the
 * context's, leaving the rest to the work on what was read. */
#define PAR_READ_MIN ((size_t)2 << 20)

static ssize_t whole_read(sc_reader *r, void *buf, size_t len)
{
    if (len >= PAR_READ_MIN && !r->par_tried) {
        r->par_tried = 1;
        unsigned t = r->ctx->threads / 2;
        r->par = sc_preader_new(t > 8 ? 8 : t);
    }
    return r->par && len >= PAR_READ_MIN ? sc_preader_read(r->par, r->fd, buf, len)
                                         : sc_read_full(r->fd, buf, len);
}

ssize_t sc_reader_file_read(sc_reader *r, void *buf, size_t len)
{
    ssize_t got;
    if (r->live) {
        /* A pipeline stopped by a failure elsewhere may cancel a read
         * that waits on a slow input; nothing is held across it. */
        int old;
        pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, &old);
        got = sc_read_some(r->fd, buf, len);
        pthread_setcancelstate(old, NULL);
    } else {
        got = whole_read(r, buf, len);
    }
    if (got < 0) {
        defer(r, SC_ERR_IO, "%s: read error: %s", r->name, strerror(errno));
        return -1;
    }
    r->file_bytes += (uint64_t)got;
    atomic_fetch_add_explicit(&r->total_bytes, (uint64_t)got,
                              memory_order_relaxed);
    return got;
}
