/* test_phase_times.c -- TAP tests of a run's phase times
 * (lib/core/phase_times.c): zeroed memory is empty, NULL measures
 * nothing, and threads adding at once lose no time.
 *
 * Built from its own source, as libsc exports only sc.h.  The threads
 * add whole seconds, which a double sums exactly in any order, so the
 * total must come out exact; an add that is not atomic loses some of
 * them when two threads meet.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "core/core.h"
#include "tap.h"

#define THREADS 8
#define ADDS 1000000

static sc_phase_times times;

static void *adder(void *arg)
{
    sc_phase ph = *(const sc_phase *)arg;
    for (int i = 0; i < ADDS; i++) {
        sc_phase_add(&times, ph, 1.0);
        sc_phase_add(&times, SC_PH_MOVE, 1.0);
    }
    return NULL;
}

static void test_empty_and_null(void)
{
    sc_phase_times t;
    memset(&t, 0, sizeof t);
    int zero = 1;
    for (int k = 0; k < SC_N_PHASES; k++)
        zero = zero && sc_phase_seconds(&t, (sc_phase)k) == 0;
    ok(zero, "zeroed times are empty");
    sc_phase_add(&t, SC_PH_READ, 0.25);
    sc_phase_add(&t, SC_PH_READ, 0.5);
    ok(sc_phase_seconds(&t, SC_PH_READ) == 0.75 &&
       sc_phase_seconds(&t, SC_PH_WRITE) == 0, "adds go to their phase");
    sc_phase_add(NULL, SC_PH_READ, 1.0);
    ok(sc_phase_seconds(NULL, SC_PH_READ) == 0, "NULL measures nothing");
}

static void test_threads(void)
{
    pthread_t t[THREADS];
    sc_phase ph[THREADS];
    int started = 0;
    for (int i = 0; i < THREADS; i++) {
        ph[i] = i % 2 ? SC_PH_READ : SC_PH_WRITE;
        if (pthread_create(&t[i], NULL, adder, &ph[i]) == 0) started++;
        else break;
    }
    for (int i = 0; i < started; i++) pthread_join(t[i], NULL);
    double all = (double)started * ADDS;
    double read = (double)(started / 2) * ADDS;
    ok(started >= 2, "%d threads started", started);
    ok(sc_phase_seconds(&times, SC_PH_MOVE) == all,
       "one phase from %d threads at once: %.0f s of %.0f", started,
       sc_phase_seconds(&times, SC_PH_MOVE), all);
    ok(sc_phase_seconds(&times, SC_PH_READ) == read &&
       sc_phase_seconds(&times, SC_PH_WRITE) == all - read,
       "two phases, half the threads each: %.0f s and %.0f s",
       sc_phase_seconds(&times, SC_PH_READ),
       sc_phase_seconds(&times, SC_PH_WRITE));
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_empty_and_null();
    test_threads();
    printf("1..%d\n", n_tests);
    return n_failed != 0;
}
