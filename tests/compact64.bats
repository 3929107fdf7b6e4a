#!/usr/bin/env bats
# compact64.bats -- sc-compact and sc-split (by a condition) on the 64-bit
# element types (-e u64, -e i64, -e f64) against sc-ref's compact and
# split: every condition option read in the type, --indices, --count,
# -r and the held rejects, chunks, threads, devices, formats and stray
# bytes.  The data is sc-ref gen's: the specials of each type (0, the
# extremes, both zeros, both infinities, NaNs of both signs with
# payloads, denormals), many duplicates, and any bit pattern.

load test_helper

setup() {
    sc_setup
    require_tool sc-compact sc-split
}

TYPES64="u64 i64 f64"

# conds TYPE: conditions to try on TYPE, one a line, read in the type:
# bounds past 2^32 and 2^53 (where a 32-bit word or a double would
# answer otherwise), negative and crossing 0 for i64, masks above bit 32,
# and for f64 NaN, both zeros, infinities and denormals as bounds.
conds() {
    printf '%s\n' "" "-x"
    case $1 in
    u64) printf '%s\n' "--eq 0" "--ne 0" "--lt 4294967296" "--le 4294967295" \
        "--gt 4294967295" "--ge 9007199254740993" "--eq 9007199254740993" \
        "--range 4294967296:18446744073709551615" "--range 1000:1000" \
        "--mask 0x100000000" "--mask 0x8000000000000000" \
        "--mask 0xffffffff00000000 --mask 1" "--gt 18446744073709551615" \
        "--lt 0" "--ge 0" "--ne 18446744073709551615 -x" \
        "--gt 1000 --lt 0x100000000000 --ne 4294967296" "--range 0:1000 -x" ;;
    i64) printf '%s\n' "--lt 0" "--le -1" "--ge 0" "--gt -4294967297" \
        "--ge -9223372036854775808" "--lt -9223372036854775808" \
        "--gt 9223372036854775807" "--range -9223372036854775808:9223372036854775807" \
        "--range -5000000000:5000000000" "--range -1:1" "--range -1000:-1" \
        "--range -5:-5" "--mask 0x8000000000000000" "--mask 0x100000000" \
        "--mask 0xffffffff" "--ne -1 --ne 0 -x" "--eq -1000" \
        "--lt -9007199254740993" "--eq -9223372036854775808" \
        "--gt -1000 --lt 1000 --ne 0" "--le -0x100000000 -x" ;;
    f64) printf '%s\n' "--lt 0" "--le 0" "--gt -0" "--ge 0" "--eq 0" "--eq -0" \
        "--ne 0" "--ne -0" "--lt -0" "--le -0" "--range -1.5:100" \
        "--range -inf:inf" "--range 0:-0" "--range -0:0" "--range -1e-310:1e-310" \
        "--lt nan" "--gt nan" "--eq nan" "--ne nan" "--ne -nan -x" \
        "--gt 1e300" "--lt -1e-310" "--gt 4.9e-324" "--eq -inf" "--eq inf" \
        "--le inf" "--ge -inf" "--lt inf" "--gt -inf" "--ne 0 -x" \
        "--range -10:10 --ne 1 -x" "--gt 9007199254740992" \
        "--ge 1 --le 1e6 --ne 8" "--lt 1.7976931348623157e308" ;;
    esac
}

# both TYPE FILE [ARGS...]: sc-compact (values and --indices) and
# sc-split with ARGS vs sc-ref on FILE, with EXTRA.
both() {
    local t=$1 f=$2
    shift 2
    vs_ref sc-compact compact "$f" --type "$t" "$@" || return 1
    vs_ref sc-compact compact "$f" --type "$t" --indices "$@" || return 1
    vs_ref sc-split split "$f" --type "$t" "$@" || return 1
}

# figures TYPE FILE [ARGS...]: the same for --count, --indices -w.
figures() {
    local t=$1 f=$2
    shift 2
    vs_ref sc-compact compact "$f" --type "$t" --count "$@" || return 1
    vs_ref sc-compact compact "$f" --type "$t" --indices -w "$@" || return 1
    vs_ref sc-split split "$f" --type "$t" --count "$@" || return 1
}

