#!/usr/bin/env bats
# sc-stat: the report against sc-ref (exact distinct: the estimate must be
# within 3 %), histograms, head and tail, formats, faults.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-stat
}

# stat_vs_ref IN ARGS...: every line equal but distinct, which must be
# within 3 % of the exact figure.
stat_vs_ref() {
    local in=$1
    shift
    ref stat "$@" < "$in" > ref.out || return 1
    sc-stat "${EXTRA[@]}" "$@" "$in" > tool.out || return 1
    grep -v '^distinct ' ref.out > ref.rest
    grep -v '^distinct ' tool.out > tool.rest
    expect_same ref.rest tool.rest || { echo "# sc-stat $*" >&2; return 1; }
    local want got
    want=$(awk '$1 == "distinct" { print $2 }' ref.out)
    got=$(awk '$1 == "distinct" { print $2 }' tool.out)
    [ -z "$want" ] && [ -z "$got" ] && return 0
    awk -v w="$want" -v g="$got" 'BEGIN { d = g - w; if (d < 0) d = -d;
        exit !(d <= 0.03 * w) }' ||
        { echo "# distinct: exact $want, estimate $got" >&2; return 1; }
}

@test "sc-stat: report vs sc-ref, sizes 0..1000003" {
    local n
    for n in 0 1 2 31 4096 65537 1000003; do
        gen_file in.bin $n $((n + 7)) 0.7
        stat_vs_ref in.bin || { echo "# n=$n" >&2; return 1; }
    done
}

@test "sc-stat: small input by hand; empty input is 'count 0' alone" {
    u32le 5 0 3 7 0 2 > in.bin
    run sc-stat in.bin
    [ "$status" -eq 0 ]
    [ "$output" = "$(printf 'count 6\nmin 0\nmax 7\nsum 17\nmean 2.833333\nzeros 2\ndistinct 5')" ]
    : > empty.bin
    run sc-stat empty.bin
    [ "$status" -eq 0 ]
    [ "$output" = "count 0" ]
    run sc-stat --hist 4 < empty.bin
    [ "$output" = "count 0" ]
}

@test "sc-stat: the sum and the mean do not wrap at 2^32" {
    sc-gen -n 3 --dist constant --value 4294967295 > big.bin
    run sc-stat big.bin
    [ "${lines[3]}" = "sum 12884901885" ]
    [ "${lines[4]}" = "mean 4294967295.000000" ]
}

@test "sc-stat: distinct within 3 % from a few values to a million" {
    local k
    for k in 1 10 1000 50000 300000; do
        sc-gen --device cpu -n 400000 -s $k --min 1 --max $k > in.bin
        stat_vs_ref in.bin || { echo "# values 1..$k" >&2; return 1; }
    done
    sc-gen --device cpu -n 1000000 -s 5 > in.bin
    stat_vs_ref in.bin
}

@test "sc-stat --hist: buckets vs sc-ref, including more buckets than values" {
    local b
    gen_file in.bin 200003 11 0.6
    for b in 1 2 7 100 4096; do
        stat_vs_ref in.bin --hist $b || return 1
    done
    sc-gen -n 10 --dist iota > iota.bin
    stat_vs_ref iota.bin --hist 25
    run sc-stat --hist 25 iota.bin
    [ "$(grep -c '^hist ' <<<"$output")" -eq 10 ]
    run sc-stat --hist 3 iota.bin
    [ "$(grep '^hist ' <<<"$output" | tr '\n' ,)" = "hist 0 3 4,hist 4 6 3,hist 7 9 3," ]
}

@test "sc-stat --hist: from a pipe, kept past -S in -T, the same figures" {
    gen_file in.bin 300000 13 0.5
    ref stat --hist 9 < in.bin > ref.out
    mkdir tmp
    cat in.bin | sc-stat --hist 9 -S 64K -T tmp -c 4K > tool.out
    grep -v '^distinct' ref.out > a
    grep -v '^distinct' tool.out > b
    expect_same a b
    [ -z "$(ls tmp)" ]
}

teardown() {
    ! mountpoint -q "$T/small" 2>/dev/null || umount "$T/small"
}

