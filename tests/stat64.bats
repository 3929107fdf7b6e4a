#!/usr/bin/env bats
# stat64.bats -- sc-stat and sc-split --ranges on the 64-bit element types
# (-e u64, -e i64, -e f64): sc-stat's figures of the ranks on the device the
# policy picks (the GPU's kernel under -d cuda; an f64 sum in its fixed
# order on the host), --ranges on the CPU's threads whatever the device.
# -d cuda gives the bytes of -d cpu, and -v names the GPU.
# Against sc-ref (tests/ref/sc-ref.c) on its own test data (sc-ref
# gen: the specials of each type, many duplicates, any bit pattern): every
# line of the report (distinct, an estimate, within 3 % of sc-ref's exact
# count), --hist, --head, --tail; --quantiles with --sample and --seed cut
# the data into near-equal parts; sizes, chunks, threads, devices, formats
# and stray bytes.  The parts of --ranges against sc-ref compact per part
# (integers) and a partition by rank written here (floats: totalOrder).

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-stat sc-split sc-compact
}

TYPES64="u64 i64 f64"
SIZES="0 1 31 32 33 4095 4096 65537 100003"

# data TYPE N SEED [-t] > FILE: N elements of sc-ref gen's test data
# (-t: as text).
data() {
    local t=$1 n=$2 s=$3
    shift 3
    ref gen --type "$t" -n "$n" -s "$s" "$@"
}

# --------------------------------------------------------------- sc-stat

@test "stat64: the report vs sc-ref, every type, sizes 0 to 100003" {
    local t n
    for t in $TYPES64; do
        for n in $SIZES; do
            data "$t" "$n" $((n + 3)) > in.bin
            report_is_ref "$t" in.bin || { echo "# $n elements" >&2; return 1; }
        done
    done
    # What the data holds: sums past 2^64, negative ones, NaNs.
    data u64 65537 4 > in.bin
    [ "$(sc-stat -e u64 in.bin | sed -n 's/^sum //p' | wc -c)" -gt 21 ]
    [[ "$(sc-stat -e f64 in.bin | sed -n 's/^max //p')" == nan* ]]
}

@test "stat64: -j 1, -j 4 and -c 4K change nothing; -d cpu and -d auto agree; -v says why" {
    local t opts
    for t in $TYPES64; do
        data "$t" 100003 21 > in.bin
        for opts in "-j 1" "-j 4" "-c 4K" "-c 4K -j 4" "-d cpu -c 8K -j 3" "-d auto"; do
            # shellcheck disable=SC2206
            EXTRA=($opts)
            report_is_ref "$t" in.bin || return 1
            report_is_ref "$t" in.bin --hist 5 || return 1
        done
        EXTRA=()
        sc-stat -d cpu -e "$t" in.bin > cpu.out
        sc-stat -d auto -e "$t" -c 4K in.bin > auto.out
        expect_same cpu.out auto.out
    done
    # -v names the CPU asked for, with no note
    run -0 --separate-stderr sc-stat -d cpu -v -e u64 in.bin
    [[ "$stderr" == *"device: cpu"* && "$stderr" != *"note:"* ]] ||
        { echo "# $stderr" >&2; return 1; }
    # -d auto says why it ran where it did, also where no chunk came for
    # the worker to hand on (typed elements, --quantiles): an empty input,
    # from a file or a pipe
    : > empty.bin
    for opts in "-e u64" "-e i32" "-e f64 --quantiles 3" "--quantiles 3"; do
        # shellcheck disable=SC2086
        run -0 --separate-stderr sc-stat -d auto -v $opts empty.bin
        [[ "$output" == "count 0" && "$stderr" == *"why: auto "* ]] ||
            { echo "# $opts: $stderr" >&2; return 1; }
        # shellcheck disable=SC2086
        run -0 --separate-stderr sc-stat -d auto -v $opts < empty.bin
        [[ "$stderr" == *"why: auto "* ]] || { echo "# $opts <: $stderr" >&2; return 1; }
    done
}

# same_devices64 TYPE ARGS...: sc-stat -e TYPE ARGS on -d cpu and -d cuda,
# the same bytes; -d cuda ran on the GPU (-v names it, and no note says
# that the host's threads took the chunks).
same_devices64() {
    local t=$1
    shift
    sc-stat -d cpu -e "$t" "$@" > cpu.out 2> cpu.err ||
        { echo "# -d cpu -e $t $* failed: $(cat cpu.err)" >&2; return 1; }
    sc-stat -d cuda -v -e "$t" "$@" > gpu.out 2> gpu.err ||
        { echo "# -d cuda -e $t $* failed: $(cat gpu.err)" >&2; return 1; }
    expect_same cpu.out gpu.out || { echo "# differs: sc-stat -e $t $*" >&2; return 1; }
    grep -q 'device: cuda' gpu.err && ! grep -q "host's threads" gpu.err ||
        { echo "# -d cuda -e $t $*: not on the GPU: $(cat gpu.err)" >&2; return 1; }
}