@test "compact64: every condition option vs sc-ref, u64 i64 f64" {
    local t c cs
    for t in $TYPES64; do
        gen64 a "$t" 20011 3
        mapfile -t cs < <(conds "$t")
        for c in "${cs[@]}"; do
            # shellcheck disable=SC2086
            both "$t" a $c || { echo "# -e $t $c" >&2; return 1; }
        done
        for c in "${cs[@]:0:6}"; do
            # shellcheck disable=SC2086
            figures "$t" a $c || { echo "# -e $t $c" >&2; return 1; }
        done
    done
}

@test "compact64: sizes 0 to 65537 and a prime, with -j 1, -j 4 and -c 4K" {
    local t n
    for t in $TYPES64; do
        for n in 0 1 31 32 33 4095 4096 65537 100003; do
            gen64 a "$t" "$n" $((n + 7))
            EXTRA=()
            both "$t" a || { echo "# -e $t, $n elements" >&2; return 1; }
            figures "$t" a --gt 1 -x || { echo "# -e $t, $n elements" >&2; return 1; }
            [ "$n" -ge 4095 ] || continue
            # chunks of 512 elements cut anywhere, on 4 threads
            EXTRA=(-j 4 -c 4K)
            both "$t" a --gt 1 -x || { echo "# -e $t, $n elements, ${EXTRA[*]}" >&2; return 1; }
            figures "$t" a || { echo "# -e $t, $n elements, ${EXTRA[*]}" >&2; return 1; }
            [ "$n" -eq 100003 ] || continue
            EXTRA=(-j 1)
            both "$t" a --ne 0 || { echo "# -e $t, $n elements, ${EXTRA[*]}" >&2; return 1; }
        done
    done
    EXTRA=()
    # Empty input: empty output, or the figures of nothing.
    : > empty
    sc-compact -e u64 empty > out
    [ ! -s out ]
    [ "$(sc-compact -e i64 --count empty)" = 0 ]
    [ "$(sc-split -e f64 --count empty)" = "0 0" ]
}

@test "compact64: by hand: whole 64-bit words, order in the type, positions past 2^32 values" {
    # 2^32 has a zero low word; 2^53 + 1 is no double
    pack64 u64 4294967296 0 1 8589934592 9007199254740993 9007199254740992 > u
    sc-compact -e u64 -t u | tr '\n' ' ' > out
    [ "$(cat out)" = "4294967296 1 8589934592 9007199254740993 9007199254740992 " ]
    sc-compact -e u64 -t --eq 9007199254740993 u > out
    [ "$(cat out)" = 9007199254740993 ]
    sc-compact -e u64 --indices -t --mask 0x100000000 u | tr '\n' ' ' > out
    [ "$(cat out)" = "0 " ]
    sc-compact -e u64 --indices -w -t --gt 4294967295 u | tr '\n' ' ' > out
    [ "$(cat out)" = "0 3 4 5 " ]
    sc-split -e u64 -t --lt 4294967296 u | tr '\n' ' ' > out
    [ "$(cat out)" = "0 1 4294967296 8589934592 9007199254740993 9007199254740992 " ]
    # i64: the sign of the whole word; 4294967295 is no -1
    pack64 i64 -1 4294967295 -4294967296 0 5 -9223372036854775808 > i
    sc-compact -e i64 -t --lt 0 i | tr '\n' ' ' > out
    [ "$(cat out)" = "-1 -4294967296 -9223372036854775808 " ]
    sc-compact -e i64 -t --range -1:4294967295 i | tr '\n' ' ' > out
    [ "$(cat out)" = "-1 4294967295 0 5 " ]
    sc-split -e i64 -t --ge 0 i | tr '\n' ' ' > out
    [ "$(cat out)" = "4294967295 0 5 -1 -4294967296 -9223372036854775808 " ]
    [ "$(sc-compact -e i64 --count --eq -1 i)" = 1 ]
    # f64: both zeros dropped by default; NaN fails every bound
    printf -- '-0 0 nan -nan 1e-320 -inf 2.5 1e300\n' > f.txt
    sc-compact -e f64 --in text -t f.txt | tr '\n' ' ' > out
    [ "$(cat out)" = "nan -nan 9.99988867182683e-321 -inf 2.5 1e+300 " ]
    sc-compact -e f64 --in text -t --le 0 f.txt | tr '\n' ' ' > out
    [ "$(cat out)" = "-0 0 -inf " ]
    sc-compact -e f64 --in text -t --ne nan --gt -inf f.txt | tr '\n' ' ' > out
    [ "$(cat out)" = "-0 0 9.99988867182683e-321 2.5 1e+300 " ]
    sc-split -e f64 --in text -t --range -inf:inf -x f.txt | tr '\n' ' ' > out
    [ "$(cat out)" = "nan -nan -0 0 9.99988867182683e-321 -inf 2.5 1e+300 " ]
    [ "$(sc-split -e f64 --in text --count --eq -0 f.txt)" = "2 6" ]
}

