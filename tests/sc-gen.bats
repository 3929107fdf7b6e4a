#!/usr/bin/env bats
# sc-gen: determinism, sizes, distributions, density, seeds, formats, usage.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen
}

@test "sc-gen: same options give the same bytes for every chunk size and thread count" {
    local opts
    for opts in "--dist uniform" "--dist uniform --density 0.3" \
                "--dist structured" "--dist iota --density 0.7" \
                "--dist constant --value 9 --density 0.5" \
                "--min 100 --max 1000 --density 0.5 -s 77"; do
        sc-gen -n 300001 $opts > base.bin
        [ "$(stat -c %s base.bin)" -eq 1200004 ]
        local extra
        for extra in "-c 4K" "-c 64K" "-c 12K" "-j 1" "-j 2" "-j 4" "-c 4K -j 3"; do
            sc-gen -n 300001 $opts $extra > other.bin
            expect_same base.bin other.bin || { echo "# differs: $opts $extra" >&2; return 1; }
        done
    done
}

@test "sc-gen: sizes 0 1 31 32 33 4095 4096 65537 and a prime give exactly that many elements" {
    local n
    for n in 0 1 31 32 33 4095 4096 65537 1000003; do
        sc-gen -n $n -s 5 --density 0.5 > out.bin
        [ "$(stat -c %s out.bin)" -eq $((n * 4)) ] || { echo "# -n $n: $(stat -c %s out.bin) bytes" >&2; return 1; }
    done
}

@test "sc-gen: element i does not depend on -n (shorter outputs are prefixes)" {
    sc-gen -n 1000003 -s 11 --density 0.5 > long.bin
    local n
    for n in 1 31 32 33 4095 4096 65537; do
        sc-gen -n $n -s 11 --density 0.5 > short.bin
        expect_prefix short.bin long.bin
        [ "$(stat -c %s short.bin)" -eq $((n * 4)) ]
    done
}

@test "sizes and counts take lowercase suffixes too, as sort -S does" {
    sc-gen -n 1k --dist iota > a.bin
    [ "$(stat -c %s a.bin)" -eq 4096 ]
    sc-gen -n 1K --dist iota | cmp - a.bin
    sc-gen -n 1m --dist iota -c 64k | cmp - <(sc-gen -n 1M --dist iota)
    sc-rsort -S 64k a.bin | cmp - a.bin
    [ "$(sc-gen -n 1t --dist iota 2>/dev/null | head -c 4 | u32text)" = 0 ]
    run sc-gen -n 1q
    [ "$status" -eq 2 ]
}

@test "sc-gen: -n takes K, M suffixes and 0x hex" {
    sc-gen -n 1K --dist iota > a.bin
    [ "$(stat -c %s a.bin)" -eq 4096 ]
    sc-gen -n 1024 --dist iota > b.bin
    expect_same b.bin a.bin
    sc-gen -n 1M --dist structured > m.bin
    [ "$(stat -c %s m.bin)" -eq $((4 * 1048576)) ]
    sc-gen -n 0x10 --dist iota > h.bin
    [ "$(stat -c %s h.bin)" -eq 64 ]
    sc-gen -n 0x400 --dist iota > h2.bin
    expect_same a.bin h2.bin
    sc-gen -n 3K --dist iota > k3.bin
    [ "$(stat -c %s k3.bin)" -eq $((4 * 3072)) ]
    # G and T parse (only the start is read)
    [ "$(sc-gen -n 2G --dist iota 2>/dev/null | head -c 8 | u32text | tr '\n' ' ')" = "0 1 " ]
    [ "$(sc-gen -n 1T --dist iota 2>/dev/null | head -c 8 | u32text | tr '\n' ' ')" = "0 1 " ]
    # leading zeros are decimal
    sc-gen -n 010 > d.bin
    [ "$(stat -c %s d.bin)" -eq 40 ]
}

@test "sc-gen --dist structured: 1,0,3,0,5,..." {
    sc-gen -n 10 --dist structured > s.bin
    [ "$(u32text s.bin | tr '\n' ' ')" = "1 0 3 0 5 0 7 0 9 0 " ]
    # and far out: element i is i+1 for even i, 0 for odd i
    sc-gen -n 70001 --dist structured > big.bin
    run bash -c "od -An -v -tu4 -w4 big.bin | tr -d ' ' | awk '{ i = NR - 1; want = (i % 2) ? 0 : i + 1; if (\$1 != want) { print \"element \" i \": \" \$1 \" want \" want; exit 1 } }'"
    [ "$status" -eq 0 ] || { echo "# $output" >&2; return 1; }
}

