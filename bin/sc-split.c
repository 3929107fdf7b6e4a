/* sc-split — stable partition: selected elements, then rejected ones; or
 * a cut into parts by value (--ranges). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char usage[] =
"Usage: sc-split [OPTION]... [FILE]...\n"
"  or:  sc-split --ranges B1,B2,... -o PATTERN [OPTION]... [FILE]...\n"
"Write every selected element, then every rejected one, each group in\n"
"input order; or, with --ranges, cut the input into parts by value.\n\n"
CLI_PRED_HELP "\n"
"  -r, --rejects FILE  rejected elements to FILE, selected ones to the output\n"
"  -S, --buffer-size SIZE  rejects held in memory before spilling to\n"
"                      temporary files (default: a quarter of the memory\n"
"                      this process may take, its limits included)\n"
"  -T, --temporary-directory DIR  directory for temporary files\n"
"                      (default $TMPDIR, else /tmp); -S and -T are usage\n"
"                      errors with -r, --count or --ranges (none are held)\n"
"      --count         print 'SELECTED REJECTED' instead (not with -r)\n"
"      --ranges B1,B2,...  instead of a condition, cut by value into parts:\n"
"                      part 0 gets x < B1, part p gets Bp <= x < Bp+1, the\n"
"                      last x >= Bk; bounds increase, at most 255 of them;\n"
"                      part p goes to -o's name with its %d (or %0Nd)\n"
"                      replaced by p, all replaced together; with --count,\n"
"                      print the parts' sizes instead (runs on the CPU)\n";

enum { OPT_RANGES = OPT_TOOL_BASE };

/* "B1,B2,...": the bounds, in order; "" is none (one part).  Their order
 * and number are checked by libsc. */
static void parse_ranges(cli *c, const char *arg)
{
    size_t n = *arg ? 1 : 0;
    for (const char *p = arg; *p; p++) n += *p == ',';
    uint64_t *b = malloc((n ? n : 1) * sizeof *b);
    if (!b) { fprintf(stderr, "%s: out of memory\n", c->prog); exit(EXIT_FAIL); }
    const char *p = arg;
    for (size_t k = 0; k < n; k++) {
        size_t len = strcspn(p, ",");
        char item[64];
        if (len == 0 || len >= sizeof item)
            cli_usage_error(c, "--ranges '%s': %s bound %zu", arg,
                            len ? "malformed" : "empty", k + 1);
        memcpy(item, p, len);
        item[len] = '\0';
        b[k] = cli_value(c, "--ranges", item);
        p += len + 1;
    }
    c->job.ranges = 1;
    free((void *)c->job.bounds);        /* a --ranges given before */
    c->job.bounds = b;
    c->job.n_bounds = n;
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG, CLI_PRED_LONG,
        { "rejects", required_argument, NULL, 'r' },
        CLI_BUFFER_LONG,
        { "count", no_argument, NULL, OPT_COUNT },
        { "ranges", required_argument, NULL, OPT_RANGES },
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-split", SC_JOB_SPLIT, usage, 1);
    const char *ranges = NULL;
    int opt;
    while ((opt = getopt_long(argc, argv,
                              CLI_COMMON_SHORT "xr:" CLI_BUFFER_SHORT,
                              longs, NULL)) != -1) {
        if (cli_pred_option(&c, opt, optarg)) continue;
        if (cli_buffer_option(&c, opt, optarg, 4)) continue;
        switch (opt) {
        case 'r': c.job.rejects = optarg; break;
        case OPT_COUNT: c.job.count_only = 1; break;
        case OPT_RANGES: ranges = optarg; break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    if (ranges) parse_ranges(&c, ranges);    /* in the type, known now */
    if (c.job.count_only && c.job.rejects)
        cli_usage_error(&c, "--count and --rejects exclude each other");
    /* The bounds decide each element's part: a condition would have no
     * say, and there is no group of rejects. */
    if (c.job.ranges && (c.pred_given || c.job.pred.invert))
        cli_usage_error(&c, "--ranges does not go with a condition (--eq, "
                        "--ne, --lt, --le, --gt, --ge, --range, --mask, -x)");
    if (c.job.ranges && c.job.rejects)
        cli_usage_error(&c, "--ranges and --rejects exclude each other");
    if (c.job.rejects || c.job.count_only || c.job.ranges)
        cli_buffer_unused(&c, c.job.rejects ? "with -r"
                              : c.job.ranges ? "with --ranges" : "with --count",
                          "the rejects held until the selected ones are out");
    int status = cli_run(&c);
    free((void *)c.job.bounds);
    return status;
}
