/* cli.c — parsing shared by every tool: numbers, sizes, common options,
 * usage errors (the predicate options: cli_pred.c). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static const char common_help[] =
"\nCommon options:\n"
"  -o, --output FILE   write to FILE, replaced only when the run succeeds\n"
"%s%s"
"  -c, --chunk SIZE    bytes per chunk, a multiple of 4K (default 16M on a\n"
"                      GPU, 4M on the CPU; 1M a thread where threads take\n"
"                      whole chunks of a file, see sc(7))\n"
"  -e, --type T        element type: u32 (default), i32, f32,\n"
"                      u64, i64, f64\n"
"      --big-endian    binary numbers in and out are big-endian\n"
"%s"
"  -d, --device DEV    auto (default, or $SC_DEVICE), cpu, cuda, cuda:N,\n"
"                      cuda:all (every GPU)\n"
"  -j, --threads N     host threads, 1 to 4096 (default: online CPUs)\n"
"  -v, --verbose       at exit: device, element counts, time per phase\n"
"  -P, --progress      show progress on standard error\n"
"  -h, --help          show this help and exit\n"
"  -V, --version       show the version and exit\n"
"\nSIZE and COUNT take a suffix K, M, G or T, or k, m, g, t (powers of 1024);\n"
"numbers may be decimal or 0x hex.\n"
"Exit status: 0 success, 1 failure, 2 usage error.\n";

/* The options that choose the output's format. */
static const char format_help[] =
"  -z, --gzip          gzip output (see --level)\n"
"      --zstd          zstd output (see --level)\n"
"      --level N       compression level: gzip 1-9 (default 6), zstd 1-19\n"
"                      (default 3)\n"
"  -t, --text          text output: one decimal number per line\n"
"  -f, --force         write binary output even to a terminal\n";

/* --record and --key (cli_record.c), with what the tool does with a
 * record between them. */
static const char record_help[] =
"      --record N      each element is a record of N bytes (a multiple of\n"
"                      4, 4 to 4096), %s\n"
"      --key OFF[:T]   the records' key: at byte OFF (a multiple of its\n"
"                      size), of type T (default: the --type); default 0\n"
"%s";
static const char record_moved[] =
"moved whole, tested or sorted by\n"
"                      its key;\n"
"                      raw, gzip or zstd, not text (on the CPU, but the\n"
"                      sort, and compaction and split of 8- and 16-byte\n"
"                      ones)";
static const char record_keyed[] =
"of which the key alone is\n"
"                      looked at; read raw, gzip or zstd (the keys\n"
"                      gathered on the CPU)";
static const char field_help[] =
"      --field OFF[:T] write only this field of each record: the T (default:\n"
"                      the key's type) at byte OFF, as elements (-t too)\n";

/* A standard stream the caller closed would otherwise be the first free
 * descriptor, and -o's temporary file could become "standard input".
 * /dev/null opened the wrong way round keeps the slot taken and makes any
 * use of it fail (EBADF), as it would have. */
static void hold_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
            if (got >= 0 && got != fd) close(got);
        }
}

void cli_init(cli *c, char **argv, const char *prog, sc_job_kind kind,
              const char *usage, int takes_input)
{
    hold_std_fds();
    argv[0] = (char *)prog;
    /* libsc's messages that suggest a command line name the tool. */
    program_invocation_short_name = (char *)prog;
    memset(c, 0, sizeof *c);
    c->prog = prog;
    c->usage = usage;
    c->takes_input = takes_input;
    sc_job_init(&c->job, kind);
    c->job.prog = prog;
}

void cli_usage_error(const cli *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", c->prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", c->prog);
    exit(EXIT_USAGE);
}

/* Decimal or 0x hex, with an optional K/M/G/T suffix when allowed. */
uint64_t cli_number(const cli *c, const char *opt, const char *arg,
                    int suffixes, uint64_t max)
{
    const char *p = arg;
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) { base = 16; p += 2; }
    /* strtoull would also take blanks, a sign or a second 0x. */
    if (!(base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p))
        || (base == 16 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
        cli_usage_error(c, "invalid value '%s' for %s", arg, opt);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, base);
    if (errno == ERANGE)
        cli_usage_error(c, "value '%s' for %s is too large", arg, opt);
    if (errno || end == p)
        cli_usage_error(c, "invalid value '%s' for %s", arg, opt);
    unsigned shift = 0;
    if (*end && suffixes && !end[1]) {
        /* Lowercase too, as sort -S takes them: 1k is 1024. */
        const char *units = "KMGT";
        const char *u = strchr(units, toupper((unsigned char)*end));
        if (!u) cli_usage_error(c, "invalid suffix in '%s' for %s", arg, opt);
        shift = 10 * (unsigned)(u - units + 1);
        end++;
    }
    if (*end) cli_usage_error(c, "invalid value '%s' for %s", arg, opt);
    if (shift && v > (UINT64_MAX >> shift))
        cli_usage_error(c, "value '%s' for %s is too large", arg, opt);
    v <<= shift;
    if (v > max)
        cli_usage_error(c, "value '%s' for %s is out of range (at most %llu)",
                        arg, opt, (unsigned long long)max);
    return v;
}

