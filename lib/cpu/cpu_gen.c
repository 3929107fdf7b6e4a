/* cpu_gen.c — sc-gen's elements on the thread pool: each element is a pure
 * function of its position, so the parts are independent. */
#include "cpu/cpu.h"

typedef struct gen_task {
    const sc_gen_plan *plan;
    uint64_t first, n;
    void *out;              /* elements of the plan's type's width */
    unsigned parts;
} gen_task;

static void gen_part(void *arg, unsigned i)
{
    gen_task *t = arg;
    uint64_t b = t->n * i / t->parts, e = t->n * (i + 1) / t->parts;
    if (sc_gen_width(t->plan->type) == 64) {
        uint64_t *out = t->out;
        for (uint64_t k = b; k < e; k++)
            out[k] = sc_gen_plan_element(t->plan, t->first + k);
    } else {
        uint32_t *out = t->out;
        for (uint64_t k = b; k < e; k++)
            out[k] = (uint32_t)sc_gen_plan_element(t->plan, t->first + k);
    }
}

sc_status sc_cpu_gen(sc_ctx *ctx, sc_phase_times *times,
                     const sc_gen_plan *plan, uint64_t first_index,
                     void *out, uint64_t n)
{
    gen_task t = { plan, first_index, n, out, 1 };
    uint64_t parts = n >> 16;
    t.parts = parts == 0 || sc_pool_is_inline() ? 1
            : parts > ctx->threads ? ctx->threads : (unsigned)parts;
    double t0 = sc_now();
    sc_pool_run(ctx->pool, t.parts, gen_part, &t);
    sc_phase_add(times, SC_PH_MOVE, sc_now() - t0);
    return SC_OK;
}
