/* memlimit.c — the memory this process may take, for -S's default: the
 * least of physical memory, its cgroup's limit and its rlimits.  A
 * container or a systemd slice limits memory through the cgroup, a shell
 * through ulimit -v / -d; a quarter of the machine's memory would take
 * them past it (killed, or failing to allocate half way). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "core/core.h"

/* The number in file path (a limit), or UINT64_MAX when the file is
 * missing, unreadable or says "max". */
static uint64_t read_limit(const char *path)
{
    FILE *f = fopen(path, "re");
    if (!f) return UINT64_MAX;
    char buf[64];
    char *end = NULL;
    unsigned long long v = ULLONG_MAX;
    if (fgets(buf, sizeof buf, f) && buf[0] >= '0' && buf[0] <= '9')
        v = strtoull(buf, &end, 10);
    fclose(f);
    return end && (*end == '\n' || *end == '\0') ? (uint64_t)v : UINT64_MAX;
}

/* The least of file in dir/cgroup and every directory above it up to
 * dir: a cgroup is held to its ancestors' limits too, and where the path
 * that /proc names is not under dir (a container that sees the host's
 * path), dir's own file is its cgroup's. */
static uint64_t least_up(const char *dir, const char *cgroup,
                         const char *file)
{
    char path[PATH_MAX];
    uint64_t least = UINT64_MAX;
    size_t len = strlen(cgroup);
    while (len && cgroup[len - 1] == '/') len--;
    for (;;) {
        int n = snprintf(path, sizeof path, "%s%.*s/%s", dir, (int)len,
                         cgroup, file);
        if (n > 0 && (size_t)n < sizeof path) {
            uint64_t v = read_limit(path);
            if (v < least) least = v;
        }
        if (!len) return least;
        while (len && cgroup[len - 1] != '/') len--;     /* the parent */
        while (len && cgroup[len - 1] == '/') len--;
    }
}

/* Whether the comma-separated list list[0..len) names the memory
 * controller. */
static int has_memory(const char *list, size_t len)
{
    for (const char *p = list; p < list + len;) {
        const char *comma = memchr(p, ',', (size_t)(list + len - p));
        size_t n = comma ? (size_t)(comma - p) : (size_t)(list + len - p);
        if (n == 6 && memcmp(p, "memory", 6) == 0) return 1;
        p += n + 1;
    }
    return 0;
}

/* One line of /proc/PID/cgroup, "ID:CONTROLLERS:PATH": the limit of its
 * memory controller (v2: "0::PATH", memory.max; v1: a list naming
 * memory, mounted at root/memory), or UINT64_MAX. */
static uint64_t line_limit(char *line, const char *root)
{
    char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2) return UINT64_MAX;
    const char *ctrl = c1 + 1, *cgroup = c2 + 1;
    size_t ctrl_len = (size_t)(c2 - ctrl);
    if (ctrl_len == 0 && c1 == line + 1 && line[0] == '0')
        return least_up(root, cgroup, "memory.max");
    if (!has_memory(ctrl, ctrl_len)) return UINT64_MAX;
    char dir[PATH_MAX];
    int n = snprintf(dir, sizeof dir, "%s/memory", root);
    return n > 0 && (size_t)n < sizeof dir
           ? least_up(dir, cgroup, "memory.limit_in_bytes") : UINT64_MAX;
}

uint64_t sc_cgroup_memory_limit(const char *proc_cgroup, const char *root)
{
    FILE *f = fopen(proc_cgroup, "re");
    if (!f) return UINT64_MAX;
    char line[4096];
    uint64_t least = UINT64_MAX;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        uint64_t v = line_limit(line, root);
        if (v < least) least = v;
    }
    fclose(f);
    return least;
}

/* The rlimit res's soft limit when below *least: then *least is it and
 * *what says so. */
static void take_rlimit(int res, const char *name, uint64_t *least,
                        const char **what)
{
    struct rlimit rl;
    if (getrlimit(res, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (uint64_t)rl.rlim_cur < *least) {
        *least = (uint64_t)rl.rlim_cur;
        *what = name;
    }
}

uint64_t sc_memory_limit(const char **what)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t least = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page
                                           : UINT64_MAX;
    *what = "physical memory";
    uint64_t cg = sc_cgroup_memory_limit("/proc/self/cgroup",
                                         "/sys/fs/cgroup");
    if (cg < least) {
        least = cg;
        *what = "the cgroup's memory limit";
    }
    take_rlimit(RLIMIT_AS, "RLIMIT_AS, ulimit -v", &least, what);
    take_rlimit(RLIMIT_DATA, "RLIMIT_DATA, ulimit -d", &least, what);
    return least;
}

size_t sc_default_buffer_bytes(void)
{
    const char *what;
    uint64_t quarter = sc_memory_limit(&what) / 4;
    if (quarter < SC_LEAST_BUFFER_BYTES) return SC_LEAST_BUFFER_BYTES;
    return quarter < SIZE_MAX ? (size_t)quarter : SIZE_MAX;
}
