#!/usr/bin/env bats
# sc-rsort: radix sort against sc-ref (a stable merge sort).

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-rsort
}

@test "sc-rsort: vs sc-ref, sizes 0..1000003 x densities 0, 0.5, 1" {
    local n d
    for n in 0 1 31 32 33 4095 4096 65537 1000003; do
        for d in 0 0.5 1; do
            gen_file in.bin $n $((n + 7)) $d
            vs_ref sc-rsort sort in.bin || { echo "# n=$n density=$d" >&2; return 1; }
        done
    done
}

@test "sc-rsort: small cases by hand" {
    u32le 5 0 3 4294967295 7 0 2 > in.bin
    sc-rsort in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "0 0 2 3 5 7 4294967295 " ]
    sc-rsort -r in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "4294967295 7 5 3 2 0 0 " ]
    sc-rsort -u in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "0 2 3 5 7 4294967295 " ]
    # --bits 0:1: even before odd, each in input order (stable)
    u32le 5 4 3 2 1 0 > in.bin
    sc-rsort --bits 0:1 in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "4 2 0 5 3 1 " ]
    sc-rsort --bits 0:1 -r in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "5 3 1 4 2 0 " ]
    sc-rsort --bits 0:1 -u in.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "4 5 " ]
}

@test "sc-rsort: -r, --bits, -u and combinations vs sc-ref (ties need stability)" {
    gen_file full.bin 300007 3 0.5
    gen_file narrow.bin 300007 4 0.9 --min 0 --max 5000
    local f args
    for f in full.bin narrow.bin; do
        while IFS= read -r args; do
            vs_ref sc-rsort sort $f $args || { echo "# $f" >&2; return 1; }
        done <<'EOF'
-r
-u
-r -u
--bits 0:32
--bits 0:8
--bits 8:16
--bits 4:12
--bits 31:32
--bits 16:32
--bits 0:1
--bits 3:29
--bits 0:8 -r
--bits 4:12 -u
--bits 4:12 -r -u
--bits 24:32 -u
EOF
    done
}

@test "sc-rsort: the bucketed sort (skewed keys, one top digit, 2/4/7 threads) vs sc-ref" {
    # Past 2^18 keys and with 4 threads or more the CPU sorts in buckets of
    # the top 11 bits: a bucket holding most keys goes to the whole pool,
    # one top digit for all keys to the whole-array passes; every path
    # must give sc-ref's bytes.
    gen_file wide.bin 300007 11 1
    gen_file narrow.bin 900001 12 1 --min 0x12300000 --max 0x1237ffff
    cat narrow.bin wide.bin narrow.bin > skew.bin
    local f args j
    for f in narrow.bin skew.bin; do
        for j in 2 4 7; do
            for args in "" "-r" "--bits 2:30" "-u -r"; do
                EXTRA=(-d cpu -j "$j")
                vs_ref sc-rsort sort $f $args ||
                    { echo "# $f -j $j $args" >&2; return 1; }
            done
        done
    done
    # gzip output compresses on the pool the buckets sort on.
    ref sort < skew.bin > ref.out
    sc-rsort -d cpu -j 4 -z skew.bin | gzip -dc | cmp - ref.out
}

@test "sc-rsort -j 4: the output failing while the buckets still sort: exit 1 or a quiet end, never a hang" {
    [ -w /dev/full ] || skip "no /dev/full here"
    gen_file in.bin 1000003 13 1
    run -1 --separate-stderr timeout 60 sc-rsort -d cpu -j 4 in.bin -o /dev/full
    [[ "$stderr" == *"/dev/full: write error"* ]]
    [ "${#stderr_lines[@]}" -eq 1 ]
    # A closed pipe: SIGPIPE, as for every tool, and promptly.
    run bash -c 'timeout 60 sc-rsort -d cpu -j 4 in.bin | head -c 8 | wc -c; echo "${PIPESTATUS[0]}"'
    [ "${lines[0]}" -eq 8 ]
    [ "${lines[1]}" -eq 141 ]
}

