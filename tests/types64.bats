#!/usr/bin/env bats
# types64.bats -- sc-rsort and sc-gen on the 64-bit element types
# (-e u64, -e i64, -e f64) against sc-ref's reading of the same options
# (sc(7), ELEMENT TYPES): sizes, -r, -u, --bits, formats, --big-endian,
# runs past -S, -m, -C, stray bytes, and the tools that refuse 64-bit
# types for now (sc-stat and sc-split --ranges take them: stat64.bats).
# The test data is sc-ref's own (sc-ref gen): the specials of each type
# (0, the extremes, both zeros, both infinities, NaNs of both signs with
# payloads, denormals), many duplicates, and any bit pattern.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-rsort sc-compact sc-split sc-scan sc-stat
}

TYPES64="u64 i64 f64"

# modes TYPE: the -r, -u and --bits combinations to try on TYPE (--bits
# only for the integer types: bits of the rank, the sign bit flipped for
# i64, so 63:64 is the sign).
modes() {
    printf '%s\n' "" "-r" "-u" "-r -u"
    [ "$1" = f64 ] && return 0
    printf '%s\n' "--bits 0:64" "--bits 32:64" "--bits 8:40" "--bits 0:32" \
        "--bits 0:8 -u" "--bits 56:64 -r" "--bits 63:64" "--bits 40:41 -r -u" \
        "--bits 0:33"
}

# show64 TYPE [FILE]: raw little-endian elements -> one number a line.
show64() {
    perl -e 'my %f = (u64 => "Q<", i64 => "q<"); local $/;
             my $f = $f{$ARGV[0]}; open(F, "<", $ARGV[1]) or die;
             print "$_\n" for unpack("$f*", <F>)' "$1" "${2:-/dev/stdin}"
}

have_zstd() {
    sc-gen -n 0 --zstd > /dev/null 2>&1
}

# check_vs_ref FILE TYPE [-C options]: sc-rsort -C's verdict on FILE is
# sc-ref check's: exit 0 and silent when sorted; else exit 1, no output,
# one line on stderr naming the first element out of order (its position,
# and it and the one before it as text in the type).
check_vs_ref() {
    local f=$1 t=$2 want pos x y
    shift 2
    want=0
    ref check --type "$t" "$@" < "$f" > ref.check || want=$?
    run_to chk.out chk.err sc-rsort -e "$t" -C "${EXTRA[@]}" "$@" "$f"
    [ "$status" -eq "$want" ] ||
        { echo "# sc-rsort -e $t -C $* $f: status $status, sc-ref says $want: $(cat ref.check)" >&2; return 1; }
    [ ! -s chk.out ] || { echo "# -C wrote to stdout" >&2; return 1; }
    if [ "$want" -eq 0 ]; then
        [ ! -s chk.err ] || { echo "# -C on sorted input said: $(cat chk.err)" >&2; return 1; }
        return 0
    fi
    expect_one_line_error sc-rsort chk.err
    # "element POS: X after Y"
    pos=$(sed -n 's/^element \([0-9]*\): .*/\1/p' ref.check)
    x=$(sed -n 's/^element [0-9]*: \(.*\) after .*/\1/p' ref.check)
    y=$(sed -n 's/^element [0-9]*: .* after \(.*\)$/\1/p' ref.check)
    grep -qF -- "$x after $y" chk.err ||
        { echo "# -C: expected '$x after $y' in: $(cat chk.err)" >&2; return 1; }
    grep -qw -- "$pos" chk.err ||
        { echo "# -C: expected position $pos in: $(cat chk.err)" >&2; return 1; }
}

# ------------------------------------------------------------------ sort

@test "types64: sc-rsort -e u64/i64/f64 vs sc-ref, sizes 0 to 3 MiB" {
    local t n
    for t in $TYPES64; do
        for n in 0 1 31 33 4095 65537 400003; do
            gen64 a "$t" "$n" $((n + 1))
            vs_ref sc-rsort sort a --type "$t" || { echo "# -e $t, $n elements" >&2; return 1; }
        done
        # -e is --type
        ref sort --type "$t" < a > want
        sc-rsort -e "$t" a > got
        expect_same want got
    done
    # The data holds what it should: sorting changed it, and f64's
    # NaNs of both signs, infinities and zeros came to the ends and middle.
    files_differ a got
    ref sort --type f64 -t < a > s.txt
    [ "$(head -1 s.txt)" = -nan ] && [ "$(tail -1 s.txt)" = nan ]
    grep -qx -- -inf s.txt && grep -qx -- -0 s.txt && grep -qx 0 s.txt
}

