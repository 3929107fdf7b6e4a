/* gen.c — the generator's plan and its CPU instance. */
#include <math.h>
#include "core/core.h"

void sc_gen_params_default(sc_gen_params *g)
{
    g->dist = SC_DIST_UNIFORM;
    g->seed = 1;
    g->min = 0;
    g->max = UINT32_MAX;
    g->value = 1;
    g->density = 1.0;
}

void sc_gen_plan_make(sc_gen_plan *plan, const sc_gen_params *g)
{
    plan->dist = (uint32_t)g->dist;
    plan->key = sc_mix64(g->seed ^ 0x5c0ffee5eedULL);
    plan->value = g->value;
    plan->keep_all = g->density >= 1.0;
    /* density * 2^64 rounded down: ldexp is exact, the cast truncates. */
    plan->keep_below = g->density <= 0.0 || plan->keep_all
        ? 0 : (uint64_t)ldexp(g->density, 64);
    uint32_t lo = g->min;
    /* When zeros come from the density, nonzero draws avoid 0, so the
     * density is exactly the probability of a nonzero element. */
    if (!plan->keep_all && lo == 0 && g->max > 0) lo = 1;
    plan->lo = lo;
    plan->span = (uint64_t)g->max - lo + 1;
}

uint32_t sc_gen_element(const sc_gen_params *g, uint64_t i)
{
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    return sc_gen_plan_element(&plan, i);
}

sc_status sc_gen_params_check(sc_ctx *ctx, const sc_gen_params *g)
{
    if (!g || (unsigned)g->dist > SC_DIST_CONSTANT)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid generator distribution");
    if (g->dist == SC_DIST_UNIFORM && g->min > g->max)
        return sc_fail(ctx, SC_ERR_USAGE, "generator min %u is above max %u",
                       g->min, g->max);
    if (!(g->density >= 0.0 && g->density <= 1.0))
        return sc_fail(ctx, SC_ERR_USAGE, "generator density must be 0 to 1");
    return SC_OK;
}
