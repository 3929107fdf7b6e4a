/* fdio.h — whole reads and writes on file descriptors. */
#ifndef SC_FDIO_H
#define SC_FDIO_H
#include <stddef.h>
#include <sys/types.h>

/* Reads until len bytes or end of file; returns bytes read or -1 (errno). */
ssize_t sc_read_full(int fd, void *buf, size_t len);
/* Writes all len bytes; 0 or -1 (errno). */
int sc_write_full(int fd, const void *buf, size_t len);
/* Gives a pipe a larger buffer: fewer wake-ups per megabyte. */
void sc_grow_pipe(int fd);
#endif
