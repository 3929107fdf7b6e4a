#!/usr/bin/env bats
# sc-scan: prefix scans against sc-ref.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-scan
}

# scan_vs_ref IN ARGS...: compare, except that for an exclusive min scan
# with -w and no --carry-in the first element (the identity of a 64-bit
# min, which SPEC leaves open) is not compared.
scan_vs_ref() {
    local in=$1
    shift
    local a=" $* "
    if [[ $a == *" --op min "* && $a == *" -w "* && $a != *" -i "* &&
          $a != *" --carry-in "* && $a != *" --total "* ]]; then
        ref scan "$@" < "$in" | tail -c +9 > ref.out
        sc-scan "${EXTRA[@]}" "$@" < "$in" | tail -c +9 > tool.out
        expect_same ref.out tool.out || { echo "# sc-scan $*" >&2; return 1; }
        return 0
    fi
    vs_ref sc-scan scan "$in" "$@"
}

@test "sc-scan: exclusive sum vs sc-ref, sizes 0..1000003" {
    local n
    for n in 0 1 31 32 33 4095 4096 65537 1000003; do
        gen_file in.bin $n $((n + 5)) 0.5
        vs_ref sc-scan scan in.bin || { echo "# n=$n" >&2; return 1; }
        vs_ref sc-scan scan in.bin -i || { echo "# n=$n -i" >&2; return 1; }
    done
}

@test "sc-scan: small cases by hand, every op" {
    u32le 5 0 3 7 0 2 > in.bin
    sc-scan in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "0 5 5 8 15 15 " ]
    sc-scan -i in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "5 5 8 15 15 17 " ]
    sc-scan --inclusive --op max in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "5 5 5 7 7 7 " ]
    sc-scan --op max in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "0 5 5 5 7 7 " ]
    sc-scan -i --op min in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "5 0 0 0 0 0 " ]
    sc-scan --op min in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "4294967295 5 0 0 0 0 " ]
    sc-scan -i --op xor in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "5 5 6 1 1 3 " ]
    sc-scan --op xor in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "0 5 5 6 1 1 " ]
    sc-scan -w in.bin > o.bin
    [ "$(stat -c %s o.bin)" -eq 48 ]
    [ "$(u64text o.bin | tr '\n' ' ')" = "0 5 5 8 15 15 " ]
    sc-scan --carry-in 100 in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "100 105 105 108 115 115 " ]
    [ "$(sc-scan --total in.bin)" = 17 ]
    [ "$(sc-scan --total -i in.bin)" = 17 ]
    [ "$(sc-scan --total --op max in.bin)" = 7 ]
    [ "$(sc-scan --total --op min in.bin)" = 0 ]
    [ "$(sc-scan --total --op xor in.bin)" = 3 ]
    [ "$(sc-scan --total --carry-in 0x10 in.bin)" = 33 ]
}

@test "sc-scan: ops x -i x -w x --carry-in x --total vs sc-ref" {
    # full-range values (sums wrap, xor uses all bits) followed by small
    # ones (max and min change often)
    gen_file a.bin 60001 31 0.7
    gen_file b.bin 40003 32 0.7 --min 0 --max 1000
    cat a.bin b.bin > in.bin
    local op inc wide carry
    for op in sum max min xor; do
        for wide in "" -w; do
            for inc in "" -i; do
                for carry in "" "--carry-in 12345" "--carry-in 0xffffffff"; do
                    scan_vs_ref in.bin --op $op $inc $wide $carry || return 1
                done
            done
            for carry in "" "--carry-in 0" "--carry-in 0xffffffff"; do
                scan_vs_ref in.bin --op $op $wide $carry --total || return 1
            done
        done
    done
}

@test "sc-scan -w --carry-in above 2^32 (64-bit accumulator)" {
    gen_file in.bin 10007 3 0.5
    scan_vs_ref in.bin -w --carry-in 5000000000
    scan_vs_ref in.bin -w -i --carry-in 0x100000000
    scan_vs_ref in.bin -w --total --carry-in 18446744000000000000
    scan_vs_ref in.bin -w --op max --carry-in 5000000000
    scan_vs_ref in.bin -w --op xor -i --carry-in 0x123456789
}

