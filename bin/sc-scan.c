/* sc-scan — prefix sums (and max, min, xor scans). */
#include <string.h>
#include "cli.h"

static const char usage[] =
"Usage: sc-scan [OPTION]... [FILE]...\n"
"Exclusive prefix scan: out[0] = identity, out[i] = in[0] op ... op in[i-1].\n\n"
"  -i, --inclusive     out[i] = in[0] op ... op in[i]\n"
"      --op OP         sum (default; integers wrap at the type's width), max,\n"
"                      min, xor (integers)\n"
"  -w, --wide          64-bit output of a 32-bit type: uint64 (u32), int64\n"
"                      (i32), double (f32)\n"
"      --carry-in V    start from V instead of the identity\n"
"      --total         print only the final accumulator\n"
"      --offsets       the exclusive scan, then the total: n inputs give\n"
"                      n + 1 outputs (CSR row offsets from row counts;\n"
"                      empty input: the carry-in alone)\n"
"With --record N --key OFF[:T], the scan is of each record's key, one value\n"
"per record, in the key's type.\n";

enum { OPT_OP = OPT_TOOL_BASE, OPT_CARRY, OPT_TOTAL, OPT_OFFSETS };

static sc_scan_op parse_op(const cli *c, const char *arg)
{
    if (strcmp(arg, "sum") == 0) return SC_OP_SUM;
    if (strcmp(arg, "max") == 0) return SC_OP_MAX;
    if (strcmp(arg, "min") == 0) return SC_OP_MIN;
    if (strcmp(arg, "xor") == 0) return SC_OP_XOR;
    cli_usage_error(c, "invalid --op '%s' (sum, max, min, xor)", arg);
}

/* --carry-in in the accumulator's type: with -w the 64-bit one for u32
 * (whatever the operator) and for i32 sums and xor; a double for float
 * sums; else (max, min, and every 64-bit type's) the element's. */
static uint64_t carry_value(const cli *c, const char *arg)
{
    sc_type t = c->job.type;
    sc_scan_op op = c->job.scan_op;
    int sum = op == SC_OP_SUM, wide = c->job.out.wide;
    if (t == SC_U32 && wide)
        return cli_number(c, "--carry-in", arg, 0, UINT64_MAX);
    if ((t == SC_I32 && wide && (sum || op == SC_OP_XOR)) ||
        (t == SC_F32 && sum)) {
        sc_type w = sc_type_wide(t);
        uint64_t bits;
        if (sc_value_parse(w, arg, strlen(arg), &bits) != SC_OK)
            cli_usage_error(c, "invalid value '%s' for --carry-in (an %s)",
                            arg, sc_type_name(w));
        return bits;
    }
    return cli_value(c, "--carry-in", arg);
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
        { "offsets", no_argument, NULL, OPT_OFFSETS },
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
        case OPT_OFFSETS: c.job.offsets = 1; break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    sc_type t = c.job.type;
    sc_scan_op op = c.job.scan_op;
    if (c.job.offsets && (c.job.inclusive || c.job.scan_total))
        cli_usage_error(&c, "--offsets excludes -i (--inclusive) and "
                        "--total");
    if (op == SC_OP_XOR && sc_type_is_float(t))
        cli_usage_error(&c, "--op xor takes an integer --type");
    if (c.job.out.wide && sc_type_size(t) == 8)
        cli_usage_error(&c, "-w needs a 32-bit --type, not %s",
                        sc_type_name(t));
    c.job.carry_in = sc_scan_identity_of(t, op);
    if (carry) c.job.carry_in = carry_value(&c, carry);
    return cli_run(&c);
}
