#!/usr/bin/env bats
# types.bats -- elements of another type than u32 (-e i32, -e f32) and
# --big-endian, against sc-ref's reading of the same options (sc(7),
# ELEMENT TYPES).

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-rsort
}

# f32 bit patterns a sort and a condition must get right: both zeros,
# both infinities, NaNs of both signs and several payloads, denormals,
# the largest finite values, +-1.
SPECIALS="0x80000000 0 0x7f800000 0xff800000 0x7fc00000 0xffc00000
 0x7f800001 0xffffffff 0x7fffffff 0xff800001 1 0x80000001 0x007fffff
 0x3f800000 0xbf800000 0x7f7fffff 0xff7fffff 0x3dcccccd"

# floats FILE N SEED: N random floats between -1000 and 1000 with every
# special pattern spread among them, some repeated.
floats() {
    sc-gen -d cpu -e f32 --min -1000 --max 1000 -n "$2" -s "$3" > rnd
    perl -e 'my @s = map { oct } split " ", $ARGV[0];
             local $/; my @v = unpack("V*", <STDIN>);
             for my $i (0 .. $#v) { $v[$i] = $s[($i / 7) % @s] if $i % 7 == 3 }
             print pack("V*", @v)' "$SPECIALS" < rnd > "$1"
}

ints() {
    sc-gen -d cpu -e i32 --min -1000 --max 1000 -n "$2" -s "$3" > "$1"
}

@test "types: sc-rsort -e i32 sorts by value, every mode, against sc-ref" {
    ints a 70001 1
    sc-gen -d cpu -e i32 -n 4099 -s 2 >> a         # the whole range
    local m
    for m in "" "-r" "-u" "-r -u" "--bits 24:32" "--bits 0:8" "--bits 8:32 -r"; do
        vs_ref sc-rsort sort a --type i32 $m
    done
    EXTRA=(-c 4K -S 64K)
    vs_ref sc-rsort sort a --type i32
    vs_ref sc-rsort sort a --type i32 -r -u
}

@test "types: sc-rsort -e f32 sorts by totalOrder, specials and all, against sc-ref" {
    floats a 50000 3
    vs_ref sc-rsort sort a --type f32
    vs_ref sc-rsort sort a --type f32 -r
    vs_ref sc-rsort sort a --type f32 -u
    EXTRA=(-c 4K -S 16K)
    vs_ref sc-rsort sort a --type f32
    # The order, spelled out: -NaN first, -0 before +0, +NaN last.
    u32le 0x7fc00000 0 0x80000000 0xff800000 0xffc00000 0x3f800000 > s
    sc-rsort -e f32 -t < s > out
    printf '%s\n' -nan -inf -0 0 1 nan | cmp - out
}

@test "types: sc-rsort -m and -C order i32 and f32 as the sort does" {
    floats a 5000 4
    floats b 3000 5
    sc-rsort -e f32 a -o sa
    sc-rsort -e f32 b -o sb
    sc-rsort -e f32 -C sa
    cat a b | ref sort --type f32 > expect
    sc-rsort -e f32 -m sa sb > merged
    expect_same expect merged
    run sc-rsort -e f32 -C a
    expect_status 1
    [[ $output == *"order"* || $output == *"sorted"* ]]
    # The message names the elements in the type.
    printf '5\n-1\n' > t
    run sc-rsort -e i32 -C --in text t
    expect_status 1
    [[ $output == *"-1 after 5"* ]]
    # Sorted as u32, the same bits are out of order as i32.
    u32le 1 2 0xffffffff > u
    sc-rsort -C u
    run sc-rsort -e i32 -C u
    expect_status 1
}

@test "types: sc-compact and sc-split -e f32 compare as C does, against sc-ref" {
    floats a 30000 6
    local c
    for c in "" "--lt 0" "--le 0" "--gt -0" "--ge 0" "--eq 0" "--ne 0" \
             "--range -1.5:100" "--range -inf:inf" "--lt nan" "--ne nan" \
             "--gt 1e30" "--eq -inf" "--ne 0 -x" "--range -10:10 --ne 1 -x"; do
        vs_ref sc-compact compact a --type f32 $c
        vs_ref sc-split split a --type f32 $c
    done
    EXTRA=(-c 4K)
    vs_ref sc-compact compact a --type f32 --range -100:100 --indices
    vs_ref sc-split split a --type f32 --ge 0
}

@test "types: sc-compact and sc-split -e i32 compare signed values, against sc-ref" {
    ints a 30000 7
    sc-gen -d cpu -e i32 -n 999 -s 8 >> a
    local c
    for c in "" "--lt 0" "--ge -5" "--range -100:-1" "--range -2147483648:2147483647" \
             "--gt 2147483647" "--lt -2147483648" "--mask 0x80000000" \
             "--ne -1 --ne 0 -x" "--eq -1000"; do
        vs_ref sc-compact compact a --type i32 $c
        vs_ref sc-split split a --type i32 $c
    done
}

@test "types: --big-endian reads and writes big-endian numbers" {
    ints a 20000 9
    perl -e 'local $/; print pack("N*", unpack("V*", <STDIN>))' < a > a.be
    sc-rsort -e i32 a > le.sorted
    sc-rsort -e i32 --big-endian a.be > be.sorted
    perl -e 'local $/; print pack("V*", unpack("N*", <STDIN>))' < be.sorted > back
    expect_same le.sorted back
    vs_ref sc-compact compact a.be --type i32 --big-endian --lt 0
    vs_ref sc-compact compact a.be --type i32 --big-endian --lt 0 --indices
    vs_ref sc-split split a.be --big-endian --type i32 --ge 10
    # Text is text: the same numbers either way.
    sc-rsort -e i32 -t a > t1
    sc-rsort -e i32 --big-endian -t a.be > t2
    expect_same t1 t2
    # gzip output holds the big-endian bytes.
    sc-rsort -e i32 --big-endian -z a.be | gzip -dc > z.out
    expect_same be.sorted z.out
}

@test "types: text in and out round-trips every f32 bit pattern, NaN payloads too" {
    floats a 20000 10
    sc-rsort -e f32 -t a > t
    grep -qx -- '-nan' t
    grep -qx -- '-inf' t
    grep -qx -- '-0' t
    grep -qx -- '0.1' t                         # the fewest digits
    sc-rsort -e f32 --in text t > back
    sc-rsort -e f32 a > direct
    expect_same direct back
}

@test "types: text input in the type: signs, hex, exponents, and range errors" {
    printf -- '-5 0x10 7 -2147483648 2147483647\n' | sc-rsort -e i32 --in text -t > out
    printf '%s\n' -2147483648 -5 7 16 2147483647 | cmp - out
    printf -- '1e3 -0.5 0x1p-2 inf\n' | sc-rsort -e f32 --in text -t > out
    printf '%s\n' -0.5 0.25 1000 inf | cmp - out
    printf '1 2147483648\n' > big
    run_to out err sc-rsort -e i32 --in text big
    expect_status 1
    grep -q "out of range for i32" err
    printf '1 1e39\n' > big
    run_to out err sc-rsort -e f32 --in text big
    expect_status 1
    grep -q "out of range for f32" err
    printf '1 x\n' > bad
    run_to out err sc-compact -e f32 --in text bad
    expect_status 1
    grep -q "malformed number" err
}

@test "types: a float written with many digits is read, not called out of range" {
    local zeros e
    zeros=$(printf '0%.0s' $(seq 300))
    for e in f32 f64; do
        printf '1.%s5 0.%s1e302 2\n' "$zeros" "$zeros" > long.txt
        sc-compact -e $e --in text -t long.txt > out
        printf '%s\n' 1 10 2 | cmp - out
        [ "$(sc-compact -e $e --in text --eq "1.${zeros}" --count long.txt)" = 1 ]
    done
    # Beyond the type's range it still is: 1 and 400 more digits.
    printf '1%s\n' "$zeros$zeros" > huge.txt
    run_to out err sc-compact -e f64 --in text huge.txt
    expect_status 1
    grep -q "out of range for f64" err
}

@test "types: sc-split --ranges -e i32 and -e f32 cut in the type's order" {
    ints a 20000 11
    sc-split -e i32 --ranges -100,0,100 -o 'p%d' a
    perl -e 'local $/; my @v = unpack("l<*", <STDIN>);
             my @b = (-100, 0, 100); my @p = ([], [], [], []);
             for my $x (@v) { my $k = 0; $k++ while $k < @b && $x >= $b[$k]; push @{$p[$k]}, $x }
             for my $k (0 .. 3) { open(F, ">", "q$k"); print F pack("l<*", @{$p[$k]}) }' < a
    local k
    for k in 0 1 2 3; do expect_same "q$k" "p$k"; done
    floats f 5000 12
    sc-split -e f32 --ranges -0,0 -o 'z%d' f
    # -0 sorts before +0: part 1 holds the negative zeros alone.
    [ "$(sc-compact -e f32 --eq 0 --count z1)" = "$(nelems z1)" ]
    [ "$(sc-compact -e f32 --ne -0 --count z1)" = 0 ]
    [ "$(sc-compact -e f32 --lt 0 --count z2)" = 0 ]
    run sc-split -e i32 --ranges 5,-5 -o 'p%d' a
    expect_usage sc-split
    [[ $output == *"-5 follows 5"* ]]
}

@test "types: sc-gen -e i32 and -e f32 draw in the range, with the density's zeros" {
    sc-gen -e i32 --min -5 --max 5 -p 0.6 -n 100000 -s 3 -t > t
    sort -n t | uniq -c > counts
    [ "$(wc -l < counts)" -eq 11 ]
    local zeros
    zeros=$(grep -c '^0$' t)
    [ "$zeros" -gt 38500 ] && [ "$zeros" -lt 41500 ]
    sc-gen -e f32 --min -2.5 --max 7 -n 100000 -s 4 -t > f
    perl -ne 'die "out of range: $_" if $_ < -2.5 || $_ > 7' f
    [ "$(sort -n f | head -1 | cut -c1-3)" = "-2." ]
    sc-gen -e f32 -n 1000 -t | perl -ne 'die "not in [0, 1]: $_" if $_ < 0 || $_ > 1'
    sc-gen -e f32 --dist iota -n 5 -t | tr '\n' ' ' > iota
    [ "$(cat iota)" = "0 1 2 3 4 " ]
    sc-gen -e i32 --dist constant --value -7 -n 3 -t | tr '\n' ' ' > c
    [ "$(cat c)" = "-7 -7 -7 " ]
    # A range of one value is that value; the density holds among denormals.
    sc-gen -e f32 --min -0 --max -0 -n 3 -t | tr '\n' ' ' > z
    [ "$(cat z)" = "-0 -0 -0 " ]
    local kept
    kept=$(sc-gen -e f32 --min -1e-45 --max 1e-45 -p 0.5 -n 100000 -s 9 |
           sc-compact -e f32 --count)
    [ "$kept" -gt 48500 ] && [ "$kept" -lt 51500 ]
}

@test "types: sc-gen's typed output is the same for any chunk size and thread count" {
    sc-gen -d cpu -e f32 --min -1e6 --max 1e6 -p 0.9 -n 300001 -s 5 > a
    sc-gen -d cpu -e f32 --min -1e6 --max 1e6 -p 0.9 -n 300001 -s 5 -c 4K -j 3 > b
    expect_same a b
    sc-gen -e f32 --min -1e6 --max 1e6 -p 0.9 -n 300001 -s 5 > c    # any device
    expect_same a c
    sc-gen -d cpu -e i32 --min -9 --max 3 -p 0.5 -n 300001 -s 6 > a
    sc-gen -e i32 --min -9 --max 3 -p 0.5 -n 300001 -s 6 -c 8K > b
    expect_same a b
}

@test "types: -d cuda equals -d cpu for typed sorts, conditions and sc-gen" {
    skip_without_gpu
    floats a 1000003 13
    local d
    for d in cpu cuda; do
        sc-rsort -d $d -e f32 a > s.$d
        sc-rsort -d $d -e i32 -r a > r.$d
        sc-compact -d $d -e f32 --range -10:10 a > c.$d
        sc-compact -d $d -e f32 a > z.$d
        sc-split -d $d -e f32 --lt 0 a > p.$d
        sc-gen -d $d -e f32 --min -1 --max 1 -p 0.5 -n 1000003 -s 7 > g.$d
        sc-stat -d $d -e f32 --quantiles 8 a > q.$d
        sc-stat -d $d -e i32 a > t.$d
    done
    for f in s r c z p g q t; do expect_same $f.cpu $f.cuda; done
    ref sort --type f32 < a > s.ref
    expect_same s.ref s.cuda
}

@test "types: sc-scan -e i32 every operator, -i, -w, --carry-in, --total, against sc-ref" {
    ints a 20000 14
    sc-gen -d cpu -e i32 -n 3001 -s 15 >> a        # sums that wrap
    local op w i
    for op in sum max min xor; do
        for w in "" -w; do
            for i in "" -i; do
                vs_ref sc-scan scan a --type i32 --op $op $w $i
            done
            vs_ref sc-scan scan a --type i32 --op $op $w --total
        done
    done
    vs_ref sc-scan scan a --type i32 --op max --carry-in 500
    vs_ref sc-scan scan a --type i32 --op min --carry-in -500 -w
    vs_ref sc-scan scan a --type i32 -w --carry-in -9000000000
    vs_ref sc-scan scan a --type i32 -w --op xor --carry-in -1
    # Pieces join through --total and --carry-in, -w's int64 included.
    head -c 4000 a > p1
    tail -c +4001 a > p2
    for op in sum xor; do
        sc-scan -e i32 -w --op $op a > whole
        sc-scan -e i32 -w --op $op p1 > o1
        sc-scan -e i32 -w --op $op --carry-in "$(sc-scan -e i32 -w --op $op --total p1)" p2 > o2
        cat o1 o2 | cmp - whole
    done
    EXTRA=(-c 4K -j 3)
    vs_ref sc-scan scan a --type i32 --op min -i
    vs_ref sc-scan scan a --type i32 -w
}

@test "types: sc-scan -e f32: max and min by totalOrder, sums in their fixed order" {
    floats a 20000 16
    local op w
    for op in sum max min; do
        for w in "" -w; do
            vs_ref sc-scan scan a --type f32 --op $op $w
            vs_ref sc-scan scan a --type f32 --op $op $w -i
            vs_ref sc-scan scan a --type f32 --op $op $w --total
        done
    done
    sc-gen -d cpu -e f32 --min -1 --max 1 -n 100003 -s 17 > b
    vs_ref sc-scan scan b --type f32 --carry-in 0.5
    vs_ref sc-scan scan b --type f32 --carry-in -0
    : | sc-scan -e f32 --carry-in -0 --total > t
    [ "$(cat t)" = "-0" ]
    vs_ref sc-scan scan b --type f32 -w -i
    # The same bytes for any chunk size and thread count.
    sc-scan -e f32 -w b > one
    local c
    for c in "-c 4K" "-c 12K -j 2" "-c 64K -j 4"; do
        sc-scan -e f32 -w $c b > other
        expect_same one other
    done
    # A stream cut at a multiple of 1024 elements goes on from --total.
    head -c $((4 * 2048)) b > p1
    tail -c +$((4 * 2048 + 1)) b > p2
    sc-scan -e f32 b > whole
    sc-scan -e f32 p1 > o1
    sc-scan -e f32 --carry-in "$(sc-scan -e f32 --total p1)" p2 > o2
    cat o1 o2 | cmp - whole
}

@test "types: -d cuda scans i32 and f32 as -d cpu does" {
    skip_without_gpu
    floats a 3000017 18
    local d op w
    for d in cpu cuda; do
        for op in sum max min xor; do
            for w in "" -w; do
                sc-scan -d $d -e i32 --op $op $w a > i.$op$w.$d
                [ $op = xor ] && continue
                sc-scan -d $d -e f32 --op $op $w -i a > f.$op$w.$d
            done
        done
        sc-scan -d $d -e i32 --op max --total a > t.$d
    done
    for f in i.*.cpu f.*.cpu t.cpu; do expect_same "$f" "${f%.cpu}.cuda"; done
}

# stat_vs_ref TYPE FILE [sc-stat options]: the report equals sc-ref's,
# whose distinct count is exact: sc-stat's estimate is within 2 %.
stat_vs_ref() {
    local t=$1 f=$2
    shift 2
    sc-stat -e "$t" "$@" "$f" > got || return 1
    ref stat --type "$t" < "$f" > want
    grep -v '^distinct' got > got.f
    grep -v '^distinct' want > want.f
    cmp want.f got.f >&2 || { diff want.f got.f >&2; return 1; }
    local e x
    e=$(sed -n 's/^distinct //p' got)
    x=$(sed -n 's/^distinct //p' want)
    [ $((e * 100)) -ge $((x * 98)) ] && [ $((e * 100)) -le $((x * 102)) ] ||
        { echo "# distinct $e, exactly $x" >&2; return 1; }
}

@test "types: sc-stat -e i32 and -e f32 figure in the type, against sc-ref" {
    ints a 50000 19
    sc-gen -d cpu -e i32 -n 3001 -s 20 >> a
    floats b 30000 21
    sc-gen -d cpu -e f32 --min -1e3 --max 1e3 -n 70000 -s 22 > c
    stat_vs_ref i32 a
    stat_vs_ref i32 a -c 4K -j 3
    stat_vs_ref f32 b
    stat_vs_ref f32 c
    stat_vs_ref f32 c -c 4K -j 3
    sc-stat -e f32 --head 7 b > got
    ref stat --type f32 --head 7 < b > want
    expect_same want got
    sc-stat -e i32 --tail 5 a > got
    ref stat --type i32 --tail 5 < a > want
    expect_same want got
    # --hist of i32: equal widths in value, the ends signed
    sc-stat -e i32 --hist 7 -c 4K -j 3 a | grep '^hist ' > got
    ref stat --type i32 --hist 7 < a | grep '^hist ' > want
    expect_same want got
    [ "$(head -c 6 got)" = "hist -" ]
    perl -e 'print pack("l<*", -2147483648, 2147483647, -1, 0)' > ends
    sc-stat -e i32 --hist 3 ends | grep '^hist ' > got
    ref stat --type i32 --hist 3 < ends | grep '^hist ' > want
    expect_same want got
    perl -e 'local $/; print pack("N*", unpack("V*", <STDIN>))' < ends > ends.be
    sc-stat -e i32 --hist 3 --big-endian ends.be | grep '^hist ' > got
    expect_same want got
    # --sample reads a file's blocks in place, big-endian ones turned.
    perl -e 'local $/; print pack("N*", unpack("V*", <STDIN>))' < a > a.be
    sc-stat -e i32 --sample 0.3 a > le
    sc-stat -e i32 --sample 0.3 --big-endian a.be > be
    expect_same le be
}

@test "types: sc-stat -e f32 --quantiles gives bounds sc-split --ranges cuts evenly" {
    sc-gen -d cpu -e f32 --min -50 --max 50 -n 200000 -s 23 > a
    sc-stat -e f32 --quantiles 4 a > q
    local b
    b=$(sed -n 's/^quantiles //p' q)
    [ -n "$b" ]
    sc-split -e f32 --ranges "$b" -o 'p%d' a
    local k n
    for k in 0 1 2 3; do
        n=$(nelems "p$k")
        [ "$n" -gt 46000 ] && [ "$n" -lt 54000 ] || { echo "# part $k: $n" >&2; return 1; }
    done
    # The first bound is near the first quartile of [-50, 50].
    perl -e 'exit !($ARGV[0] > -27 && $ARGV[0] < -23)' -- "${b%%,*}"
}

@test "types: bad types and values are usage errors" {
    u32le 1 2 3 > a
    run sc-rsort -e u128 a
    expect_usage sc-rsort
    run sc-compact -e i32 --lt 1.5 a
    expect_usage sc-compact
    run sc-compact -e i32 --lt 2147483648 a
    expect_usage sc-compact
    [[ $output == *"out of range for i32"* ]]
    run sc-compact -e f32 --mask 1 a
    expect_usage sc-compact
    run sc-compact -e f32 --range 5:-5 a
    expect_usage sc-compact
    # 0:-0 is a range as C compares: both zeros.
    printf '0 -0 1\n' | sc-compact -e f32 --in text --range 0:-0 -t > zz
    printf '0\n-0\n' | cmp - zz
    # More conditions than a fixed table would hold.
    sc-compact $(for i in $(seq 70); do printf -- '--gt %d ' "$i"; done) a > none
    [ ! -s none ]
    run sc-rsort -e f32 --bits 0:8 a
    expect_usage sc-rsort
    # the whole width is the type's order, and taken
    sc-rsort -e f32 --bits 0:32 a > whole
    sc-rsort -e f32 a | cmp - whole
    run sc-gen -e f32 --min 1 --max inf -n 3
    expect_usage sc-gen
    run sc-gen -e i32 --min 5 --max -5 -n 3
    expect_usage sc-gen
    run sc-scan -e f32 --op xor a
    expect_usage sc-scan
    run sc-scan -e i32 --carry-in 1.5 a
    expect_usage sc-scan
    # --type may come after the values it types.
    sc-compact --lt -1 -e i32 a > none
    [ ! -s none ]
}

@test "types: every NaN is written as text that reads back to its bits ([-]nan(0xM) but for nan and -nan), as sc-ref writes it; --total into --carry-in keeps it" {
    local t
    # NaNs of both signs, quiet and signaling, every significand width,
    # and the two that strtod makes of nan and -nan
    perl -e 'srand(7); my @v = (0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff);
             push @v, 0x7f800000 | (1 + int(rand(0x7fffff))) | (rand() < .5 ? 0x80000000 : 0) for 1..500;
             print pack("L<*", @v)' > nan.f32
    perl -e 'srand(9); my @v = (0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xffffffffffffffff);
             for (1..500) { my $m = (int(rand(1 << 20)) << 32 | int(rand(1 << 32))) || 1;
                            push @v, 0x7ff0000000000000 | $m | (rand() < .5 ? 1 << 63 : 0) }
             print pack("Q<*", @v)' > nan.f64
    for t in f32 f64; do
        sc-compact -e $t -t --ne 0 nan.$t > text
        ref compact --type $t -t --ne 0 < nan.$t > want
        expect_same want text
        sc-compact -e $t --in text --ne 0 text > back
        expect_same nan.$t back
        [ "$(sed -n '1,2p' text | tr '\n' ' ')" = "nan -nan " ]
        grep -q '^-nan(0x[0-9a-f]*)$' text
    done
    [ "$(sed -n 3p text)" = "nan(0x1)" ]
    # A scan cut in two through --total and --carry-in gives the whole
    # scan's bits, a NaN's payload included
    printf '\x00\x00\xd0\x7f' > a.f32
    printf '\x01\x00\xc0\x7f' > b.f32
    cat a.f32 b.f32 > ab.f32
    local carry
    carry=$(sc-scan -e f32 --op min --total a.f32)
    [ "$carry" = "nan(0x500000)" ]
    { sc-scan -e f32 --op min -i a.f32
      sc-scan -e f32 --op min -i --carry-in "$carry" b.f32; } > pieces
    sc-scan -e f32 --op min -i ab.f32 > whole
    expect_same whole pieces
    # M must be a NaN's: not 0 (an infinity), not past the significand
    for v in 'nan(0x0)' 'nan(0x800000)' 'nan(0x)' 'nan(0x1'; do
        run -1 --separate-stderr sc-compact -e f32 --in text <<< "$v"
        [[ "$stderr" == *"malformed number '$v'"* ]] || { echo "# $v: $stderr" >&2; return 1; }
    done
    run -2 sc-compact -e f32 --eq 'nan(0x800000)' /dev/null
}
