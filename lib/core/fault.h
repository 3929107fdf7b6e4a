/* fault.h — a fault held back: set by whichever thread meets it first,
 * reported once by the job.
 *
 * A tool writes all it decoded before a fault in the data and reports the
 * fault after that (sc(7), INPUT FORMATS), and threads other than the
 * job's (the pipeline's reader and writer, the GPU's start) meet faults
 * that the job reports.  Neither may go into the context's message when
 * met: it would be overwritten before the end (a GPU falling back to the
 * CPU, a fault in another -m input), or overwrite what the job's own
 * thread is reporting.  So the status and its message wait here until the
 * job raises them into the context, once every thread that may set it is
 * done.
 *
 * Zeroed memory is an empty holder; the first fault set claims it without
 * a lock, and later ones leave it as it is.
 */
#ifndef SC_FAULT_H
#define SC_FAULT_H

#include <stdatomic.h>
#include "core/core.h"

typedef struct sc_fault {
    atomic_int state;           /* empty, being written, held */
    sc_status st;
    char msg[sizeof ((sc_ctx *)0)->message];
} sc_fault;

/* Holds st with its message unless a fault is held already; returns st. */
sc_status sc_fault_set(sc_fault *f, sc_status st, const char *fmt, ...)
    SC_PRINTF(3, 4);
sc_status sc_fault_vset(sc_fault *f, sc_status st, const char *fmt,
                        va_list ap) SC_PRINTF(3, 0);
/* The held fault's status; SC_OK while none is held. */
sc_status sc_fault_status(const sc_fault *f);
/* The held fault's message; "" while none is held. */
const char *sc_fault_message(const sc_fault *f);

/* A data fault (sc_is_data_fault) is held with the context's message, if
 * it is the first, and SC_OK returned: the caller goes on with what was
 * decoded.  Any other status comes back as it is. */
sc_status sc_fault_note(sc_fault *f, sc_ctx *ctx, sc_status st);
/* The held fault put into the context's message; its status, or SC_OK if
 * none is held. */
sc_status sc_fault_raise(const sc_fault *f, sc_ctx *ctx);

/* Until called again with NULL, sc_fail() on the calling thread holds its
 * fault in f instead of writing the context's message: for a thread whose
 * faults the job reports later (the pipeline's writer), so that they
 * cannot overwrite what the job's own thread is reporting meanwhile. */
void sc_fault_catch(sc_fault *f);
/* The calling thread's holder set by sc_fault_catch(), or NULL. */
sc_fault *sc_fault_caught(void);

#endif