@test "stat64 (GPU): -d cuda == -d cpu byte for byte, -v names the GPU: sizes, data, chunks, --hist" {
    skip_without_gpu "comparing -d cuda with -d cpu needs one"
    local t n
    for t in $TYPES64; do
        : > in.bin
        same_devices64 "$t" in.bin || return 1
        for n in 1 31 33 4095 65537 1000003; do
            data "$t" "$n" $((n + 7)) > in.bin
            same_devices64 "$t" in.bin || { echo "# n=$n" >&2; return 1; }
        done
        same_devices64 "$t" -c 4K in.bin || return 1
        same_devices64 "$t" -c 64K -j 3 --hist 7 in.bin || return 1
        same_devices64 "$t" --quantiles 4 in.bin || return 1
        sc-stat -d cpu -e "$t" in.bin > want.out
        cat in.bin | sc-stat -d cuda -e "$t" -c 64K > pipe.out
        expect_same want.out pipe.out
        gzip -c in.bin > in.gz
        same_devices64 "$t" -c 64K in.gz || return 1
        EXTRA=(-d cuda)
        report_is_ref "$t" in.bin || return 1
        EXTRA=()
    done
    # the ends: all ones (UINT64_MAX, -1, a NaN), all zeros (both signs),
    # INT64_MIN and INT64_MAX; sums past 2^64 over many chunks
    sc-gen -d cpu -e u64 --dist constant --value 18446744073709551615 -n 300001 > ones.bin
    perl -e 'print pack("Q<*", map { $_ % 3 ? 0 : 1 << 63 } 1 .. 70001)' > zeros.bin
    perl -e 'print pack("q<*", map { $_ & 1 ? -9223372036854775807 - 1 : 9223372036854775807 } 1 .. 70001)' > ends.bin
    EXTRA=(-d cuda -c 64K)
    for t in $TYPES64; do
        for f in ones.bin zeros.bin ends.bin; do
            same_devices64 "$t" -c 64K "$f" || return 1
            report_is_ref "$t" "$f" || return 1
        done
    done
    run -0 sc-stat -d cuda -e u64 ones.bin
    [[ "$output" == *"sum 5534041668856939194051615"$'\n'* ]]
    # f64 specials: NaNs of both signs with payloads, infinities, -0
    perl -e 'print pack("Q<*", 0x7ff8000000000001, 0xfff0000000000001, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0, 1)' > s.bin
    same_devices64 f64 s.bin
    report_is_ref f64 s.bin
}

@test "stat64 (GPU): a GPU short of memory takes smaller pieces, then hands the chunks to the CPU: the same bytes" {
    skip_without_gpu "a device memory cap needs a GPU"
    local t
    for t in $TYPES64; do
        data "$t" 3000017 9 > in.bin
        sc-stat -d cpu -e "$t" --hist 5 in.bin > want.out
        SC_TEST_DEVICE_MEMORY=40M sc-stat -d cuda -e "$t" -c 32M --hist 5 in.bin > got.out
        expect_same want.out got.out || { echo "# -e $t, 40M" >&2; return 1; }
        SC_TEST_DEVICE_MEMORY=1M sc-stat -d cuda -v -e "$t" --hist 5 in.bin > got.out 2> err.txt
        expect_same want.out got.out || { echo "# -e $t, 1M" >&2; return 1; }
        grep -q "continued on the CPU" err.txt || { echo "# $(cat err.txt)" >&2; return 1; }
    done
}

@test "stat64: the mean is sum / count to 6 decimals, a tie away from zero, as exact fractions give; a float's as %.6f of the double sum; sc-stat(1) says so" {
    # Inputs written by python with the mean it expects: integers from
    # exact fractions (ties of both signs, huge sums, random values), floats
    # from the double sum in order (under 1024 elements: one block).
    python3 - <<'PY'
import random, struct
from fractions import Fraction
random.seed(11)
F = {'u32': '<I', 'i32': '<i', 'u64': '<Q', 'i64': '<q', 'f32': '<f', 'f64': '<d'}
def away(m):
    q, r = divmod(abs(m) * 10**6, 1)
    q += r >= Fraction(1, 2)
    s = '%d.%06d' % divmod(q, 10**6)
    return ('-' if m < 0 and q else '') + s
cases = [('u32', [1] + [0] * 1999999), ('i32', [-1] + [0] * 1999999),
         ('i32', [-3] + [0] * 1999999), ('i32', [-1, -1, -2]), ('u32', [2, 2, 1]),
         ('u64', [2**64 - 1] * 3 + [0] * 4), ('i64', [-2**63] * 3 + [1] * 4),
         ('i64', [-5] + [0] * 1999999)]
for t, lo, hi in (('u32', 0, 2**32), ('i32', -2**31, 2**31),
                  ('u64', 0, 2**64), ('i64', -2**63, 2**63)):
    for n in (3, 7, 1001):
        cases.append((t, [random.randrange(lo, hi) for _ in range(n)]))
for t in ('f32', 'f64'):
    for n in (3, 7, 1001):
        cases.append((t, [random.uniform(-1e6, 1e6) for _ in range(n)]))
    cases.append((t, [-1e-9, 0.0]))
    cases.append((t, [0.0078125]))      # a tie at 6 decimals: to even
for k, (t, v) in enumerate(cases):
    data = b''.join(struct.pack(F[t], x) for x in v)
    open('m%d.bin' % k, 'wb').write(data)
    if t[0] == 'f':
        v = [struct.unpack(F[t], struct.pack(F[t], x))[0] for x in v]
        total = 0.0
        for x in v:
            total += x
        want = '%.6f' % (total / len(v))
    else:
        want = away(Fraction(sum(v), len(v)))
    open('m%d.want' % k, 'w').write('%s mean %s\n' % (t, want))
PY
    local w t want got
    for w in m*.want; do
        read -r t _ want < "$w"
        got=$(sc-stat -e "$t" "${w%.want}.bin" | sed -n 's/^mean //p')
        [ "$got" = "$want" ] || { echo "# ${w%.want} ($t): mean $got, want $want" >&2; return 1; }
    done
    # the page says how it rounds
    grep -q 'a tie away from zero' "$SC_SRCDIR/man/sc-stat.1"
}