@test "types64: the bucketed sort of skewed keys (floats of one range, clustered ids, 32 bits too; 1 to 7 threads) vs sc-ref" {
    # Floats of one range fill a few top-digit buckets, and ids that share
    # their top bits one: a bucket too large for a thread is sorted by the
    # pool, cut again on its top digit where it holds 4M keys or more (as
    # is one too large for a core's cache, on its thread), down to pieces
    # that sort in cache.  Every path gives sc-ref's bytes.
    sc-gen -e f64 -n 2000003 --min -1e6 --max 1e6 -s 7 > floats.bin
    sc-gen -e u64 -n 4200001 --min 0x4000000000000000 --max 0x40000fffffffffff -s 8 > narrow.bin
    sc-gen -e u64 -n 4800007 -s 9 > wide.bin
    cat narrow.bin wide.bin > ids.bin
    sc-gen -n 4500001 --min 0x12300000 --max 0x123fffff -s 10 > narrow.bin
    sc-gen -n 500009 -s 11 > wide.bin
    cat narrow.bin wide.bin > ids32.bin
    local f t j args
    for f in floats.bin:f64:2 floats.bin:f64:7 ids.bin:u64:1 ids.bin:i64:4 ids32.bin:u32:4 ids32.bin:u32:7; do
        t=${f#*:}
        j=${t#*:}
        t=${t%:*}
        for args in "" "-r"; do
            EXTRA=(-d cpu -j "$j")
            vs_ref sc-rsort sort "${f%%:*}" --type "$t" $args ||
                { echo "# $f $args" >&2; return 1; }
        done
    done
}

@test "types64: -r, -u and --bits LO:HI vs sc-ref (ties need stability)" {
    local t m ms
    for t in $TYPES64; do
        gen64 a "$t" 65537 11
        mapfile -t ms < <(modes "$t")
        for m in "${ms[@]}"; do
            # shellcheck disable=SC2086
            vs_ref sc-rsort sort a --type "$t" $m || { echo "# -e $t $m" >&2; return 1; }
        done
    done
    # --bits 32:64 leaves ties that differ in their low words: a stable
    # sort and an unstable one differ here.
    gen64 a u64 65537 12
    ref sort --type u64 --bits 32:64 < a > stable
    ref sort --type u64 < a > full
    files_differ stable full
    sc-rsort -e u64 --bits 32:64 a > got
    expect_same stable got
}

@test "types64: small cases by hand: 64-bit order, ids above 2^32, totalOrder" {
    printf '2 -3 -1\n' | sc-rsort -e i64 --in text -t > out
    printf '%s\n' -3 -1 2 | cmp - out
    printf '2 -3 -1\n' | sc-rsort -e i64 --in text -t -r > out
    printf '%s\n' 2 -1 -3 | cmp - out
    # u64 ids above 2^32 keep their 64-bit order (the low words alone
    # would reverse 0x200000001 and 0x100000002)
    pack64 u64 4294967297 2 4294967296 8589934593 4294967298 > ids
    sc-rsort -e u64 ids | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "2 4294967296 4294967297 4294967298 8589934593 " ]
    sc-rsort -e u64 --bits 0:32 ids | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "4294967296 4294967297 8589934593 2 4294967298 " ]
    sc-rsort -e u64 --bits 32:64 -u ids | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "2 4294967297 8589934593 " ]
    # -u compares all 64 bits: 2^32+5 is not 5
    pack64 u64 5 4294967301 5 4294967301 0 > dup
    sc-rsort -e u64 -u dup | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "0 5 4294967301 " ]
    # the extremes
    pack64 u64 18446744073709551615 0 9223372036854775808 9223372036854775807 > ext
    sc-rsort -e u64 -t ext | tr '\n' ' ' > out
    [ "$(cat out)" = "0 9223372036854775807 9223372036854775808 18446744073709551615 " ]
    sc-rsort -e i64 -t ext | tr '\n' ' ' > out
    [ "$(cat out)" = "-9223372036854775808 -1 0 9223372036854775807 " ]
    # --bits 63:64 of i64 is the sign: negatives first, each in input order
    pack64 i64 -1 5 -7 3 > s
    sc-rsort -e i64 --bits 63:64 s | show64 i64 | tr '\n' ' ' > out
    [ "$(cat out)" = "-1 -7 5 3 " ]
    # f64: totalOrder, -NaN first, -0 before +0, +NaN last, denormals
    printf 'nan -inf -0 0 inf -nan 1e-310 -1.5 1.7976931348623157e308 -5e-324\n' > f.txt
    sc-rsort -e f64 --in text -t f.txt | tr '\n' ' ' > out
    # (written in the first of 15, 16, 17 digits that reads back to the
    # same bits: for a denormal, not always the shortest form)
    [ "$(cat out)" = "-nan -inf -1.5 -4.94065645841247e-324 -0 0 9.99999999999997e-311 1.7976931348623157e+308 inf nan " ]
    sc-rsort -e f64 --in text -t -r f.txt | head -3 | tr '\n' ' ' > out
    [ "$(cat out)" = "nan inf 1.7976931348623157e+308 " ]
    # NaN payloads order too: -NaNs with more payload first, +NaNs last
    perl -e 'print pack("Q<*", 0x7ff8000000000001, 0xfff8000000000000,
             0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001)' > nans
    sc-rsort -e f64 nans | perl -e 'local $/; printf("%x ", $_) for unpack("Q<*", <STDIN>)' > out
    [ "$(cat out)" = "fff8000000000001 fff8000000000000 7ff0000000000001 7ff8000000000000 7ff8000000000001 " ]
    sc-rsort -e f64 -u --in text -t <<< "0 -0 0 nan nan -nan" | tr '\n' ' ' > out
    [ "$(cat out)" = "-nan -0 0 nan " ]
    # empty input: empty output
    : | sc-rsort -e u64 > out
    [ ! -s out ]
}