@test "sc-rsort: a few distinct values, many ties, vs sc-ref" {
    gen_file in.bin 500009 5 0.5 --min 0 --max 3
    vs_ref sc-rsort sort in.bin
    vs_ref sc-rsort sort in.bin -r
    vs_ref sc-rsort sort in.bin -u
    [ "$(u32text tool.out | tr '\n' ' ')" = "0 1 2 3 " ]
    sc-gen -n 100000 --dist constant --value 9 > c.bin
    vs_ref sc-rsort sort c.bin
    vs_ref sc-rsort sort c.bin -u
    [ "$(u32text tool.out)" = 9 ]
}

@test "sc-rsort: already sorted and reverse sorted input" {
    sc-gen -n 200003 --dist iota > iota.bin
    vs_ref sc-rsort sort iota.bin
    expect_same iota.bin tool.out
    ref sort -r < iota.bin > rev.bin
    vs_ref sc-rsort sort rev.bin
    expect_same iota.bin tool.out
    vs_ref sc-rsort sort iota.bin -r
    expect_same rev.bin tool.out
}

@test "sc-rsort: chunk sizes and threads give identical bytes" {
    gen_file in.bin 1000003 13 0.5
    ref sort < in.bin > want.out
    local c
    for c in "-c 4K" "-c 8K" "-c 12K" "-c 64K" "-j 1" "-j 2" "-j 4"; do
        sc-rsort $c in.bin > got.out
        expect_same want.out got.out || { echo "# $c" >&2; return 1; }
    done
    ref sort --bits 8:20 -r < in.bin > want.out
    sc-rsort -c 4K -j 3 --bits 8:20 -r in.bin > got.out
    expect_same want.out got.out
}

@test "sc-rsort -S small forces runs: identical bytes to in-memory, temp dir left empty" {
    gen_file in.bin 1000003 17 0.5 --min 0 --max 100000
    mkdir runs
    local args
    for args in "" "-r" "--bits 4:12" "-u" "--bits 0:8 -r -u"; do
        ref sort $args < in.bin > want.out
        sc-rsort $args in.bin > mem.out
        expect_same want.out mem.out || { echo "# in memory: $args" >&2; return 1; }
        sc-rsort -S 64K -T runs $args in.bin > got.out
        expect_same want.out got.out || { echo "# -S 64K $args" >&2; return 1; }
        [ -z "$(ls -A runs)" ] || { echo "# left: $(ls -A runs)" >&2; return 1; }
    done
    ref sort < in.bin > want.out
    sc-rsort --buffer-size 1M -T runs -c 4K in.bin > got.out
    expect_same want.out got.out
    cat in.bin | sc-rsort -S 256K -T runs > got.out
    expect_same want.out got.out
    [ -z "$(ls -A runs)" ]
    mkdir tmpd
    TMPDIR="$T/tmpd" sc-rsort -S 64K in.bin > got.out
    expect_same want.out got.out
    [ -z "$(ls -A tmpd)" ]
}

@test "sc-rsort -S small: run files removed when the input fails" {
    gen_file in.bin 500009 23 0.5
    cp in.bin odd.bin
    printf 'xy' >> odd.bin
    mkdir runs
    run_to got.out err.txt sc-rsort -S 64K -T runs odd.bin
    [ "$status" -eq 1 ]
    [ -z "$(ls -A runs)" ] || { echo "# left: $(ls -A runs)" >&2; return 1; }
    expect_one_line_error sc-rsort err.txt
}

@test "sc-rsort -m: merges sorted inputs, ties from the earlier input first" {
    gen_file a.bin 100003 1 0.5 --min 0 --max 1000
    gen_file b.bin 70001 2 0.5 --min 0 --max 1000
    gen_file c.bin 3 3 0.5 --min 0 --max 1000
    local args
    for args in "" "-r" "--bits 0:4" "--bits 4:8 -r"; do
        ref sort $args < a.bin > sa.bin
        ref sort $args < b.bin > sb.bin
        ref sort $args < c.bin > sc.bin
        : > empty.bin
        cat sa.bin sb.bin empty.bin sc.bin | ref sort $args > want.out
        sc-rsort -m $args sa.bin sb.bin empty.bin sc.bin > got.out
        expect_same want.out got.out || { echo "# -m $args" >&2; return 1; }
        sc-rsort --merge $args sa.bin - empty.bin sc.bin < sb.bin > got.out
        expect_same want.out got.out || { echo "# --merge $args with -" >&2; return 1; }
    done
    # -u with -m
    ref sort < a.bin > sa.bin
    ref sort < b.bin > sb.bin
    cat sa.bin sb.bin | ref sort -u > want.out
    sc-rsort -m -u sa.bin sb.bin > got.out
    expect_same want.out got.out
    # one input
    sc-rsort -m sa.bin > got.out
    expect_same sa.bin got.out
}

