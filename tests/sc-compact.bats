#!/usr/bin/env bats
# sc-compact: against sc-ref on random data; predicates, outputs, chunking,
# formats, several inputs.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact
}

@test "sc-compact: default predicate vs sc-ref, sizes 0..1000003 x densities 0, 0.5, 1" {
    local n d
    for n in 0 1 31 32 33 4095 4096 65537 1000003; do
        for d in 0 0.5 1; do
            gen_file in.bin $n $((n + 1)) $d
            vs_ref sc-compact compact in.bin || { echo "# n=$n density=$d" >&2; return 1; }
        done
    done
}

@test "sc-compact: structured and iota data vs sc-ref" {
    sc-gen -n 100003 --dist structured > s.bin
    vs_ref sc-compact compact s.bin
    [ "$(nelems ref.out)" -eq 50002 ]
    sc-gen -n 100003 --dist iota > i.bin
    vs_ref sc-compact compact i.bin
    vs_ref sc-compact compact i.bin --range 1000:1099
    [ "$(u32text tool.out | head -n 1)" = 1000 ]
    [ "$(nelems tool.out)" -eq 100 ]
}

@test "sc-compact: every predicate, and inverted, vs sc-ref" {
    gen_file in.bin 200003 7 0.8 --min 0 --max 1000
    local p
    while IFS= read -r p; do
        vs_ref sc-compact compact in.bin $p || return 1
        vs_ref sc-compact compact in.bin $p -x || return 1
    done <<'EOF'
--eq 500
--eq 0
--eq 0x1f4
--ne 0
--ne 7
--lt 100
--lt 0
--lt 4294967295
--le 100
--le 0
--le 4294967295
--gt 900
--gt 0
--gt 4294967295
--ge 0
--ge 1000
--ge 1001
--range 100:200
--range 5:5
--range 0:0
--range 0:4294967295
--range 0x10:0x20
--mask 1
--mask 0x30
--mask 0x200
--mask 0xffffffff
--mask 0
EOF
}

@test "sc-compact: predicates on full-range data, with hex bounds" {
    gen_file in.bin 300007 3 0.5
    local p
    for p in "--ge 0x80000000" "--lt 0x80000000" "--range 0x40000000:0xbfffffff" \
             "--mask 0x80000001" "--gt 4294967000" "--le 12345678" "--eq 0"; do
        vs_ref sc-compact compact in.bin $p || return 1
        vs_ref sc-compact compact in.bin $p -x || return 1
    done
}

@test "sc-compact: combined predicates (all must hold) vs sc-ref" {
    gen_file in.bin 200003 9 0.8 --min 0 --max 1000
    local p
    while IFS= read -r p; do
        vs_ref sc-compact compact in.bin $p || return 1
        vs_ref sc-compact compact in.bin $p -x || return 1
        vs_ref sc-compact compact in.bin $p --count || return 1
    done <<'EOF'
--gt 100 --lt 200
--ge 10 --le 20 --ne 15
--range 100:900 --mask 1 --ne 501
--eq 5 --eq 6
--eq 5 --eq 5
--ne 1 --ne 2 --ne 3 --ne 0
--mask 1 --mask 2
--range 0:500 --range 400:1000
--gt 500 --lt 400
--ge 0 --mask 0x100 --le 700
EOF
}

@test "sc-compact --invert is -x" {
    gen_file in.bin 100003 7 0.8 --min 0 --max 1000
    vs_ref sc-compact compact in.bin --invert
    vs_ref sc-compact compact in.bin --range 100:200 --invert
    vs_ref sc-compact compact in.bin --invert --mask 0x30
}

@test "sc-compact: a combined predicate actually narrows the selection" {
    u32le 1 5 10 15 20 25 > in.bin
    sc-compact --gt 5 --lt 25 --ne 15 in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "10 20 " ]
    sc-compact --gt 5 --lt 25 --ne 15 -x in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "1 5 15 25 " ]
    sc-compact --mask 0x4 --mask 0x1 in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "5 15 " ]
    sc-compact --range 5:15 in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "5 10 15 " ]
}

@test "sc-compact --count: figure and format" {
    u32le 0 3 0 0 7 9 0 > in.bin
    run --separate-stderr sc-compact --count in.bin
    [ "$status" -eq 0 ]
    [ "$output" = 3 ]
    sc-compact --count in.bin > c.txt
    printf '3\n' > want.txt
    cmp want.txt c.txt
    run sc-compact --count -x in.bin
    [ "$output" = 4 ]
    gen_file big.bin 1000003 2 0.5
    vs_ref sc-compact compact big.bin --count
    vs_ref sc-compact compact big.bin --count --gt 0x90000000
}