@test "compact64: values out of the type and --mask on f64 are usage errors" {
    pack64 u64 1 2 3 > a
    run sc-compact -e u64 --eq 18446744073709551616 a
    expect_usage sc-compact
    [[ $output == *"out of range for u64"* ]]
    run sc-compact -e u64 --lt -1 a
    expect_usage sc-compact
    run sc-split -e i64 --gt 9223372036854775808 a
    expect_usage sc-split
    [[ $output == *"i64"* ]]
    run sc-split -e i64 --range -9223372036854775809:0 a
    expect_usage sc-split
    run sc-compact -e f64 --lt 1e309 a
    expect_usage sc-compact
    run sc-compact -e f64 --mask 1 a
    expect_usage sc-compact
    run sc-compact -e i64 --eq 1.5 a
    expect_usage sc-compact
    # the largest values are in range, and --type may follow them
    sc-compact --le 18446744073709551615 -e u64 a > out
    expect_same a out
    sc-compact --ge -9223372036854775808 -e i64 a > out
    expect_same a out
}

@test "compact64: --mask in a signed type takes negative values as their two's complement, every integer type, against sc-ref" {
    sc-gen -d cpu -e i32 --min -1000 --max 1000 -n 3001 -s 4 > a32
    sc-gen -d cpu -e i64 --min -5000000000 --max 5000000000 -n 3001 -s 4 > a64
    local t m
    for t in i32 i64; do
        f=a${t#i}
        for m in -1 -2 -0x10 -2147483648 "-1 -x" "-4 --mask 1"; do
            vs_ref sc-compact compact $f --type $t --mask $m
            vs_ref sc-compact compact $f --type $t --indices --mask $m
            vs_ref sc-split split $f --type $t --mask $m
        done
    done
    # -1 is every bit: all but the zeros; the same as the type's largest word
    [ "$(sc-compact -e i64 --mask -1 --count a64)" = "$(sc-compact -e i64 --ne 0 --count a64)" ]
    [ "$(sc-compact -e i64 --mask -1 a64 | od -An -tx1 | md5sum)" = \
      "$(sc-compact -e i64 --mask 0xffffffffffffffff a64 | od -An -tx1 | md5sum)" ]
    [ "$(sc-compact -e i32 --mask -1 a32 | md5sum)" = "$(sc-compact -e i32 --mask 0xffffffff a32 | md5sum)" ]
    # out of range: a usage error that names the type's range
    local bad
    for bad in "i32 -2147483649" "i32 4294967296" "i64 -9223372036854775809" \
               "i64 18446744073709551616" "u32 -1" "u32 4294967296" "u64 -1" \
               "u64 18446744073709551616"; do
        set -- $bad
        run sc-compact -e $1 --mask $2 a32
        expect_usage sc-compact
        case $1 in
        i32) r="-2147483648 to 4294967295" ;;
        i64) r="-9223372036854775808 to 18446744073709551615" ;;
        u32) r="0 to 4294967295" ;;
        u64) r="0 to 18446744073709551615" ;;
        esac
        [[ "$output" == "sc-compact: value '$2' for --mask is out of range for $1 ($r)"* ]] ||
            { echo "# $bad: $output" >&2; return 1; }
    done
    run sc-split -e i32 --mask -0x a32
    expect_usage sc-split
    [[ "$output" == *"invalid value '-0x' for --mask"* ]]
}

