/* progress.c — a progress line that rewrites itself on standard error. */
#include <stdio.h>
#include "internal.h"
#include "progress.h"

void sc_progress_start(sc_progress *p, const char *prog, const char *verb)
{
    p->prog = prog ? prog : "sc";
    p->verb = verb;
    p->start = p->last = sc_now();
    p->shown = 0;
}

static void draw(sc_progress *p, double now, double bytes, double total)
{
    double rate = bytes / (now - p->start > 1e-9 ? now - p->start : 1e-9);
    char pct[16] = "";
    if (total > 0)
        snprintf(pct, sizeof pct, ", %3.0f%%", 100.0 * bytes / total);
    fprintf(stderr, "\r%s: %.1f MiB %s, %.1f MiB/s%s   ", p->prog,
            bytes / 1048576.0, p->verb, rate / 1048576.0, pct);
    fflush(stderr);
    p->shown = 1;
}

void sc_progress_update(sc_progress *p, double bytes, double total)
{
    double now = sc_now();
    if (now - p->last < 0.5) return;
    p->last = now;
    draw(p, now, bytes, total);
}

void sc_progress_end(sc_progress *p, double bytes, double total)
{
    draw(p, sc_now(), bytes, total);
    fputc('\n', stderr);
    fflush(stderr);
}