uint32_t cli_u32(const cli *c, const char *opt, const char *arg)
{
    return (uint32_t)cli_number(c, opt, arg, 0, UINT32_MAX);
}

/* "LO:HI" */
void cli_pair(const cli *c, const char *opt, const char *arg, uint64_t max,
              uint64_t *lo, uint64_t *hi)
{
    const char *colon = strchr(arg, ':');
    if (!colon) cli_usage_error(c, "%s needs LO:HI, not '%s'", opt, arg);
    char left[64];
    size_t n = (size_t)(colon - arg);
    if (n >= sizeof left) cli_usage_error(c, "invalid value '%s' for %s", arg, opt);
    memcpy(left, arg, n);
    left[n] = '\0';
    *lo = cli_number(c, opt, left, 0, max);
    *hi = cli_number(c, opt, colon + 1, 0, max);
}

/* A build without libzstd knows the zstd options but cannot honour them:
 * refused before anything is read, as an option this build lacks. */
static void need_zstd(const cli *c, const char *what)
{
#ifndef SC_HAVE_ZSTD
    cli_usage_error(c, "%s: this sc was built without zstd support", what);
#else
    (void)c; (void)what;
#endif
}

static sc_format parse_format(const cli *c, const char *arg)
{
    if (strcmp(arg, "auto") == 0) return SC_FMT_AUTO;
    if (strcmp(arg, "raw") == 0) return SC_FMT_RAW;
    if (strcmp(arg, "gz") == 0 || strcmp(arg, "gzip") == 0) return SC_FMT_GZ;
    if (strcmp(arg, "text") == 0) return SC_FMT_TEXT;
    if (strcmp(arg, "zst") == 0 || strcmp(arg, "zstd") == 0) {
        need_zstd(c, "--in zst");
        return SC_FMT_ZST;
    }
    cli_usage_error(c, "invalid input format '%s' (auto, raw, gz, zst, text)",
                    arg);
}

/* Ends --help and --version: what stdio still holds may fail to go out
 * (a full device), and that must not pass as success. */
static void exit_after_stdout(const cli *c)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: write error: %s\n", c->prog, strerror(errno));
        exit(EXIT_FAIL);
    }
    exit(EXIT_OK);
}

static void help(const cli *c)
{
    char records[sizeof record_help + sizeof record_moved + sizeof field_help];
    int keyed = c->job.kind == SC_JOB_SCAN || c->job.kind == SC_JOB_STAT;
    snprintf(records, sizeof records, record_help,
             keyed ? record_keyed : record_moved, keyed ? "" : field_help);
    printf("%s", c->usage);
    printf(common_help, c->takes_input
           ? "      --in FMT        input format: auto (default: gzip, zstd or raw,\n"
             "                      by the first bytes; text, CSV, xz, bzip2 and\n"
             "                      lz4 are refused, naming what to run), raw, gz,\n"
             "                      zst, text (numbers, plain or gzip- or\n"
             "                      zstd-compressed)\n"
           : "",
           format_help, records);
    exit_after_stdout(c);
}

