/* fuzz_zstd.c — libFuzzer harness: the zstd reader on arbitrary bytes
 * (built where libsc has zstd). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, SC_FMT_ZST);
    return 0;
}
