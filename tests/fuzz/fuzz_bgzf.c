/* fuzz_bgzf.c — libFuzzer harness: the parallel BGZF reader (its seeds
 * are BGZF streams, so mutations keep most members whole) on arbitrary
 * bytes, forced and auto-detected: members decoded at once and aside,
 * and the hand-over to the stream reader where they stop splitting. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, SC_FMT_GZ);
    fuzz_read_all(data, size, SC_FMT_AUTO);
    return 0;
}
