/* fault.c — where a fault goes: the context's message, or, on a thread
 * that holds its faults back, that thread's holder until the job reports
 * it (fault.h). */
#include <stdio.h>
#include <errno.h>
#include <string.h>
#include "core/core.h"

enum { EMPTY, WRITING, HELD };

/* Where sc_fail() puts this thread's faults instead of the context. */
static _Thread_local sc_fault *caught;

/* SC_ERR_FORMAT is here for an input refused for its kind when the read
 * reaches it (a pipe, which cannot be judged beforehand): what came before
 * it was read as data.  A regular file is refused before any reading. */
int sc_is_data_fault(sc_status st)
{
    return st == SC_ERR_PARTIAL || st == SC_ERR_GZIP || st == SC_ERR_ZSTD ||
           st == SC_ERR_TEXT || st == SC_ERR_RANGE || st == SC_ERR_OPEN ||
           st == SC_ERR_IO || st == SC_ERR_FORMAT;
}

sc_status sc_fault_vset(sc_fault *f, sc_status st, const char *fmt,
                        va_list ap)
{
    /* Whoever moves it out of EMPTY owns the message; a reader sees the
     * fault only once it is whole (HELD). */
    int expected = EMPTY;
    if (!atomic_compare_exchange_strong(&f->state, &expected, WRITING))
        return st;
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    f->st = st;
    atomic_store(&f->state, HELD);
    return st;
}

sc_status sc_fault_set(sc_fault *f, sc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sc_fault_vset(f, st, fmt, ap);
    va_end(ap);
    return st;
}

sc_status sc_fault_status(const sc_fault *f)
{
    return atomic_load(&f->state) == HELD ? f->st : SC_OK;
}

const char *sc_fault_message(const sc_fault *f)
{
    return atomic_load(&f->state) == HELD ? f->msg : "";
}

sc_status sc_fault_note(sc_fault *f, sc_ctx *ctx, sc_status st)
{
    if (!sc_is_data_fault(st)) return st;
    pthread_mutex_lock(&ctx->lock);
    sc_fault_set(f, st, "%s", ctx->message);
    pthread_mutex_unlock(&ctx->lock);
    return SC_OK;
}

sc_status sc_fault_raise(const sc_fault *f, sc_ctx *ctx)
{
    sc_status st = sc_fault_status(f);
    return st ? sc_fail(ctx, st, "%s", f->msg) : SC_OK;
}

void sc_fault_catch(sc_fault *f) { caught = f; }

sc_fault *sc_fault_caught(void) { return caught; }

sc_status sc_fail(sc_ctx *ctx, sc_status status, const char *fmt, ...)
{
    if (!ctx) return status;
    va_list ap;
    va_start(ap, fmt);
    sc_fault *held = sc_fault_caught();
    if (held) {
        sc_fault_vset(held, status, fmt, ap);
    } else {
        pthread_mutex_lock(&ctx->lock);
        vsnprintf(ctx->message, sizeof ctx->message, fmt, ap);
        pthread_mutex_unlock(&ctx->lock);
    }
    va_end(ap);
    return status;
}

sc_status sc_fail_errno(sc_ctx *ctx, sc_status status, int err,
                        const char *fmt, ...)
{
    if (err == EPIPE)
        status = SC_ERR_PIPE;
    if (ctx) {
        char head[768];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(head, sizeof head, fmt, ap);
        va_end(ap);
        sc_fail(ctx, status, "%s: %s", head, strerror(err));
    }
    return status;
}
