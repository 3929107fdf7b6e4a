/* sc-stat — look at a stream: count, min, max, sum, mean, zeros, distinct,
 * a histogram, or its first or last elements. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char usage[] =
"Usage: sc-stat [OPTION]... [FILE]...\n"
"Read the input once and print, one 'name value' per line: count, min, max,\n"
"sum (exact), mean (6 decimals), zeros, distinct (an estimate: standard\n"
"error 0.8 %, within 2.5 % nearly always).\n"
"Empty input prints 'count 0' alone.  The report is text whatever the\n"
"format options, which are --bincount's.  With --record N --key OFF[:T],\n"
"every figure is of the records' keys.\n\n"
"      --bincount[=N]  instead, write the count of each value 0..N-1 as u64\n"
"                      elements (raw, -z, --zstd or -t); without N, max+1\n"
"                      counts; u32 and u64 only; a value >= N is an error\n"
"                      (nothing is written); the counts take 8 bytes each\n"
"      --hist N        also N lines 'hist LO HI COUNT': equal-width buckets\n"
"                      from min to max (at most 1M; the input is kept in\n"
"                      memory up to -S, then in -T, for the second look)\n"
"      --head N        print the first N elements as text instead\n"
"      --tail N        print the last N elements as text instead\n"
"      --quantiles N   also a line 'quantiles B1,...': up to N-1 bounds that\n"
"                      cut the input into N parts of about equal count, for\n"
"                      sc-split --ranges (N at most 256; estimated from a\n"
"                      sample of 2^20 elements: each part within about\n"
"                      0.2 % of the input of its share; exact below that)\n"
"      --sample F      look at only a fraction F (0 < F <= 1) of the input:\n"
"                      blocks of 64 KiB picked by --seed; a regular file is\n"
"                      read only there; every figure is the sample's\n"
"      --seed S        which blocks --sample and --quantiles pick (default 1)\n"
"  -S, --buffer-size SIZE  memory that --hist keeps the input in\n"
"                      (default: a quarter of the memory this process\n"
"                      may take, its limits included)\n"
"  -T, --temporary-directory DIR  where --hist keeps the rest\n"
"                      (default $TMPDIR, else /tmp); -S and -T are usage\n"
"                      errors without --hist\n";

enum { OPT_HIST = OPT_TOOL_BASE, OPT_HEAD, OPT_TAIL, OPT_QUANTILES,
       OPT_SAMPLE, OPT_SEED, OPT_BINCOUNT };

/* --sample's fraction: a decimal number above 0 and at most 1. */
static double parse_fraction(const cli *c, const char *arg)
{
    char *end;
    errno = 0;
    double f = strtod(arg, &end);
    /* strtod also takes blanks, signs, hex, inf and nan. */
    if (!isdigit((unsigned char)*arg) && *arg != '.')
        end = (char *)arg;
    if (end == arg || *end || errno || strpbrk(arg, "xXpP"))
        cli_usage_error(c, "invalid value '%s' for --sample", arg);
    if (!(f > 0 && f <= 1))
        cli_usage_error(c, "--sample must be above 0 and at most 1 (got "
                        "'%s')", arg);
    return f;
}

#define MAX_BUCKETS ((uint64_t)1 << 20)

/* --bincount counts an unsigned type's values and writes nothing else; a
 * compressed format is for its counts alone. */
static void check_bincount(const cli *c)
{
    const sc_job *j = &c->job;
    if (!j->bincount) {
        if (j->out.fmt == SC_FMT_GZ || j->out.fmt == SC_FMT_ZST || c->force)
            cli_usage_error(c, "-z (--gzip), --zstd and -f (--force) go with "
                            "--bincount: the report is text");
        return;
    }
    if (j->type != SC_U32 && j->type != SC_U64)
        cli_usage_error(c, "--bincount counts u32 or u64 values, not %s",
                        sc_type_name(j->type));
    if (j->hist_buckets || j->head || j->tail || j->quantiles || j->sample)
        cli_usage_error(c, "--bincount goes with none of --hist, --head, "
                        "--tail, --quantiles and --sample");
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        CLI_COMMON_LONG,
        { "bincount", optional_argument, NULL, OPT_BINCOUNT },
        { "hist", required_argument, NULL, OPT_HIST },
        { "head", required_argument, NULL, OPT_HEAD },
        { "tail", required_argument, NULL, OPT_TAIL },
        { "quantiles", required_argument, NULL, OPT_QUANTILES },
        { "sample", required_argument, NULL, OPT_SAMPLE },
        { "seed", required_argument, NULL, OPT_SEED },
        CLI_BUFFER_LONG,
        { NULL, 0, NULL, 0 } };
    cli c;
    cli_init(&c, argv, "sc-stat", SC_JOB_STAT, usage, 1);
    int opt;
    while ((opt = getopt_long(argc, argv,
                              CLI_COMMON_SHORT CLI_BUFFER_SHORT,
                              longs, NULL)) != -1) {
        if (cli_buffer_option(&c, opt, optarg, 4096)) continue;
        switch (opt) {
        case OPT_HIST:
            c.job.hist_buckets = (uint32_t)cli_number(&c, "--hist", optarg, 1,
                                                      MAX_BUCKETS);
            if (!c.job.hist_buckets)
                cli_usage_error(&c, "--hist needs at least 1 bucket");
            break;
        case OPT_HEAD:
        case OPT_TAIL: {
            const char *name = opt == OPT_HEAD ? "--head" : "--tail";
            uint64_t n = cli_number(&c, name, optarg, 1, UINT64_MAX);
            if (!n) cli_usage_error(&c, "%s needs at least 1 element", name);
            *(opt == OPT_HEAD ? &c.job.head : &c.job.tail) = n;
            break;
        }
        case OPT_QUANTILES:
            c.job.quantiles = (uint32_t)cli_number(&c, "--quantiles", optarg,
                                                   0, SC_MAX_PARTS);
            if (!c.job.quantiles)
                cli_usage_error(&c, "--quantiles needs at least 1 part");
            break;
        case OPT_SAMPLE: c.job.sample = parse_fraction(&c, optarg); break;
        case OPT_BINCOUNT:
            c.job.bincount = 1;
            c.job.bins = optarg ? cli_number(&c, "--bincount", optarg, 1,
                                             UINT64_MAX) : 0;
            if (optarg && !c.job.bins)
                cli_usage_error(&c, "--bincount needs at least 1 bin");
            break;
        case OPT_SEED:
            c.job.sample_seed = cli_number(&c, "--seed", optarg, 0, UINT64_MAX);
            break;
        default: cli_common_option(&c, opt, optarg);
        }
    }
    cli_operands(&c, argc, argv);
    check_bincount(&c);
    if (c.job.head && c.job.tail)
        cli_usage_error(&c, "--head and --tail exclude each other");
    if ((c.job.head || c.job.tail) && c.job.hist_buckets)
        cli_usage_error(&c, "--hist does not go with --head or --tail");
    if ((c.job.head || c.job.tail) && (c.job.quantiles || c.job.sample))
        cli_usage_error(&c, "--quantiles and --sample do not go with --head "
                        "or --tail");
    if (!c.job.hist_buckets)
        cli_buffer_unused(&c, c.job.head ? "with --head"
                              : c.job.tail ? "with --tail" : "without --hist",
                          "the input --hist keeps for its second look");
    return cli_run(&c);
}
