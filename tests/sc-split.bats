#!/usr/bin/env bats
# sc-split: stable partition against sc-ref.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-split
}

@test "sc-split: default predicate vs sc-ref, sizes 0..1000003 x densities 0, 0.5, 1" {
    local n d
    for n in 0 1 31 32 33 4095 4096 65537 1000003; do
        for d in 0 0.5 1; do
            gen_file in.bin $n $((n + 3)) $d
            vs_ref sc-split split in.bin || { echo "# n=$n density=$d" >&2; return 1; }
        done
    done
}

@test "sc-split: a small case by hand (selected, then rejected, each in input order)" {
    u32le 5 0 3 0 7 9 0 2 > in.bin
    sc-split in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "5 3 7 9 2 0 0 0 " ]
    sc-split --gt 4 in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "5 7 9 0 3 0 0 2 " ]
    sc-split --gt 4 -x in.bin > out.bin
    [ "$(u32text out.bin | tr '\n' ' ')" = "0 3 0 0 2 5 7 9 " ]
}

@test "sc-split: every predicate and combinations, and inverted, vs sc-ref" {
    gen_file in.bin 200003 7 0.8 --min 0 --max 1000
    local p
    while IFS= read -r p; do
        vs_ref sc-split split in.bin $p || return 1
        vs_ref sc-split split in.bin $p -x || return 1
    done <<'EOF'
--eq 500
--ne 0
--lt 100
--lt 0
--le 100
--gt 900
--gt 4294967295
--ge 500
--range 100:200
--mask 1
--mask 0x30
--gt 100 --lt 200
--ge 10 --le 20 --ne 15
--range 100:900 --mask 1 --ne 501
--eq 5 --eq 6
EOF
}

@test "sc-split --count prints SELECTED REJECTED" {
    u32le 5 0 3 0 7 9 0 2 > in.bin
    run --separate-stderr sc-split --count in.bin
    [ "$status" -eq 0 ]
    [ "$output" = "5 3" ]
    run sc-split --count --gt 4 -x in.bin
    [ "$output" = "5 3" ]
    run sc-split --count --gt 100 in.bin
    [ "$output" = "0 8" ]
    gen_file big.bin 1000003 5 0.5
    vs_ref sc-split split big.bin --count
    vs_ref sc-split split big.bin --count --mask 0x100 --ne 0
}

@test "sc-split -r FILE: selected to the output, rejected to FILE" {
    local n
    for n in 0 1 33 4096 65537 1000003; do
        gen_file in.bin $n $((n + 9)) 0.5
        ref compact < in.bin > want.sel
        ref compact -x < in.bin > want.rej
        sc-split -r rej.bin in.bin > sel.bin
        expect_same want.sel sel.bin || { echo "# n=$n selected" >&2; return 1; }
        expect_same want.rej rej.bin || { echo "# n=$n rejected" >&2; return 1; }
    done
    ref compact --range 100:0x7fffffff < in.bin > want.sel
    ref compact --range 100:0x7fffffff -x < in.bin > want.rej
    sc-split --rejects rej.bin --range 100:0x7fffffff -c 4K -o sel.bin in.bin
    expect_same want.sel sel.bin
    expect_same want.rej rej.bin
}

@test "sc-split -r FILE with -z and -t: the rejects file has the same format" {
    gen_file in.bin 100003 11 0.5
    ref compact < in.bin > want.sel
    ref compact -x < in.bin > want.rej
    sc-split -z -r rej.gz in.bin > sel.gz
    gzip -dc sel.gz > sel.bin
    gzip -dc rej.gz > rej.bin
    expect_same want.sel sel.bin
    expect_same want.rej rej.bin
    sc-split -t -r rej.txt in.bin > sel.txt
    u32text want.sel > want.sel.txt
    u32text want.rej > want.rej.txt
    cmp want.sel.txt sel.txt
    cmp want.rej.txt rej.txt
}

@test "sc-split -r replaces an existing rejects file" {
    u32le 5 0 3 > in.bin
    echo "old old old" > rej.bin
    sc-split -r rej.bin in.bin > sel.bin
    [ "$(u32text rej.bin)" = 0 ]
    [ "$(u32text sel.bin | tr '\n' ' ')" = "5 3 " ]
}

@test "sc-split: chunk sizes 4K 8K 12K 64K and default, threads 1 2 4: identical bytes" {
    gen_file in.bin 1200007 13 0.5
    local what c
    for what in "" "--gt 0x40000000 --mask 3" "-x"; do
        ref split $what < in.bin > want.out
        for c in 4K 8K 12K 64K 1M; do
            sc-split -c $c $what in.bin > got.out
            expect_same want.out got.out || { echo "# -c $c $what" >&2; return 1; }
        done
        for c in 1 2 4; do
            sc-split -j $c $what in.bin > got.out
            expect_same want.out got.out || { echo "# -j $c $what" >&2; return 1; }
        done
    done
}