@test "stat64: u64 sums past 2^64 and i64 negative sums are exact, means to 6 decimals" {
    pack64 u64 18446744073709551615 18446744073709551615 18446744073709551614 > u.bin
    run -0 sc-stat -e u64 u.bin
    [ "$output" = "$(printf 'count 3\nmin 18446744073709551614\nmax 18446744073709551615\nsum 55340232221128654844\nmean 18446744073709551614.666667\nzeros 0\ndistinct 2')" ]
    report_is_ref u64 u.bin
    pack64 i64 -9223372036854775808 -9223372036854775808 -1 0 > i.bin
    run -0 sc-stat -e i64 i.bin
    [ "$output" = "$(printf 'count 4\nmin -9223372036854775808\nmax 0\nsum -18446744073709551617\nmean -4611686018427387904.250000\nzeros 1\ndistinct 3')" ]
    report_is_ref i64 i.bin
    # a negative mean that rounds to zero has no sign
    perl -e 'print pack("q<*", -1, (0) x 2000001)' > z.bin
    run -0 sc-stat -e i64 z.bin
    [[ "$output" == *"sum -1"$'\n'"mean 0.000000"* ]]
    report_is_ref i64 z.bin
    # sums of many elements near the top, over many chunks and threads
    sc-gen -d cpu -e u64 --dist constant --value 18446744073709551615 -n 300001 > big.bin
    EXTRA=(-c 4K -j 4)
    report_is_ref u64 big.bin
    run -0 sc-stat -e u64 big.bin
    [[ "$output" == *"sum 5534041668856939194051615"$'\n'* ]]
}

@test "stat64: f64 NaNs, infinities and both zeros: totalOrder min/max, zeros, the sum" {
    pack64 f64 1.5 -0.0 0.0 inf -inf -2.5 > a.bin
    report_is_ref f64 a.bin
    run -0 sc-stat -e f64 a.bin
    [ "$output" = "$(printf 'count 6\nmin -inf\nmax inf\nsum nan\nmean nan\nzeros 2\ndistinct 6')" ]
    # NaNs of both signs are the ends of totalOrder
    perl -e 'print pack("Q<*", 0x7ff8000000000001, 0xfff0000000000001, 0x8000000000000000)' > n.bin
    pack64 f64 3 >> n.bin
    report_is_ref f64 n.bin
    run -0 sc-stat -e f64 n.bin
    # (their significands written, as neither is the NaN of "nan")
    [[ "$output" == *$'\n'"min -nan(0x1)"$'\n'"max nan(0x8000000000001)"$'\n'"sum nan"*"zeros 1"* ]]
    # -0 alone: its sum is +0 (a block's sum starts at +0); zeros, both
    pack64 f64 -0.0 -0.0 > z.bin
    report_is_ref f64 z.bin
    run -0 sc-stat -e f64 z.bin
    [ "$output" = "$(printf 'count 2\nmin -0\nmax -0\nsum 0\nmean 0.000000\nzeros 2\ndistinct 1')" ]
    # the sum's fixed order: blocks of 1024, where the order shows
    perl -e 'print pack("d<*", map { $_ % 3 ? 1e16 : 1.0 } 1 .. 5000)' > o.bin
    EXTRA=(-c 4K -j 4)
    report_is_ref f64 o.bin
}

