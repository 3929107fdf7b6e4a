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
    g->type = SC_U32;
}

static double f32_value(uint32_t bits)
{
    union { uint32_t u; float f; } c;
    c.u = bits;
    return c.f;
}

/* Integers: [min, max] in the type's order is the circle's arc from
 * min; when zeros come from the density and 0 lies inside it, the draws
 * span one value fewer and step over 0.  Floats: see sc_gen_params. */
static void plan_uniform(sc_gen_plan *plan, const sc_gen_params *g)
{
    sc_key k = sc_key_of((uint32_t)g->type);
    uint32_t rlo = sc_key_rank(k, g->min), rhi = sc_key_rank(k, g->max);
    uint32_t rzero = sc_key_rank(k, 0);
    int avoid = !plan->keep_all && rlo <= rzero && rzero <= rhi && rhi > rlo;
    plan->lo = g->min;
    plan->span = (uint64_t)rhi - rlo + 1;
    plan->skip_from = UINT64_MAX;
    plan->hi = g->max;
    if (g->type == SC_F32) {
        plan->flo = f32_value(g->min);
        plan->fspan = f32_value(g->max) - plan->flo;
        plan->skip_from = plan->keep_all ? UINT64_MAX : 0;
    } else if (avoid && rzero == rlo) {
        /* 0 is the lowest: start above it (the draws of uint32 data). */
        plan->lo = g->min + 1;
        plan->span--;
    } else if (avoid) {
        plan->span--;
        plan->skip_from = (uint64_t)rzero - rlo;
    }
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
    plan->type = (uint32_t)g->type;
    /* When zeros come from the density, nonzero draws avoid 0, so the
     * density is exactly the probability of a nonzero element. */
    plan_uniform(plan, g);
}

uint64_t sc_gen_element(const sc_gen_params *g, uint64_t i)
{
    sc_gen_plan plan;
    sc_gen_plan_make(&plan, g);
    return sc_gen_plan_element(&plan, i);
}

sc_status sc_gen_params_check(sc_ctx *ctx, const sc_gen_params *g)
{
    if (!g || (unsigned)g->dist > SC_DIST_CONSTANT)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid generator distribution");
    if (sc_type_size(g->type) != 4)
        return sc_fail(ctx, SC_ERR_USAGE, "generator: only 32-bit types are "
                       "handled yet");
    sc_key k = sc_key_of((uint32_t)g->type);
    if (g->dist == SC_DIST_UNIFORM &&
        sc_key_rank(k, g->min) > sc_key_rank(k, g->max)) {
        char lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS];
        sc_value_format(g->type, g->min, lo);
        sc_value_format(g->type, g->max, hi);
        return sc_fail(ctx, SC_ERR_USAGE, "generator min %s is above max %s",
                       lo, hi);
    }
    if (g->type == SC_F32 && g->dist == SC_DIST_UNIFORM &&
        !(isfinite(f32_value(g->min)) && isfinite(f32_value(g->max))))
        return sc_fail(ctx, SC_ERR_USAGE, "generator min and max must be "
                       "finite");
    if (!(g->density >= 0.0 && g->density <= 1.0))
        return sc_fail(ctx, SC_ERR_USAGE, "generator density must be 0 to 1");
    return SC_OK;
}
