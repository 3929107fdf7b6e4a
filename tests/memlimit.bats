#!/usr/bin/env bats
# -S's default: a quarter of the memory the process may take, the least of
# physical memory, its cgroup's limit and RLIMIT_AS / RLIMIT_DATA (sc(7),
# CHUNKS AND MEMORY), as -v reports it.  The cgroup files themselves are
# read from a tree of the test's making in tests/unit/test_memlimit.c.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-rsort sc-split sc-stat sc-compact
    # A sanitizer reserves terabytes of address space, past any ulimit -v.
    [ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] ||
        skip "sanitizer build: rlimits not applied"
    gen_file in.bin 5000 3 0.5
}

# limited OPT KIB CMD...: CMD under ulimit OPT KIB (-v or -d).
limited() {
    local opt=$1 kib=$2
    shift 2
    bash -c 'ulimit "$0" "$1" && shift && exec "$@"' "$opt" "$kib" "$@"
}

# The tools that hold data up to -S, as they are run here (-d cpu: a GPU
# runtime reserves address space past these limits).
holders() {
    echo "sc-rsort -d cpu -j 2 -v -o out in.bin"
    echo "sc-split -d cpu -j 2 -v -o out --gt 100 in.bin"
    echo "sc-stat -d cpu -j 2 -v --hist 4 -o out in.bin"
}

# unlimited_mib: the memory limit in MiB with no rlimit of the test's.
unlimited_mib() {
    sc-rsort -d cpu -v -o /dev/null in.bin 2>&1 |
        sed -n 's/.*: memory: .*, a quarter of \([0-9]*\) MiB .*/\1/p'
}

@test "memlimit: -v names -S's default and the limit it came from" {
    local cmd
    while read -r cmd; do
        run --separate-stderr $cmd
        [ "$status" -eq 0 ] || { echo "# $cmd: $stderr" >&2; return 1; }
        echo "$stderr" | grep -Eq "^${cmd%% *}: memory: -S's default [0-9]+ MiB, a quarter of [0-9]+ MiB \((physical memory|the cgroup's memory limit)\), at least 64 MiB$" ||
            { echo "# $cmd: $stderr" >&2; return 1; }
    done < <(holders)
}

@test "memlimit: ulimit -v: -S's default is a quarter of RLIMIT_AS" {
    local mib cmd
    mib=$(unlimited_mib)
    [ -n "$mib" ] || { echo "# no memory line" >&2; return 1; }
    [ "$mib" -gt 4096 ] || skip "a limit of $mib MiB is already below 4 GiB"
    sc-rsort -d cpu -o want in.bin
    while read -r cmd; do
        run --separate-stderr limited -v 4194304 $cmd
        [ "$status" -eq 0 ] || { echo "# $cmd: $stderr" >&2; return 1; }
        echo "$stderr" | grep -Fqx "${cmd%% *}: memory: -S's default 1024 MiB, a quarter of 4096 MiB (RLIMIT_AS, ulimit -v), at least 64 MiB" ||
            { echo "# $cmd: $stderr" >&2; return 1; }
    done < <(holders)
    limited -v 4194304 sc-rsort -d cpu -j 2 -o out in.bin
    expect_same want out
}

@test "memlimit: ulimit -d: -S's default is a quarter of RLIMIT_DATA, at least 64 MiB" {
    local mib cmd
    mib=$(unlimited_mib)
    [ "$mib" -gt 2048 ] || skip "a limit of $mib MiB is already below 2 GiB"
    while read -r cmd; do
        run --separate-stderr limited -d 2097152 $cmd
        [ "$status" -eq 0 ] || { echo "# $cmd: $stderr" >&2; return 1; }
        echo "$stderr" | grep -Fqx "${cmd%% *}: memory: -S's default 512 MiB, a quarter of 2048 MiB (RLIMIT_DATA, ulimit -d), at least 64 MiB" ||
            { echo "# $cmd: $stderr" >&2; return 1; }
    done < <(holders)
    run --separate-stderr limited -d 196608 sc-rsort -d cpu -j 2 -v -o out in.bin
    [ "$status" -eq 0 ] || { echo "# $stderr" >&2; return 1; }
    echo "$stderr" | grep -Fqx "sc-rsort: memory: -S's default 64 MiB, a quarter of 192 MiB (RLIMIT_DATA, ulimit -d), at least 64 MiB" ||
        { echo "# $stderr" >&2; return 1; }
}

@test "memlimit: no memory line where -S is given or nothing is held" {
    run --separate-stderr sc-rsort -d cpu -v -S 1M -o out in.bin
    [ "$status" -eq 0 ]
    ! echo "$stderr" | grep -q ': memory:'
    run --separate-stderr sc-split -d cpu -v -r rej -o out --gt 100 in.bin
    [ "$status" -eq 0 ]
    ! echo "$stderr" | grep -q ': memory:'
    run --separate-stderr sc-compact -d cpu -v -o out --gt 100 in.bin
    [ "$status" -eq 0 ]
    ! echo "$stderr" | grep -q ': memory:'
}
