/* fuzz_raw.c — libFuzzer harness: the raw reader on arbitrary bytes. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, SC_FMT_RAW);
    return 0;
}