@test "sc-gen --dist iota: element i is i" {
    sc-gen -n 5 --dist iota > s.bin
    [ "$(u32text s.bin | tr '\n' ' ')" = "0 1 2 3 4 " ]
    sc-gen -n 100000 --dist iota > big.bin
    seq 0 99999 > want.txt
    u32text big.bin > got.txt
    cmp want.txt got.txt
}

@test "sc-gen --dist constant: --value V, default 1, hex" {
    sc-gen -n 6 --dist constant > c.bin
    [ "$(u32text c.bin | tr '\n' ' ')" = "1 1 1 1 1 1 " ]
    sc-gen -n 4 --dist constant --value 7 > c.bin
    [ "$(u32text c.bin | tr '\n' ' ')" = "7 7 7 7 " ]
    sc-gen -n 3 --dist constant --value 0xdeadbeef > c.bin
    [ "$(u32text c.bin | tr '\n' ' ')" = "3735928559 3735928559 3735928559 " ]
    sc-gen -n 2 --dist constant --value 4294967295 > c.bin
    [ "$(u32text c.bin | tr '\n' ' ')" = "4294967295 4294967295 " ]
}

@test "sc-gen --dist uniform: values within --min/--max, all of a small range drawn" {
    sc-gen -n 100000 --min 10 --max 20 -s 3 > u.bin
    u32text u.bin | sort -n | uniq > vals.txt
    [ "$(tr '\n' ' ' < vals.txt)" = "10 11 12 13 14 15 16 17 18 19 20 " ]
    sc-gen -n 1000 --min 5 --max 5 > u.bin
    [ "$(u32text u.bin | sort -u)" = "5" ]
    sc-gen -n 100000 --min 4294967290 --max 4294967295 > u.bin
    [ "$(u32text u.bin | sort -n | uniq | tr '\n' ' ')" = "4294967290 4294967291 4294967292 4294967293 4294967294 4294967295 " ]
}

@test "sc-gen --dist uniform: default range covers the full 32 bits" {
    sc-gen -n 100000 -s 9 > u.bin
    # high and low halves both populated, almost no duplicates
    [ "$(ref compact --ge 0x80000000 --count < u.bin)" -gt 45000 ]
    [ "$(ref compact --lt 0x80000000 --count < u.bin)" -gt 45000 ]
    [ "$(ref compact --lt 0x10000 --count < u.bin)" -lt 100 ]
    [ "$(u32text u.bin | sort -u | wc -l)" -gt 99000 ]
}

@test "sc-gen --density 0 gives all zeros, for every distribution" {
    local d
    for d in uniform structured iota constant; do
        sc-gen -n 10000 --dist $d --density 0 > z.bin
        [ "$(stat -c %s z.bin)" -eq 40000 ]
        [ "$(ref compact --count < z.bin)" -eq 0 ] || { echo "# --dist $d --density 0 has nonzeros" >&2; return 1; }
    done
}

@test "sc-gen --density 1: structured and iota unchanged, constant all V" {
    sc-gen -n 1000 --dist iota --density 1 > a.bin
    sc-gen -n 1000 --dist iota > b.bin
    expect_same b.bin a.bin
    sc-gen -n 1000 --dist constant --value 3 --density 1 > c.bin
    [ "$(ref compact --eq 3 --count < c.bin)" -eq 1000 ]
}

@test "sc-gen --density 0.5 and 0.25: fraction of zeros within tolerance on 1M elements" {
    sc-gen -n 1M --density 0.5 -s 21 > d.bin
    local nz
    nz=$(ref compact --count < d.bin)
    # expected 524288, sd ~ 512: allow +-5000
    [ "$nz" -gt 519288 ] && [ "$nz" -lt 529288 ] || { echo "# nonzero count $nz" >&2; return 1; }
    sc-gen -n 1M --density 0.25 -s 22 > d.bin
    nz=$(ref compact --count < d.bin)
    [ "$nz" -gt 257144 ] && [ "$nz" -lt 267144 ] || { echo "# nonzero count $nz" >&2; return 1; }
}