@test "sc-compact --indices and --indices -w vs sc-ref" {
    u32le 0 3 0 0 7 9 0 > small.bin
    sc-compact --indices small.bin > idx.bin
    [ "$(u32text idx.bin | tr '\n' ' ')" = "1 4 5 " ]
    sc-compact --indices -w small.bin > idx.bin
    [ "$(stat -c %s idx.bin)" -eq 24 ]
    [ "$(u64text idx.bin | tr '\n' ' ')" = "1 4 5 " ]
    sc-compact --indices --wide -x small.bin > idx.bin
    [ "$(u64text idx.bin | tr '\n' ' ')" = "0 2 3 6 " ]
    local n
    for n in 0 1 33 65537 1000003; do
        gen_file in.bin $n $n 0.5
        vs_ref sc-compact compact in.bin --indices || return 1
        vs_ref sc-compact compact in.bin --indices -w || return 1
        vs_ref sc-compact compact in.bin --indices --gt 0xf0000000 || return 1
        vs_ref sc-compact compact in.bin --indices -w -x --mask 0x3 || return 1
    done
}

@test "sc-compact: chunk sizes 4K 8K 12K 64K 1M and default give identical bytes (1.2M elements)" {
    gen_file in.bin 1200007 13 0.5
    local what c
    for what in "" "--indices" "--indices -w" "--count" "-x --range 0x100000:0xe0000000" "--indices -w --mask 0x10"; do
        ref compact $what < in.bin > want.out
        for c in 4K 8K 12K 64K 1M 4096 0x3000; do
            sc-compact -c $c $what in.bin > got.out
            expect_same want.out got.out || { echo "# -c $c $what" >&2; return 1; }
        done
        sc-compact $what in.bin > got.out
        expect_same want.out got.out || { echo "# default chunk, $what" >&2; return 1; }
    done
}

@test "sc-compact: thread counts -j 1 2 4 give identical bytes" {
    gen_file in.bin 1000003 17 0.5
    ref compact < in.bin > want.out
    local j
    for j in 1 2 4 7; do
        sc-compact -j $j in.bin > got.out
        expect_same want.out got.out
        sc-compact -j $j -c 4K in.bin > got.out
        expect_same want.out got.out
    done
}

@test "sc-compact: gz input (file, stdin, --in gz, auto) equals raw input" {
    gen_file in.bin 300001 19 0.5
    gzip -c in.bin > in.gz
    ref compact < in.bin > want.out
    sc-compact in.gz > got.out
    expect_same want.out got.out
    sc-compact < in.gz > got.out
    expect_same want.out got.out
    sc-compact --in gz in.gz > got.out
    expect_same want.out got.out
    sc-compact --in auto in.gz > got.out
    expect_same want.out got.out
    cat in.gz | sc-compact -c 4K > got.out
    expect_same want.out got.out
    sc-compact --in raw in.bin > got.out
    expect_same want.out got.out
}

@test "sc-compact: multi-member gzip (cat a.gz b.gz) is one stream" {
    gen_file a.bin 100003 1 0.5
    gen_file b.bin 70001 2 0.5
    gzip -c a.bin > a.gz
    gzip -c b.bin > b.gz
    cat a.gz b.gz > ab.gz
    cat a.bin b.bin > ab.bin
    ref compact < ab.bin > want.out
    sc-compact ab.gz > got.out
    expect_same want.out got.out
    sc-compact --in gz < ab.gz > got.out
    expect_same want.out got.out
    ref compact --indices -w < ab.bin > want.out
    sc-compact --indices -w ab.gz > got.out
    expect_same want.out got.out
    # an empty member in the middle
    printf '' | gzip -c > e.gz
    cat a.gz e.gz b.gz > aeb.gz
    ref compact < ab.bin > want.out
    sc-compact aeb.gz > got.out
    expect_same want.out got.out
    # sc-gen -z output, several times over
    sc-gen -n 5000 -s 3 -z > g.gz
    sc-gen -n 5000 -s 3 > g.bin
    cat g.gz g.gz g.gz > ggg.gz
    cat g.bin g.bin g.bin | ref compact > want.out
    sc-compact ggg.gz > got.out
    expect_same want.out got.out
}

