/* progress.c — the -P line: redrawn in place on a terminal, plain lines
 * every few seconds elsewhere, from a ticker thread when the caller is
 * busy. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/core.h"
#include "stream/progress.h"

#define TTY_INTERVAL 0.5
#define LOG_INTERVAL 2.0

void sc_progress_start(sc_progress *p, const char *prog, const char *verb)
{
    memset(p, 0, sizeof *p);
    p->prog = prog ? prog : "sc";
    p->verb = verb;
    p->start = p->last = sc_now();
    p->total = -1;
    p->dirty = 1;
    p->tty = isatty(2);
    p->interval = p->tty ? TTY_INTERVAL : LOG_INTERVAL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
}

static void seconds(char *buf, size_t size, const char *what, double s)
{
    if (s < 100) snprintf(buf, size, "%s%.1f s", what, s);
    else snprintf(buf, size, "%s%.0f min %02.0f s", what, (double)(int)(s / 60),
                  s - 60 * (int)(s / 60));
}

/* One line of figures: bytes, rate, percent and ETA when the total is
 * known, then the note. Called with the lock held. */
static void draw(sc_progress *p, double now, int final)
{
    double span = now - p->start > 1e-9 ? now - p->start : 1e-9;
    double rate = p->bytes / span;
    char pct[16] = "", eta[48] = "", note[192] = "", el[48];
    if (p->total > 0) {
        snprintf(pct, sizeof pct, ", %3.0f%%", 100.0 * p->bytes / p->total);
        if (!final && rate > 0 && p->bytes < p->total) {
            seconds(el, sizeof el, ", ETA ", (p->total - p->bytes) / rate);
            snprintf(eta, sizeof eta, "%s", el);
        }
    }
    if (p->note[0] && !final) {
        seconds(el, sizeof el, "", now - p->note_start);
        int len = snprintf(note, sizeof note, "; %s, %s", p->note, el);
        if (p->note_eta >= 0 && len > 0 && (size_t)len < sizeof note) {
            double left = p->note_eta - (now - p->note_start);
            seconds(el, sizeof el, ", ETA ", left > 0 ? left : 0);
            snprintf(note + len, sizeof note - (size_t)len, "%s", el);
        }
    }
    fprintf(stderr, "%s%s: %.1f MiB %s, %.1f MiB/s%s%s%s%s", p->tty ? "\r" : "",
            p->prog, p->bytes / 1048576.0, p->verb, rate / 1048576.0, pct, eta,
            note, p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->shown = 1;
    p->dirty = 0;
    p->last = now;
}

static void maybe_draw(sc_progress *p)
{
    double now = sc_now();
    if (now - p->last >= p->interval) draw(p, now, 0);
}

void sc_progress_update(sc_progress *p, double bytes, double total)
{
    pthread_mutex_lock(&p->lock);
    p->dirty |= bytes != p->bytes || total != p->total;
    p->bytes = bytes;
    p->total = total;
    maybe_draw(p);
    pthread_mutex_unlock(&p->lock);
}

void sc_progress_add(sc_progress *p, double bytes)
{
    pthread_mutex_lock(&p->lock);
    p->bytes += bytes;
    p->dirty |= bytes != 0;
    maybe_draw(p);
    pthread_mutex_unlock(&p->lock);
}

void sc_progress_phase(sc_progress *p, const char *verb, double total)
{
    pthread_mutex_lock(&p->lock);
    p->note[0] = '\0';
    /* A log has the phase's last figures already unless they changed. */
    if (p->tty || p->dirty) draw(p, sc_now(), 1);
    if (p->tty) fputc('\n', stderr);
    p->verb = verb;
    p->bytes = 0;
    p->total = total;
    p->start = p->last = sc_now();
    p->dirty = 1;
    pthread_mutex_unlock(&p->lock);
}

void sc_progress_note(sc_progress *p, const char *note, double eta_s)
{
    pthread_mutex_lock(&p->lock);
    snprintf(p->note, sizeof p->note, "%s", note ? note : "");
    p->note_start = sc_now();
    p->note_eta = eta_s;
    /* A terminal shows a new note at once; a log waits for its next line,
     * and a note's end shows with the next figures. */
    if (p->tty && note) draw(p, p->note_start, 0);
    pthread_mutex_unlock(&p->lock);
}

static void *ticker_main(void *arg)
{
    sc_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(p->interval * 1e9);
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (!p->stop) maybe_draw(p);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void sc_progress_tick(sc_progress *p)
{
    /* Progress is a courtesy: without a thread it is drawn as the figures
     * change. */
    if (!p->ticking && sc_thread_start(&p->ticker, ticker_main, p) == 0)
        p->ticking = 1;
}

void sc_progress_finish(sc_progress *p)
{
    if (p->ticking) {
        pthread_mutex_lock(&p->lock);
        p->stop = 1;
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
        pthread_join(p->ticker, NULL);
        p->ticking = 0;
    }
    pthread_mutex_lock(&p->lock);
    p->note[0] = '\0';
    if (p->tty || p->dirty) draw(p, sc_now(), 1);
    if (p->tty) fputc('\n', stderr);
    fflush(stderr);
    pthread_mutex_unlock(&p->lock);
}

void sc_progress_end(sc_progress *p, double bytes, double total)
{
    pthread_mutex_lock(&p->lock);
    p->bytes = bytes;
    p->total = total;
    pthread_mutex_unlock(&p->lock);
    sc_progress_finish(p);
}