@test "types64: --bits takes 0 <= LO < HI <= 64 for u64 and i64, and for f64 only the whole width" {
    pack64 u64 3 1 2 > a
    run sc-rsort -e f64 --bits 0:8 a
    expect_usage sc-rsort
    run sc-rsort -e f64 --bits 0:32 a
    expect_usage sc-rsort
    # the whole width is the default order, as f32's 0:32 is
    sc-rsort -e f64 --bits 0:64 a > out
    sc-rsort -e f64 a | cmp - out
    run sc-rsort -e u64 --bits 0:65 a
    expect_usage sc-rsort
    run sc-rsort -e i64 --bits 64:64 a
    expect_usage sc-rsort
    run sc-rsort -e u64 --bits 9:9 a
    expect_usage sc-rsort
    # beyond 32 is fine for 64-bit types (a usage error for u32)
    sc-rsort -e u64 --bits 0:64 a | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "1 2 3 " ]
    sc-rsort -e i64 --bits 33:64 a > out
    expect_same a out
    run sc-rsort --bits 0:33 a
    expect_usage sc-rsort
}

# --------------------------------------------------------------- formats

@test "types64: gzip in and -z out, elements straddling members and files" {
    local t
    for t in $TYPES64; do
        gen64 a "$t" 100003 21
        ref sort --type "$t" < a > want
        sc-rsort -e "$t" -z a > got.gz
        gzip -dc got.gz > got
        expect_same want got
        gzip -c a > a.gz
        sc-rsort -e "$t" a.gz > got
        expect_same want got
        sc-rsort -e "$t" --in gz < a.gz > got
        expect_same want got
        # BGZF read back by sc-rsort itself
        sc-rsort -e "$t" -C got.gz
        # two members, and two files, cut in the middle of an element
        head -c 4004 a | gzip -c > two.gz
        tail -c +4005 a | gzip -c >> two.gz
        sc-rsort -e "$t" two.gz > got
        expect_same want got
        head -c 4004 a > p1
        tail -c +4005 a > p2
        sc-rsort -e "$t" p1 p2 > got
        expect_same want got
        # -r -u through gzip both ways
        ref sort --type "$t" -r -u < a > want.ru
        sc-rsort -e "$t" -r -u -z a.gz | gzip -dc > got
        expect_same want.ru got
    done
}

