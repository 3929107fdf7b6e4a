/* sc-scan — prefix sums (and max, min, xor scans). */
#include <string.h>
#include "cli.h"

static const char usage[] =
"Usage: sc-scan [OPTION]... [FILE]...\n"
"Exclusive prefix scan: out[0] = identity, out[i] = in[0] op ... op in[i-1].\n\n"
"  -i, --inclusive     out[i] = in[0] op ... op in[i]\n"
"      --op OP         sum (default, mod 2^32), max, min, xor\n"
"  -w, --wide          64-bit accumulator, uint64 output\n"
"      --carry-in V    start from V instead of the identity\n"
"      --total         print only the final accumulator\n";

enum { OPT_OP = OPT_TOOL_BASE, OPT_CARRY, OPT_TOTAL };

static sc_scan_op parse_op(const cli *c, const char *arg)
{
    if (strcmp(arg, "sum") == 0) return SC_OP_SUM;
    if (strcmp(arg, "max") == 0) return SC_OP_MAX;
    if (strcmp(arg, "min") == 0) return SC_OP_MIN;
    if (strcmp(arg, "xor") == 0) return SC_OP_XOR;
    cli_usage_error(c, "invalid --op '%s' (sum, max, min, xor)", arg);
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG,
        { "inclusive", no_argument, NULL, 'i' },
        { "op", required_argument, NULL, OPT_OP },
        { "wide", no_argument, NULL, 'w' },
        { "carry-in", required_argument, NULL, OPT_CARRY },
        { "total", no_argument, NULL, OPT_TOTAL },
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-scan", SC_JOB_SCAN, usage, 1);
    const char *carry = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT "iw", longs,
                              NULL)) != -1) {
        switch (opt) {
        case 'i': c.job.inclusive = 1; break;
        case OPT_OP: c.job.scan_op = parse_op(&c, optarg); break;
        case 'w': c.job.out.wide = 1; break;
        case OPT_CARRY: carry = optarg; break;
        case OPT_TOTAL: c.job.scan_total = 1; break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    /* With -w the accumulator has 64 bits whatever the operator. */
    c.job.carry_in = carry
        ? cli_number(&c, "--carry-in", carry, 0,
                     c.job.out.wide ? UINT64_MAX : UINT32_MAX)
        : (c.job.scan_op == SC_OP_MIN ? UINT32_MAX : 0);
    return cli_run(&c);
}
