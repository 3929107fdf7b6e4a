#!/usr/bin/env bats
# scan64.bats -- sc-scan on the 64-bit element types (-e u64, -e i64,
# -e f64) against sc-ref scan, byte for byte: every operator, -i,
# --carry-in (the extremes, negatives, NaNs and infinities), --total,
# sizes around the float sum's blocks of 1024, chunks that cut anywhere
# (-c 4K), one and several threads, gzip, text and big-endian input, text
# and big-endian output, stray bytes, -d cpu and -d auto; -w refused.
# The data is sc-ref's own (sc-ref gen): the specials of each type, many
# duplicates, and any bit pattern.

load test_helper

setup() {
    sc_setup
    require_tool sc-scan sc-gen
}

TYPES64="u64 i64 f64"
SIZES="0 1 31 33 1023 1024 1025 4096 65537"
# The sizes that -c 4K (512 elements) cuts into several chunks.
CUT_SIZES="1025 4096 65537"

# data TYPE N SEED [sc-ref gen options]: N elements of TYPE into in.
data() {
    local t=$1 n=$2 s=$3
    shift 3
    ref gen --type "$t" -n "$n" -s "$s" "$@" > in ||
        { echo "# sc-ref gen --type $t -n $n failed" >&2; return 1; }
}

# finite N SEED: N finite f64s of many magnitudes into in (sc-ref's data
# has NaNs early, after which every sum is NaN): a sum of them rounds at
# nearly every addition, so its bits show the order of the additions.
finite() {
    sc-gen -d cpu -e f64 -n "$1" -s "$2" --min -1e6 --max 1e6 > in &&
        sc-gen -d cpu -e f64 -n "$1" -s "$(($2 + 1))" --min -1e-3 --max 1e-3 >> in
}

# ops TYPE: the operators TYPE takes (xor: integers only).
ops() {
    if [ "$1" = f64 ]; then echo sum max min; else echo sum max min xor; fi
}

# swap64 < IN > OUT: the byte order of every 8-byte element reversed.
swap64() {
    perl -e 'local $/; print pack("Q>*", unpack("Q<*", <STDIN>))'
}

# every_mode TYPE [sc-scan options]: each operator, exclusive and
# inclusive, and --total, against sc-ref on in.
every_mode() {
    local t=$1 op m
    shift
    local EXTRA=("$@")
    for op in $(ops "$t"); do
        for m in "" "-i" "--total"; do
            # shellcheck disable=SC2086
            vs_ref sc-scan scan in --type "$t" --op "$op" $m ||
                { echo "# -e $t --op $op $m $*, $(($(stat -c %s in) / 8)) elements" >&2; return 1; }
        done
    done
}

@test "scan64: every operator, -i, --total vs sc-ref: sizes 0 to 65537, -j 1 and -j 4 -c 4K" {
    local t n
    for t in $TYPES64; do
        for n in $SIZES; do
            data "$t" "$n" "$((n + 3))"
            every_mode "$t" -j 1
            case " $CUT_SIZES " in *" $n "*) every_mode "$t" -j 4 -c 4K ;; esac
        done
    done
}

@test "scan64: f64 sums of finite data vs sc-ref: sizes 0 to 2 x 65537, -j 1 and -j 4 -c 4K" {
    local n m o EXTRA
    for n in $SIZES; do
        finite "$n" "$n"
        for m in "" "-i" "--total" "--carry-in 0.1" "-i --carry-in -7e5"; do
            for o in "-j 1" "-j 4 -c 4K"; do
                # shellcheck disable=SC2206
                EXTRA=($o)
                # shellcheck disable=SC2086
                vs_ref sc-scan scan in --type f64 $m ||
                    { echo "# n=$n $m $o" >&2; return 1; }
            done
        done
    done
}

@test "scan64: through a pipe (the ordered pipeline), -d cpu and -d auto" {
    local t op
    for t in $TYPES64; do
        data "$t" 70001 11
        for op in $(ops "$t"); do
            ref scan --type "$t" --op "$op" -i < in > want
            cat in | sc-scan -e "$t" --op "$op" -i -c 4K > got
            expect_same want got
            sc-scan -d cpu -e "$t" --op "$op" -i in > got
            expect_same want got
            sc-scan -d auto -e "$t" --op "$op" -i -c 4K -j 3 in > got
            expect_same want got
        done
    done
}

