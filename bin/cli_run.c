/* cli_run.c — running a tool's job: signals, the context, messages and
 * the exit status. */
#include <signal.h>
#include <stdio.h>
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

int cli_run(cli *c)
{
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