@test "stat64: --hist N of u64 and i64 vs sc-ref, the whole range, fewer values than buckets" {
    local t b
    for t in u64 i64; do
        data "$t" 200003 11 > in.bin
        for b in 1 2 7 100 4096; do
            report_is_ref "$t" in.bin --hist $b || return 1
        done
        EXTRA=(-c 4K -j 4)
        report_is_ref "$t" in.bin --hist 9
        EXTRA=()
    done
    # the extremes: a range of 2^64 values
    pack64 u64 0 18446744073709551615 9223372036854775808 > u.bin
    report_is_ref u64 u.bin --hist 3
    run -0 sc-stat -e u64 --hist 2 u.bin
    [ "$(grep '^hist ' <<< "$output" | tr '\n' ,)" = "hist 0 9223372036854775807 1,hist 9223372036854775808 18446744073709551615 2," ]
    pack64 i64 -9223372036854775808 9223372036854775807 -1 0 > i.bin
    report_is_ref i64 i.bin --hist 3
    run -0 sc-stat -e i64 --hist 2 i.bin
    [ "$(grep '^hist ' <<< "$output" | tr '\n' ,)" = "hist -9223372036854775808 -1 2,hist 0 9223372036854775807 2," ]
    # eleven values, 25 buckets asked: one a value
    pack64 i64 $(seq -5 5) > s.bin
    report_is_ref i64 s.bin --hist 25
    [ "$(sc-stat -e i64 --hist 25 s.bin | grep -c '^hist ')" -eq 11 ]
    # kept past -S in -T, from a pipe, big-endian: the same lines
    mkdir tmp
    data i64 300000 12 > in.bin
    ref stat --type i64 --hist 9 < in.bin | grep -v '^distinct' > want
    cat in.bin | sc-stat -e i64 --hist 9 -S 64K -T tmp -c 4K | grep -v '^distinct' > got
    expect_same want got
    [ -z "$(ls tmp)" ]
    swap64 < in.bin > in.be
    sc-stat -e i64 --big-endian --hist 9 in.be | grep -v '^distinct' > got
    expect_same want got
}

@test "stat64: --hist N of f32 and f64: equal widths between the finite ends, infinities and NaNs apart" {
    local t b
    for t in f32 f64; do
        # sc-ref's data: specials of every kind among the finite values
        data "$t" 100003 13 > in.bin
        for b in 1 3 100; do
            report_is_ref "$t" in.bin --hist $b || return 1
        done
        EXTRA=(-c 4K -j 4)
        report_is_ref "$t" in.bin --hist 7
        EXTRA=()
        # finite values only: one walk of what was kept; uniform in [-1e6, 1e6]
        sc-gen -d cpu -e "$t" --min -1e6 --max 1e6 -n 200003 -s 3 > u.bin
        report_is_ref "$t" u.bin --hist 10
        local counts
        counts=$(sc-stat -e "$t" --hist 10 u.bin | awk '/^hist /{print $4}')
        [ "$(wc -l <<< "$counts")" -eq 10 ]
        # about 20000 each: a wrong width or offset would empty some
        for c in $counts; do
            [ "$c" -gt 19000 ] && [ "$c" -lt 21000 ] || { echo "# $t: $counts" >&2; return 1; }
        done
    done
    # the lines: -inf first, the buckets, inf, the NaNs of both signs
    pack64 f64 -inf 1 2 3 5 inf nan -nan > a.bin
    run -0 sc-stat -e f64 --hist 2 a.bin
    [ "$(grep '^hist ' <<< "$output" | tr '\n' ,)" = "hist -inf -inf 1,hist 1 3 2,hist 3 5 2,hist inf inf 1,hist nan nan 2," ]
    report_is_ref f64 a.bin --hist 2
    # no finite value: the specials' lines alone; one value: one bucket
    pack64 f64 inf nan > s.bin
    run -0 sc-stat -e f64 --hist 4 s.bin
    [ "$(grep '^hist ' <<< "$output" | tr '\n' ,)" = "hist inf inf 1,hist nan nan 1," ]
    pack64 f64 2.5 2.5 2.5 > one.bin
    run -0 sc-stat -e f64 --hist 4 one.bin
    [ "$(grep '^hist ' <<< "$output" | tr '\n' ,)" = "hist 2.5 2.5 3," ]
    # a width past the largest double: both ends halved, no infinity (and
    # a mean of 309 digits, whole)
    pack64 f64 -1.7e308 1.7e308 0 1e308 > w.bin
    report_is_ref f64 w.bin --hist 4
    run -0 sc-stat -e f64 --hist 2 w.bin
    [ "$(grep '^hist ' <<< "$output" | tr '\n' ,)" = "hist -1.7e+308 0 1,hist 0 1.7e+308 3," ]
    # the kept input past -S in -T, from a pipe: the same lines
    mkdir tmp
    data f32 300000 14 > in.bin
    ref stat --type f32 --hist 9 < in.bin | grep -v '^distinct' > want
    cat in.bin | sc-stat -e f32 --hist 9 -S 64K -T tmp -c 4K | grep -v '^distinct' > got
    expect_same want got
    [ -z "$(ls tmp)" ]
}

