/* status.c — version, status strings, the context's message, and the
 * clock of -v's phases (phase_times.c adds them up). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/core.h"

const char *sc_version(void) { return SC_VERSION_STRING; }
int sc_version_number(void) { return SC_VERSION_NUMBER; }

static const char *const status_text[SC_STATUS_COUNT] = {
    [SC_OK] = "success",
    [SC_ERR_USAGE] = "invalid argument",
    [SC_ERR_NOMEM] = "out of memory",
    [SC_ERR_IO] = "input/output error",
    [SC_ERR_OPEN] = "cannot open input",
    [SC_ERR_PARTIAL] = "input ends with a partial element",
    [SC_ERR_GZIP] = "corrupt or truncated gzip data",
    [SC_ERR_TEXT] = "malformed text input",
    [SC_ERR_RANGE] = "value out of range",
    [SC_ERR_NODEVICE] = "no usable CUDA device",
    [SC_ERR_DEVICE] = "CUDA device error",
    [SC_ERR_UNSORTED] = "input not sorted",
    [SC_ERR_PIPE] = "broken pipe",
    [SC_ERR_SAMEFILE] = "output file is also an input",
    [SC_ERR_INTERRUPTED] = "interrupted",
    [SC_ERR_ZSTD] = "corrupt or truncated zstd data",
    [SC_ERR_FORMAT] = "input format not read",
};

const char *sc_strerror(sc_status status)
{
    if ((unsigned)status >= SC_STATUS_COUNT)
        return "unknown status";
    return status_text[status];
}

const char *sc_ctx_message(const sc_ctx *ctx)
{
    return ctx ? ctx->message : "";
}

double sc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
