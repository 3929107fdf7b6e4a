/* phases.h — the three phases of Billeter, Olsson and Assarsson, once.
 *
 * Every CPU operation (compact, split, scan, a radix-sort pass) is an
 * instance: the input is cut into one contiguous sequence per thread;
 *   count   each sequence yields `width` numbers (a count, a reduction,
 *           a digit histogram);
 *   prefix  one small pass over all sequences' results turns them into
 *           each sequence's starting offsets (in place);
 *   move    each sequence is walked again and written at its offsets.
 * The kernels in kernels/three_phase.cuh follow the same shape with warps
 * as the processors.
 */
#ifndef SC_PHASES_H
#define SC_PHASES_H

#include "cpu/cpu.h"

typedef struct sc_phases {
    uint64_t n;
    unsigned width;
    /* With one sequence the offsets are known without counting (the
     * initial value), so count may be skipped: a single read pass. */
    int skip_count_when_single;
    void (*count)(void *op, uint64_t begin, uint64_t end, uint64_t *res);
    /* Turns res[seq * width + k] into offsets; nonzero skips the move. */
    int (*prefix)(void *op, uint64_t *res, unsigned seqs);
    void (*move)(void *op, unsigned seq, uint64_t begin, uint64_t end,
                 const uint64_t *offsets);
    void *op;
} sc_phases;

/* The number of sequences sc_phases_run() will use for n elements: one
 * per thread, at most SC_MAX_SEQS. */
#define SC_MAX_SEQS 256
unsigned sc_phases_seqs(const sc_ctx *ctx, uint64_t n);
/* Runs ph's phases, adding the time of each to times (NULL: none). */
sc_status sc_phases_run(sc_ctx *ctx, sc_phase_times *times,
                        const sc_phases *ph);

#endif