@test "sc-compact --in text: decimal, 0x hex, mixed white space" {
    printf '1 0 0x10 0\t\t42\n\n  0x0 7\n4294967295 0xffffffff\n0\n' > in.txt
    sc-compact --in text in.txt > got.out
    u32le 1 16 42 7 4294967295 4294967295 > want.out
    expect_same want.out got.out
    # leading zeros are decimal, not octal (SPEC: decimal or 0x hex)
    printf '010 0 09 0x010\n' > z.txt
    sc-compact --in text z.txt > got.out
    u32le 10 9 16 > want.out
    expect_same want.out got.out
    # no trailing newline, leading white space
    printf '   5 0 6' > in2.txt
    sc-compact --in text < in2.txt > got.out
    u32le 5 6 > want.out
    expect_same want.out got.out
    # a large text stream vs raw
    gen_file in.bin 200003 23 0.5
    u32text in.bin > big.txt
    ref compact < in.bin > want.out
    sc-compact --in text -c 4K big.txt > got.out
    expect_same want.out got.out
    # hex text of the same
    u32text in.bin | awk '{ printf "0x%x%s", $1, (NR % 5 ? " " : "\n") }' > hex.txt
    sc-compact --in text hex.txt > got.out
    expect_same want.out got.out
}

@test "sc-compact --in text: empty and white-space-only input" {
    printf '' > e.txt
    sc-compact --in text e.txt > got.out
    [ ! -s got.out ]
    printf ' \n\t \n' > w.txt
    sc-compact --in text w.txt > got.out
    [ ! -s got.out ]
    [ "$(sc-compact --in text --count w.txt)" = 0 ]
}

@test "sc-compact: output -z at levels 1, 6, 9 decompresses to the raw output" {
    gen_file in.bin 300001 29 0.5
    ref compact < in.bin > want.out
    sc-compact -z in.bin > got.gz
    gzip -t got.gz
    gzip -dc got.gz > got.out
    expect_same want.out got.out
    local l
    for l in 1 6 9; do
        sc-compact --gzip --level $l in.bin > got.gz
        gzip -dc got.gz > got.out
        expect_same want.out got.out
    done
    # round trip through itself
    sc-compact -z in.bin | sc-compact > got.out
    expect_same want.out got.out
    # empty input: empty output (SPEC) or a valid empty gzip stream
    printf '' | sc-compact -z > e.gz
    if [ -s e.gz ]; then gzip -dc e.gz > e.out; [ ! -s e.out ]; fi
}

@test "sc-compact -z: input with no match gives gzip data that gzip -d reads (empty)" {
    # the input is not empty, so the output must be readable by gzip -d
    u32le 0 0 0 > zeros.bin
    sc-compact -z zeros.bin > e.gz
    gzip -dc e.gz > e.out
    [ ! -s e.out ]
    sc-compact -z --gt 5 --lt 3 zeros.bin > e2.gz
    gzip -t e2.gz
}

@test "sc-compact: option values with leading zeros are decimal" {
    u32le 8 10 12 > in.bin
    sc-compact --eq 010 in.bin > got.out
    [ "$(u32text got.out)" = 10 ]
    sc-compact --range 09:011 in.bin > got.out
    [ "$(u32text got.out)" = 10 ]
}

@test "sc-compact --in raw: no gzip detection, the bytes are elements" {
    gen_file in.bin 100000 3 0.5
    gzip -c in.bin > in.gz
    local size
    size=$(stat -c %s in.gz)
    head -c $((size / 4 * 4)) in.gz > gzbytes.bin
    ref compact < gzbytes.bin > want.out
    sc-compact --in raw gzbytes.bin > got.out
    expect_same want.out got.out
    sc-compact --in raw < gzbytes.bin > got.out
    expect_same want.out got.out
}

@test "sc-compact --level is honoured (level 1 and 9 give different gzip data)" {
    sc-gen -n 1M --dist structured > in.bin
    sc-compact -x -z --level 1 in.bin > l1.gz
    sc-compact -x -z --level 9 in.bin > l9.gz
    files_differ l1.gz l9.gz
    gzip -dc l1.gz | cmp - <(gzip -dc l9.gz)
}

