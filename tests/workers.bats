#!/usr/bin/env bats
# Whole chunks per thread: on the CPU, sc-compact, sc-split and sc-gen let
# each thread read and process whole chunks of a regular file (or of
# sc-gen's positions), and the writer puts them back in input order.  The
# bytes must not depend on it: each case is compared with sc-ref and with
# the one-chunk-at-a-time pipeline (SC_TEST_WORKERS=0), and -v must show
# that the workers really ran.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split
}

# ran_by_workers ERRFILE: -v's line saying how the chunks were taken.
ran_by_workers() {
    grep -q 'processed whole by one of [0-9]* threads' "$1" ||
        { echo "# the workers did not run: $(cat "$1")" >&2; return 1; }
}

@test "workers: sc-compact of a regular file, every output kind, -j 2 3 8 x -c 4K 12K, vs sc-ref and one at a time" {
    gen_file in.bin 300007 21 0.5
    local what j c
    for what in "" "--indices" "--indices -w" "--count" "-x --range 0x100000:0xe0000000"; do
        ref compact $what < in.bin > want.out
        for j in 2 3 8; do
            for c in 4K 12K; do
                sc-compact -d cpu -v -j $j -c $c $what in.bin > got.out 2> err.txt
                ran_by_workers err.txt
                expect_same want.out got.out || { echo "# -j $j -c $c $what" >&2; return 1; }
                SC_TEST_WORKERS=0 sc-compact -d cpu -v -j $j -c $c $what in.bin > one.out 2> err.txt
                ! grep -q 'processed whole' err.txt
                expect_same want.out one.out
            done
        done
    done
}

@test "workers: sc-split of a regular file to one stream and with -r, vs sc-ref" {
    gen_file in.bin 200003 22 0.3
    ref split --gt 0x40000000 < in.bin > want.out
    local j
    for j in 2 5; do
        sc-split -d cpu -v -j $j -c 4K --gt 0x40000000 in.bin > got.out 2> err.txt
        ran_by_workers err.txt
        expect_same want.out got.out
        sc-split -d cpu -j $j -c 4K --gt 0x40000000 -r rej.out -o sel.out in.bin
        cat sel.out rej.out > both.out
        expect_same want.out both.out
    done
}

@test "workers: sizes around the chunk: 0, 1, one chunk - 1, + 1, many chunks and a tail" {
    local n
    for n in 0 1 1023 1024 1025 2048 5000 65537; do
        gen_file in.bin $n $((n + 5)) 0.5
        ref compact < in.bin > want.out
        sc-compact -d cpu -j 4 -c 4K in.bin > got.out
        expect_same want.out got.out || { echo "# n=$n" >&2; return 1; }
        ref compact --indices < in.bin > want.out
        sc-compact -d cpu -j 4 -c 4K --indices in.bin > got.out
        expect_same want.out got.out || { echo "# --indices n=$n" >&2; return 1; }
    done
}

@test "workers: several files with elements across their joins read as one stream" {
    gen_file all.bin 50000 23 0.5
    # Cuts at byte offsets that are not multiples of 4 or of a chunk.
    head -c 20483 all.bin > a.bin
    tail -c +20484 all.bin | head -c 65537 > b.bin
    tail -c +$((20483 + 65537 + 1)) all.bin > c.bin
    ref compact --indices < all.bin > want.out
    sc-compact -d cpu -v -j 4 -c 4K --indices a.bin b.bin c.bin > got.out 2> err.txt
    ran_by_workers err.txt
    expect_same want.out got.out
}

@test "workers: standard input that is a regular file read from where its offset is" {
    gen_file in.bin 40000 24 0.5
    tail -c +4097 in.bin > rest.bin
    ref compact --indices < rest.bin > want.out
    { head -c 4096 > /dev/null; sc-compact -d cpu -j 4 -c 4K --indices > got.out; } < in.bin
    expect_same want.out got.out
}

@test "workers: stray bytes at the end: the whole elements out, then the same error as one at a time" {
    gen_file in.bin 30000 25 0.5
    printf 'xy' >> in.bin
    run --separate-stderr sc-compact -d cpu -j 4 -c 4K in.bin
    local st1=$status err1=$stderr
    printf '%s' "$output" > got1.out
    SC_TEST_WORKERS=0 run --separate-stderr sc-compact -d cpu -j 4 -c 4K in.bin
    [ "$status" -eq "$st1" ]
    [ "$stderr" = "$err1" ]
    [ "$st1" -eq 1 ]
    [[ $err1 == "sc-compact: "*"stray byte"* ]] || { echo "# $err1" >&2; return 1; }
    head -c 120000 in.bin | ref compact > want.out
    sc-compact -d cpu -j 4 -c 4K in.bin > got.out 2>/dev/null || true
    expect_same want.out got.out
}

