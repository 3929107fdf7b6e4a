/* cli_run.c — running a tool's job: signals, the context, messages and
 * the exit status. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static void on_fatal_signal(int sig)
{
    sc_remove_temporaries();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signals(void)
{
    /* Every signal that ends a process by default and can be caught;
     * what SIGKILL leaves, a later run removes (sc_temp_sweep). */
    static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU,
                                 SIGALRM, SIGVTALRM, SIGUSR1, SIGUSR2 };
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], on_fatal_signal);
    /* A closed output pipe is seen as EPIPE, so temporary files are
     * removed before the program goes. */
    signal(SIGPIPE, SIG_IGN);
    /* Past ulimit -f a write fails with EFBIG instead of killing us, so
     * the failure is reported and the temporary files go. */
    signal(SIGXFSZ, SIG_IGN);
}

/* Ends the way a filter whose reader went away is expected to: quietly,
 * by SIGPIPE, as if it had not been caught. */
static void die_of_sigpipe(void)
{
    sc_remove_temporaries();
    signal(SIGPIPE, SIG_DFL);
    raise(SIGPIPE);
    _exit(EXIT_FAIL);
}

/* Whether the job writes only figures (--count, --total, sc-stat's report
 * and ends) or nothing (-C): text whatever the output format. */
static int figures_only(const sc_job *j)
{
    return (j->kind == SC_JOB_COMPACT && j->compact_out == SC_OUT_COUNT) ||
           (j->kind == SC_JOB_STAT && !j->bincount) ||
           (j->kind == SC_JOB_SPLIT && j->count_only) ||
           (j->kind == SC_JOB_SCAN && j->scan_total) ||
           (j->kind == SC_JOB_SORT && j->check);
}

/* Records have no text form; their positions, keys (scanned or counted),
 * figures and a field (--field) have one. */
static void refuse_text_records(const cli *c)
{
    const sc_job *j = &c->job;
    int positions = (j->kind == SC_JOB_COMPACT ||
                     j->kind == SC_JOB_SORT) &&
                    j->compact_out != SC_OUT_VALUES;
    int keys = j->kind == SC_JOB_SCAN || j->kind == SC_JOB_STAT;
    if (j->record.size && j->out.fmt == SC_FMT_TEXT && !positions && !keys &&
        !figures_only(j) && !j->out.field)
        cli_usage_error(c, "-t (--text): records are written raw, gzip or "
                        "zstd, not as text (--field writes one field as "
                        "text)");
}

/* Whether output named path (NULL or "-": standard output) is a terminal.
 * A named character device is opened to ask, which does nothing to it. */
static int is_terminal(const char *path)
{
    if (!path || strcmp(path, "-") == 0) return isatty(1);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISCHR(st.st_mode)) return 0;
    int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK);
    int tty = fd >= 0 && isatty(fd);
    if (fd >= 0) close(fd);
    return tty;
}

/* Binary data on a terminal is noise that can upset it; refused as gzip
 * refuses it, before anything runs, unless -f. */
static int refuse_terminal(const cli *c)
{
    const sc_job *j = &c->job;
    if (c->force || j->out.fmt == SC_FMT_TEXT || figures_only(j)) return 0;
    if (!is_terminal(j->output) && !(j->rejects && is_terminal(j->rejects)))
        return 0;
    fprintf(stderr, "%s: refusing to write binary data to a terminal; use -t "
            "for text, or -f to force\n", c->prog);
    return 1;
}

/* A failed status's message, as the tools give every one: a usage error
 * exits 2 with the --help hint, anything else is one line.  Returns
 * whether st failed.  ctx may be NULL. */
static int report(const cli *c, const sc_ctx *ctx, sc_status st)
{
    const char *msg = sc_ctx_message(ctx);
    if (st == SC_ERR_USAGE)
        cli_usage_error(c, "%s", msg);
    if (st != SC_OK)
        fprintf(stderr, "%s: %s\n", c->prog, *msg ? msg : sc_strerror(st));
    return st != SC_OK;
}

/* The device the run asks for: -d, else SC_DEVICE. */
static int asks_for_gpu(const cli *c)
{
    const char *spec = c->device ? c->device : getenv("SC_DEVICE");
    return spec && strncmp(spec, "cuda", 4) == 0;
}

/* A job that cannot start (a missing input, an output that is also an
 * input) says so before a GPU is started for it: that is the message to
 * act on, and starting CUDA costs 0.15 s or more.  Checked on a CPU
 * context, which touches no device; if even that cannot be made, sc_run
 * checks again on the real one. */
static int refuse_job(const cli *c)
{
    if (!asks_for_gpu(c)) return 0;
    sc_ctx *cpu = NULL;
    int refused = sc_ctx_new(&cpu, "cpu", 1) == SC_OK &&
                  report(c, cpu, sc_job_check(cpu, &c->job));
    sc_ctx_free(cpu);
    return refused;
}

/* A CUDA context sets up one hardware queue per "connection" (8 unless
 * CUDA_DEVICE_MAX_CONNECTIONS says otherwise), and the driver spends
 * about 20 ms on each, for one process at a time.  Measured on the H200
 * machine (bench/RESULTS.md): with one queue a context starts in 55 ms
 * against 140, 16 at once in 1.25 s against 5.0, and no tool ran slower
 * on the GPU at 1 or 4 GiB (their chunks wait on the host, not on the
 * queues).  A value the user set is kept.  Set before any thread starts:
 * setenv is not safe beside a getenv on another thread. */
static void one_gpu_queue(void)
{
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 0);
}

int cli_run(cli *c)
{
    refuse_text_records(c);
    if (refuse_terminal(c)) return EXIT_FAIL;
    install_signals();
    one_gpu_queue();
    if (refuse_job(c)) return EXIT_FAIL;
    sc_ctx *ctx = NULL;
    /* -d cuda's start overlaps opening and reading the input. */
    sc_status st = sc_ctx_new_background(&ctx, c->device, c->threads);
    if (report(c, ctx, st)) {
        sc_ctx_free(ctx);
        return EXIT_FAIL;
    }
    st = sc_run(ctx, &c->job);
    if (st == SC_ERR_PIPE) die_of_sigpipe();
    int code = report(c, ctx, st) ? EXIT_FAIL : EXIT_OK;
    sc_ctx_free(ctx);
    return code;
}