@test "stat64: --head N and --tail N print the ends in the type, vs sc-ref" {
    local t n
    for t in $TYPES64; do
        data "$t" 100003 19 > in.bin
        for n in 1 10 4097 100002 100003 200000; do
            ref stat --type "$t" --head $n < in.bin > want
            sc-stat -e "$t" --head $n in.bin > got
            expect_same want got || { echo "# -e $t --head $n" >&2; return 1; }
            ref stat --type "$t" --tail $n < in.bin > want
            cat in.bin | sc-stat -e "$t" --tail $n -c 4K > got
            expect_same want got || { echo "# -e $t --tail $n" >&2; return 1; }
        done
    done
    run -0 sc-stat -e f64 --tail 1K < /dev/null
    [ -z "$output" ]
    perl -e 'print pack("Q<*", 1 << 63, 0, 0x7ff8000000000000, 0xfff0000000000000)' > s.bin
    [ "$(sc-stat -e f64 --head 4 s.bin | tr '\n' ' ')" = "-0 0 nan -inf " ]
    [ "$(sc-stat -e i64 --tail 1 s.bin)" = -4503599627370496 ]
}

# quantile_parts TYPE FILE N PERCENT [sc-stat options]: sc-stat
# --quantiles N's bounds cut FILE (sc-split --ranges --count) into N
# parts, each within PERCENT % of an Nth of the input.
quantile_parts() {
    local t=$1 f=$2 parts=$3 pct=$4 q n c
    shift 4
    q=$(sc-stat -e "$t" --quantiles "$parts" "$@" "$f" | sed -n 's/^quantiles //p')
    [ "$(tr , '\n' <<< "$q" | wc -l)" -eq $((parts - 1)) ] ||
        { echo "# -e $t $*: bounds '$q'" >&2; return 1; }
    n=$(( $(stat -c %s "$f") / 8 ))
    run -0 sc-split -e "$t" --ranges "$q" --count "$f"
    for c in $output; do
        awk -v c="$c" -v n="$n" -v k="$parts" -v p="$pct" 'BEGIN { d = c - n / k;
            if (d < 0) d = -d; exit !(d <= p / 100 * n) }' ||
            { echo "# -e $t $*: bounds $q: sizes $output of $n" >&2; return 1; }
    done
}

@test "stat64: --quantiles bounds cut the data into near-equal parts, with and without --sample" {
    sc-gen -d cpu -e u64 -n 3000000 -s 21 > u.bin
    sc-gen -d cpu -e i64 --min -5000000000 --max 5000000000 -n 3000000 -s 22 > i.bin
    sc-gen -d cpu -e f64 --min -1e6 --max 1e6 -n 3000000 -s 23 > f.bin
    quantile_parts u64 u.bin 8 0.5
    quantile_parts i64 i.bin 8 0.5
    quantile_parts f64 f.bin 8 0.5
    # a sample of the 64 KiB blocks, two seeds: the parts still near equal
    quantile_parts u64 u.bin 5 1 --sample 0.3
    quantile_parts i64 i.bin 4 1 --sample 0.2 --seed 7
    quantile_parts f64 f.bin 16 1 --sample 0.5 --seed 3
    # the i64 bounds are signed; the first f64 one near the first quartile
    q=$(sc-stat -e i64 --quantiles 4 i.bin | sed -n 's/^quantiles //p')
    [[ "$q" == -* ]]
    q=$(sc-stat -e f64 --quantiles 4 f.bin | sed -n 's/^quantiles //p')
    perl -e 'exit !($ARGV[0] > -510000 && $ARGV[0] < -490000)' -- "${q%%,*}"
}

@test "stat64: --quantiles exact on an input that fits the sample; repeated values give fewer bounds" {
    pack64 u64 $(seq 0 999) > u.bin
    run -0 sc-stat -e u64 --quantiles 4 u.bin
    [ "${lines[-1]}" = "quantiles 250,500,750" ]
    pack64 i64 $(seq -500 499) > i.bin
    run -0 sc-stat -e i64 --quantiles 4 i.bin
    [ "${lines[-1]}" = "quantiles -250,0,250" ]
    # the rest of the report is what it was
    [ "$(grep -v '^quantiles' <<< "$output")" = "$(sc-stat -e i64 i.bin)" ]
    perl -e 'print pack("d<*", map { $_ / 4 } 0 .. 999)' > f.bin
    run -0 sc-stat -e f64 --quantiles 4 f.bin
    [ "${lines[-1]}" = "quantiles 62.5,125,187.5" ]
    run -0 sc-stat -e i64 --quantiles 2 --hist 2 i.bin
    [ "${lines[7]}" = "quantiles 0" ] && [ "${lines[8]}" = "hist -500 -1 500" ]
    # one value throughout: no bound; a value over half the input: one
    sc-gen -d cpu -e i64 --dist constant --value -7 -n 100000 > c.bin
    run -0 sc-stat -e i64 --quantiles 4 c.bin
    [ "${lines[-1]}" = quantiles ]
    perl -e 'print pack("d<*", (-0.0) x 400, 1 .. 600)' > h.bin
    run -0 sc-stat -e f64 --quantiles 4 h.bin
    [ "${lines[-1]}" = "quantiles 101,351" ]
    : > empty.bin
    run -0 sc-stat -e u64 --quantiles 4 empty.bin
    [ "$output" = "count 0" ]
}

