/* thread.c — starting threads, with a fault that tests can ask for.
 *
 * Every thread libsc starts goes through sc_thread_start(), so a test can
 * make thread creation fail where RLIMIT_NPROC cannot be used (root, or a
 * shared user): SC_TEST_FAIL_THREAD=N makes the N-th creation in the
 * process fail with EAGAIN, as pthread_create does when the limit is hit.
 */
#include <errno.h>
#include <stdlib.h>
#include "core/core.h"

static int injected_failure(void)
{
    static long calls;
    const char *env = getenv("SC_TEST_FAIL_THREAD");
    long n = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    return env && *env && strtol(env, NULL, 10) == n;
}

int sc_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    if (injected_failure()) return EAGAIN;
    return pthread_create(t, NULL, fn, arg);
}