@test "types64: zstd in and --zstd out" {
    have_zstd || skip "sc built without zstd (configure --without-zstd)"
    command -v zstd > /dev/null || skip "zstd(1) not installed"
    local t
    for t in $TYPES64; do
        gen64 a "$t" 100003 22
        ref sort --type "$t" < a > want
        sc-rsort -e "$t" --zstd a > got.zst
        zstd -q -dc got.zst > got
        expect_same want got
        zstd -q -c a > a.zst
        sc-rsort -e "$t" a.zst > got
        expect_same want got
        sc-rsort -e "$t" --in zst < a.zst > got
        expect_same want got
        sc-rsort -e "$t" -C got.zst
        ref sort --type "$t" -r < a > want.r
        sc-rsort -e "$t" -r --zstd a.zst | zstd -q -dc > got
        expect_same want.r got
    done
}

@test "types64: text in (--in text) and out (-t) vs sc-ref" {
    local t
    for t in $TYPES64; do
        gen64 a "$t" 20011 23
        gen64 a.txt "$t" 20011 23 -t
        vs_ref sc-rsort sort a --type "$t" -t
        vs_ref sc-rsort sort a --type "$t" -t -r -u
        vs_ref sc-rsort sort a.txt --type "$t" --in text
        vs_ref sc-rsort sort a.txt --type "$t" --in text -t
        vs_ref sc-rsort sort a.txt --type "$t" --in text -r
        # raw -> text -> raw: the same elements, a NaN's payload too
        sc-rsort -e "$t" a > direct
        sc-rsort -e "$t" -t a | sc-rsort -e "$t" --in text > back
        expect_same direct back
    done
    # the forms text input takes: 0x hex, signs, exponents, inf and nan
    printf '0xFFFFFFFFFFFFFFFF 10 0x100000000\n' | sc-rsort -e u64 --in text -t > out
    printf '%s\n' 10 4294967296 18446744073709551615 | cmp - out
    printf -- '-0x8000000000000000 9223372036854775807 -5 0x10\n' | sc-rsort -e i64 --in text -t > out
    printf '%s\n' -9223372036854775808 -5 16 9223372036854775807 | cmp - out
    printf -- '1e3 -0.5 0x1p-2 inf -inf -0 1e-320 0.1\n' | sc-rsort -e f64 --in text -t > out
    printf '%s\n' -inf -0.5 -0 9.99988867182683e-321 0.1 0.25 1000 inf | cmp - out
    # floats in the fewest digits that read back to the same bits
    printf '0.30000000000000004 0.1 100 1e16\n' | sc-rsort -e f64 --in text -t > out
    printf '%s\n' 0.1 0.30000000000000004 100 1e+16 | cmp - out
    sc-rsort -e f64 -t a > t.txt
    grep -qx -- '-nan' t.txt
    grep -qx -- '-inf' t.txt
    grep -qx -- '-0' t.txt
    grep -qx -- '0.1' t.txt
}

@test "types64: --big-endian reads and writes big-endian elements" {
    local t m
    for t in $TYPES64; do
        gen64 a "$t" 50021 24
        gen64 a.be "$t" 50021 24 --big-endian
        swap64 < a > swapped
        expect_same swapped a.be
        vs_ref sc-rsort sort a.be --type "$t" --big-endian
        vs_ref sc-rsort sort a.be --type "$t" --big-endian -r -u
        [ "$t" = f64 ] || vs_ref sc-rsort sort a.be --type "$t" --big-endian --bits 8:40
        # the same numbers as the little-endian sort, byte-swapped
        sc-rsort -e "$t" a > le.sorted
        sc-rsort -e "$t" --big-endian a.be | swap64 > back
        expect_same le.sorted back
        # text is text either way
        sc-rsort -e "$t" -t a > t1
        sc-rsort -e "$t" --big-endian -t a.be > t2
        expect_same t1 t2
        # and text in, big-endian out
        sc-rsort -e "$t" --big-endian --in text t1 | swap64 > back
        expect_same le.sorted back
        # gzip output holds the big-endian bytes
        sc-rsort -e "$t" --big-endian a.be > be.sorted
        sc-rsort -e "$t" --big-endian -z a.be | gzip -dc > z.out
        expect_same be.sorted z.out
    done
}

# ------------------------------------------------------- runs, -m and -C

