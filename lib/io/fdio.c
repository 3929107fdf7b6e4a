/* fdio.c — whole reads and writes on file descriptors. */
#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "io/fdio.h"

ssize_t sc_read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = read(fd, (char *)buf + got, len - got);
        if (r == 0) break;
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)r;
    }
    return (ssize_t)got;
}

ssize_t sc_pread_full(int fd, void *buf, size_t len, off_t at)
{
    size_t got = 0;
    while (got < len) {
        ssize_t r = pread(fd, (char *)buf + got, len - got, at + (off_t)got);
        if (r == 0) break;
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)r;
    }
    return (ssize_t)got;
}

ssize_t sc_read_some(int fd, void *buf, size_t len)
{
    for (;;) {
        ssize_t r = read(fd, buf, len);
        if (r >= 0 || errno != EINTR) return r;
    }
}

int sc_read_would_wait(int fd, int wait_ms)
{
    struct pollfd p = { fd, POLLIN, 0 };
    int r;
    do r = poll(&p, 1, wait_ms); while (r < 0 && errno == EINTR);
    return r == 0;
}

/* write(), or vmsplice() where by_ref, until all len bytes are out;
 * *done counts those that are. */
static int put_all(int fd, const void *buf, size_t len, size_t *done,
                   int by_ref)
{
    const char *p = buf;
    *done = 0;
    while (len) {
        ssize_t w;
#ifdef SPLICE_F_GIFT
        struct iovec v = { (void *)p, len };
        w = by_ref ? vmsplice(fd, &v, 1, 0) : write(fd, p, len);
#else
        if (by_ref) {
            errno = ENOSYS;
            return -1;
        }
        w = write(fd, p, len);
#endif
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += w;
        *done += (size_t)w;
        len -= (size_t)w;
    }
    return 0;
}

int sc_write_full(int fd, const void *buf, size_t len)
{
    size_t done;
    return put_all(fd, buf, len, &done, 0);
}

int sc_grow_pipe(int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return 0;
#ifdef F_SETPIPE_SZ
    (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#endif
    return 1;
}

int sc_splice_full(int fd, const void *buf, size_t len, size_t *done)
{
    return put_all(fd, buf, len, done, 1);
}
