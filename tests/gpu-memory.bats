#!/usr/bin/env bats
# A GPU that runs out of memory: smaller pieces, then the CPU; never a
# wrong or missing result.  SC_TEST_DEVICE_MEMORY caps what libsc takes.

load test_helper

setup() {
    sc_setup
    skip_without_gpu
    gen_random 3000017 7 0.5 > in.bin
}

@test "gpu-memory: a cap that forces smaller pieces gives the same bytes" {
    sc-compact -d cpu < in.bin > cpu.out
    SC_TEST_DEVICE_MEMORY=40M run sc-compact -d cuda -c 32M -v < in.bin
    [ "$status" -eq 0 ]
    sc-compact -d cuda -c 32M < in.bin > /dev/null
    SC_TEST_DEVICE_MEMORY=40M sc-compact -d cuda -c 32M < in.bin > gpu.out
    cmp cpu.out gpu.out
    SC_TEST_DEVICE_MEMORY=40M sc-scan -d cuda -c 32M < in.bin > gpu.scan
    sc-scan -d cpu < in.bin | cmp - gpu.scan
    SC_TEST_DEVICE_MEMORY=40M sc-stat -d cuda -c 32M --hist 5 < in.bin | \
        cmp - <(sc-stat -d cpu --hist 5 < in.bin)
}

@test "gpu-memory: a cap too small for any piece falls back to the CPU, same bytes" {
    sc-compact -d cpu --indices -w < in.bin > cpu.out
    SC_TEST_DEVICE_MEMORY=1M sc-compact -d cuda --indices -w -v < in.bin \
        > gpu.out 2> err.txt
    cmp cpu.out gpu.out
    grep -q "continued on the CPU" err.txt
    SC_TEST_DEVICE_MEMORY=1M sc-split -d cuda < in.bin | \
        cmp - <(sc-split -d cpu < in.bin)
    SC_TEST_DEVICE_MEMORY=1M sc-rsort -d cuda < in.bin | \
        cmp - <(sc-rsort -d cpu < in.bin)
    SC_TEST_DEVICE_MEMORY=1M sc-gen -d cuda -n 3M -s 5 | \
        cmp - <(sc-gen -d cpu -n 3M -s 5)
    SC_TEST_DEVICE_MEMORY=1M sc-stat -d cuda -v < in.bin > gpu.stat 2> err.txt
    sc-stat -d cpu < in.bin | cmp - gpu.stat
    grep -q "continued on the CPU" err.txt
}

@test "gpu-memory: a record sort or argsort that does not fit on the GPU runs on the CPU, same bytes" {
    recgen r 16 8 u64 200003 9
    local o
    for o in "" "--indices" "-r -u"; do
        # shellcheck disable=SC2086
        SC_TEST_DEVICE_MEMORY=1M sc-rsort -d cuda -v --record 16 --key 8:u64 $o r \
            > gpu.out 2> err.txt
        # shellcheck disable=SC2086
        sc-rsort -d cpu --record 16 --key 8:u64 $o r | cmp - gpu.out
        grep -q "continued on the CPU" err.txt || { cat err.txt >&2; return 1; }
    done
}