@test "types64: -S 64K and -S 4K force runs and a merge: the same bytes, temp dir left empty" {
    local t args as
    mkdir runs tmpd
    for t in $TYPES64; do
        gen64 a "$t" 200003 31
        as=("" "-r" "-u" "-r -u")
        [ "$t" = f64 ] || as+=("--bits 8:40" "--bits 32:64 -u -r")
        for args in "${as[@]}"; do
            # shellcheck disable=SC2086
            ref sort --type "$t" $args < a > want
            # shellcheck disable=SC2086
            sc-rsort -e "$t" -S 64K -T runs $args a > got
            expect_same want got || { echo "# -e $t -S 64K $args" >&2; return 1; }
            [ -z "$(ls -A runs)" ] || { echo "# left: $(ls -A runs)" >&2; return 1; }
        done
        # 4 KiB holds 512 elements: hundreds of runs, merged in passes
        gen64 b "$t" 30011 32
        ref sort --type "$t" < b > want
        sc-rsort -e "$t" -S 4K -T runs b > got
        expect_same want got || { echo "# -e $t -S 4K" >&2; return 1; }
        ref sort --type "$t" -r -u < b > want
        sc-rsort -e "$t" -S 4K -T runs -r -u -c 4K b > got
        expect_same want got || { echo "# -e $t -S 4K -r -u" >&2; return 1; }
        # shellcheck disable=SC2002  # a pipe: no size known ahead
        cat b | TMPDIR="$T/tmpd" sc-rsort -e "$t" -S 4K -r -u > got
        expect_same want got || { echo "# -e $t -S 4K through a pipe" >&2; return 1; }
        [ -z "$(ls -A runs)" ] && [ -z "$(ls -A tmpd)" ] ||
            { echo "# left: $(ls -A runs tmpd)" >&2; return 1; }
    done
}

@test "types64: -S small: run files removed when the input ends in stray bytes" {
    gen64 a u64 100003 33
    cp a odd
    printf 'abcd' >> odd
    mkdir runs
    run_to got err sc-rsort -e u64 -S 64K -T runs odd
    [ "$status" -eq 1 ]
    [ -z "$(ls -A runs)" ] || { echo "# left: $(ls -A runs)" >&2; return 1; }
    expect_one_line_error sc-rsort err
    ref sort --type u64 < a > want
    expect_same want got
}

@test "types64: -m merges sorted files, ties from the earlier input first" {
    local t args as
    for t in $TYPES64; do
        gen64 a "$t" 50021 41
        gen64 b "$t" 30011 42
        as=("" "-r")
        [ "$t" = f64 ] || as+=("--bits 32:64" "--bits 8:40 -r")
        for args in "${as[@]}"; do
            # shellcheck disable=SC2086
            { ref sort --type "$t" $args < a > sa &&
              ref sort --type "$t" $args < b > sb &&
              cat sa sb | ref sort --type "$t" $args > want; } || return 1
            # shellcheck disable=SC2086
            sc-rsort -e "$t" -m $args sa sb > got
            expect_same want got || { echo "# -e $t -m $args" >&2; return 1; }
            # shellcheck disable=SC2086
            sc-rsort -e "$t" --merge $args - sb < sa > got
            expect_same want got || { echo "# -e $t --merge $args, stdin" >&2; return 1; }
        done
        ref sort --type "$t" < a > sa
        ref sort --type "$t" < b > sb
        cat sa sb | ref sort --type "$t" -u > want
        sc-rsort -e "$t" -m -u sa sb > got
        expect_same want got
        # an unsorted input is an error, exit 1
        run_to got err sc-rsort -e "$t" -m sa a
        [ "$status" -eq 1 ]
        expect_one_line_error sc-rsort err
    done
    # ties by hand: --bits 32:64 keys on the high word
    pack64 u64 4294967301 4294967297 > x
    pack64 u64 4294967296 12884901888 > y
    sc-rsort -e u64 -m --bits 32:64 x y | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "4294967301 4294967297 4294967296 12884901888 " ]
    sc-rsort -e u64 -m --bits 32:64 y x | show64 u64 | tr '\n' ' ' > out
    [ "$(cat out)" = "4294967296 4294967301 4294967297 12884901888 " ]
    # sorted as u64 is not sorted as i64 (the sign bit)
    gen64 a u64 10007 43
    ref sort --type u64 < a > su
    sc-rsort -e u64 -m su su > /dev/null
    run_to got err sc-rsort -e i64 -m su su
    [ "$status" -eq 1 ]
}

