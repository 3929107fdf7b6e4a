#!/usr/bin/env bats
# --zstd output: independent frames of a fixed input size (2 MiB at
# levels 1-3, 8 MiB above), each with its content size and checksum, then
# the seek table of zstd's seekable format. The same bytes for any -j and
# -c; read back by zstd, zstdcat, pzstd and sc; empty output still zstd;
# the size near one stream's; a write error reported once.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split
    sc-gen -n 0 --zstd > /dev/null 2>&1 ||
        skip "sc built without zstd (configure --without-zstd)"
    command -v zstd > /dev/null || skip "the 'zstd' command is not installed"
    command -v python3 > /dev/null || skip "python3 is not installed"
    # 5 MiB: two whole frames and a part at levels 1-3
    gen_file in.bin 1310720 29 0.5 --max 1000
}

# seek_ok FILE RAW FRAME: FILE's frames and seek table are well formed and
# hold RAW's bytes in frames of FRAME bytes; prints the number of frames.
seek_ok() {
    python3 "$SC_SRCDIR/tests/zstd-seek.py" "$1" "$(stat -c %s "$2")" "$3"
}

# all_readers FILE RAW: every reader gives back RAW byte for byte.
all_readers() {
    zstd -q -dc "$1" > got.out && expect_same "$2" got.out
    if command -v zstdcat > /dev/null; then
        zstdcat "$1" > got.out && expect_same "$2" got.out
    fi
    if command -v pzstd > /dev/null; then
        pzstd -q -dc "$1" > got.out && expect_same "$2" got.out
    fi
    sc-compact --ge 0 --in zst "$1" > got.out && expect_same "$2" got.out
    sc-compact --ge 0 --in auto "$1" > got.out && expect_same "$2" got.out
}

@test "zstd-frames: the same bytes for -j 1, 2, 16 and -c 4K, 1M, 64M" {
    sc-compact --ge 0 --zstd -j 1 -c 1M -o want.zst in.bin
    local j c
    for j in 1 2 16; do
        for c in 4K 1M 64M; do
            sc-compact --ge 0 --zstd -j "$j" -c "$c" -o got.zst in.bin
            expect_same want.zst got.zst || { echo "# -j $j -c $c" >&2; return 1; }
        done
    done
    # a generator's output, made in chunks of its own
    sc-gen -n 1310720 -s 29 --density 0.5 --max 1000 > raw.bin
    sc-gen -n 1310720 -s 29 --density 0.5 --max 1000 --zstd -j 1 -c 4K > a.zst
    sc-gen -n 1310720 -s 29 --density 0.5 --max 1000 --zstd -j 16 > b.zst
    expect_same a.zst b.zst
    all_readers a.zst raw.bin
}

@test "zstd-frames: read back byte for byte by zstd, zstdcat, pzstd and sc" {
    sc-compact --ge 0 --zstd -o out.zst in.bin
    all_readers out.zst in.bin
    # through a pipe: the same bytes as to a file
    sc-compact --ge 0 --zstd < in.bin | cat > piped.zst
    expect_same out.zst piped.zst
}

@test "zstd-frames: frames of 2 MiB with content sizes; the seek table lists them" {
    sc-compact --ge 0 --zstd -o out.zst in.bin
    run -0 seek_ok out.zst in.bin 2097152
    [ "$output" = 3 ]
    # a whole number of frames, and less than one
    head -c 4194304 in.bin > two.bin
    sc-compact --ge 0 --zstd -o two.zst two.bin
    run -0 seek_ok two.zst two.bin 2097152
    [ "$output" = 2 ]
    head -c 4000 in.bin > small.bin
    sc-compact --ge 0 --zstd -o small.zst small.bin
    run -0 seek_ok small.zst small.bin 2097152
    [ "$output" = 1 ]
    all_readers small.zst small.bin
}

@test "zstd-frames: levels 1, 3 and 19" {
    local l
    for l in 1 3; do
        sc-compact --ge 0 --zstd --level "$l" -j 2 -o out.zst in.bin
        run -0 seek_ok out.zst in.bin 2097152
        all_readers out.zst in.bin
    done
    # level 19: frames of 8 MiB; quick to compress data for two of them
    sc-gen -n 2500000 --dist structured > st.bin
    sc-compact --ge 0 --zstd --level 19 -j 2 -o a.zst st.bin
    sc-compact --ge 0 --zstd --level 19 -j 1 -c 4K -o b.zst st.bin
    expect_same a.zst b.zst
    run -0 seek_ok a.zst st.bin 8388608
    [ "$output" = 2 ]
    all_readers a.zst st.bin
    head -c 300000 in.bin > small.bin
    sc-compact --ge 0 --zstd --level 19 -o s.zst small.bin
    all_readers s.zst small.bin
}

