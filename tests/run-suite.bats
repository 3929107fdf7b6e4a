#!/usr/bin/env bats
# tests/run-suite itself: how it counts suites that cannot run here.

load test_helper

# A tree with five passing unit tests and no bats suites; nvidia-smi is a
# stub that says whether a GPU is "here".
fake_tree() {
    mkdir -p src/tests build/tests/unit build/tests/gpu stubs
    local u
    for u in test_api test_merge test_memlimit test_phase_times test_types; do
        printf '#!/bin/sh\necho "ok 1 - fine"\necho 1..1\n' > build/tests/unit/$u
        chmod +x build/tests/unit/$u
    done
    printf '#!/bin/sh\nexit %s\n' "$1" > stubs/nvidia-smi
    chmod +x stubs/nvidia-smi
}

suite() {
    run env PATH="$T/stubs:$PATH" SC_SRCDIR="$T/src" SC_BUILDDIR="$T/build" \
        SC_CUDA_BUILD="$1" sh "$SC_SRCDIR/tests/run-suite"
}

@test "run-suite: without a GPU the kernel tests are skipped, and say why" {
    fake_tree 1
    suite yes
    [ "$status" -eq 0 ]
    [[ "$output" == *"gpu-test_compact_kernels"*"no GPU here"* ]]
    [ "${lines[-1]}" = "5 passed, 0 failed, 3 skipped" ]
}

@test "run-suite: a CPU-only build on a GPU machine says so" {
    fake_tree 0
    suite no
    [[ "$output" == *"gpu-test_scan_sort_kernels"*"a CPU-only build"* ]]
    [ "${lines[-1]}" = "5 passed, 0 failed, 3 skipped" ]
}

@test "run-suite: on a GPU the built kernel tests run" {
    fake_tree 0
    for p in test_compact_kernels test_scan_sort_kernels test_stat_kernel; do
        printf '#!/bin/sh\necho "ok 1 - kernel"\necho 1..1\n' > build/tests/gpu/$p
        chmod +x build/tests/gpu/$p
    done
    suite yes
    [ "$status" -eq 0 ]
    [ "${lines[-1]}" = "8 passed, 0 failed, 0 skipped" ]
}
