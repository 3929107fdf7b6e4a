/* cli.h — what the six tools share: options, messages, exit status.
 *
 * Each tool lists its own options, hands every option it does not know
 * to cli_common_option(), fills an sc_job and calls cli_run().
 */
#ifndef SC_CLI_H
#define SC_CLI_H

#include <getopt.h>
#include <stdint.h>
#include "core/sc.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Long-only option codes, above any short option character. */
enum {
    OPT_IN = 256, OPT_LEVEL, OPT_ZSTD,
    OPT_EQ, OPT_NE, OPT_LT, OPT_LE, OPT_GT, OPT_GE, OPT_RANGE, OPT_MASK,
    OPT_COUNT, OPT_INDICES, OPT_BIG_ENDIAN, OPT_RECORD, OPT_KEY, OPT_FIELD,
    OPT_TOOL_BASE = 300
};

/* The options every tool has but those of a binary output's format
 * (CLI_COMMON adds -z, --zstd, --level and -f). */
#define CLI_REPORT_SHORT "o:tc:d:j:vPhVe:"
#define CLI_REPORT_LONG                                                 \
    { "output", required_argument, NULL, 'o' },                         \
    { "type", required_argument, NULL, 'e' },                           \
    { "big-endian", no_argument, NULL, OPT_BIG_ENDIAN },                \
    { "record", required_argument, NULL, OPT_RECORD },                  \
    { "key", required_argument, NULL, OPT_KEY },                        \
    { "field", required_argument, NULL, OPT_FIELD },                    \
    { "in", required_argument, NULL, OPT_IN },                          \
    { "text", no_argument, NULL, 't' },                                 \
    { "chunk", required_argument, NULL, 'c' },                          \
    { "device", required_argument, NULL, 'd' },                         \
    { "threads", required_argument, NULL, 'j' },                        \
    { "verbose", no_argument, NULL, 'v' },                              \
    { "progress", no_argument, NULL, 'P' },                             \
    { "help", no_argument, NULL, 'h' },                                 \
    { "version", no_argument, NULL, 'V' }

#define CLI_COMMON_SHORT CLI_REPORT_SHORT "zf"
#define CLI_COMMON_LONG                                                 \
    CLI_REPORT_LONG,                                                    \
    { "gzip", no_argument, NULL, 'z' },                                 \
    { "zstd", no_argument, NULL, OPT_ZSTD },                            \
    { "level", required_argument, NULL, OPT_LEVEL },                    \
    { "force", no_argument, NULL, 'f' }

#define CLI_PRED_LONG                                                   \
    { "eq", required_argument, NULL, OPT_EQ },                          \
    { "ne", required_argument, NULL, OPT_NE },                          \
    { "lt", required_argument, NULL, OPT_LT },                          \
    { "le", required_argument, NULL, OPT_LE },                          \
    { "gt", required_argument, NULL, OPT_GT },                          \
    { "ge", required_argument, NULL, OPT_GE },                          \
    { "range", required_argument, NULL, OPT_RANGE },                    \
    { "mask", required_argument, NULL, OPT_MASK },                      \
    { "invert", no_argument, NULL, 'x' }

/* -S and -T (cli_buffer_option) of sc-split, sc-rsort and sc-stat. */
#define CLI_BUFFER_SHORT "S:T:"
#define CLI_BUFFER_LONG                                                 \
    { "buffer-size", required_argument, NULL, 'S' },                    \
    { "temporary-directory", required_argument, NULL, 'T' }

/* The predicate options' lines of --help, shared by sc-compact and sc-split. */
#define CLI_PRED_HELP                                                   \
"Conditions (all must hold; none given: x != 0):\n"                      \
"      --eq V --ne V --lt V --le V --gt V --ge V\n"                      \
"      --range LO:HI   LO <= x <= HI\n"                                  \
"      --mask M        x & M != 0 (M < 0 in i32, i64: its two's complement)\n" \
"  -x, --invert        negate the whole condition\n"

typedef struct cli {
    const char *prog;
    const char *usage;          /* the tool's own lines of --help */
    int takes_input;            /* sc-gen reads none */
    const char *device;
    unsigned threads;
    const char *level_given;   /* --level's value, or NULL */
    int force;                  /* -f: binary output even to a terminal */
    int pred_given;
    /* The conditions, read once the element type is known (--type may
     * come after them). */
    struct cli_cond { int opt; const char *arg; } *conds;
    unsigned n_conds;
    /* --record, --key and --field as given, checked once the type is
     * known. */
    uint32_t record_size;
    const char *key, *field;
    sc_job job;
} cli;

/* Also renames argv[0] so getopt's own messages carry the tool's name. */
void cli_init(cli *c, char **argv, const char *prog, sc_job_kind kind,
              const char *usage, int takes_input);
/* Handles a common option; exits on --help, --version and bad values. */
void cli_common_option(cli *c, int opt, const char *arg);
/* Handles a predicate option; returns 0 if opt is none (cli_pred.c). */
int cli_pred_option(cli *c, int opt, const char *arg);
/* The conditions given, read in the element type now known, replace the
 * default x != 0 (cli_operands calls it). */
void cli_build_pred(cli *c);
/* Handles --record, --key and --field (cli_record.c); returns 0 if opt
 * is none of them; a tool that takes no records refuses them. */
int cli_record_option(cli *c, int opt, const char *arg);
/* The record layout given, checked, into the job, whose type becomes the
 * key's, and the field to write into its output options (cli_operands
 * calls it, before the conditions are read). */
void cli_build_record(cli *c);
/* Handles -S SIZE (at least `least` bytes) and -T DIR of the tools that
 * keep data aside in memory and then in temporary files; returns 0 if
 * opt is neither. */
int cli_buffer_option(cli *c, int opt, const char *arg, size_t least);
/* -S or -T given where the run holds nothing aside (mode: "with -C"), so
 * that they would do nothing: a usage error naming what they are for. */
void cli_buffer_unused(const cli *c, const char *mode, const char *what);
/* Remaining operands are the inputs; the conditions are read in the
 * element type, now known. */
void cli_operands(cli *c, int argc, char **argv);
/* A value of the job's element type (after cli_operands), as its bits
 * (a 32-bit type's in the low half);
 * a usage error names opt when arg is not one. */
uint64_t cli_value(const cli *c, const char *opt, const char *arg);

/* Messages and values. */
void cli_usage_error(const cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
uint64_t cli_number(const cli *c, const char *opt, const char *arg,
                    int suffixes, uint64_t max);
uint32_t cli_u32(const cli *c, const char *opt, const char *arg);
void cli_pair(const cli *c, const char *opt, const char *arg, uint64_t max,
              uint64_t *lo, uint64_t *hi);

/* Makes the context, runs the job, reports; returns the exit status. */
int cli_run(cli *c);

#endif
