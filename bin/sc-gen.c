/* sc-gen — make test data: a pure function of the options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char usage[] =
"Usage: sc-gen -n COUNT [OPTION]...\n"
"Write COUNT elements of the --type (u32 by default); the same options give\n"
"the same bytes on every device, chunk size and thread count.\n\n"
"  -n, --count COUNT   number of elements (required)\n"
"      --dist D        uniform (default), structured (1,0,3,0,5,...), iota\n"
"                      (i, wrapping for integers), constant (--value)\n"
"  -p, --density P     each element becomes 0 with probability 1-P (0..1);\n"
"                      nonzero uniform draws then avoid 0\n"
"  -s, --seed S        seed (default 1)\n"
"      --min V         uniform: lowest value (default 0, or the type's lowest\n"
"                      for i32 and i64)\n"
"      --max V         uniform: highest value (default the type's highest for\n"
"                      integers, 1 for floats)\n"
"      --value V       constant: the value (default 1)\n";

enum { OPT_DIST = OPT_TOOL_BASE, OPT_MIN, OPT_MAX, OPT_VALUE };

/* Uniform draws span the whole type unless told otherwise; floats
 * [0, 1]. */
static const struct { const char *min, *max; } default_bounds[SC_TYPE_COUNT] = {
    [SC_U32] = { "0", "4294967295" },
    [SC_I32] = { "-2147483648", "2147483647" },
    [SC_F32] = { "0", "1" },
    [SC_U64] = { "0", "18446744073709551615" },
    [SC_I64] = { "-9223372036854775808", "9223372036854775807" },
    [SC_F64] = { "0", "1" },
};

/* Integers always are; a float is unless its exponent is all ones (an
 * infinity or a NaN). */
static int is_finite(sc_type t, uint64_t bits)
{
    if (!sc_type_is_float(t)) return 1;
    uint64_t exponent = t == SC_F32 ? 0x7f800000u : 0x7ff0000000000000u;
    return (bits & exponent) != exponent;
}

static sc_dist parse_dist(const cli *c, const char *arg)
{
    if (strcmp(arg, "uniform") == 0) return SC_DIST_UNIFORM;
    if (strcmp(arg, "structured") == 0) return SC_DIST_STRUCTURED;
    if (strcmp(arg, "iota") == 0) return SC_DIST_IOTA;
    if (strcmp(arg, "constant") == 0) return SC_DIST_CONSTANT;
    cli_usage_error(c, "invalid --dist '%s' (uniform, structured, iota, "
                    "constant)", arg);
}

static double parse_density(const cli *c, const char *arg)
{
    char *end;
    double p = strtod(arg, &end);
    if (end == arg || *end || !(p >= 0.0 && p <= 1.0))
        cli_usage_error(c, "--density must be a number from 0 to 1, not '%s'",
                        arg);
    return p;
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG,
        { "count", required_argument, NULL, 'n' },
        { "dist", required_argument, NULL, OPT_DIST },
        { "density", required_argument, NULL, 'p' },
        { "seed", required_argument, NULL, 's' },
        { "min", required_argument, NULL, OPT_MIN },
        { "max", required_argument, NULL, OPT_MAX },
        { "value", required_argument, NULL, OPT_VALUE },
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-gen", SC_JOB_GEN, usage, 0);
    sc_gen_params *g = &c.job.gen;
    int have_n = 0, opt;
    const char *min = NULL, *max = NULL, *value = NULL;
    while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT "n:p:s:", longs,
                              NULL)) != -1) {
        switch (opt) {
        case 'n':
            c.job.gen_count = cli_number(&c, "--count", optarg, 1, UINT64_MAX);
            have_n = 1;
            break;
        case OPT_DIST: g->dist = parse_dist(&c, optarg); break;
        case 'p': g->density = parse_density(&c, optarg); break;
        case 's': g->seed = cli_number(&c, "--seed", optarg, 0, UINT64_MAX); break;
        case OPT_MIN: min = optarg; break;
        case OPT_MAX: max = optarg; break;
        case OPT_VALUE: value = optarg; break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    if (!have_n) cli_usage_error(&c, "missing -n COUNT");
    /* Values in the type, known now. */
    sc_type t = c.job.type;
    g->min = cli_value(&c, "--min", min ? min : default_bounds[t].min);
    g->max = cli_value(&c, "--max", max ? max : default_bounds[t].max);
    g->value = cli_value(&c, "--value", value ? value : "1");
    /* A NaN bound is not finite before it is out of order. */
    if (g->dist == SC_DIST_UNIFORM &&
        !(is_finite(t, g->min) && is_finite(t, g->max)))
        cli_usage_error(&c, "--min and --max must be finite numbers");
    if (sc_value_order(t, g->min, g->max) > 0) {
        char lo[SC_VALUE_CHARS], hi[SC_VALUE_CHARS];
        sc_value_format(t, g->min, lo);
        sc_value_format(t, g->max, hi);
        cli_usage_error(&c, "--min %s is above --max %s", lo, hi);
    }
    return cli_run(&c);
}
