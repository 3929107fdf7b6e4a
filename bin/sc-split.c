/* sc-split — stable partition: selected elements, then rejected ones. */
#include "cli.h"

static const char usage[] =
"Usage: sc-split [OPTION]... [FILE]...\n"
"Write every selected element, then every rejected one, each group in\n"
"input order.\n\n"
CLI_PRED_HELP "\n"
"  -r, --rejects FILE  rejected elements to FILE, selected ones to the output\n"
"  -S, --buffer-size SIZE  rejects held in memory before spilling to\n"
"                      temporary files (default: a quarter of memory)\n"
"  -T, --temporary-directory DIR  directory for temporary files\n"
"                      (default $TMPDIR, else /tmp)\n"
"      --count         print 'SELECTED REJECTED' instead (not with -r)\n";

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG, CLI_PRED_LONG,
        { "rejects", required_argument, NULL, 'r' },
        CLI_BUFFER_LONG,
        { "count", no_argument, NULL, OPT_COUNT },
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-split", SC_JOB_SPLIT, usage, 1);
    int opt;
    while ((opt = getopt_long(argc, argv,
                              CLI_COMMON_SHORT "xr:" CLI_BUFFER_SHORT,
                              longs, NULL)) != -1) {
        if (cli_pred_option(&c, opt, optarg)) continue;
        if (cli_buffer_option(&c, opt, optarg, 4)) continue;
        switch (opt) {
        case 'r': c.job.rejects = optarg; break;
        case OPT_COUNT: c.job.count_only = 1; break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    if (c.job.count_only && c.job.rejects)
        cli_usage_error(&c, "--count and --rejects exclude each other");
    return cli_run(&c);
}