@test "scan64: --carry-in at the extremes, negative, NaN and infinite vs sc-ref" {
    local t c op m
    for t in $TYPES64; do
        data "$t" 5000 21
        case $t in
        u64) set -- 0 1 18446744073709551615 0x8000000000000000 0xffffffff00000000 ;;
        i64) set -- 0 -1 -9223372036854775808 9223372036854775807 -0x10 4294967296 ;;
        f64) set -- 0 -0 1.5 -1e300 inf -inf nan -nan 0x1p-1074 \
                    1.7976931348623157e308 -4.9e-324 ;;
        esac
        for c in "$@"; do
            for op in $(ops "$t"); do
                for m in "" "-i" "--total"; do
                    # shellcheck disable=SC2086
                    vs_ref sc-scan scan in --type "$t" --op "$op" --carry-in "$c" $m ||
                        { echo "# -e $t --op $op --carry-in $c $m" >&2; return 1; }
                done
            done
        done
        # on empty input --total is the carry itself
        : > empty
        for c in "$@"; do
            vs_ref sc-scan scan empty --type "$t" --total --carry-in "$c"
        done
    done
    # a NaN carry-in is a NaN sum, +nan, for f32's double carry too
    vs_ref sc-scan scan empty --type f32 --total --carry-in -nan
}

@test "scan64: a --carry-in the type cannot hold is a usage error, as in sc-ref" {
    printf '' > in
    local a
    while read -r a; do
        # shellcheck disable=SC2086
        run ref scan $a < /dev/null
        [ "$status" -eq 2 ] || { echo "# sc-ref scan $a: $status" >&2; return 1; }
        # shellcheck disable=SC2086
        run sc-scan ${a/--type/-e} in
        expect_usage sc-scan
    done <<'EOF'
--type u64 --carry-in -1
--type u64 --carry-in 18446744073709551616
--type u64 --carry-in 1.5
--type i64 --carry-in 9223372036854775808
--type i64 --carry-in -9223372036854775809
--type i64 --op max --carry-in 0x8000000000000000
--type f64 --carry-in 1e400
--type f64 --op min --carry-in abc
EOF
}

@test "scan64: small cases by hand: 64-bit wrap, signed order, totalOrder, -0" {
    local out
    # u64 sums wrap at 2^64, not 2^32
    out=$(printf '4294967295 1 18446744073709551615 2\n' | sc-scan -e u64 --in text -i -t | tr '\n' ' ')
    [ "$out" = "4294967295 4294967296 4294967295 4294967297 " ]
    [ "$(printf '18446744073709551615 1\n' | sc-scan -e u64 --in text --total)" = 0 ]
    # i64: negative sums, max and min by value
    out=$(printf -- '-5 3 -9223372036854775808 7\n' | sc-scan -e i64 --in text -t | tr '\n' ' ')
    [ "$out" = "0 -5 -2 9223372036854775806 " ]
    out=$(printf -- '-5 3 -9223372036854775808 7\n' | sc-scan -e i64 --in text --op max -t | tr '\n' ' ')
    [ "$out" = "-9223372036854775808 -5 3 3 " ]
    out=$(printf -- '-5 3 -9223372036854775808 7\n' | sc-scan -e i64 --in text --op min -i -t | tr '\n' ' ')
    [ "$out" = "-5 -5 -9223372036854775808 -9223372036854775808 " ]
    [ "$(printf -- '-1 -2\n' | sc-scan -e i64 --in text --op xor --total)" = 1 ]
    # f64: max by totalOrder (+nan above +inf, -0 below +0); sums in double
    out=$(printf -- '-0 0 inf nan 1\n' | sc-scan -e f64 --in text --op max -i -t | tr '\n' ' ')
    [ "$out" = "-0 0 inf nan nan " ]
    out=$(printf -- '0 -0 -inf -nan\n' | sc-scan -e f64 --in text --op min -i -t | tr '\n' ' ')
    [ "$out" = "0 -0 -inf -nan " ]
    out=$(printf '0.1 0.2 1e308 1e308\n' | sc-scan -e f64 --in text -i -t | tr '\n' ' ')
    [ "$out" = "0.1 0.30000000000000004 1e+308 inf " ]
    # the identities: max starts from the least element, min the greatest
    [ "$(printf '5\n' | sc-scan -e i64 --in text --op max -t)" = -9223372036854775808 ]
    [ "$(printf '5\n' | sc-scan -e u64 --in text --op min -t)" = 18446744073709551615 ]
    # max's identity: the NaN with every significand bit set
    [ "$(printf '5\n' | sc-scan -e f64 --in text --op max -t)" = "-nan(0xfffffffffffff)" ]
    # a -0 carry stays -0 before the first element; a NaN sum is +nan
    [ "$(printf '1\n' | sc-scan -e f64 --in text --carry-in -0 -t)" = -0 ]
    [ "$(printf -- '-nan 1\n' | sc-scan -e f64 --in text -i -t | tr '\n' ' ')" = "nan nan " ]
    # 8 bytes an element, raw
    printf '1 2 3\n' | sc-scan -e u64 --in text > raw
    [ "$(stat -c %s raw)" -eq 24 ]
    [ "$(u64text raw | tr '\n' ' ')" = "0 1 3 " ]
}