# hist_full DIR LIMIT: sc-stat --hist keeping in.bin past -S in DIR, with
# ulimit -f LIMIT, from the file and from a pipe: the write that fails
# must end the run with its error and no report.
hist_full() {
    local d=$1 limit=$2 how
    for how in file pipe; do
        if [ $how = file ]; then
            run -1 --separate-stderr bash -c 'ulimit -f "$0" && exec "$@"' "$limit" \
                sc-stat --hist 9 -S 64K -T "$d" -c 4K in.bin
        else
            run -1 --separate-stderr bash -c 'ulimit -f "$0" && cat in.bin | "$@"' "$limit" \
                sc-stat --hist 9 -S 64K -T "$d" -c 4K
        fi
        [ -z "$output" ] || { echo "# $d $how: a report: $output" >&2; return 1; }
        [[ "$stderr" == "sc-stat: $d/sc-spill-"*": write error: "* ]] ||
            { echo "# $d $how: $stderr" >&2; return 1; }
        [ -z "$(ls -A "$d")" ] || { echo "# $d $how: left $(ls -A "$d")" >&2; return 1; }
    done
}

@test "sc-stat --hist: -T full while keeping the input: no report, the error, exit 1" {
    gen_file in.bin 300000 13 0.5
    # ulimit -f stands for a full disk: the same failed write.
    mkdir tmp
    hist_full tmp 64
    # A small tmpfs, where one can be mounted, is the real thing.
    mkdir small
    if [ "$(id -u)" -ne 0 ] || ! mount -t tmpfs -o size=64k tmpfs small 2>/dev/null; then
        skip "no tmpfs could be mounted (not root, or not allowed): tested with ulimit -f only"
    fi
    hist_full small unlimited
}

@test "sc-stat: chunk size and thread count change nothing" {
    gen_file in.bin 500000 17 0.5
    sc-stat --hist 5 in.bin > one.out
    sc-stat --hist 5 -c 4K -j 1 in.bin > two.out
    sc-stat --hist 5 -c 64K -j 3 in.bin > three.out
    expect_same one.out two.out
    expect_same one.out three.out
}

@test "sc-stat --head / --tail: the ends as text, vs sc-ref" {
    gen_file in.bin 100000 19 0.5
    local n
    for n in 1 10 99999 100000 200000; do
        ref stat --head $n < in.bin > ref.out
        sc-stat --head $n in.bin > tool.out
        expect_same ref.out tool.out || { echo "# --head $n" >&2; return 1; }
        ref stat --tail $n < in.bin > ref.out
        cat in.bin | sc-stat --tail $n > tool.out
        expect_same ref.out tool.out || { echo "# --tail $n" >&2; return 1; }
    done
    run sc-stat --tail 1K < /dev/null
    [ "$status" -eq 0 ] && [ -z "$output" ]
}

@test "sc-stat --head 0 and --tail 0 are usage errors, as sc-stat(1) now says" {
    run sc-stat --head 0 /dev/null
    expect_usage sc-stat
    run sc-stat --tail 0 /dev/null
    expect_usage sc-stat
}

@test "sc-stat --head stops reading early, like head(1)" {
    run timeout 10 bash -c 'sc-gen -n 1T | sc-stat --head 3'
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 3 ]
}

@test "sc-stat: gzip, text and several inputs are one stream" {
    gen_file a.bin 5000 23 0.5
    gen_file b.bin 7001 29 0.5
    cat a.bin b.bin > ab.bin
    ref stat --hist 3 < ab.bin > ref.out
    sc-gen --device cpu -n 5000 -s 23 --density 0.5 -z > a.gz
    sc-stat --hist 3 a.gz b.bin > gz.out
    u32text ab.bin > ab.txt
    sc-stat --hist 3 --in text ab.txt > text.out
    expect_same gz.out text.out
    grep -v '^distinct' ref.out > a
    grep -v '^distinct' gz.out > b
    expect_same a b
}

@test "sc-stat: -o writes the report to a file; -t is accepted" {
    u32le 1 2 3 > in.bin
    sc-stat -t -o rep.txt in.bin
    [ "$(head -n 1 rep.txt)" = "count 3" ]
}

@test "sc-stat: usage errors exit 2" {
    local bad
    for bad in "--hist 0" "--hist 2M" "--hist x" "--head 0" "--tail -1" \
               "--head 1 --tail 1" "--hist 2 --head 1" "-z" "--bogus"; do
        run sc-stat $bad < /dev/null
        [ "$status" -eq 2 ] || { echo "# $bad: $status" >&2; return 1; }
        [[ "$output" == *"Try 'sc-stat --help'"* ]] || return 1
    done
}