@test "sc-split -S small with -T DIR spills rejects, same bytes, temp files gone" {
    gen_file in.bin 1000003 17 0.5
    ref split < in.bin > want.out
    mkdir spill
    local s
    for s in 4K 64K 1M; do
        sc-split -S $s -T spill in.bin > got.out
        expect_same want.out got.out || { echo "# -S $s" >&2; return 1; }
        [ -z "$(ls -A spill)" ] || { echo "# -S $s left: $(ls -A spill)" >&2; return 1; }
    done
    sc-split -S 64K -T spill -c 4K --buffer-size 64K in.bin > got.out
    expect_same want.out got.out
    # through a pipe, with a predicate
    ref split --lt 0x30000000 < in.bin > want.out
    cat in.bin | sc-split -S 64K -T spill --lt 0x30000000 > got.out
    expect_same want.out got.out
    [ -z "$(ls -A spill)" ]
}

@test "sc-split into a pipe: the held rejects, handed over by reference, arrive intact" {
    # The rejects held in memory go into a pipe by vmsplice: the reader
    # sees those pages as they are when it reads, after sc-split has freed
    # them and exited.  A slow reader leaves a full pipe behind.
    gen_file in.bin 3000017 29 0.5
    ref split < in.bin > want.out
    sc-split in.bin | { sleep 1; cat; } > got.out
    expect_same want.out got.out
    # a FIFO named by -o is a pipe too
    mkfifo out.fifo
    { sleep 0.5; timeout 20 cat out.fifo > got.out; } &
    sc-split -o out.fifo in.bin
    wait
    expect_same want.out got.out
    [ -p out.fifo ]
    # spilled to a file first, the tail in memory
    mkdir spill
    cat in.bin | sc-split -S 64K -T spill | { sleep 0.5; cat; } > got.out
    expect_same want.out got.out
    [ -z "$(ls -A spill)" ]
    # another sc tool reading the pipe
    sc-split in.bin | sc-scan > got.out
    ref split < in.bin | ref scan > want2.out
    expect_same want2.out got.out
    # text and gzip into a pipe are copied as before
    sc-split -t in.bin | cat > got.txt
    sc-split -t in.bin > want.txt
    cmp want.txt got.txt
    sc-split -z in.bin | gzip -dc > got.out
    expect_same want.out got.out
}

@test "sc-split -S small: \$TMPDIR is the default spill directory, left empty" {
    gen_file in.bin 500009 19 0.5
    ref split < in.bin > want.out
    mkdir tmpd
    TMPDIR="$T/tmpd" sc-split -S 64K in.bin > got.out
    expect_same want.out got.out
    [ -z "$(ls -A tmpd)" ]
}

@test "sc-split -S small: spill files removed when the input fails" {
    gen_file in.bin 500009 23 0.5
    cp in.bin odd.bin
    printf 'x' >> odd.bin
    mkdir spill
    run_to got.out err.txt sc-split -S 64K -T spill odd.bin
    [ "$status" -eq 1 ]
    [ -z "$(ls -A spill)" ] || { echo "# left: $(ls -A spill)" >&2; return 1; }
    ref split < in.bin > want.out
    expect_same want.out got.out
}

@test "sc-split -T to a missing directory with spilling is an error, exit 1" {
    gen_file in.bin 500009 23 0.5
    run_to got.out err.txt sc-split -S 64K -T no-such-dir in.bin
    [ "$status" -eq 1 ]
    expect_one_line_error sc-split err.txt
}

@test "sc-split: gz and text input, several inputs, -z -t output" {
    gen_file a.bin 100003 1 0.5
    gen_file b.bin 50001 2 0.5
    cat a.bin b.bin > ab.bin
    gzip -c a.bin > a.gz
    ref split < ab.bin > want.out
    sc-split a.gz - < b.bin > got.out
    expect_same want.out got.out
    u32text ab.bin > ab.txt
    sc-split --in text ab.txt > got.out
    expect_same want.out got.out
    sc-split -z a.bin b.bin | gzip -dc > got.out
    expect_same want.out got.out
    u32text want.out > want.txt
    sc-split -t a.bin b.bin > got.txt
    cmp want.txt got.txt
}

@test "sc-split -h and -V: stdout, exit 0" {
    run --separate-stderr sc-split --help
    [ "$status" -eq 0 ]
    [[ "$output" == *--rejects* ]]
    [ -z "$stderr" ]
    run --separate-stderr sc-split -V
    [ "$status" -eq 0 ]
    [[ "$output" =~ [0-9]+\.[0-9]+ ]]
}