@test "compact64: sc-split -r FILE, and the rejects held past -S in -T" {
    local t c
    mkdir tmpd
    for t in $TYPES64; do
        gen64 a "$t" 100003 5
        for c in "" "--gt 0" "--lt 0 -x" "--range -1000:1000"; do
            [ "$t" = u64 ] && [ "$c" = "--range -1000:1000" ] && c="--range 1000:100000"
            # shellcheck disable=SC2086
            ref compact --type "$t" $c < a > want.sel
            # shellcheck disable=SC2086
            ref split --type "$t" $c < a > want.all
            # shellcheck disable=SC2086
            sc-split -e "$t" $c -r rej a > sel
            expect_same want.sel sel || { echo "# -e $t $c -r: selected" >&2; return 1; }
            cat sel rej > all
            expect_same want.all all || { echo "# -e $t $c -r: rejects" >&2; return 1; }
            # the same with chunks of 4K on 4 threads, and through -o
            # shellcheck disable=SC2086
            sc-split -e "$t" $c -c 4K -j 4 -r rej2 -o sel2 a
            expect_same sel sel2
            expect_same rej rej2
            # held rejects spilled to -T's directory past -S 4K and 64K
            # shellcheck disable=SC2086
            sc-split -e "$t" $c -S 4K -T tmpd a > held
            expect_same want.all held || { echo "# -e $t $c -S 4K" >&2; return 1; }
            # shellcheck disable=SC2086
            sc-split -e "$t" $c -S 64K -T tmpd -c 4K -j 4 a > held
            expect_same want.all held || { echo "# -e $t $c -S 64K" >&2; return 1; }
            [ -z "$(ls -A tmpd)" ] || { echo "# temporary files left: $(ls tmpd)" >&2; return 1; }
        done
    done
}

@test "compact64: gzip, text and --big-endian input" {
    local t c
    for t in $TYPES64; do
        gen64 a "$t" 50021 9
        c="--gt 0"
        [ "$t" = u64 ] && c="--gt 4294967296"
        # shellcheck disable=SC2086
        ref compact --type "$t" $c < a > want.c
        # shellcheck disable=SC2086
        ref compact --type "$t" --indices $c < a > want.i
        # shellcheck disable=SC2086
        ref split --type "$t" $c < a > want.s
        # gzip in: one member, and two cut inside an element
        gzip -c a > a.gz
        head -c 4004 a | gzip -c > two.gz
        tail -c +4005 a | gzip -c >> two.gz
        # shellcheck disable=SC2086
        sc-compact -e "$t" $c a.gz > got
        expect_same want.c got
        # shellcheck disable=SC2086
        sc-compact -e "$t" --indices $c -c 4K < two.gz > got
        expect_same want.i got
        # shellcheck disable=SC2086
        sc-split -e "$t" $c two.gz > got
        expect_same want.s got
        # -z output holds the same elements
        # shellcheck disable=SC2086
        sc-split -e "$t" $c -z a.gz | gzip -dc > got
        expect_same want.s got
        # text in and out
        gen64 a.txt "$t" 20011 10 -t
        # shellcheck disable=SC2086
        both "$t" a.txt --in text $c || { echo "# -e $t --in text" >&2; return 1; }
        # shellcheck disable=SC2086
        vs_ref sc-split split a.txt --type "$t" --in text -t $c
        vs_ref sc-compact compact a --type "$t" -t
        # big-endian elements in, and values out (positions too)
        gen64 a.be "$t" 50021 9 --big-endian
        # shellcheck disable=SC2086
        both "$t" a.be --big-endian $c || { echo "# -e $t --big-endian" >&2; return 1; }
        # shellcheck disable=SC2086
        vs_ref sc-split split a.be --type "$t" --big-endian -t $c
    done
}

@test "compact64: a length not a multiple of 8: the whole elements processed and written, then an error, exit 1" {
    local t k
    for t in $TYPES64; do
        gen64 a "$t" 10007 11
        ref compact --type "$t" < a > want.c
        ref split --type "$t" < a > want.s
        ref split --type "$t" --count < a > want.n
        for k in 1 3 4 7; do
            cp a odd
            printf 'ABCDEFG' | head -c "$k" >> odd
            run_to got err sc-compact -e "$t" odd
            [ "$status" -eq 1 ] || { echo "# -e $t +$k bytes: status $status" >&2; return 1; }
            expect_same want.c got || { echo "# -e $t +$k bytes" >&2; return 1; }
            expect_one_line_error sc-compact err
            grep -qi 'byte' err || { echo "# no stray bytes named: $(cat err)" >&2; return 1; }
            grep -qw "$k" err || { echo "# not $k bytes: $(cat err)" >&2; return 1; }
            run_to got err sc-split -e "$t" < odd
            [ "$status" -eq 1 ]
            expect_same want.s got
            expect_one_line_error sc-split err
            run_to got err sc-split -e "$t" --count odd
            [ "$status" -eq 1 ]
            expect_same want.n got
        done
    done
    # 4 bytes alone are a u32, but no u64: nothing written, exit 1
    u32le 7 > four
    run_to got err sc-compact -e u64 four
    [ "$status" -eq 1 ]
    [ ! -s got ]
    expect_one_line_error sc-compact err
    run_to got err sc-split -e i64 four
    [ "$status" -eq 1 ]
    [ ! -s got ]
}