@test "sc-stat: stray bytes and corrupt gzip: the report of what was read, then exit 1" {
    u32le 4 5 6 > in.bin
    printf 'ab' >> in.bin
    run sc-stat in.bin
    [ "$status" -eq 1 ]
    [ "${lines[0]}" = "count 3" ]
    [[ "$output" == "sc-stat: "* || "${lines[-1]}" == "sc-stat: "* ]]
    run sc-stat missing.bin
    [ "$status" -eq 1 ]
    [[ "$output" == "sc-stat: "*missing.bin* ]]
}

@test "sc-stat: an output that is also the input is refused" {
    u32le 1 2 > in.bin
    run sc-stat -o in.bin in.bin
    [ "$status" -eq 1 ]
    [ "$(stat -c %s in.bin)" -eq 8 ]
}

@test "sc-stat --help and --version" {
    run sc-stat --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"--hist N"* && "$output" == *"--tail N"* ]]
    run sc-stat --version
    [[ "$output" == "sc-stat (sc) "* ]]
}

# ------------------------------------------------------ the GPU's figures

# same_devices ARGS... < none: sc-stat ARGS on -d cpu and -d cuda, the same
# bytes; -d cuda must have run on the GPU (-v names it).
same_devices() {
    sc-stat -d cpu "$@" > cpu.out 2> cpu.err ||
        { echo "# -d cpu $* failed: $(cat cpu.err)" >&2; return 1; }
    sc-stat -d cuda -v "$@" > gpu.out 2> gpu.err ||
        { echo "# -d cuda $* failed: $(cat gpu.err)" >&2; return 1; }
    expect_same cpu.out gpu.out || { echo "# differs: sc-stat $*" >&2; return 1; }
    grep -q 'device: cuda' gpu.err ||
        { echo "# -d cuda $*: not on the GPU: $(cat gpu.err)" >&2; return 1; }
}

@test "sc-stat (GPU): -d cuda == -d cpu, byte for byte, sizes and data" {
    skip_without_gpu "comparing -d cuda with -d cpu needs one"
    local n
    : > in.bin
    same_devices in.bin
    for n in 1 31 33 4097 65537 1000003; do
        gen_file in.bin $n $((n + 3)) 0.5
        same_devices in.bin || { echo "# n=$n" >&2; return 1; }
    done
    sc-gen -d cpu -n 300001 --dist constant --value 0 > in.bin
    same_devices in.bin
    sc-gen -d cpu -n 300001 --dist constant --value 0xffffffff > in.bin
    same_devices in.bin
    sc-gen -d cpu -n 2000000 -s 4 --min 1 --max 300 > in.bin
    same_devices in.bin
    sc-gen -d cpu -n 4194304 --dist iota > in.bin
    same_devices in.bin
    same_devices --hist 9 in.bin
}

@test "sc-stat (GPU): -d cuda == -d cpu over many chunks, formats and a pipe" {
    skip_without_gpu "comparing -d cuda with -d cpu needs one"
    gen_file in.bin 1000003 71 0.3
    same_devices -c 4K in.bin
    same_devices -c 64K --hist 100 in.bin
    sc-stat -d cpu in.bin > want.out
    sc-stat -d cuda -c 64K < in.bin > pipe.out
    expect_same want.out pipe.out
    sc-gen -d cpu -n 1000003 -s 71 --density 0.3 -z > in.gz
    same_devices -c 64K in.gz
    sc-stat -d cuda in.gz > gz.out
    expect_same want.out gz.out
    u32text in.bin > in.txt
    same_devices --in text in.txt
    if sc-gen -n 0 --zstd > /dev/null 2>&1; then
        sc-gen -d cpu -n 1000003 -s 71 --density 0.3 --zstd > in.zst
        same_devices -c 64K in.zst
    fi
}

@test "sc-stat (GPU): -d cuda and a data fault: the report of what was read" {
    skip_without_gpu "comparing -d cuda with -d cpu needs one"
    gen_file in.bin 70001 5 0.5
    printf 'ab' >> in.bin
    run_to cpu.out cpu.err sc-stat -d cpu -c 4K in.bin
    [ "$status" -eq 1 ]
    run_to gpu.out gpu.err sc-stat -d cuda -c 4K in.bin
    [ "$status" -eq 1 ]
    expect_same cpu.out gpu.out
    expect_same cpu.err gpu.err
    [ "$(head -n 1 gpu.out)" = "count 70001" ]
}