@test "sc-rsort -m: ties really come from the earlier input (--bits)" {
    # keys by bit 0 only: a = 2 4 (key 0), b = 6 8 (key 0) 1 (key 1)
    u32le 2 4 > a.bin
    u32le 6 8 1 > b.bin
    sc-rsort -m --bits 0:1 a.bin b.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "2 4 6 8 1 " ]
    sc-rsort -m --bits 0:1 b.bin a.bin > o.bin
    [ "$(u32text o.bin | tr '\n' ' ')" = "6 8 2 4 1 " ]
}

@test "sc-rsort -m: an unsorted input is an error, exit 1" {
    u32le 1 5 9 > a.bin
    u32le 2 7 3 10 > b.bin
    run_to got.out err.txt sc-rsort -m a.bin b.bin
    [ "$status" -eq 1 ]
    expect_one_line_error sc-rsort err.txt
    # descending input for an ascending merge
    u32le 9 5 1 > c.bin
    run_to got.out err.txt sc-rsort -m a.bin c.bin
    [ "$status" -eq 1 ]
    # but -r accepts it
    u32le 10 6 > d.bin
    sc-rsort -m -r c.bin d.bin > got.out
    [ "$(u32text got.out | tr '\n' ' ')" = "10 9 6 5 1 " ]
}

@test "sc-rsort -C: 0 and no output when sorted" {
    gen_file in.bin 500009 29 0.5 --min 0 --max 1000
    ref sort < in.bin > s.bin
    run --separate-stderr sc-rsort -C s.bin
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -z "$stderr" ]
    ref sort -r < in.bin > r.bin
    run sc-rsort --check -r r.bin
    [ "$status" -eq 0 ]
    ref sort --bits 4:8 < in.bin > b.bin
    run sc-rsort -C --bits 4:8 b.bin
    [ "$status" -eq 0 ]
    u32le 7 > one.bin
    run sc-rsort -C one.bin
    [ "$status" -eq 0 ]
    u32le 3 3 3 4 4 > eq.bin
    run sc-rsort -C eq.bin
    [ "$status" -eq 0 ]
    # through a pipe and in chunks
    cat s.bin | sc-rsort -C -c 4K
}

@test "sc-rsort -C: 1 and a message naming the first element out of order" {
    u32le 1000 2000 3000 2500 4000 1500 > in.bin
    run_to got.out err.txt sc-rsort -C in.bin
    [ "$status" -eq 1 ]
    [ ! -s got.out ]
    expect_one_line_error sc-rsort err.txt
    grep -q -E '2500|\b3\b|\b4\b' err.txt || { echo "# message: $(cat err.txt)" >&2; return 1; }
    ! grep -q '1500' err.txt || { echo "# names a later element: $(cat err.txt)" >&2; return 1; }
    # sorted ascending is unsorted for -r
    u32le 1 2 3 > up.bin
    run_to got.out err.txt sc-rsort -C -r up.bin
    [ "$status" -eq 1 ]
    # sorted by bits 0:4 but not by value
    u32le 0x21 0x12 0x03 > b.bin
    run sc-rsort -C --bits 0:4 b.bin
    [ "$status" -eq 0 ]
    run sc-rsort -C b.bin
    [ "$status" -eq 1 ]
    # disorder far into a large input, in a late chunk
    sc-gen -n 1000000 --dist iota > big.bin
    { cat big.bin; u32le 5; } > bad.bin
    run_to got.out err.txt sc-rsort -C -c 4K bad.bin
    [ "$status" -eq 1 ]
    grep -q -E '1000000|\b5\b' err.txt || { echo "# message: $(cat err.txt)" >&2; return 1; }
}