@test "sc-gen --density: nonzero uniform draws avoid 0 (--min 0 --max 3)" {
    sc-gen -n 1M --min 0 --max 3 --density 0.5 -s 5 > d.bin
    local zeros ones twos threes
    zeros=$(ref compact --eq 0 --count < d.bin)
    ones=$(ref compact --eq 1 --count < d.bin)
    twos=$(ref compact --eq 2 --count < d.bin)
    threes=$(ref compact --eq 3 --count < d.bin)
    [ $((zeros + ones + twos + threes)) -eq 1048576 ]
    # zeros only from the density (~50 %), not also from draws (~62.5 %)
    [ "$zeros" -gt 519288 ] && [ "$zeros" -lt 529288 ] || { echo "# zeros $zeros" >&2; return 1; }
    local c
    for c in $ones $twos $threes; do
        [ "$c" -gt 169762 ] && [ "$c" -lt 179762 ] || { echo "# counts $ones $twos $threes" >&2; return 1; }
    done
}

@test "sc-gen --density with iota and structured keeps the value at kept positions" {
    sc-gen -n 200000 --dist iota --density 0.5 -s 4 > d.bin
    ref compact --indices < d.bin > idx.bin
    ref compact < d.bin > val.bin
    # at every nonzero position i the value is i
    expect_same idx.bin val.bin
    local nz
    nz=$(nelems val.bin)
    [ "$nz" -gt 95000 ] && [ "$nz" -lt 105000 ]
    sc-gen -n 200000 --dist structured --density 0.5 -s 4 > s.bin
    ref compact --indices < s.bin > idx.bin
    ref compact < s.bin > val.bin
    u32text idx.bin | awk '{ print $1 + 1 }' > want.txt
    u32text val.bin > got.txt
    cmp want.txt got.txt
    nz=$(nelems val.bin)
    [ "$nz" -gt 45000 ] && [ "$nz" -lt 55000 ]
}

@test "sc-gen -s: different seeds differ, default seed is 1, hex seeds" {
    sc-gen -n 1000 -s 1 > s1.bin
    sc-gen -n 1000 -s 2 > s2.bin
    sc-gen -n 1000 > sdef.bin
    sc-gen -n 1000 --seed 0x10 > s16a.bin
    sc-gen -n 1000 -s 16 > s16b.bin
    files_differ s1.bin s2.bin
    expect_same s1.bin sdef.bin
    expect_same s16a.bin s16b.bin
    files_differ s1.bin s16a.bin
    # different seeds share almost no values
    [ "$(cat <(u32text s1.bin) <(u32text s2.bin) | sort -u | wc -l)" -gt 1990 ]
}

@test "sc-gen -z: gzip -dc gives the raw bytes, at every --level" {
    sc-gen -n 300000 --density 0.5 -s 8 > raw.bin
    sc-gen -n 300000 --density 0.5 -s 8 -z > out.gz
    [ "$(head -c 2 out.gz | od -An -tx1 | tr -d ' ')" = "1f8b" ]
    gzip -dc out.gz > back.bin
    expect_same raw.bin back.bin
    local l
    for l in 1 9; do
        sc-gen -n 300000 --density 0.5 -s 8 --gzip --level $l > l.gz
        gzip -t l.gz
        gzip -dc l.gz > back.bin
        expect_same raw.bin back.bin
    done
    # -z with -o
    sc-gen -n 300000 --density 0.5 -s 8 -z -o file.gz
    gzip -dc file.gz > back.bin
    expect_same raw.bin back.bin
}

@test "sc-gen -n 0 -z: empty output or a valid empty gzip stream" {
    # SPEC: empty input gives empty output, and -z output is readable by
    # gzip -d; either reading is accepted here.
    sc-gen -n 0 -z > e.gz
    if [ -s e.gz ]; then
        gzip -dc e.gz > e.bin
        [ ! -s e.bin ]
    fi
}

