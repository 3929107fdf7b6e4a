/* fuzz_text.c — libFuzzer harness: the text reader on arbitrary bytes. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, SC_FMT_TEXT);
    return 0;
}
