#!/usr/bin/env bats
# tests/run-suite itself: how it counts suites that cannot run here.

load test_helper

# A tree with seven passing unit tests and no bats suites; nvidia-smi is a
# stub that says whether a GPU is "here".
fake_tree() {
    mkdir -p src/tests build/tests/unit build/tests/gpu build/examples stubs
    local u
    for u in test_api test_merge test_memlimit test_phase_times test_types test_io64 test_sort64; do
        printf '#!/bin/sh\necho "ok 1 - fine"\necho 1..1\n' > build/tests/unit/$u
        chmod +x build/tests/unit/$u
    done
    printf '#!/bin/sh\nexit %s\n' "$1" > stubs/nvidia-smi
    chmod +x stubs/nvidia-smi
}

# The caller's own selection (scripts/gpu sets SC_SKIP_PROGRAMS and
# SC_SUITES for the suite it runs) must not reach the run-suite under test.
sandbox_env() {
    env -u SC_SKIP_PROGRAMS -u SC_SUITES -u SC_TEST_JOBS "$@"
}

suite() {
    run sandbox_env PATH="$T/stubs:$PATH" SC_SRCDIR="$T/src" SC_BUILDDIR="$T/build" \
        SC_CUDA_BUILD="$1" sh "$SC_SRCDIR/tests/run-suite"
}

@test "run-suite: without a GPU the kernel tests are skipped, and say why" {
    fake_tree 1
    suite yes
    [ "$status" -eq 0 ]
    [[ "$output" == *"gpu-test_compact_kernels"*"no GPU here"* ]]
    [[ "$output" == *"gpu-test_dev_api"*"no GPU here"* ]]
    [[ "$output" == *"gpu-libsc-stream"*"no GPU here"* ]]
    [ "${lines[-1]}" = "7 passed, 0 failed, 10 skipped" ]
}

@test "run-suite: a CPU-only build on a GPU machine says so" {
    fake_tree 0
    suite no
    [[ "$output" == *"gpu-test_scan_sort_kernels"*"a CPU-only build"* ]]
    [[ "$output" == *"gpu-libsc-stream"*"a CPU-only build"* ]]
    [ "${lines[-1]}" = "7 passed, 0 failed, 10 skipped" ]
}

@test "run-suite: a CUDA build on a GPU machine without them built says how to build them" {
    fake_tree 0
    suite yes
    [[ "$output" == *"gpu-test_dev_api"*"not built (make gpu-tests)"* ]]
    [[ "$output" == *"gpu-libsc-stream"*"not built (make gpu-tests)"* ]]
    [ "${lines[-1]}" = "7 passed, 0 failed, 10 skipped" ]
}

# The GPU tests (TAP) and the CUDA example (plain output and an exit
# status: $1) as built by make gpu-tests.
gpu_built() {
    local p
    for p in test_compact_kernels test_scan_sort_kernels test_sort_types test_select_types test_select_records test_sort_records \
        test_stat_kernel test_scan64 test_dev_api; do
        printf '#!/bin/sh\necho "ok 1 - kernel"\necho 1..1\n' > build/tests/gpu/$p
        chmod +x build/tests/gpu/$p
    done
    printf '#!/bin/sh\necho "kept 42"\nexit %s\n' "$1" > build/examples/libsc-stream
    chmod +x build/examples/libsc-stream
}

@test "run-suite: on a GPU the built kernel tests and the example run" {
    fake_tree 0
    gpu_built 0
    suite yes
    [ "$status" -eq 0 ]
    [ "${lines[-1]}" = "17 passed, 0 failed, 0 skipped" ]
}

@test "run-suite: a CUDA example that exits non-zero fails, its output shown" {
    fake_tree 0
    gpu_built 1
    suite yes
    [ "$status" -eq 1 ]
    [[ "$output" == *"FAIL not ok 1 - examples/libsc-stream"*"exit status 1"*"kept 42"* ]]
    [ "${lines[-1]}" = "16 passed, 1 failed, 0 skipped" ]
}

