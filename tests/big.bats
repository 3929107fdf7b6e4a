#!/usr/bin/env bats
# big.bats -- streams of more than 2^32 elements (SPEC "Data": counts and
# positions are 64-bit).
#
# NOTE: each test here pushes 4294967330 elements (~16 GiB) through a pipe.
# Written to stay within ~2 minutes per test on 2 cores; set SC_BIG_TESTS=0
# to skip them (they are skipped loudly, never silently).

load test_helper

N=4294967330   # 2^32 + 34

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-scan sc-stat
    if [ "${SC_BIG_TESTS:-1}" = 0 ]; then
        skip "SC_BIG_TESTS=0: the >2^32-element tests are off"
    fi
}

@test "big: sc-gen -n 2^32+34 --dist iota | sc-compact --count --ge 4294967290 counts 6" {
    # iota wraps: 0 .. 4294967295, then 0 .. 33; only 4294967290..4294967295 pass
    run_to count.txt err.txt bash -c "set -o pipefail; sc-gen -n $N --dist iota | sc-compact --count --ge 4294967290"
    [ "$status" -eq 0 ] || { echo "# status $status: $(cat err.txt)" >&2; return 1; }
    [ "$(cat count.txt)" = 6 ]
}

@test "big: positions past 2^32: --indices -w gives 64-bit positions, --indices (32-bit) fails" {
    run_to idx.bin err.txt bash -c "set -o pipefail; sc-gen -n $N --dist iota | sc-compact --indices -w --eq 5"
    [ "$status" -eq 0 ] || { echo "# status $status: $(cat err.txt)" >&2; return 1; }
    [ "$(u64text idx.bin | tr '\n' ' ')" = "5 4294967301 " ]
    # as uint32, position 4294967301 cannot be written: 5 first, then an error
    run_to idx32.bin err.txt bash -c "sc-gen -n $N --dist iota 2>/dev/null | sc-compact --indices --eq 5"
    [ "$status" -eq 1 ] || { echo "# status $status: $(cat err.txt)" >&2; return 1; }
    [ "$(u32text idx32.bin | tr '\n' ' ')" = "5 " ]
    expect_one_line_error sc-compact err.txt
}

@test "big: sc-scan -w --total over 2^32+34 iota elements" {
    # sum of 0 .. 2^32-1 plus 0 .. 33
    run_to total.txt err.txt bash -c "set -o pipefail; sc-gen -n $N --dist iota | sc-scan -w --total"
    [ "$status" -eq 0 ] || { echo "# status $status: $(cat err.txt)" >&2; return 1; }
    [ "$(cat total.txt)" = 9223372034707292721 ]
}

@test "big: sc-stat's sum passes 2^64 exactly over 2^32+34 elements of 2^32-1" {
    # (2^32 + 34) * (2^32 - 1): a carry out of the low 64 bits, on any device
    run_to rep.txt err.txt bash -c "set -o pipefail; sc-gen -n $N --dist constant --value 0xffffffff | sc-stat"
    [ "$status" -eq 0 ] || { echo "# status $status: $(cat err.txt)" >&2; return 1; }
    [ "$(sed -n 4p rep.txt)" = "sum 18446744215443472350" ]
    [ "$(sed -n 5p rep.txt)" = "mean 4294967295.000000" ]
    [ "$(sed -n 7p rep.txt)" = "distinct 1" ]
}
