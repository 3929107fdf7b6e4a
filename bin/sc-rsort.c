/* sc-rsort — stable radix sort of the whole input. */
#include <string.h>
#include "cli.h"

static const char usage[] =
"Usage: sc-rsort [OPTION]... [FILE]...\n"
"Read all input, sort it ascending (stable) and write it; records\n"
"(--record) are sorted whole by their key.\n\n"
"  -r, --reverse       descending (still stable)\n"
"      --bits LO:HI    order by bits LO..HI-1 only (0 <= LO < HI <= the\n"
"                      type's width, 32 or 64; integer types and keys)\n"
"  -u, --unique        of each run of equal keys keep the first\n"
"      --indices[=W]   write, for each output position, the zero-based\n"
"                      input position of the element or record there\n"
"                      (argsort), as uint64 (W 64, the default) or uint32\n"
"                      (W 32: an error if the input holds more than 2^32);\n"
"                      with -m, positions in the inputs as one stream;\n"
"                      not with -C\n"
"  -m, --merge         merge inputs that are each sorted already\n"
"  -C, --check         write nothing; exit 1, naming the first element out\n"
"                      of order, if the input is not sorted (with -u: not\n"
"                      strictly increasing; not with -m)\n"
"  -S, --buffer-size SIZE  memory for sorting in one piece; larger inputs\n"
"                      are sorted in runs and merged (default: a quarter\n"
"                      of the memory this process may take, its limits\n"
"                      included; at least 64M)\n"
"  -T, --temporary-directory DIR  directory for temporary files\n"
"                      (default $TMPDIR, else /tmp); -S and -T are usage\n"
"                      errors with -C\n";

enum { OPT_BITS = OPT_TOOL_BASE };

/* --indices[=W]: positions of W bits. */
static sc_compact_out indices_width(const cli *c, const char *arg)
{
    if (!arg || strcmp(arg, "64") == 0) return SC_OUT_INDICES64;
    if (strcmp(arg, "32") == 0) return SC_OUT_INDICES32;
    cli_usage_error(c, "invalid --indices width '%s' (32 or 64)", arg);
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG,
        { "reverse", no_argument, NULL, 'r' },
        { "bits", required_argument, NULL, OPT_BITS },
        { "unique", no_argument, NULL, 'u' },
        { "merge", no_argument, NULL, 'm' },
        { "check", no_argument, NULL, 'C' },
        { "indices", optional_argument, NULL, OPT_INDICES },
        CLI_BUFFER_LONG,
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-rsort", SC_JOB_SORT, usage, 1);
    int opt;
    while ((opt = getopt_long(argc, argv,
                              CLI_COMMON_SHORT "rumC" CLI_BUFFER_SHORT,
                              longs, NULL)) != -1) {
        if (cli_buffer_option(&c, opt, optarg, 4096)) continue;
        switch (opt) {
        case 'r': c.job.reverse = 1; break;
        case 'u': c.job.unique = 1; break;
        case 'm': c.job.merge = 1; break;
        case 'C': c.job.check = 1; break;
        case OPT_INDICES: c.job.compact_out = indices_width(&c, optarg); break;
        case OPT_BITS: {
            uint64_t lo, hi;
            cli_pair(&c, "--bits", optarg, 64, &lo, &hi);
            if (lo >= hi) cli_usage_error(&c, "--bits %s: need LO < HI", optarg);
            c.job.lo_bit = (unsigned)lo;
            c.job.hi_bit = (unsigned)hi;
            break;
        }
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    unsigned width = 8 * sc_type_size(c.job.type);
    if (sc_type_is_float(c.job.type) && c.job.hi_bit &&
        !(c.job.lo_bit == 0 && c.job.hi_bit == width))
        cli_usage_error(&c, "--bits orders by bits: it takes an integer "
                        "--type (or record key)");
    if (c.job.hi_bit > width)
        cli_usage_error(&c, "--bits %u:%u: %s has %u bits", c.job.lo_bit,
                        c.job.hi_bit, sc_type_name(c.job.type), width);
    if (c.job.check && c.job.merge)
        cli_usage_error(&c, "--check and --merge exclude each other");
    if (c.job.check && c.job.compact_out != SC_OUT_VALUES)
        cli_usage_error(&c, "--check and --indices exclude each other");
    if (c.job.check)
        cli_buffer_unused(&c, "with -C", "the input held to be sorted or "
                          "merged");
    return cli_run(&c);
}
