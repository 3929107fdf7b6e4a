/* fuzz_zframes.c — libFuzzer harness: the parallel reader of zstd frames
 * with their content size (its seeds: several frames, skippable ones, a
 * frame without its size) on arbitrary bytes, forced and auto-detected. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, SC_FMT_ZST);
    fuzz_read_all(data, size, SC_FMT_AUTO);
    return 0;
}