@test "scan64: the f64 sum's bytes are the same at every -j and -c, through a pipe, and in pieces" {
    finite 150007 31
    local m o
    for m in "" "-i" "--total"; do
        # shellcheck disable=SC2086
        ref scan --type f64 $m < in > want
        for o in "-j 1" "-j 2" "-j 4" "-c 4K" "-c 8K -j 4" "-c 12K -j 3" "-c 64K" "-d cpu"; do
            # shellcheck disable=SC2086
            sc-scan -e f64 $m $o in > got
            expect_same want got || { echo "# -e f64 $m $o" >&2; return 1; }
        done
        # shellcheck disable=SC2086
        cat in | sc-scan -e f64 $m -c 4K > got
        expect_same want got
    done
    # cut at a multiple of 1024 elements the carry goes on exactly
    head -c $((1024 * 8 * 100)) in > p1
    tail -c +$((1024 * 8 * 100 + 1)) in > p2
    sc-scan -e f64 in > whole
    sc-scan -e f64 p1 > o1
    sc-scan -e f64 --carry-in "$(sc-scan -e f64 --total p1)" p2 > o2
    cat o1 o2 | cmp - whole
    # and several inputs are one stream
    sc-scan -e f64 -c 4K p1 p2 > got
    expect_same whole got
}

@test "scan64: the integer scans in pieces joined through --total and --carry-in" {
    local t op
    for t in u64 i64; do
        data "$t" 50001 41
        head -c $((12345 * 8)) in > p1
        tail -c +$((12345 * 8 + 1)) in > p2
        for op in sum max min xor; do
            sc-scan -e "$t" --op "$op" in > whole
            sc-scan -e "$t" --op "$op" p1 > o1
            sc-scan -e "$t" --op "$op" --carry-in "$(sc-scan -e "$t" --op "$op" --total p1)" p2 > o2
            cat o1 o2 | cmp - whole
        done
    done
}

@test "scan64: gzip and text input, several inputs, -z and -t output vs sc-ref" {
    local t op
    for t in $TYPES64; do
        data "$t" 40009 51
        ref gen --type "$t" -n 40009 -s 51 -t > in.txt
        gzip -c in > in.gz
        for op in $(ops "$t"); do
            ref scan --type "$t" --op "$op" < in > want
            sc-scan -e "$t" --op "$op" in.gz > got
            expect_same want got
            sc-scan -e "$t" --op "$op" --in gz -c 4K < in.gz > got
            expect_same want got
            sc-scan -e "$t" --op "$op" -z -j 4 -c 4K in | gzip -dc > got
            expect_same want got
            # a gzip member and a file cut inside an element
            head -c 4004 in | gzip -c > two.gz
            tail -c +4005 in | gzip -c >> two.gz
            sc-scan -e "$t" --op "$op" two.gz > got
            expect_same want got
            head -c 4004 in > p1
            tail -c +4005 in > p2
            sc-scan -e "$t" --op "$op" -c 4K p1 p2 > got
            expect_same want got
            vs_ref sc-scan scan in --type "$t" --op "$op" -t
            vs_ref sc-scan scan in --type "$t" --op "$op" -i -t
            vs_ref sc-scan scan in.txt --type "$t" --op "$op" --in text
            vs_ref sc-scan scan in.txt --type "$t" --op "$op" --in text -i -t
            vs_ref sc-scan scan in.txt --type "$t" --op "$op" --in text --total
        done
    done
}