@test "sc-rsort -o FILE onto its own input works" {
    gen_file in.bin 300007 31 0.5
    ref sort -r < in.bin > want.out
    sc-rsort -r -o in.bin in.bin
    expect_same want.out in.bin
}

@test "sc-rsort: gz and text input, several inputs, -z and -t output" {
    gen_file a.bin 100003 1 0.5
    gen_file b.bin 50001 2 0.5
    cat a.bin b.bin > ab.bin
    gzip -c b.bin > b.gz
    ref sort < ab.bin > want.out
    sc-rsort a.bin b.gz > got.out
    expect_same want.out got.out
    sc-rsort b.gz - < a.bin > got.out
    expect_same want.out got.out
    u32text ab.bin > ab.txt
    sc-rsort --in text ab.txt > got.out
    expect_same want.out got.out
    sc-rsort -z a.bin b.bin | gzip -dc > got.out
    expect_same want.out got.out
    u32text want.out > want.txt
    sc-rsort -t a.bin b.bin > got.txt
    cmp want.txt got.txt
}

@test "sc-rsort -h and -V: stdout, exit 0" {
    run --separate-stderr sc-rsort --help
    [ "$status" -eq 0 ]
    [[ "$output" == *--bits* ]]
    [ -z "$stderr" ]
    run --separate-stderr sc-rsort -V
    [ "$status" -eq 0 ]
    [[ "$output" =~ [0-9]+\.[0-9]+ ]]
}

@test "sc-rsort -P: a line for each phase, plain lines when stderr is not a terminal" {
    gen_file in.bin 300000 41 0.5
    sc-rsort -P in.bin 2> err.txt > /dev/null
    ! grep -q $'\r' err.txt
    grep -q '^sc-rsort: .* MiB read, .* MiB/s, 100%$' err.txt
    # The output goes out while the sort finishes: one phase for both.
    grep -q '^sc-rsort: .* MiB sorted and written, .* MiB/s, 100%$' err.txt
    sc-rsort -P -S 64K -c 4K in.bin 2> err.txt | cmp - <(sc-rsort in.bin)
    ! grep -q $'\r' err.txt
    grep -q '^sc-rsort: .* MiB read, .* MiB/s, 100%$' err.txt
    grep -q '^sc-rsort: .* MiB merged, .* MiB/s, 100%$' err.txt
}

@test "sc-rsort -P: the line moves while the input stalls" {
    { sc-gen -n 64K; sleep 5; sc-gen -n 64K; } | sc-rsort -P 2> err.txt > /dev/null
    # A line every 2 s from the ticker, not only when data arrives.
    [ "$(grep -c 'MiB read' err.txt)" -ge 2 ]
}

@test "sc-rsort -P on a terminal: one line redrawn, the runs sorted with an ETA" {
    command -v script > /dev/null || skip "script(1) not installed"
    gen_file in.bin 100000 43 0.5
    script -qec "sc-rsort -P -S 64K in.bin > /dev/null" /dev/null > tty.txt
    grep -q $'\r' tty.txt
    grep -q 'sorting run 2 ([0-9.]* MiB), [0-9.]* s, ETA [0-9.]* s' tty.txt
    grep -q 'MiB read, .*%, ETA ' tty.txt
}

@test "sc-rsort -v: a line says how many sorted runs went past -S and were merged; none when the input fits" {
    gen_file in.bin 300000 21 1
    ref sort < in.bin > want
    local s runs
    for s in 100K:12 1M:2; do
        run_to got err sc-rsort -v -d cpu -S "${s%:*}" in.bin
        [ "$status" -eq 0 ]
        expect_same want got
        runs=$(sed -n 's/^sc-rsort: runs: \([0-9]*\) sorted runs of at most [0-9.]* MiB (-S), merged from a temporary file$/\1/p' err)
        [ "$runs" = "${s#*:}" ] || { echo "# -S ${s%:*}: $(cat err)" >&2; return 1; }
    done
    run_to got err sc-rsort -v -d cpu -S 2M in.bin
    expect_same want got
    ! grep -q 'runs:' err
    grep -q '^sc-rsort: elements: in 300000, out 300000$' err
}
