/* phase_times.c — a run's time in each phase, added to by its threads
 * without a lock. */
#include "core/core.h"

void sc_phase_add(sc_phase_times *t, sc_phase ph, double seconds)
{
    if (!t) return;
    /* A compare-and-swap loop rather than +=: an atomic double's += calls
     * into libatomic for its floating-point exceptions. */
    _Atomic double *s = &t->seconds[ph];
    double old = atomic_load(s);
    while (!atomic_compare_exchange_weak(s, &old, old + seconds)) {
    }
}

double sc_phase_seconds(const sc_phase_times *t, sc_phase ph)
{
    return t ? atomic_load(&t->seconds[ph]) : 0;
}