@test "sc-gen -t: one decimal number per line" {
    sc-gen -n 50000 --density 0.5 -s 8 > raw.bin
    sc-gen -n 50000 --density 0.5 -s 8 -t > out.txt
    u32text raw.bin > want.txt
    cmp want.txt out.txt
    sc-gen -n 3 --dist constant --value 4294967295 --text > out.txt
    printf '4294967295\n4294967295\n4294967295\n' > want.txt
    cmp want.txt out.txt
}

@test "sc-gen -o FILE writes the file, nothing on stdout" {
    run --separate-stderr sc-gen -n 1000 -s 3 -o out.bin
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    sc-gen -n 1000 -s 3 > want.bin
    expect_same want.bin out.bin
}

@test "sc-gen usage errors exit 2 with Try 'sc-gen --help'" {
    run sc-gen
    expect_usage sc-gen
    run sc-gen --dist uniform
    expect_usage sc-gen
    run sc-gen -n 10 --dist bogus
    expect_usage sc-gen
    run sc-gen -n 10 --density 1.5
    expect_usage sc-gen
    run sc-gen -n 10 --density -0.1
    expect_usage sc-gen
    run sc-gen -n 10 --density abc
    expect_usage sc-gen
    run sc-gen -n 10 --min 5 --max 4
    expect_usage sc-gen
    run sc-gen -n 10X
    expect_usage sc-gen
    run sc-gen -n abc
    expect_usage sc-gen
    run sc-gen -n 10 --no-such-option
    expect_usage sc-gen
    run sc-gen -n
    expect_usage sc-gen
    run sc-gen -n 10 --value 4294967296 --dist constant
    expect_usage sc-gen
    run sc-gen -n 10 --level 10 -z
    expect_usage sc-gen
    run sc-gen -n 10 -c 5000
    expect_usage sc-gen
}

@test "sc-gen usage errors write nothing on stdout" {
    run --separate-stderr sc-gen -n 10 --dist bogus
    [ "$status" -eq 2 ]
    [ -z "$output" ]
    [[ "$stderr" == sc-gen:* ]]
}

@test "sc-gen -h and -V: stdout, exit 0" {
    local o
    for o in -h --help; do
        run --separate-stderr sc-gen $o
        [ "$status" -eq 0 ]
        [ -n "$output" ]
        [ -z "$stderr" ]
        [[ "$output" == *--dist* ]]
    done
    for o in -V --version; do
        run --separate-stderr sc-gen $o
        [ "$status" -eq 0 ]
        [[ "$output" =~ [0-9]+\.[0-9]+ ]]
        [ -z "$stderr" ]
    done
}

# ------------------------------------------------------------------
# 64-bit types (u64, i64, f64): 8 bytes an element, made on the host's
# threads under every device.

# stats64 CODE FILE: "COUNT MIN MAX ZEROS" of FILE read as python array
# CODE ('Q' u64, 'q' i64, 'd' f64); min and max over the nonzero ones,
# floats in repr (shortest round trip).
stats64() {
    python3 - "$1" "$2" <<'PY'
import array, sys
a = array.array(sys.argv[1])
a.frombytes(open(sys.argv[2], 'rb').read())
nz = [x for x in a if x != 0]
lo, hi = (min(nz), max(nz)) if nz else ('-', '-')
print(len(a), repr(lo), repr(hi), len(a) - len(nz))
PY
}

# within64 TYPE MIN MAX [sc-gen options...]: 20011 uniform draws of TYPE
# in [MIN, MAX]: every nonzero one inside, in the type's order.
within64() {
    local t=$1 lo=$2 hi=$3 code
    shift 3
    case $t in u64) code=Q ;; i64) code=q ;; f64) code=d ;; esac
    sc-gen -e $t --min "$lo" --max "$hi" -n 20011 "$@" > w.bin
    [ "$(stat -c %s w.bin)" -eq 160088 ]
    python3 - $code w.bin "$lo" "$hi" <<'PY'
import array, sys
code, path, lo, hi = sys.argv[1:]
num = float if code == 'd' else lambda s: int(s, 0)
lo, hi = num(lo), num(hi)
a = array.array(code)
a.frombytes(open(path, 'rb').read())
bad = [x for x in a if x != 0 and not lo <= x <= hi]
if bad:
    sys.exit("%d of %d outside [%r, %r], e.g. %r" % (len(bad), len(a), lo, hi, bad[0]))
PY
}

