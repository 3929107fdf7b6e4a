/* sc-compact — keep the elements that match, in order. */
#include "cli.h"

static const char usage[] =
"Usage: sc-compact [OPTION]... [FILE]...\n"
"Keep the elements (uint32, or of -e's type) that match, in input order.\n\n"
CLI_PRED_HELP "\n"
"Output:\n"
"      --count         print the number of kept elements instead\n"
"      --indices       write zero-based positions of kept elements (uint32)\n"
"  -w, --wide          with --indices: positions as uint64\n";

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG, CLI_PRED_LONG,
        { "count", no_argument, NULL, OPT_COUNT },
        { "indices", no_argument, NULL, OPT_INDICES },
        { "wide", no_argument, NULL, 'w' },
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-compact", SC_JOB_COMPACT, usage, 1);
    int count = 0, indices = 0, wide = 0, opt;
    while ((opt = getopt_long(argc, argv, CLI_COMMON_SHORT "xw", longs,
                              NULL)) != -1) {
        if (cli_pred_option(&c, opt, optarg)) continue;
        switch (opt) {
        case OPT_COUNT: count = 1; break;
        case OPT_INDICES: indices = 1; break;
        case 'w': wide = 1; break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    if (count && indices)
        cli_usage_error(&c, "--count and --indices exclude each other");
    if (wide && !indices) cli_usage_error(&c, "--wide goes with --indices");
    c.job.compact_out = count ? SC_OUT_COUNT
                      : indices ? (wide ? SC_OUT_INDICES64 : SC_OUT_INDICES32)
                      : SC_OUT_VALUES;
    return cli_run(&c);
}