@test "stat64: --quantiles and --sample: the same for any chunk, thread count, file, pipe, gzip or split input" {
    local t opts
    for t in $TYPES64; do
        data "$t" 300007 13 > in.bin
        for opts in "--quantiles 16" "--quantiles 16 --sample 0.3" \
                    "--sample 0.5 --seed 9 --quantiles 3" "--hist 3 --sample 0.4"; do
            [ $t = f64 ] && [[ $opts == *hist* ]] && continue
            # shellcheck disable=SC2086
            stat_any_way $t in.bin $opts || return 1
        done
    done
}

@test "stat64: --sample takes 64 KiB blocks (8192 elements), read in place from a file" {
    local t
    for t in $TYPES64; do
        sc-gen -d cpu -e $t -n 2000000 -s 17 > in.bin     # 245 blocks
        sample_in_place $t in.bin 8192 || return 1
    done
    # The sample's figures are sc-ref's on the blocks taken: here the
    # first block alone (no block taken at 1e-9).
    data f64 24576 6 > three.bin
    head -c 65536 three.bin > first.bin
    sc-stat -e f64 --quantiles 2 first.bin > first.txt
    report_is_ref f64 first.bin
    run -0 sc-stat -e f64 --sample 1e-9 --quantiles 2 three.bin
    [ "$output" = "$(cat first.txt)" ] || { echo "# $output" >&2; return 1; }
    run -0 sh -c 'cat three.bin | sc-stat -e f64 -c 4K --sample 1e-9 --quantiles 2'
    [ "$output" = "$(cat first.txt)" ] || { echo "# $output" >&2; return 1; }
}

@test "stat64: gzip, text, --big-endian and several inputs are one stream" {
    local t
    for t in $TYPES64; do
        data "$t" 5000 23 > a.bin
        data "$t" 7001 29 > b.bin
        cat a.bin b.bin > ab.bin
        gzip -c a.bin > a.gz
        sc-stat -e "$t" a.gz b.bin > gz.out
        sc-stat -e "$t" ab.bin > raw.out
        expect_same raw.out gz.out
        report_is_ref "$t" ab.bin
        swap64 < ab.bin > ab.be
        sc-stat -e "$t" --big-endian -c 4K ab.be > be.out
        expect_same raw.out be.out
        # text: what sc-ref reads from the same text
        { data "$t" 5000 23 -t; data "$t" 7001 29 -t; } > ab.txt
        ref stat --type "$t" --in text < ab.txt | grep -v '^distinct' > want
        sc-stat -e "$t" --in text ab.txt | grep -v '^distinct' > got
        expect_same want got || { echo "# -e $t --in text" >&2; return 1; }
    done
}

@test "stat64: stray bytes: the report of the whole elements, then the error, exit 1" {
    local t k
    for t in $TYPES64; do
        data "$t" 10001 31 > in.bin
        ref stat --type "$t" < in.bin | grep -v '^distinct' > want
        for k in 1 4 7; do
            cp in.bin s.bin
            head -c $k /dev/zero >> s.bin
            run_to out err sc-stat -e "$t" -c 4K s.bin
            [ "$status" -eq 1 ] || { echo "# -e $t +$k bytes: status $status" >&2; return 1; }
            grep -v '^distinct' out > got
            expect_same want got || return 1
            expect_one_line_error sc-stat err
            grep -q "stray" err || { echo "# $(cat err)" >&2; return 1; }
        done
        # the same through the options that read otherwise
        run_to out err sc-stat -e "$t" --sample 0.5 s.bin
        [ "$status" -eq 1 ] && grep -q stray err && [ "$(head -1 out | cut -c1-6)" = "count " ]
        run_to out err sc-stat -e "$t" --tail 2 s.bin
        [ "$status" -eq 1 ] && grep -q stray err
        ref stat --type "$t" --tail 2 < in.bin | cmp - out
    done
}

# ---------------------------------------------------------- sc-split --ranges