void cli_common_option(cli *c, int opt, const char *arg)
{
    sc_job *j = &c->job;
    if (cli_record_option(c, opt, arg)) return;
    switch (opt) {
    case 'o': j->output = arg; break;
    case OPT_IN:
        if (!c->takes_input) cli_usage_error(c, "unrecognized option '--in'");
        j->in_fmt = parse_format(c, arg);
        break;
    case 'z':
    case OPT_ZSTD:
    case 't': {
        sc_format f = opt == 'z' ? SC_FMT_GZ
                    : opt == 't' ? SC_FMT_TEXT : SC_FMT_ZST;
        if (f == SC_FMT_ZST) need_zstd(c, "--zstd");
        if (j->out.fmt != SC_FMT_RAW && j->out.fmt != f)
            cli_usage_error(c, "--gzip, --zstd and --text exclude each other");
        j->out.fmt = f;
        break;
    }
    case OPT_LEVEL:
        /* Its range is the format's, known once every option is. */
        c->level_given = arg;
        break;
    case 'f': c->force = 1; break;
    case 'c': {
        uint64_t v = cli_number(c, "--chunk", arg, 1, SIZE_MAX / 8);
        if (v < 4096 || v % 4096)
            cli_usage_error(c, "--chunk must be a multiple of 4K, at least 4K "
                            "(got '%s')", arg);
        j->chunk_bytes = (size_t)v;
        break;
    }
    case 'd': c->device = arg; break;
    case 'e': {
        sc_type t;
        if (sc_type_parse(arg, &t) != SC_OK)
            cli_usage_error(c, "invalid --type '%s' (u32, i32, f32, u64, "
                            "i64, f64)", arg);
        c->job.type = t;
        c->job.gen.type = t;
        break;
    }
    case OPT_BIG_ENDIAN: c->job.big_endian = 1; break;
    case 'j':
        c->threads = (unsigned)cli_number(c, "--threads", arg, 0,
                                          SC_THREADS_MAX);
        if (c->threads == 0) cli_usage_error(c, "--threads must be at least 1");
        break;
    case 'v': j->verbose = 1; break;
    case 'P': j->progress = 1; break;
    case 'h': help(c); break;
    case 'V':
        printf("%s (sc) %s\n", c->prog, sc_version());
        exit_after_stdout(c);
        break;
    default:
        /* getopt has printed what was wrong. */
        fprintf(stderr, "Try '%s --help' for more information.\n", c->prog);
        exit(EXIT_USAGE);
    }
}

uint64_t cli_value(const cli *c, const char *opt, const char *arg)
{
    sc_type t = c->job.type;
    if (t == SC_U32) return cli_u32(c, opt, arg);
    uint64_t bits;
    sc_status st = sc_value_parse(t, arg, strlen(arg), &bits);
    if (st == SC_ERR_RANGE)
        cli_usage_error(c, "value '%s' for %s is out of range for %s", arg,
                        opt, sc_type_name(t));
    if (st != SC_OK)
        cli_usage_error(c, "invalid value '%s' for %s (%s)", arg, opt,
                        sc_type_is_float(t) ? "a number, inf or nan"
                        : sc_type_is_signed(t) ? "a signed integer"
                                               : "an unsigned integer");
    return bits;
}

int cli_buffer_option(cli *c, int opt, const char *arg, size_t least)
{
    if (opt == 'T') {
        /* As an empty -o is: no directory is named, whatever $TMPDIR is. */
        if (!*arg) cli_usage_error(c, "-T's directory name is empty");
        c->job.tmpdir = arg;
        return 1;
    }
    if (opt != 'S') return 0;
    uint64_t v = cli_number(c, "--buffer-size", arg, 1, (uint64_t)1 << 50);
    if (v < least)
        cli_usage_error(c, "--buffer-size must be at least %zu bytes", least);
    c->job.buffer_bytes = (size_t)v;
    return 1;
}

void cli_buffer_unused(const cli *c, const char *mode, const char *what)
{
    int s = c->job.buffer_bytes != 0, t = c->job.tmpdir != NULL;
    if (!s && !t) return;
    cli_usage_error(c, "%s nothing %s: %s only for %s",
                    s && t ? "-S and -T do" : s ? "-S does" : "-T does", mode,
                    s && t ? "they are" : "it is", what);
}

/* --level is checked once every option is known: it may come before the
 * format it tunes, and its range is that format's. */
static void check_level(cli *c)
{
    sc_writer_opts *o = &c->job.out;
    if (!c->level_given) {
        if (o->fmt == SC_FMT_ZST) o->level = 3;
        return;
    }
    if (o->fmt != SC_FMT_GZ && o->fmt != SC_FMT_ZST)
        cli_usage_error(c, "--level goes with -z (--gzip) or --zstd");
    int gz = o->fmt == SC_FMT_GZ, most = gz ? 9 : 19;
    uint64_t v = cli_number(c, "--level", c->level_given, 0, UINT64_MAX);
    if (v < 1 || v > (uint64_t)most)
        cli_usage_error(c, "--level for %s must be 1 to %d (got '%s')",
                        gz ? "gzip" : "zstd", most, c->level_given);
    o->level = (int)v;
}

void cli_operands(cli *c, int argc, char **argv)
{
    check_level(c);
    cli_build_record(c);
    cli_build_pred(c);
    if (!c->takes_input && optind < argc)
        cli_usage_error(c, "extra operand '%s'", argv[optind]);
    c->job.inputs = (const char *const *)(argv + optind);
    c->job.n_inputs = (size_t)(argc - optind);
}
