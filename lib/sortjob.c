/* sortjob.c — sc-rsort's job (placeholder until the sort issue lands). */
#include "internal.h"

sc_status sc_run_sort(sc_ctx *ctx, const sc_job *job)
{
    (void)job;
    return sc_fail(ctx, SC_ERR_USAGE, "sorting streams is not built yet");
}