@test "compact64: -d cpu and -d auto give the same bytes; -v names the CPU and the counts" {
    local t d
    for t in $TYPES64; do
        gen64 a "$t" 65537 13
        ref compact --type "$t" --lt 0 -x < a > want.c
        ref split --type "$t" --lt 0 -x < a > want.s
        for d in cpu auto; do
            sc-compact -e "$t" -d "$d" --lt 0 -x a > got
            expect_same want.c got || { echo "# -e $t -d $d" >&2; return 1; }
            sc-split -e "$t" -d "$d" --lt 0 -x a > got
            expect_same want.s got || { echo "# -e $t -d $d" >&2; return 1; }
        done
        run_to got err sc-compact -e "$t" -d auto -v a
        [ "$status" -eq 0 ]
        grep -q '^sc-compact: device: cpu' err || { echo "# -v: $(cat err)" >&2; return 1; }
        grep -q "^sc-compact: elements: in 65537, out $(ref compact --type "$t" --count < a)\$" err ||
            { echo "# -v: $(cat err)" >&2; return 1; }
        run_to got err sc-split -e "$t" -d cpu -v -r rej a
        grep -q "^sc-split: elements: in 65537, out 65537\$" err ||
            { echo "# -v: $(cat err)" >&2; return 1; }
    done
}

@test "compact64: -d cuda compacts and splits 64-bit elements on the GPU: the bytes of -d cpu" {
    skip_without_gpu
    local t
    for t in $TYPES64; do
        gen64 a "$t" 400003 15
        sc-compact -e "$t" -d cpu --gt 0 a > cpu.c
        sc-compact -e "$t" -d cuda --gt 0 a > cuda.c
        expect_same cpu.c cuda.c
        sc-compact -e "$t" -d cuda --indices --gt 0 a > cuda.i
        sc-compact -e "$t" -d cpu --indices --gt 0 a > cpu.i
        expect_same cpu.i cuda.i
        sc-split -e "$t" -d cpu a > cpu.s
        sc-split -e "$t" -d cuda a > cuda.s
        expect_same cpu.s cuda.s
        sc-split -e "$t" -d cuda -S 64K a > cuda.s
        expect_same cpu.s cuda.s
        # chunks that cut the input anywhere, on every lane
        sc-compact -e "$t" -d cuda -c 4K --gt 0 a > cuda.c
        expect_same cpu.c cuda.c
        sc-split -e "$t" -d cuda -c 12K -r cuda.r a > cuda.s
        sc-split -e "$t" -d cpu -r cpu.r a > cpu.s
        expect_same cpu.s cuda.s
        expect_same cpu.r cuda.r
    done
    # -v says the GPU ran each of them (its kernels take 8-byte elements),
    # a 64-bit scan too
    run -0 --separate-stderr sc-compact -e u64 -d cuda -v a
    [[ "$stderr" == *"device: cuda"* && "$stderr" != *"host's threads took"* ]] ||
        { echo "# $stderr" >&2; return 1; }
    run -0 --separate-stderr sc-split -e f64 -d cuda -v a
    [[ "$stderr" == *"device: cuda"* && "$stderr" != *"host's threads took"* ]] ||
        { echo "# $stderr" >&2; return 1; }
    run -0 --separate-stderr sc-scan -e u64 -d cuda -v -o cuda.x a
    [[ "$stderr" == *"device: cuda"* && "$stderr" != *"host's threads took"* ]] ||
        { echo "# $stderr" >&2; return 1; }
    sc-scan -e u64 -d cpu a > cpu.x
    expect_same cpu.x cuda.x
}

@test "compact64: -d cuda with no usable GPU fails as it does for u32: exit 1, nothing written" {
    have_gpu && skip "a CUDA GPU is here (the test above runs)"
    pack64 u64 1 2 3 > a
    run_to want err sc-compact -d cuda a
    local ws=$status t p
    [ "$ws" -eq 1 ]
    for p in sc-compact sc-split; do
        for t in $TYPES64; do
            run_to got err "$p" -e "$t" -d cuda a
            [ "$status" -eq "$ws" ] || { echo "# $p -e $t -d cuda: status $status" >&2; return 1; }
            [ ! -s got ]
            expect_one_line_error "$p" err
        done
    done
}