@test "types64: -C: exit 0 and silent when sorted, else 1 naming the first element out of order" {
    local t
    for t in $TYPES64; do
        gen64 a "$t" 100003 51
        ref sort --type "$t" < a > s
        ref sort --type "$t" -r < a > r
        ref sort --type "$t" -u < a > u
        check_vs_ref s "$t"
        check_vs_ref a "$t"
        check_vs_ref s "$t" -r
        check_vs_ref r "$t" -r
        check_vs_ref r "$t"
        check_vs_ref s "$t" -u
        check_vs_ref u "$t" -u
        if [ "$t" != f64 ]; then
            ref sort --type "$t" --bits 32:64 < a > b
            check_vs_ref b "$t" --bits 32:64
            check_vs_ref b "$t"
        fi
        # disorder at the very end, in a late chunk
        { cat s; head -c 8 s; } > late
        EXTRA=(-c 4K)
        check_vs_ref late "$t"
        check_vs_ref a "$t"
        EXTRA=()
        run sc-rsort -e "$t" -C late
        expect_status 1
    done
    # The message names the elements in the type, by hand.
    printf '1 18446744073709551615 4294967296\n' > t
    run sc-rsort -e u64 -C --in text t
    expect_status 1
    [[ $output == *"4294967296 after 18446744073709551615"* ]]
    printf '5\n-1\n' > t
    run sc-rsort -e i64 -C --in text t
    expect_status 1
    [[ $output == *"-1 after 5"* ]]
    printf '0.1 -nan\n' > t
    run sc-rsort -e f64 -C --in text t
    expect_status 1
    [[ $output == *"-nan after 0.1"* ]]
    printf '0 -0\n' > t
    run sc-rsort -e f64 -C --in text t
    expect_status 1
    [[ $output == *"-0 after 0"* ]]
    # sorted as u64, the same bits are out of order as i64
    pack64 u64 1 9223372036854775808 > u
    sc-rsort -e u64 -C u
    run sc-rsort -e i64 -C u
    expect_status 1
    [[ $output == *"-9223372036854775808 after 1"* ]]
    # 1 then 2^32 is sorted as u64, not as the u32 words 1 0 0 1: -C
    # reads whole 8-byte elements
    pack64 u64 1 4294967296 > v
    sc-rsort -e u64 -C v
    run sc-rsort -C v
    expect_status 1
    pack64 u64 4294967296 1 > v
    run sc-rsort -e u64 -C v
    expect_status 1
    [[ $output == *"1 after 4294967296"* ]]
}

# ------------------------------------------- chunks, threads and devices

@test "types64: chunk size, threads and device change nothing" {
    local t o
    for t in $TYPES64; do
        gen64 a "$t" 400003 61
        ref sort --type "$t" < a > want
        sc-rsort -e "$t" a > one
        expect_same want one
        for o in "-c 4K" "-j 1" "-j 2" "-c 4K -j 2" "-d cpu" "-d cpu -j 1" "-d cpu -c 12K"; do
            # shellcheck disable=SC2086
            sc-rsort -e "$t" $o a > other
            expect_same one other || { echo "# -e $t $o" >&2; return 1; }
        done
        ref sort --type "$t" -r -u < a > want
        sc-rsort -e "$t" -r -u a > one
        expect_same want one
        for o in "-c 4K -j 2" "-j 1" "-d cpu"; do
            # shellcheck disable=SC2086
            sc-rsort -e "$t" -r -u $o a > other
            expect_same one other || { echo "# -e $t -r -u $o" >&2; return 1; }
        done
    done
}

# ------------------------------------------------------------------ errors