@test "sc-compact: output -t is one decimal per line" {
    gen_file in.bin 100003 31 0.5
    ref compact < in.bin | u32text > want.txt
    sc-compact -t in.bin > got.txt
    cmp want.txt got.txt
    ref compact --indices < in.bin | u32text > want.txt
    sc-compact --text --indices in.bin > got.txt
    cmp want.txt got.txt
    ref compact --indices -w < in.bin | u64text > want.txt
    sc-compact -t --indices -w in.bin > got.txt
    cmp want.txt got.txt
    # text -> text round trip
    sc-compact -t --in text got.txt > again.txt
    grep -v '^0$' got.txt > want2.txt
    cmp want2.txt again.txt
}

@test "sc-compact: several FILE operands and '-' are read in order as one stream" {
    gen_file a.bin 10007 1 0.5
    gen_file b.bin 20011 2 0.5
    gen_file c.bin 30011 3 0.5
    cat a.bin b.bin c.bin > abc.bin
    ref compact < abc.bin > want.out
    sc-compact a.bin b.bin c.bin > got.out
    expect_same want.out got.out
    sc-compact a.bin - c.bin < b.bin > got.out
    expect_same want.out got.out
    ref compact --indices < abc.bin > want.out
    sc-compact --indices a.bin - c.bin < b.bin > got.out
    expect_same want.out got.out
    ref compact --count < abc.bin > want.out
    sc-compact --count a.bin b.bin c.bin > got.out
    expect_same want.out got.out
    # the same file twice
    cat a.bin a.bin | ref compact > want.out
    sc-compact a.bin a.bin > got.out
    expect_same want.out got.out
    # gz operands
    gzip -c a.bin > a.gz
    gzip -c c.bin > c.gz
    ref compact < abc.bin > want.out
    sc-compact a.gz b.bin c.gz > got.out
    expect_same want.out got.out
}

@test "sc-compact: an element may straddle two input files" {
    u32le 1 0 2 3 > all.bin
    head -c 6 all.bin > p1.bin
    tail -c 10 all.bin > p2.bin
    sc-compact p1.bin p2.bin > got.out
    u32le 1 2 3 > want.out
    expect_same want.out got.out
}

@test "sc-compact -o FILE: writes FILE, replaces an existing one" {
    gen_file in.bin 50000 37 0.5
    ref compact < in.bin > want.out
    echo old > out.bin
    run --separate-stderr sc-compact -o out.bin in.bin
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    expect_same want.out out.bin
    sc-compact --output out2.bin < in.bin
    expect_same want.out out2.bin
    # no temporary files left beside it
    local left
    left=$(ls -A | grep -v -e '^in.bin$' -e '^want.out$' -e '^out.bin$' -e '^out2.bin$' -e '^separate-stderr-' || true)
    [ -z "$left" ] || { echo "# left behind: $left" >&2; return 1; }
}

@test "sc-compact -v: reports on stderr, output unchanged" {
    gen_file in.bin 50000 41 0.5
    ref compact < in.bin > want.out
    sc-compact -v in.bin > got.out 2> err.txt
    expect_same want.out got.out
    [ -s err.txt ]
    grep -q -i -E 'cpu|cuda' err.txt
    # elements in and out
    local kept
    kept=$(nelems want.out)
    grep -q 50000 err.txt || { echo "# -v does not give the elements in: $(cat err.txt)" >&2; return 1; }
    grep -q "$kept" err.txt || { echo "# -v does not give the elements out ($kept): $(cat err.txt)" >&2; return 1; }
}

@test "sc-compact -P: a progress line on stderr (rate; percent when the size is known)" {
    gen_file in.bin 500000 43 0.5
    ref compact < in.bin > want.out
    sc-compact -P in.bin > got.out 2> err.txt
    expect_same want.out got.out
    grep -q '/s' err.txt || { echo "# no rate: $(cat -A err.txt)" >&2; return 1; }
    grep -q '%' err.txt || { echo "# no percent for a regular file: $(cat -A err.txt)" >&2; return 1; }
    cat in.bin | sc-compact --progress > got.out 2> err.txt
    expect_same want.out got.out
    grep -q '/s' err.txt
}

@test "sc-compact -h and -V: stdout, exit 0" {
    run --separate-stderr sc-compact --help
    [ "$status" -eq 0 ]
    [[ "$output" == *--indices* ]]
    [ -z "$stderr" ]
    run --separate-stderr sc-compact -V
    [ "$status" -eq 0 ]
    [[ "$output" =~ [0-9]+\.[0-9]+ ]]
}