# parts_are_compact TYPE IN BOUNDS PATTERN: part p of IN (PATTERN, %d as
# p) holds what sc-ref compact keeps of IN for B(p) <= x < B(p+1), and
# there is no other part: for the integer types, whose order is C's.
parts_are_compact() {
    local t=$1 in=$2 pattern=$4 p k least=0
    local -a b
    IFS=, read -r -a b <<< "$3"
    k=${#b[@]}
    [ "$t" = i64 ] && least=-9223372036854775808
    for ((p = 0; p <= k; p++)); do
        local -a cond=(--ge "$least")
        ((p > 0)) && cond=(--ge "${b[p - 1]}")
        ((p < k)) && cond+=(--lt "${b[p]}")
        ref compact --type "$t" "${cond[@]}" < "$in" > want.part
        expect_same want.part "${pattern/\%d/$p}" ||
            { echo "# -e $t part $p of bounds '$3'" >&2; return 1; }
    done
    [ ! -e "${pattern/\%d/$((k + 1))}" ] ||
        { echo "# -e $t: a part $((k + 1))" >&2; return 1; }
}

# parts_by_rank TYPE IN BOUNDS PREFIX: IN cut by hand into PREFIX.0, ...:
# element x goes to part p, the number of bounds whose rank is at or below
# x's (the rank: sc-ref's, the order of sc-rsort -e TYPE).
parts_by_rank() {
    local t=$1 in=$2 pre=$4
    tr , '\n' <<< "$3" | ref sort --type "$t" --in text > bounds.bin
    perl -e '
        my ($t, $in, $bf, $pre) = @ARGV;
        my $s = 1 << 63;
        sub rank { my $x = shift; return $x if $t eq "u64";
                   return $x ^ $s if $t eq "i64";
                   return ($x & $s) ? (~$x & 0xffffffffffffffff) : ($x ^ $s) }
        local $/;
        open(B, "<", $bf) or die; my @b = map { rank($_) } unpack("Q<*", <B>);
        open(I, "<", $in) or die; my @x = unpack("Q<*", <I>);
        my @out = map { "" } 0 .. @b;
        for my $x (@x) { my $r = rank($x); my $p = grep { $_ <= $r } @b;
                         $out[$p] .= pack("Q<", $x) }
        for my $p (0 .. $#out) { open(O, ">", "$pre.$p") or die; print O $out[$p] }
    ' "$t" "$in" bounds.bin "$pre"
}

@test "sc-split --ranges -e u64/i64: parts equal sc-ref compact per range, sizes 0 to 100003" {
    local t n bounds
    for n in 0 1 33 4097 100003; do
        data u64 $n $((n + 11)) > u.bin
        data i64 $n $((n + 12)) > i.bin
        for bounds in 9223372036854775808 1000,4294967296,18446744073709551615 \
                      0,1,18446744073709551614 0 ''; do
            rm -f part.*
            run -0 sc-split -e u64 --ranges "$bounds" -o 'part.%d' u.bin
            parts_are_compact u64 u.bin "$bounds" 'part.%d' || { echo "# n=$n" >&2; return 1; }
        done
        for bounds in 0 -1000,0,1000 -9223372036854775807,-1,9223372036854775807 \
                      -5,-4,-3 -9223372036854775808; do
            rm -f part.*
            run -0 sc-split -e i64 --ranges "$bounds" -o 'part.%d' i.bin
            parts_are_compact i64 i.bin "$bounds" 'part.%d' || { echo "# n=$n" >&2; return 1; }
        done
    done
    # by hand: each part in input order, negative bounds
    pack64 i64 5 -1 9 -3 7 2 -8 3 > h.bin
    sc-split -e i64 --ranges -2,3 -t -o 'p.%d' h.bin
    [ "$(xargs < p.0)" = "-3 -8" ] && [ "$(xargs < p.1)" = "-1 2" ] && [ "$(xargs < p.2)" = "5 9 7 3" ]
}

@test "sc-split --ranges -e f64: parts by totalOrder, NaNs, infinities and both zeros placed by rank" {
    local n bounds p
    for n in 0 1 4097 100003; do
        data f64 $n $((n + 5)) > f.bin
        for bounds in "-inf,-0,0,inf" nan -nan "-1e300,-1.5,1.5,1e300" "-0" \
                      "-inf,inf,nan" "-nan,-inf"; do
            rm -f part.* want.*
            run -0 sc-split -e f64 --ranges "$bounds" -o 'part.%d' f.bin
            parts_by_rank f64 f.bin "$bounds" want
            for p in want.*; do
                expect_same "$p" "part.${p#want.}" || { echo "# n=$n, bounds $bounds" >&2; return 1; }
            done
            [ "$(ls part.* | wc -l)" -eq "$(ls want.* | wc -l)" ]
        done
    done
    # the rank partition is the integers' too
    data i64 4097 3 > i.bin
    sc-split -e i64 --ranges -1000,0,1000 -o 'part.%d' i.bin
    parts_by_rank i64 i.bin -1000,0,1000 want
    for p in 0 1 2 3; do expect_same want.$p part.$p; done
    # SPEC's order: -nan < -inf < ... < -0 < +0 < ... < +inf < +nan
    printf '%s\n' nan 1 -0 inf -nan 0 -inf -1 | sc-split -e f64 --in text --ranges -inf,0,inf -t -o 'q.%d'
    [ "$(xargs < q.0)" = "-nan" ] && [ "$(xargs < q.1)" = "-0 -inf -1" ] &&
        [ "$(xargs < q.2)" = "1 0" ] && [ "$(xargs < q.3)" = "nan inf" ]
    printf '%s\n' nan 1 -0 inf -nan | sc-split -e f64 --in text --ranges -0,nan -t -o 'r.%d'
    [ "$(xargs < r.0)" = "-nan" ] && [ "$(xargs < r.1)" = "1 -0 inf" ] && [ "$(xargs < r.2)" = "nan" ]
}

@test "sc-split --ranges 64-bit: bounds must increase in the type's order, in its range" {
    pack64 u64 1 2 3 > in.bin
    local line args want t
    while IFS='|' read -r t args want; do
        run sc-split -e "$t" --ranges "$args" -o 'p.%d' in.bin
        expect_usage sc-split
        [[ "$output" == *"$want"* ]] || { echo "# -e $t --ranges $args: $output" >&2; return 1; }
        [ ! -e p.0 ] || { echo "# -e $t --ranges $args wrote a part" >&2; return 1; }
    done <<'EOF'
u64|5,3|must increase: 3 follows 5
u64|7,7|must increase: 7 follows 7
u64|18446744073709551615,0|must increase
u64|-1|invalid value '-1'
u64|18446744073709551616|out of range for u64
i64|1,-1|must increase: -1 follows 1
i64|-5,-9223372036854775808|must increase
i64|9223372036854775808|out of range for i64
f64|0,-0|must increase: -0 follows 0
f64|nan,inf|must increase: inf follows nan
f64|-inf,-nan|must increase: -nan follows -inf
f64|1e999|out of range for f64
f64|1,x|invalid value 'x'
EOF
    # and these do increase
    run -0 sc-split -e f64 --ranges -nan,-inf,-0,0,inf,nan --count in.bin
    run -0 sc-split -e i64 --ranges -9223372036854775808,9223372036854775807 --count in.bin
    run -0 sc-split -e u64 --ranges 0,18446744073709551615 --count in.bin
}

@test "sc-split --ranges 64-bit: --count, chunk sizes, threads and devices: the same bytes" {
    local t bounds opts p
    for t in $TYPES64; do
        data "$t" 300007 5 > in.bin
        case $t in
            u64) bounds=100000,9223372036854775808,17000000000000000000 ;;
            i64) bounds=-4611686018427387904,-1,0,1000 ;;
            f64) bounds=-inf,-1e6,0,1e6,nan ;;
        esac
        sc-split -d cpu -j 1 -e $t --ranges $bounds -o 'a.%d' in.bin
        for opts in "-c 4K -j 4" "-c 64K -j 3" "-d auto" "-d cpu -j 4 -c 8K"; do
            rm -f b.*
            # shellcheck disable=SC2086
            sc-split $opts -e $t --ranges $bounds -o 'b.%d' in.bin
            for p in a.*; do
                expect_same "$p" "b.${p#a.}" || { echo "# -e $t $opts" >&2; return 1; }
            done
        done
        # --count: the parts' sizes
        run -0 sc-split -e $t --ranges $bounds --count -c 4K in.bin
        local sizes=""
        for p in $(seq 0 $(( $(tr -cd , <<< "$bounds" | wc -c) + 1 ))); do
            sizes+="${sizes:+ }$(( $(stat -c %s a.$p) / 8 ))"
        done
        [ "$output" = "$sizes" ] || { echo "# -e $t --count: $output, not $sizes" >&2; return 1; }
        [ "$(cat a.* | wc -c)" -eq $((300007 * 8)) ]
    done
}

