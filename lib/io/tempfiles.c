/* tempfiles.c — temporary files: created under names that say whose they
 * are, removed when a run fails or is killed by a signal it can catch,
 * and, when a process died without removing them (SIGKILL, a crash), by
 * a later run that finds them.
 *
 * A name is PREFIX-PID-START-XXXXXX: the writer's process id and its
 * start time (clock ticks after boot, /proc/PID/stat), so that a process
 * that took the id of a dead writer is not mistaken for it.  The writer
 * also holds a lock (flock) on each file while its descriptor is open,
 * which a process in another PID namespace sharing the directory sees
 * where the id would mislead it. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include "io/io.h"

/* sc-split --ranges holds up to 256 part files and a backup of each
 * while it replaces them, beside what other jobs hold. */
#define MAX_TEMPS 600
#define MAX_PATH 4096

static char temps[MAX_TEMPS][MAX_PATH];
static volatile sig_atomic_t used[MAX_TEMPS];

int sc_temp_register(const char *path)
{
    if (strlen(path) >= MAX_PATH) return -1;
    for (int i = 0; i < MAX_TEMPS; i++)
        if (!used[i]) {
            strcpy(temps[i], path);
            used[i] = 1;
            return 0;
        }
    return -1;
}

void sc_temp_unregister(const char *path)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (used[i] && strcmp(temps[i], path) == 0) {
            used[i] = 0;
            return;
        }
}

void sc_temp_remove_all(void)
{
    for (int i = 0; i < MAX_TEMPS; i++)
        if (used[i]) {
            unlink(temps[i]);
            used[i] = 0;
        }
}

void sc_remove_temporaries(void) { sc_temp_remove_all(); }

const char *sc_temp_dir(const char *asked)
{
    if (asked && *asked) return asked;
    const char *env = getenv("TMPDIR");
    return env && *env ? env : "/tmp";
}

/* When process pid started, in clock ticks after boot; 0 where /proc
 * cannot tell. */
static unsigned long long process_start(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return 0;
    buf[n] = '\0';
    /* The command name, in parentheses, may hold spaces and ')': the
     * fields are counted from its last ')', starttime being the 20th. */
    char *p = strrchr(buf, ')');
    for (int field = 0; p && field < 20; field++) p = strchr(p + 1, ' ');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

int sc_temp_open(const char *dir, const char *prefix, char *path, size_t cap)
{
    static unsigned long long start;
    if (!start) start = process_start((long)getpid());
    int len = snprintf(path, cap, "%s/%s-%ld-%llu-XXXXXX", dir, prefix,
                       (long)getpid(), start);
    if (len < 0 || (size_t)len >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) return -1;
    sc_temp_register(path);
    /* Advisory only, and never waited for: a failure costs the sweep of
     * other runs its best evidence, nothing else. */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) { /* the pid and start remain */ }
    return fd;
}

/* Whether name is PREFIX-PID-START-XXXXXX for prefix; its PID and START. */
static int temp_name(const char *name, const char *prefix, long *pid,
                     unsigned long long *start)
{
    size_t plen = strlen(prefix);
    if (strncmp(name, prefix, plen) != 0 || name[plen] != '-') return 0;
    const char *p = name + plen + 1;
    char *end;
    if (!isdigit((unsigned char)*p)) return 0;
    *pid = strtol(p, &end, 10);
    if (*end != '-' || !isdigit((unsigned char)end[1])) return 0;
    *start = strtoull(end + 1, &end, 10);
    return *end == '-' && strlen(end + 1) == 6 && *pid > 0;
}

/* Whether the writer of a file is gone: its process no longer exists, or
 * the process with its id started at another time (the id was reused). */
static int writer_gone(long pid, unsigned long long start)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return 1;
    unsigned long long now = process_start(pid);
    return start && now && now != start;
}

/* Whether a live process holds the file at dirfd/name open and locked. */
static int held(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
                    O_CLOEXEC);
    if (fd < 0) return 1;       /* not ours to judge */
    int locked = flock(fd, LOCK_EX | LOCK_NB) != 0;
    close(fd);
    return locked;
}

void sc_temp_sweep(const char *dir, const char *const *prefixes)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));)
        for (const char *const *p = prefixes; *p; p++) {
            long pid;
            unsigned long long start;
            if (!temp_name(e->d_name, *p, &pid, &start)) continue;
            if (writer_gone(pid, start) && !held(dirfd(d), e->d_name))
                unlinkat(dirfd(d), e->d_name, 0);
            break;
        }
    closedir(d);
}

void sc_temp_sweep_dir(const char *dir)
{
    static const char *const work[] = { SC_TEMP_RUNS, SC_TEMP_SPILL, NULL };
    sc_temp_sweep(dir, work);
}
