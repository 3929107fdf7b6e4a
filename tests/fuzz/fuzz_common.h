/* fuzz_common.h — what the libFuzzer harnesses share: the fuzzer's bytes
 * as a file libsc can open by name (a memfd, so no disk is touched) and a
 * CPU context made once per process. */
#ifndef SC_FUZZ_COMMON_H
#define SC_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sc.h"

typedef struct fuzz_file {
    int fd;
    char path[64];
} fuzz_file;

/* The bytes as /proc/self/fd/N: every open() of it reads from the start. */
static inline int fuzz_file_make(fuzz_file *f, const uint8_t *data, size_t size)
{
    f->fd = memfd_create("sc-fuzz", 0);
    if (f->fd < 0) return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t k = write(f->fd, data + done, size - done);
        if (k <= 0) { close(f->fd); return -1; }
        done += (size_t)k;
    }
    snprintf(f->path, sizeof f->path, "/proc/self/fd/%d", f->fd);
    return 0;
}

static inline void fuzz_file_drop(fuzz_file *f) { close(f->fd); }

/* Two threads: the pool's hand-off is exercised too, at little cost. */
static inline sc_ctx *fuzz_ctx(void)
{
    static sc_ctx *ctx;
    if (!ctx && sc_ctx_new(&ctx, "cpu", 2) != SC_OK) abort();
    return ctx;
}

/* Reads the whole stream in small pieces (so element and token
 * boundaries fall everywhere); a data fault is a fine outcome, a crash or
 * a sanitizer report is not. */
static inline void fuzz_read_all(const uint8_t *data, size_t size, sc_format fmt)
{
    fuzz_file f;
    if (fuzz_file_make(&f, data, size) != 0) return;
    const char *paths[1] = { f.path };
    sc_reader *r = NULL;
    if (sc_reader_open(&r, fuzz_ctx(), paths, 1, fmt) == SC_OK) {
        uint32_t buf[97];
        size_t got;
        uint64_t total = 0;
        while (sc_reader_read(r, buf, 97, &got) == SC_OK && got) {
            total += got;
            /* Raw input never yields more elements than bytes / 4. */
            if (fmt == SC_FMT_RAW && total > size / 4) abort();
        }
        sc_reader_close(r);
    }
    fuzz_file_drop(&f);
}

#endif