@test "sc-gen -e u64, i64, f64: -n 0 1 33 65537 give 8 bytes an element" {
    local t n
    for t in u64 i64 f64; do
        for n in 0 1 33 65537; do
            sc-gen -e $t -n $n -s 5 --density 0.5 > out.bin
            [ "$(stat -c %s out.bin)" -eq $((n * 8)) ] ||
                { echo "# -e $t -n $n: $(stat -c %s out.bin) bytes" >&2; return 1; }
        done
        # element i does not depend on -n
        sc-gen -e $t -n 65537 -s 5 --density 0.5 > long.bin
        sc-gen -e $t -n 33 -s 5 --density 0.5 > short.bin
        expect_prefix short.bin long.bin
    done
}

@test "sc-gen -e u64: uniform within --min and --max, all of u64 by default" {
    within64 u64 0 18446744073709551615
    within64 u64 18446744073709551606 18446744073709551615 -s 2
    within64 u64 5 5
    within64 u64 1000 1000000 --density 0.5
    # The default is the whole of u64: draws reach both ends' sixteenths.
    sc-gen -e u64 -n 100003 -s 3 > all.bin
    read -r n lo hi zeros < <(stats64 Q all.bin)
    [ "$n" -eq 100003 ]
    python3 -c "import sys; lo, hi = $lo, $hi; sys.exit(not (lo < 2**60 and hi >= 15 * 2**60))"
}

@test "sc-gen -e i64: uniform within negative bounds, all of i64 by default" {
    within64 i64 -1000 -3
    within64 i64 -9223372036854775808 -9223372036854775800
    within64 i64 9223372036854775800 9223372036854775807
    within64 i64 -5 5 --density 0.25
    sc-gen -e i64 -n 100003 -s 3 > all.bin
    read -r n lo hi zeros < <(stats64 q all.bin)
    python3 -c "import sys; lo, hi = $lo, $hi; sys.exit(not (lo < -2**62 and hi > 2**62))"
    # Every value of a small range comes.
    sc-gen -e i64 --min -3 --max 3 -n 10000 > small.bin
    [ "$(od -A n -v -t d8 -w8 small.bin | sort -u | wc -l)" -eq 7 ]
}

@test "sc-gen -e f64: uniform within [0, 1] by default, negative bounds, any finite bounds" {
    within64 f64 0 1
    sc-gen -e f64 -n 100003 > d.bin
    read -r n lo hi zeros < <(stats64 d d.bin)
    python3 -c "import sys; sys.exit(not (0 <= $lo < 0.001 and 0.999 < $hi < 1))"
    within64 f64 -2.5 -1e-3
    within64 f64 -1e-300 1e-300 --density 0.25
    # max - min overflows a double here, and still every draw is finite.
    within64 f64 -1.7976931348623157e308 1.7976931348623157e308
    within64 f64 -1e308 1.5e308 -s 4
    python3 -c "
import array, math, sys
a = array.array('d'); a.frombytes(open('w.bin', 'rb').read())
sys.exit(not all(math.isfinite(x) for x in a))"
    # A range of one value is that value.
    [ "$(sc-gen -e f64 --min 3.25 --max 3.25 -n 3 | od -A n -v -t f8 -w8 | tr -d ' ' | xargs)" = "3.25 3.25 3.25" ]
}

@test "sc-gen -e u64, i64, f64: --density 0.25 leaves about 25 % nonzero" {
    local t code range
    for t in u64 i64 f64; do
        case $t in u64) code=Q range="--min 0 --max 100" ;;
                   i64) code=q range="--min -50 --max 50" ;;
                   f64) code=d range="--min -1 --max 1" ;; esac
        sc-gen -e $t $range --density 0.25 -n 100000 -s 8 > p.bin
        read -r n lo hi zeros < <(stats64 $code p.bin)
        [ "$n" -eq 100000 ]
        [ "$zeros" -gt 74000 ] && [ "$zeros" -lt 76000 ] ||
            { echo "# -e $t: $zeros zeros of $n" >&2; return 1; }
    done
}