@test "zstd-frames: empty output is one empty frame and the seek table" {
    : > empty.bin
    sc-compact --ge 0 --zstd -o e.zst empty.bin
    run -0 seek_ok e.zst empty.bin 2097152
    [ "$output" = 1 ]
    all_readers e.zst empty.bin
    sc-gen -n 0 --zstd -j 16 > g.zst
    expect_same e.zst g.zst
}

@test "zstd-frames: the size is within 3 % of zstd -3's single stream" {
    sc-gen -n 4M -s 3 --max 1000 > big.bin
    sc-compact --ge 0 --zstd -o ours.zst big.bin
    zstd -q -3 --single-thread -c big.bin > theirs.zst
    local ours theirs
    ours=$(stat -c %s ours.zst)
    theirs=$(stat -c %s theirs.zst)
    echo "# ours $ours, zstd -3 $theirs" >&2
    [ $((ours * 100)) -le $((theirs * 103)) ]
}

@test "zstd-frames: sc-split --ranges: each part the same bytes as alone" {
    sc-split --ranges 0,300,700 --zstd -j 4 -o 'part.%d' in.bin
    local k
    for k in 0 1 2; do
        zstd -q -dc "part.$k" > p.bin
        sc-compact --ge 0 --zstd -j 1 -o alone.zst p.bin
        expect_same alone.zst "part.$k" || { echo "# part $k" >&2; return 1; }
        seek_ok "part.$k" p.bin 2097152 > /dev/null
    done
}

@test "zstd-frames: a write error is reported once, exit 1" {
    [ -w /dev/full ] || skip "no /dev/full"
    local j
    for j in 1 2 16; do
        run --separate-stderr sc-compact --ge 0 --zstd -j "$j" -c 4K -o /dev/full in.bin
        expect_status 1
        echo "$stderr" > err.txt
        expect_one_line_error sc-compact err.txt
        [[ "$stderr" == *"/dev/full: write error: No space left on device" ]] ||
            { echo "# -j $j: $stderr" >&2; return 1; }
        # nothing but the empty frame and its table to write
        run --separate-stderr sc-gen -n 0 --zstd -j "$j" -o /dev/full
        expect_status 1
        [ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
    done
}

@test "zstd-frames: a run that fails after frames went out: one message, exit 1, no file, the other file kept" {
    # Stray bytes end the input after 10 frames have been compressed and
    # written: the writer is given up with its threads still writing, and
    # they must stop before its file is closed (check-tsan reports the race).
    gen_file big.bin 5000000 12 0.7 --max 1000
    printf xy >> big.bin
    echo keep > kept.zst
    local j
    for j in 2 4 16; do
        run --separate-stderr sc-compact --in raw --ge 0 --zstd --level 1 -j "$j" -o out.zst big.bin
        expect_status 1
        [ "$stderr" = "sc-compact: big.bin: the input ends with 2 stray bytes after 5000000 whole elements (byte offset 20000000)" ] ||
            { echo "# -j $j: $stderr" >&2; return 1; }
        [ ! -e out.zst ]
        run --separate-stderr sc-compact --in raw --ge 0 --zstd --level 1 -j "$j" -o kept.zst big.bin
        expect_status 1
        [ "$(cat kept.zst)" = keep ]
    done
}

@test "zstd-frames: compression threads that cannot start: one line, exit 1" {
    # Whichever thread fails (the pool's, the pipeline's, the compressors'),
    # the run ends whole or with one line, and without the output.
    local n seen=0
    for n in 1 2 3 4 5 6; do
        rm -f out.zst
        SC_TEST_FAIL_THREAD=$n run --separate-stderr \
            timeout 20 sc-gen -d cpu -j 2 --zstd -n 3M -o out.zst
        if [ "$status" = 0 ]; then
            zstd -q -t out.zst
            continue
        fi
        expect_status 1
        echo "$stderr" > err.txt
        expect_one_line_error sc-gen err.txt
        [ ! -e out.zst ]
        [[ "$stderr" != *"cannot start compression threads"* ]] || seen=1
    done
    [ "$seen" = 1 ]
}
