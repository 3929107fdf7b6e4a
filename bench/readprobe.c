/* readprobe.c — how fast can a cached file be compacted (x != 0) on this
 * machine's cores, by strategy?  A question for bench/probe.sh, not part
 * of libsc:
 *   readprobe FILE THREADS CHUNK_BYTES MODE
 * MODE: pread   each thread takes whole chunks in turn, preads one into
 *               a buffer of its own and compacts it in place;
 *       mmap    the file mapped, each thread compacts whole chunks of it
 *               into a buffer of its own;
 *       mmappop the same with MAP_POPULATE.
 * Prints seconds from open to the last thread's end, and the count kept. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int fd;
static size_t size, chunk;
static const char *mode;
static const uint32_t *map;
static atomic_size_t next_chunk;
static atomic_uint_fast64_t kept;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static size_t compact(const uint32_t *in, uint32_t *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        out[k] = in[i];
        k += in[i] != 0;
    }
    return k;
}

static void *worker(void *arg)
{
    (void)arg;
    uint32_t *buf = aligned_alloc(4096, chunk);
    uint32_t *out = aligned_alloc(4096, chunk);
    uint64_t mine = 0;
    for (;;) {
        size_t i = atomic_fetch_add(&next_chunk, 1);
        size_t at = i * chunk;
        if (at >= size) break;
        size_t len = size - at < chunk ? size - at : chunk;
        if (mode[0] == 'p') {
            size_t got = 0;
            while (got < len) {
                ssize_t r = pread(fd, (char *)buf + got, len - got,
                                  (off_t)(at + got));
                if (r <= 0) { perror("pread"); exit(1); }
                got += (size_t)r;
            }
            mine += compact(buf, buf, len / 4);
        } else {
            mine += compact(map + at / 4, out, len / 4);
        }
    }
    atomic_fetch_add(&kept, mine);
    free(buf);
    free(out);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: readprobe FILE THREADS CHUNK MODE\n");
        return 2;
    }
    unsigned threads = (unsigned)atoi(argv[2]);
    chunk = (size_t)strtoull(argv[3], NULL, 0);
    mode = argv[4];
    double t0 = now();
    fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) { perror(argv[1]); return 1; }
    size = (size_t)st.st_size & ~(size_t)3;
    if (mode[0] == 'm') {
        int flags = MAP_PRIVATE | (strcmp(mode, "mmappop") == 0 ? MAP_POPULATE : 0);
        map = mmap(NULL, size, PROT_READ, flags, fd, 0);
        if (map == MAP_FAILED) { perror("mmap"); return 1; }
    }
    pthread_t t[256];
    for (unsigned i = 0; i < threads && i < 256; i++)
        pthread_create(&t[i], NULL, worker, NULL);
    for (unsigned i = 0; i < threads && i < 256; i++) pthread_join(t[i], NULL);
    printf("%.4f %llu\n", now() - t0, (unsigned long long)kept);
    return 0;
}
