/* gen.c — the generator's plan and its CPU instance. */
#include <math.h>
#include <string.h>
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

/* The value of a float type's bits, as a double (exact for f32). */
static double float_value(sc_type t, uint64_t bits)
{
    if (t == SC_F32) {
        float f;
        uint32_t b = (uint32_t)bits;
        memcpy(&f, &b, sizeof f);
        return f;
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Where bits come in the type's order, as an unsigned number (sc_key). */
static uint64_t type_rank(sc_type t, uint64_t bits)
{
    if (sc_type_size(t) == 8) return sc_key64_rank(sc_key64_of(t), bits);
    return sc_key_rank(sc_key_of(t), (uint32_t)bits);
}

/* min + u * (max - min): when max - min overflows a double (f64 bounds
 * beyond +-DBL_MAX / 2), the same with everything halved and the result
 * doubled, which scales exactly, so the fma still rounds once. */
static void plan_float(sc_gen_plan *plan, const sc_gen_params *g)
{
    double lo = float_value(g->type, g->min), hi = float_value(g->type, g->max);
    plan->flo = lo;
    plan->fspan = hi - lo;
    plan->fhalved = !isfinite(plan->fspan);
    if (plan->fhalved) {
        plan->flo = lo / 2;
        plan->fspan = hi / 2 - lo / 2;
    }
    plan->skip_from = plan->keep_all ? UINT64_MAX : 0;
}

/* Integers: [min, max] in the type's order is the circle's arc from
 * min; when zeros come from the density and 0 lies inside it, the draws
 * span one value fewer and step over 0.  A span of 2^64 wraps to 0,
 * which sc_gen_scale reads as 2^64.  Floats: plan_float. */
static void plan_uniform(sc_gen_plan *plan, const sc_gen_params *g)
{
    uint64_t rlo = type_rank(g->type, g->min), rhi = type_rank(g->type, g->max);
    uint64_t rzero = type_rank(g->type, 0);
    int avoid = !plan->keep_all && rlo <= rzero && rzero <= rhi && rhi > rlo;
    plan->lo = sc_gen_bits(plan->type, g->min);
    plan->span = rhi - rlo + 1;
    plan->skip_from = UINT64_MAX;
    plan->hi = sc_gen_bits(plan->type, g->max);
    if (sc_type_is_float(g->type)) {
        plan_float(plan, g);
    } else if (avoid && rzero == rlo) {
        /* 0 is the lowest: start above it (the draws of unsigned data). */
        plan->lo = plan->lo + 1;
        plan->span--;
    } else if (avoid) {
        plan->span--;
        plan->skip_from = rzero - rlo;
    }
}

void sc_gen_plan_make(sc_gen_plan *plan, const sc_gen_params *g)
{
    memset(plan, 0, sizeof *plan);
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

/* Bounds and value are the type's bits: a 32-bit type's fill the low
 * half only. */
static int fits_type(sc_type t, uint64_t bits)
{
    return sc_type_size(t) == 8 || bits >> 32 == 0;
}

static sc_status check_uniform(sc_ctx *ctx, const sc_gen_params *g)
{
    /* A NaN bound is not finite before it is out of order. */
    if (sc_type_is_float(g->type) &&
        !(isfinite(float_value(g->type, g->min)) &&
          isfinite(float_value(g->type, g->max))))
        return sc_fail(ctx, SC_ERR_USAGE, "generator min and max must be "
                       "finite");
    if (type_rank(g->type, g->min) > type_rank(g->type, g->max)) {
        char lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS];
        sc_value_format(g->type, g->min, lo);
        sc_value_format(g->type, g->max, hi);
        return sc_fail(ctx, SC_ERR_USAGE, "generator min %s is above max %s",
                       lo, hi);
    }
    return SC_OK;
}

sc_status sc_gen_params_check(sc_ctx *ctx, const sc_gen_params *g)
{
    if (!g || (unsigned)g->dist > SC_DIST_CONSTANT)
        return sc_fail(ctx, SC_ERR_USAGE, "invalid generator distribution");
    if (sc_type_size(g->type) == 0)
        return sc_fail(ctx, SC_ERR_USAGE, "generator: no such element type "
                       "(%d)", (int)g->type);
    if (!fits_type(g->type, g->min) || !fits_type(g->type, g->max) ||
        !fits_type(g->type, g->value))
        return sc_fail(ctx, SC_ERR_USAGE, "generator min, max and value of "
                       "%s must fit in 32 bits", sc_type_name(g->type));
    if (g->dist == SC_DIST_UNIFORM) {
        sc_status st = check_uniform(ctx, g);
        if (st != SC_OK) return st;
    }
    if (!(g->density >= 0.0 && g->density <= 1.0))
        return sc_fail(ctx, SC_ERR_USAGE, "generator density must be 0 to 1");
    return SC_OK;
}