@test "types64: a length not a multiple of 8: the whole elements sorted and written, then an error, exit 1" {
    local t k
    for t in $TYPES64; do
        gen64 a "$t" 10007 71
        ref sort --type "$t" < a > want
        for k in 1 3 4 7; do
            cp a odd
            printf 'ABCDEFG' | head -c "$k" >> odd
            run_to got err sc-rsort -e "$t" odd
            [ "$status" -eq 1 ] || { echo "# -e $t +$k bytes: status $status" >&2; return 1; }
            expect_same want got || { echo "# -e $t +$k bytes" >&2; return 1; }
            expect_one_line_error sc-rsort err
            grep -qi 'byte' err || { echo "# no stray bytes named: $(cat err)" >&2; return 1; }
            grep -qw "$k" err || { echo "# not $k bytes: $(cat err)" >&2; return 1; }
            # through a pipe, and as text
            run_to got err sc-rsort -e "$t" < odd
            [ "$status" -eq 1 ]
            expect_same want got
            ref sort --type "$t" -t < a > want.txt
            run_to got.txt err sc-rsort -e "$t" -t odd
            [ "$status" -eq 1 ]
            expect_same want.txt got.txt
        done
    done
    # 4 bytes alone are a u32, but no u64: nothing written, exit 1
    u32le 7 > four
    run_to got err sc-rsort -e u64 four
    [ "$status" -eq 1 ]
    [ ! -s got ]
    expect_one_line_error sc-rsort err
    run_to got err sc-rsort -e f64 -C four
    [ "$status" -eq 1 ]
}

@test "types64: text input out of the type's range: what came before is sorted and written, then exit 1" {
    printf '5 3 18446744073709551616 1\n' > big
    run_to out err sc-rsort -e u64 --in text -t big
    expect_status 1
    expect_one_line_error sc-rsort err
    grep -qF 18446744073709551616 err
    grep -q u64 err
    printf '%s\n' 3 5 | cmp - out
    printf '0x10000000000000000\n' > big
    run_to out err sc-rsort -e u64 --in text big
    expect_status 1
    printf -- '-1\n' > neg
    run_to out err sc-rsort -e u64 --in text neg
    expect_status 1
    expect_one_line_error sc-rsort err
    printf -- '7 9223372036854775808\n' > big
    run_to out err sc-rsort -e i64 --in text -t big
    expect_status 1
    grep -qF 9223372036854775808 err
    grep -q i64 err
    [ "$(cat out)" = 7 ]
    printf -- '-9223372036854775809\n' > small
    run_to out err sc-rsort -e i64 --in text small
    expect_status 1
    printf '1 1e309\n' > big
    run_to out err sc-rsort -e f64 --in text big
    expect_status 1
    grep -qF 1e309 err
    grep -q f64 err
    printf '1 2.5x\n' > bad
    run_to out err sc-rsort -e f64 --in text bad
    expect_status 1
    expect_one_line_error sc-rsort err
    # the largest values are in range
    printf '18446744073709551615\n' | sc-rsort -e u64 --in text -t > out
    [ "$(cat out)" = 18446744073709551615 ]
    printf -- '-9223372036854775808\n' | sc-rsort -e i64 --in text -t > out
    [ "$(cat out)" = -9223372036854775808 ]
}

@test "types64: an unknown type is a usage error of every tool: exit 2 naming it" {
    pack64 u64 1 2 3 > a
    local p
    for p in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        run_to out err "$p" -e u128 a
        [ "$status" -eq 2 ] || { echo "# $p: status $status: $(cat err)" >&2; return 1; }
        [ ! -s out ] || { echo "# $p wrote output" >&2; return 1; }
        grep -q -- u128 err || { echo "# $p: type not named: $(cat err)" >&2; return 1; }
        grep -qF "Try '$p --help'" err || { echo "# $p: $(cat err)" >&2; return 1; }
    done
    run sc-gen --type=i128 -n 4
    expect_usage sc-gen
    [[ $output == *i128* ]]
}

# ------------------------------------------------------------------ sc-gen

@test "types64: sc-gen -e T | sc-rsort -e T | sc-rsort -C -e T, and vs sc-ref" {
    set -o pipefail
    local t
    for t in $TYPES64; do
        sc-gen -e "$t" -n 100003 -s 5 | sc-rsort -e "$t" | sc-rsort -C -e "$t"
        sc-gen -d cpu -e "$t" -n 100003 -s 5 > g
        [ "$(stat -c %s g)" -eq $((100003 * 8)) ]
        # unsorted as made, so -C has something to find
        run sc-rsort -C -e "$t" g
        expect_status 1
        vs_ref sc-rsort sort g --type "$t"
        vs_ref sc-rsort sort g --type "$t" -r -u
        sc-rsort -e "$t" g -o sorted
        sc-rsort -C -e "$t" sorted
        run sc-rsort -C -e "$t" -r sorted
        expect_status 1
        sc-gen -e "$t" -n 0 > empty
        [ ! -s empty ]
    done
}