@test "workers: sc-gen by whole chunks equals one thread, to a file and to a pipe" {
    sc-gen -d cpu -j 1 -n 300001 -s 9 --density 0.7 -o want.bin
    sc-gen -d cpu -v -j 6 -c 4K -n 300001 -s 9 --density 0.7 -o got.bin 2> err.txt
    ran_by_workers err.txt
    expect_same want.bin got.bin
    sc-gen -d cpu -j 6 -c 4K -n 300001 -s 9 --density 0.7 | cat > piped.bin
    expect_same want.bin piped.bin
}

@test "workers: a chunk asked larger than 4 MiB, a pipe and gzip input keep to one chunk at a time" {
    gen_file in.bin 100000 26 0.5
    sc-compact -d cpu -v -j 4 -c 8M in.bin > /dev/null 2> err.txt
    ! grep -q 'processed whole' err.txt
    cat in.bin | sc-compact -d cpu -v -j 4 -c 4K > /dev/null 2> err.txt
    ! grep -q 'processed whole' err.txt
    gzip -c in.bin > in.gz
    sc-compact -d cpu -v -j 4 -c 4K in.gz > /dev/null 2> err.txt
    ! grep -q 'processed whole' err.txt
}

@test "workers: a broken pipe stops the workers (no hang, no error line)" {
    gen_file in.bin 2000000 27 0.9
    run --separate-stderr bash -c 'set -o pipefail; timeout 20 sc-compact -d cpu -j 4 -c 4K in.bin | head -c 100 > /dev/null'
    [ "$status" -eq 141 ]
    [ -z "$stderr" ]
}

@test "workers: a worker thread that cannot start leaves the others to it; a writer that cannot, an error" {
    gen_file in.bin 100000 28 0.5
    ref compact < in.bin > want.out
    # -j 4: threads 1-3 are the pool's, 4 the writer's, 5-7 the workers'.
    SC_TEST_FAIL_THREAD=5 sc-compact -d cpu -v -j 4 -c 4K -o got.out in.bin 2> err.txt
    ran_by_workers err.txt
    expect_same want.out got.out
    SC_TEST_FAIL_THREAD=4 run -1 --separate-stderr sc-compact -d cpu -j 4 -c 4K -o out2.out in.bin
    [ "$stderr" = "sc-compact: cannot start threads: Resource temporarily unavailable" ] ||
        { echo "# $stderr" >&2; return 1; }
    [ ! -e out2.out ]
}

@test "workers: sc-scan hands the carry from chunk to chunk: every op, -i, -w, --carry-in, --total" {
    require_tool sc-scan
    gen_file in.bin 300007 29 0.8
    local what j
    for what in "" "-i" "-w" "-i -w" "--op max" "--op min -i" "--op xor -w" "--carry-in 123456789" "--op max --carry-in 4000000000" "--total" "--total -w --carry-in 5"; do
        ref scan $what < in.bin > want.out
        for j in 2 5 8; do
            sc-scan -d cpu -v -j $j -c 4K $what in.bin > got.out 2> err.txt
            ran_by_workers err.txt
            expect_same want.out got.out || { echo "# -j $j $what" >&2; return 1; }
        done
        SC_TEST_WORKERS=0 sc-scan -d cpu -j 4 -c 4K $what in.bin > one.out
        expect_same want.out one.out
    done
}

@test "workers: sc-scan with stray bytes at the end writes every whole element's prefix, then the error" {
    require_tool sc-scan
    gen_file in.bin 30000 30 0.5
    printf 'z' >> in.bin
    head -c 120000 in.bin | ref scan > want.out
    run --separate-stderr sc-scan -d cpu -v -j 4 -c 4K in.bin
    [ "$status" -ne 0 ]
    [[ $stderr == *"processed whole"* ]]
    [[ $stderr == *"stray byte"* ]]
    sc-scan -d cpu -j 4 -c 4K in.bin > got.out 2>/dev/null || true
    expect_same want.out got.out
}
