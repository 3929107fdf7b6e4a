/* test_memlimit.c -- TAP tests of -S's default (lib/core/memlimit.c):
 * the memory limits of cgroups v1 and v2, read from a tree made here as
 * /sys/fs/cgroup and /proc/self/cgroup would show them, and the rlimits,
 * lowered here, taking the place of physical memory.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/core.h"
#include "tap.h"

static char root[256];          /* the fake /sys/fs/cgroup */
static char proc[300];          /* the fake /proc/self/cgroup */

static void bail(const char *what)
{
    printf("Bail out! %s\n", what);
    exit(1);
}

/* Writes text to root/rel, making its directories. */
static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        if (mkdir(path, 0700) != 0 && access(path, F_OK) != 0)
            bail("mkdir");
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) bail("cannot write");
}

/* A fresh tree: everything under root removed, then proc_text as
 * /proc/self/cgroup. */
static void fresh(const char *proc_text)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'/*", root);
    if (system(cmd) != 0) bail("rm");
    FILE *f = fopen(proc, "w");
    if (!f || fputs(proc_text, f) < 0 || fclose(f) != 0) bail("proc");
}

static uint64_t limit(void) { return sc_cgroup_memory_limit(proc, root); }

static void cgroup_v2(void)
{
    fresh("0::/user.slice/app.scope/job\n");
    put("user.slice/memory.max", "3000000\n");
    put("user.slice/app.scope/memory.max", "max\n");
    put("user.slice/app.scope/job/memory.max", "5000000\n");
    ok(limit() == 3000000, "v2: an ancestor's smaller limit holds");
    put("user.slice/app.scope/job/memory.max", "2000000\n");
    ok(limit() == 2000000, "v2: the cgroup's own smaller limit holds");

    fresh("0::/user.slice\n");
    put("user.slice/memory.max", "max\n");
    ok(limit() == UINT64_MAX, "v2: \"max\" is no limit");

    fresh("0::/\n");
    put("memory.max", "7000000\n");
    ok(limit() == 7000000, "v2: a namespaced container's own root");

    fresh("0::/docker/abc\n");
    put("memory.max", "8000000\n");
    ok(limit() == 8000000, "v2: a path that is not under the mount: "
       "the mount's own limit");
}

static void cgroup_v1(void)
{
    fresh("9:name=systemd:/\n4:memory:/process_api/x\n3:cpuset:/\n0::/\n");
    put("memory/memory.limit_in_bytes", "9223372036854771712\n");
    put("memory/process_api/x/memory.limit_in_bytes", "9000000\n");
    put("cpuset/process_api/x/memory.limit_in_bytes", "1\n");
    ok(limit() == 9000000, "v1: the memory controller's limit, no other's");

    fresh("5:cpu,memory,pids:/g\n");
    put("memory/g/memory.limit_in_bytes", "6000000\n");
    ok(limit() == 6000000, "v1: memory in a list of controllers");

    fresh("5:cpu,cpuacct:/g\n6:memoryx:/g\n");
    put("memory/g/memory.limit_in_bytes", "6000000\n");
    ok(limit() == UINT64_MAX, "v1: no memory controller named, no limit");

    fresh("4:memory:/a/b\n0::/a\n");
    put("memory/a/memory.limit_in_bytes", "4000000\n");
    put("memory/a/b/memory.limit_in_bytes", "9000000\n");
    put("a/memory.max", "5000000\n");
    ok(limit() == 4000000, "hybrid: the least of v1's and v2's");
}

static void cgroup_none(void)
{
    fresh("0::/\n");
    ok(limit() == UINT64_MAX, "no limit files: no limit");
    fresh("0::/\n");
    put("memory.max", "garbage\n");
    ok(limit() == UINT64_MAX, "an unreadable number is no limit");
    ok(sc_cgroup_memory_limit("/nonexistent/cgroup", root) == UINT64_MAX,
       "no /proc/self/cgroup: no limit");
}

/* Lowers resource res's soft limit to v; returns the old one. */
static struct rlimit lower(int res, uint64_t v)
{
    struct rlimit old, rl;
    if (getrlimit(res, &old) != 0) bail("getrlimit");
    rl = old;
    rl.rlim_cur = (rlim_t)v;
    if (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)
        rl.rlim_cur = rl.rlim_max;
    if (setrlimit(res, &rl) != 0) bail("setrlimit");
    return old;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

static void rlimits(void)
{
    const char *what;
#ifdef SANITIZED
    /* A sanitizer's shadow memory is already past any lower limit, and
     * its allocator fails under one. */
    printf("ok %d # skip rlimits under a sanitizer\n", ++n_tests);
    return;
#endif
    uint64_t base = sc_memory_limit(&what);
    ok(base > 0 && base < UINT64_MAX, "some limit is known (%s)", what);

    uint64_t data = base / 2 & ~(uint64_t)4095;
    struct rlimit old_data = lower(RLIMIT_DATA, data);
    uint64_t got = sc_memory_limit(&what);
    ok(got == data && strstr(what, "RLIMIT_DATA"),
       "RLIMIT_DATA below the rest is the limit (%s)", what);
    size_t want = data / 4 > SC_LEAST_BUFFER_BYTES ? (size_t)(data / 4)
                                                   : SC_LEAST_BUFFER_BYTES;
    ok(sc_default_buffer_bytes() == want, "-S's default is a quarter of it");

    uint64_t as = base / 4 & ~(uint64_t)4095;
    struct rlimit old_as = lower(RLIMIT_AS, as);
    got = sc_memory_limit(&what);
    ok(got == as && strstr(what, "RLIMIT_AS"),
       "RLIMIT_AS below RLIMIT_DATA is the limit (%s)", what);
    if (setrlimit(RLIMIT_AS, &old_as) != 0) bail("setrlimit");

    lower(RLIMIT_DATA, 128u << 20);
    ok(sc_default_buffer_bytes() == SC_LEAST_BUFFER_BYTES,
       "a quarter of 128 MiB is below -S's floor: 64 MiB");
    if (setrlimit(RLIMIT_DATA, &old_data) != 0) bail("setrlimit");
    ok(sc_memory_limit(&what) == base, "the limits restored, the limit too");
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(root, sizeof root, "%s/sc-memlimit-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) bail("mkdtemp");
    snprintf(proc, sizeof proc, "%s.cgroup", root);
    cgroup_v2();
    cgroup_v1();
    cgroup_none();
    rlimits();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", root, proc);
    if (system(cmd) != 0) bail("rm");
    printf("1..%d\n", n_tests);
    return n_failed != 0;
}
