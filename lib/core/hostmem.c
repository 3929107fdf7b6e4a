/* hostmem.c — large host buffers backed by huge pages where the kernel
 * allows it: a radix-sort scatter over a 1 GiB buffer otherwise spends
 * much of its time in TLB misses, and the first touch of every 4 KiB page
 * faults. */
#include <stdlib.h>
#include <sys/mman.h>
#include "internal.h"

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
