/* filter.c — the plain C reference for sc-compact: raw uint32 on standard
 * input, the nonzero ones on standard output, in order.  One thread, 1 MiB
 * blocks, a branchless inner loop.  Not part of sc; used by bench/run-bench. */
#include <stdint.h>
#include <stdio.h>

#define BLOCK (1u << 18) /* uint32 elements: 1 MiB */

static uint32_t in[BLOCK], out[BLOCK];

int main(void)
{
    size_t n;
    while ((n = fread(in, sizeof in[0], BLOCK, stdin)) > 0) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            out[k] = in[i];
            k += in[i] != 0;
        }
        if (fwrite(out, sizeof out[0], k, stdout) != k)
            return 1;
    }
    return ferror(stdin) || fflush(stdout) ? 1 : 0;
}