@test "run-suite: the example counts the same when suites run in parallel" {
    fake_tree 0
    gpu_built 1
    run sandbox_env PATH="$T/stubs:$PATH" SC_SRCDIR="$T/src" SC_BUILDDIR="$T/build" \
        SC_CUDA_BUILD=yes SC_TEST_JOBS=4 sh "$SC_SRCDIR/tests/run-suite"
    [ "$status" -eq 1 ]
    [ "${lines[-1]}" = "16 passed, 1 failed, 0 skipped" ]
}

@test "run-suite: a GPU test that skips itself whole (1..0 # SKIP) counts as one skip" {
    fake_tree 0
    gpu_built 0
    printf '#!/bin/sh\necho "1..0 # SKIP no GPU (driver too old)"\n' > build/tests/gpu/test_dev_api
    suite yes
    [ "$status" -eq 0 ]
    [[ "$output" == *"gpu-test_dev_api: no GPU (driver too old)"* ]]
    [ "${lines[-1]}" = "16 passed, 0 failed, 1 skipped" ]
}

@test "run-suite: SC_SKIP_PROGRAMS=1 leaves the unit and kernel tests out" {
    fake_tree 0
    gpu_built 0
    run sandbox_env PATH="$T/stubs:$PATH" SC_SRCDIR="$T/src" SC_BUILDDIR="$T/build" \
        SC_CUDA_BUILD=yes SC_SKIP_PROGRAMS=1 sh "$SC_SRCDIR/tests/run-suite"
    [[ "$output" != *"unit-test_api"* && "$output" != *"gpu-test_"* ]]
    [ "${lines[-1]}" = "0 passed, 0 failed, 0 skipped" ]
    # nothing ran: that is a failure, not a pass
    [ "$status" -eq 1 ]
}

# Five bats suites in the fake tree, big.bats among them, and a stand-in
# bats (stubs/bats) that passes each (a bats run inside a bats test takes
# the outer one's environment).
bats_suites() {
    local s
    for s in a b c d big; do
        : > src/tests/$s.bats
    done
    printf '#!/bin/sh\necho 1..1\necho "ok 1 - $(basename "$2")"\n' > stubs/bats
    chmod +x stubs/bats
}

@test "run-suite: SC_SUITE_PART=K/N runs every Nth bats suite from the Kth, big.bats last; the parts make the whole" {
    fake_tree 1
    bats_suites
    local k got all=
    for k in 1 2; do
        run sandbox_env PATH="$T/stubs:$PATH" SC_SRCDIR="$T/src" SC_BUILDDIR="$T/build" \
            SC_CUDA_BUILD=no SC_SKIP_PROGRAMS=1 SC_SUITE_PART=$k/2 BATS="$T/stubs/bats" \
            sh "$SC_SRCDIR/tests/run-suite"
        [ "$status" -eq 0 ] || { echo "# $output" >&2; return 1; }
        got=$(printf '%s\n' "$output" | sed -n '/^=== summary/d; s/^=== //p' | tr '\n' ' ')
        all="$all$got"
        [ "$k" = 1 ] && [ "$got" = "a c big " ]
        [ "$k" = 2 ] && [ "$got" = "b d " ]
    done
    [ "$all" = "a c big b d " ]
    for k in 0/2 3/2 x 1/0 2 1/2/3 /2; do
        run sandbox_env PATH="$T/stubs:$PATH" SC_SRCDIR="$T/src" SC_BUILDDIR="$T/build" \
            SC_CUDA_BUILD=no SC_SKIP_PROGRAMS=1 SC_SUITE_PART=$k BATS="$T/stubs/bats" \
            sh "$SC_SRCDIR/tests/run-suite"
        [ "$status" -eq 1 ] || { echo "# SC_SUITE_PART=$k: status $status" >&2; return 1; }
        [[ "$output" == *"SC_SUITE_PART=$k: not K/N"* ]]
    done
}