@test "scan64: --big-endian in and out" {
    local t op
    for t in $TYPES64; do
        data "$t" 30011 61
        swap64 < in > in.be
        for op in $(ops "$t"); do
            vs_ref sc-scan scan in.be --type "$t" --op "$op" --big-endian
            vs_ref sc-scan scan in.be --type "$t" --op "$op" --big-endian -i -t
            vs_ref sc-scan scan in.be --type "$t" --op "$op" --big-endian --total
            # the little-endian scan's bytes, swapped
            sc-scan -e "$t" --op "$op" -i in | swap64 > want
            sc-scan -e "$t" --op "$op" -i --big-endian -j 4 -c 4K in.be > got
            expect_same want got
        done
        # text in, big-endian out
        ref gen --type "$t" -n 30011 -s 61 -t > in.txt
        ref scan --type "$t" --big-endian --in text < in.txt > want
        sc-scan -e "$t" --big-endian --in text in.txt > got
        expect_same want got
    done
}

@test "scan64: stray bytes: every whole element's scan written, then an error, exit 1" {
    local t k m o
    for t in $TYPES64; do
        data "$t" 10007 71
        for k in 1 4 7; do
            cp in odd
            printf 'ABCDEFG' | head -c "$k" >> odd
            for m in "-i" "--total"; do
                ref scan --type "$t" $m < in > want
                for o in "-j 1" "-j 4 -c 4K"; do
                    # shellcheck disable=SC2086
                    run_to got err sc-scan -e "$t" $m $o odd
                    [ "$status" -eq 1 ] || { echo "# -e $t +$k $m $o: status $status" >&2; return 1; }
                    expect_same want got || { echo "# -e $t +$k $m $o" >&2; return 1; }
                    expect_one_line_error sc-scan err
                    grep -qi 'byte' err || { echo "# no stray bytes named: $(cat err)" >&2; return 1; }
                done
                # shellcheck disable=SC2086
                run_to got err sc-scan -e "$t" $m < odd
                [ "$status" -eq 1 ]
                expect_same want got
            done
        done
    done
    # 4 bytes are no u64: nothing scanned, exit 1
    u32le 7 > four
    run_to got err sc-scan -e u64 -i four
    [ "$status" -eq 1 ]
    [ ! -s got ]
    expect_one_line_error sc-scan err
}

@test "scan64: -w is for 32-bit types: refused for u64, i64, f64 with exit 2, as sc-ref" {
    local t w
    data u64 10 81
    for t in $TYPES64; do
        for w in -w --wide; do
            run ref scan --type "$t" "$w"
            [ "$status" -eq 2 ]
            run_to out err sc-scan -e "$t" "$w" in
            [ "$status" -eq 2 ] || { echo "# -e $t $w: status $status" >&2; return 1; }
            [ ! -s out ]
            grep -q -- "-w needs a 32-bit --type, not $t" err || { echo "# $(cat err)" >&2; return 1; }
            grep -qF "Try 'sc-scan --help'" err
        done
        # whichever comes first
        run sc-scan -w --op max -e "$t" in
        expect_usage sc-scan
    done
    run sc-scan -e f64 --op xor in
    expect_usage sc-scan
    run ref scan --type f64 --op xor
    [ "$status" -eq 2 ]
    # -w still widens the 32-bit types
    printf '1 2\n' | sc-scan -e i32 --in text -w > w
    [ "$(stat -c %s w)" -eq 16 ]
}
