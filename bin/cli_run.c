/* cli_run.c — running a tool's job: signals, the context, messages and
 * the exit status. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
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
    static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
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

/* Whether the job writes only one-line figures (--count, --total) or
 * nothing (-C): text whatever the output format. */
static int figures_only(const sc_job *j)
{
    return (j->kind == SC_JOB_COMPACT && j->compact_out == SC_OUT_COUNT) ||
           (j->kind == SC_JOB_SPLIT && j->count_only) ||
           (j->kind == SC_JOB_SCAN && j->scan_total) ||
           (j->kind == SC_JOB_SORT && j->check);
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

int cli_run(cli *c)
{
    if (refuse_terminal(c)) return EXIT_FAIL;
    install_signals();
    sc_ctx *ctx = NULL;
    sc_status st = sc_ctx_new(&ctx, c->device, c->threads);
    if (st == SC_ERR_USAGE)
        cli_usage_error(c, "%s", sc_ctx_message(ctx));
    if (st != SC_OK) {
        fprintf(stderr, "%s: %s\n", c->prog,
                ctx && *sc_ctx_message(ctx) ? sc_ctx_message(ctx)
                                            : sc_strerror(st));
        sc_ctx_free(ctx);
        return EXIT_FAIL;
    }
    st = sc_run(ctx, &c->job);
    if (st == SC_ERR_PIPE) die_of_sigpipe();
    int code = EXIT_OK;
    if (st == SC_ERR_USAGE)
        cli_usage_error(c, "%s", sc_ctx_message(ctx));
    if (st != SC_OK) {
        const char *msg = sc_ctx_message(ctx);
        fprintf(stderr, "%s: %s\n", c->prog, *msg ? msg : sc_strerror(st));
        code = EXIT_FAIL;
    }
    sc_ctx_free(ctx);
    return code;
}
