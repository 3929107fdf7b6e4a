/* cost.h — the cost model behind "-d auto": whether the GPU, with its
 * start-up, would finish a piece of work sooner than the CPU (cost.c). */
#ifndef SC_COST_H
#define SC_COST_H

#include "internal.h"

/* Whether `bytes` of work w (-1: size unknown) finish sooner on the GPU,
 * `eta` seconds from ready, than on the context's CPU threads.  `streaming`:
 * the CPU works on while the GPU starts, and hands over the rest.  The
 * estimate is written to why (may be NULL). */
int sc_cost_gpu_pays(const sc_ctx *ctx, sc_work w, int64_t bytes, double eta,
                     int streaming, char *why, size_t why_len);

#endif