@test "sc-scan: 32-bit sums wrap around; -w does not" {
    sc-gen -n 5 --dist constant --value 0xffffffff > in.bin
    sc-scan in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "0 4294967295 4294967294 4294967293 4294967292 " ]
    sc-scan -w in.bin > o.bin
    [ "$(u64text o.bin | tr '\n' ' ')" = "0 4294967295 8589934590 12884901885 17179869180 " ]
    [ "$(sc-scan --total in.bin)" = 4294967291 ]
    [ "$(sc-scan --total -w in.bin)" = 21474836475 ]
    gen_file big.bin 1000003 9
    vs_ref sc-scan scan big.bin --total
    vs_ref sc-scan scan big.bin --total -w
    vs_ref sc-scan scan big.bin -i -w
}

@test "sc-scan: a known sum: iota 0..99999 totals 4999950000" {
    sc-gen -n 100000 --dist iota > in.bin
    [ "$(sc-scan -w --total in.bin)" = 4999950000 ]
    [ "$(sc-scan --total in.bin)" = $((4999950000 % 4294967296)) ]
    sc-scan -w -i in.bin | tail -c 8 > last.bin
    [ "$(u64text last.bin)" = 4999950000 ]
}

@test "sc-scan: pieces joined via --total / --carry-in equal the whole scan" {
    gen_file in.bin 300007 41 0.5
    head -c 400000 in.bin > p1.bin
    tail -c +400001 in.bin | head -c 123456 > p2.bin
    tail -c +523457 in.bin > p3.bin
    cat p1.bin p2.bin p3.bin | cmp - in.bin
    local op args
    for op in sum max min xor; do
        for args in "--op $op" "--op $op -i -w" "--op $op -w" "--op $op -i"; do
            # (every op with every form would be 16 x 7 runs: on a GPU each
            # run starts a CUDA context, so sum gets all four forms, the
            # others two)
            case "$args" in *" -w" | *" -i") [ $op = sum ] || continue ;; esac
            sc-scan $args in.bin > whole.out
            local c1 c2
            c1=$(sc-scan $args --total p1.bin)
            c2=$(sc-scan $args --total --carry-in "$c1" p2.bin)
            { sc-scan $args p1.bin; sc-scan $args --carry-in "$c1" p2.bin; \
              sc-scan $args --carry-in "$c2" p3.bin; } > pieces.out
            expect_same whole.out pieces.out || { echo "# $args" >&2; return 1; }
            [ "$(sc-scan $args --total --carry-in "$c2" p3.bin)" = "$(sc-scan $args --total in.bin)" ]
        done
    done
}

@test "sc-scan: chunk sizes 4K 8K 12K 64K and default, threads 1 2 4: identical bytes" {
    gen_file in.bin 1200007 43 0.5
    local what c
    for what in "" "-i -w" "--op max -i" "--op xor --carry-in 77" "--total -w"; do
        ref scan $what < in.bin > want.out
        for c in 4K 8K 12K 64K 1M; do
            sc-scan -c $c $what in.bin > got.out
            expect_same want.out got.out || { echo "# -c $c $what" >&2; return 1; }
        done
        for c in 1 2 4; do
            sc-scan -j $c $what in.bin > got.out
            expect_same want.out got.out || { echo "# -j $c $what" >&2; return 1; }
        done
    done
}

@test "sc-scan: gz and text input, several inputs, -z and -t output" {
    gen_file a.bin 100003 1 0.5
    gen_file b.bin 50001 2 0.5
    cat a.bin b.bin > ab.bin
    gzip -c b.bin > b.gz
    ref scan < ab.bin > want.out
    sc-scan - b.gz < a.bin > got.out
    expect_same want.out got.out
    u32text ab.bin > ab.txt
    sc-scan --in text ab.txt > got.out
    expect_same want.out got.out
    sc-scan -z a.bin b.bin | gzip -dc > got.out
    expect_same want.out got.out
    u32text want.out > want.txt
    sc-scan -t a.bin b.bin > got.txt
    cmp want.txt got.txt
    ref scan -w -i < ab.bin | u64text > want.txt
    sc-scan -t -w -i a.bin b.bin > got.txt
    cmp want.txt got.txt
    sc-scan -o out.bin a.bin b.bin
    expect_same want.out out.bin
}

@test "sc-scan -h and -V: stdout, exit 0" {
    run --separate-stderr sc-scan --help
    [ "$status" -eq 0 ]
    [[ "$output" == *--carry-in* ]]
    [ -z "$stderr" ]
    run --separate-stderr sc-scan -V
    [ "$status" -eq 0 ]
    [[ "$output" =~ [0-9]+\.[0-9]+ ]]
}
