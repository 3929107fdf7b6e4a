/* tap.h — the TAP lines of the C unit tests: ok() prints one result and
 * counts it; each test prints the plan, "1..n_tests", at its end and
 * exits non-zero when n_failed is. */
#ifndef SC_TEST_TAP_H
#define SC_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int n_tests, n_failed;

__attribute__((format(printf, 2, 3)))
static int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    n_tests++;
    if (!cond) n_failed++;
    printf("%s %d - ", cond ? "ok" : "not ok", n_tests);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return cond;
}

#endif
