/* hostmem.c — large host buffers backed by huge pages where the kernel
 * allows it: a radix-sort scatter over a 1 GiB buffer otherwise spends
 * much of its time in TLB misses, and the first touch of every 4 KiB page
 * faults. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "core/core.h"

#define HUGE_PAGE ((size_t)2 << 20)

void *sc_big_alloc(size_t bytes)
{
    void *p = NULL;
    if (bytes < HUGE_PAGE)
        return posix_memalign(&p, 4096, bytes ? bytes : 1) == 0 ? p : NULL;
    if (posix_memalign(&p, HUGE_PAGE, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    /* Only advice: without transparent huge pages nothing changes. */
    madvise(p, (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
    return p;
}

/* Small mappings keep to 4 KiB pages; large ones start on a huge page. */
static size_t pages_len(size_t bytes)
{
    size_t unit = bytes < HUGE_PAGE ? 4096 : HUGE_PAGE;
    return (bytes + !bytes + unit - 1) & ~(unit - 1);
}

void *sc_pages_alloc(size_t bytes)
{
    size_t len = pages_len(bytes);
    size_t slack = len < HUGE_PAGE ? 0 : HUGE_PAGE;
    char *raw = mmap(NULL, len + slack, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return NULL;
    if (!slack) return raw;
    /* Trim the slack to start on a huge-page boundary. */
    char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + slack > p) munmap(p + len, (size_t)(raw + slack - p));
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    return p;
}

void sc_pages_free(void *p, size_t bytes)
{
    if (p) munmap(p, pages_len(bytes));
}
