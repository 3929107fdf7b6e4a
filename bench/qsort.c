/* qsort.c — the plain C reference for sc-rsort: read all raw uint32 from
 * standard input, qsort(3) them ascending, write them to standard output.
 * Not part of sc; used by bench/run-bench. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    size_t n = 0, cap = 1u << 20, got;
    uint32_t *v = malloc(cap * sizeof *v);
    while (v && (got = fread(v + n, sizeof *v, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap)
            v = realloc(v, (cap *= 2) * sizeof *v);
    }
    if (!v || ferror(stdin))
        return 1;
    qsort(v, n, sizeof *v, cmp);
    if (fwrite(v, sizeof *v, n, stdout) != n || fflush(stdout))
        return 1;
    free(v);
    return 0;
}
