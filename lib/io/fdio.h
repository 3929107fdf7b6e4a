/* fdio.h — whole reads and writes on file descriptors. */
#ifndef SC_FDIO_H
#define SC_FDIO_H
#include <stddef.h>
#include <sys/types.h>

/* Reads until len bytes or end of file; returns bytes read or -1 (errno). */
ssize_t sc_read_full(int fd, void *buf, size_t len);
/* The same at offset at, leaving the file offset alone (any thread). */
ssize_t sc_pread_full(int fd, void *buf, size_t len, off_t at);
/* One read, retried only on EINTR: what a pipe holds now, up to len. */
ssize_t sc_read_some(int fd, void *buf, size_t len);
/* Whether fd has nothing to read for wait_ms (a producer that stalled). */
int sc_read_would_wait(int fd, int wait_ms);
/* Writes all len bytes; 0 or -1 (errno). */
int sc_write_full(int fd, const void *buf, size_t len);
/* Gives a pipe a larger buffer: fewer wake-ups per megabyte.  Returns
 * whether fd is a pipe (or FIFO). */
int sc_grow_pipe(int fd);
/* Hands len bytes to the pipe fd by reference (vmsplice), not by copy: the
 * reader sees the memory as it is when it reads, so it must never be
 * written again, even after it is freed (sc_pages_alloc's memory is not).
 * 0, or -1 with errno and *done the bytes already handed over. */
int sc_splice_full(int fd, const void *buf, size_t len, size_t *done);
#endif