@test "sc-split --ranges 64-bit: gzip, text and big-endian in and out" {
    local t p b
    for t in $TYPES64; do
        data "$t" 100003 8 > in.bin
        case $t in f64) b=-1,1 ;; *) b=1000,9000000000000000000 ;; esac
        sc-split -e $t --ranges $b -o 'r.%d' in.bin
        gzip -c in.bin | sc-split -e $t --ranges $b -z -o 'g.%d'
        sc-split -e $t --ranges $b -t -o 't.%d' in.bin
        swap64 < in.bin > in.be
        sc-split -e $t --big-endian --ranges $b -o 'e.%d' in.be
        for p in 0 1 2; do
            gzip -dc g.$p | cmp - r.$p
            ref stat --type $t --head 1000000 < r.$p | cmp - t.$p ||
                { echo "# -e $t -t part $p" >&2; return 1; }
            swap64 < r.$p | cmp - e.$p
        done
    done
    # a part's text reads back in the type
    printf '%s\n' -5 18 -9223372036854775808 7 | sc-split -e i64 --in text --ranges 0 -t -o 'x.%d'
    [ "$(xargs < x.0)" = "-5 -9223372036854775808" ] && [ "$(xargs < x.1)" = "18 7" ]
}

@test "sc-split --ranges 64-bit: stray bytes: the whole elements split, then the error, exit 1" {
    local t
    for t in $TYPES64; do
        data "$t" 10001 7 > in.bin
        cp in.bin s.bin
        printf 'abc' >> s.bin
        run_to out err sc-split -e $t --ranges 0 --count -c 4K s.bin
        [ "$status" -eq 1 ] || { echo "# -e $t: status $status" >&2; return 1; }
        expect_one_line_error sc-split err
        grep -q stray err
        [ "$(cat out)" = "$(sc-split -e $t --ranges 0 --count in.bin)" ]
        run_to out err sc-split -e $t --ranges 0 -o 'p.%d' s.bin
        [ "$status" -eq 1 ] && [ ! -e p.0 ] && [ ! -e p.1 ]
    done
}