@test "sc-gen -e u64, i64, f64: iota, structured and constant are exact" {
    [ "$(sc-gen -e u64 --dist iota -n 5 | u64text | xargs)" = "0 1 2 3 4" ]
    [ "$(sc-gen -e i64 --dist structured -n 6 | od -A n -v -t d8 -w8 | tr -d ' ' | xargs)" = "1 0 3 0 5 0" ]
    [ "$(sc-gen -e f64 --dist iota -n 4 | od -A n -v -t f8 -w8 | tr -d ' ' | xargs)" = "0 1 2 3" ]
    [ "$(sc-gen -e u64 --dist constant --value 18446744073709551615 -n 3 |
         od -A n -v -t u8 -w8 | tr -d ' ' | xargs)" = "18446744073709551615 18446744073709551615 18446744073709551615" ]
    [ "$(sc-gen -e i64 --dist constant --value -9223372036854775808 -n 2 |
         od -A n -v -t d8 -w8 | tr -d ' ' | xargs)" = "-9223372036854775808 -9223372036854775808" ]
    [ "$(sc-gen -e f64 --dist constant --value -0.1 -n 2 | od -A n -v -t x8 -w8 | tr -d ' ' | xargs)" = "bfb999999999999a bfb999999999999a" ]
    # (Positions past 2^32, and f64's rounding past 2^53: tests/unit/test_api.)
    # constant with density: the value or 0.
    sc-gen -e i64 --dist constant --value -7 --density 0.5 -n 1000 | od -A n -v -t d8 -w8 | tr -d ' ' | LC_ALL=C sort -u | xargs > cz
    [ "$(cat cz)" = "-7 0" ]
}

@test "sc-gen -e u64, i64, f64: the same bytes for every chunk size, thread count and device" {
    local t opts extra
    for t in u64 i64 f64; do
        for opts in "" "--density 0.3" "--dist iota --density 0.7" "--dist structured"; do
            sc-gen -e $t -n 300001 $opts > base.bin
            [ "$(stat -c %s base.bin)" -eq 2400008 ]
            for extra in "-j 1" "-j 2" "-c 4K" "-c 12K -j 3" "-d cpu" "-d auto"; do
                sc-gen -e $t -n 300001 $opts $extra > other.bin
                expect_same base.bin other.bin || { echo "# differs: -e $t $opts $extra" >&2; return 1; }
            done
        done
    done
}

@test "sc-gen -e u64, i64, f64: -d cuda makes the bytes -d cpu does" {
    skip_without_gpu
    local t
    for t in u64 i64 f64; do
        sc-gen -d cpu -e $t -n 1000003 --density 0.5 -s 7 > cpu.bin
        sc-gen -d cuda -e $t -n 1000003 --density 0.5 -s 7 > cuda.bin
        expect_same cpu.bin cuda.bin
    done
}

@test "sc-gen -e u64, i64, f64: bounds and values the type cannot take are usage errors" {
    run sc-gen -e u64 --min 10 --max 9 -n 3
    expect_usage sc-gen
    [[ $output == *"above --max"* ]]
    run sc-gen -e i64 --min -5 --max -6 -n 3
    expect_usage sc-gen
    run sc-gen -e f64 --min 1 --max -1 -n 3
    expect_usage sc-gen
    run sc-gen -e f64 --max nan -n 3
    expect_usage sc-gen
    run sc-gen -e f64 --min nan -n 3
    expect_usage sc-gen
    [[ $output == "sc-gen: --min and --max must be finite numbers"* ]]
    run sc-gen -e f32 --min nan --max nan -n 3
    expect_usage sc-gen
    [[ $output == "sc-gen: --min and --max must be finite numbers"* ]]
    run sc-gen -e f64 --min -inf --max 0 -n 3
    expect_usage sc-gen
    run sc-gen -e f64 --max 1e309 -n 3
    expect_usage sc-gen
    run sc-gen -e u64 --max -1 -n 3
    expect_usage sc-gen
    run sc-gen -e u64 --max 18446744073709551616 -n 3
    expect_usage sc-gen
    [[ $output == *"out of range for u64"* ]]
    run sc-gen -e i64 --min -9223372036854775809 -n 3
    expect_usage sc-gen
    run sc-gen -e i64 --dist constant --value 9223372036854775808 -n 3
    expect_usage sc-gen
    run sc-gen -e u64 --value 1.5 --dist constant -n 3
    expect_usage sc-gen
    run --separate-stderr sc-gen -e f64 --max nan -n 3
    [ -z "$output" ]
}
