#!/usr/bin/env bats
# Zstd frames and BGZF members decoded ahead of small requests: a round
# of units for every thread goes to the decoder's own buffer and is
# served from there, so the bytes are the same whatever the request size
# (-c) and thread count; a corrupt unit in such a round is reported after
# all the units before it, with its compressed offset.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact
    sc-gen -n 0 --zstd > /dev/null 2>&1 ||
        skip "sc built without zstd (configure --without-zstd)"
}

# everything FILE...: what sc-compact decodes to, kept whole.
everything() {
    sc-compact --ge 0 "$@"
}

@test "par-ahead: sc's own 8 MiB frames (--level 9) read with -c 4K at -j 1, 2, 16, 64" {
    # 40 MiB: five frames of 8 MiB, each much larger than a request.
    gen_file in.bin 10485760 7 0.7 --max 1000
    sc-compact --ge 0 --zstd --level 9 in.bin > in.zst
    local j c
    for j in 1 2 16 64; do
        for c in 4K 4M; do
            everything -j $j -c $c in.zst > got.out ||
                { echo "# -j $j -c $c failed" >&2; return 1; }
            cmp -s in.bin got.out ||
                { echo "# -j $j -c $c: other bytes" >&2; return 1; }
        done
    done
    sc-compact -v --count -j 2 -c 4K in.zst 2>&1 >/dev/null |
        grep -q "^sc-compact: input in.zst: parallel zstd frames, "
}

@test "par-ahead: 2 MiB frames and BGZF with -c 4K and -c 64K, through a pipe too" {
    gen_file in.bin 3000000 8 0.7 --max 1000
    sc-compact --ge 0 --zstd --level 1 in.bin > in.zst
    sc-compact --ge 0 -z in.bin > in.gz
    local f j c
    for f in in.zst in.gz; do
        for j in 2 16; do
            for c in 4K 64K; do
                everything -j $j -c $c $f > got.out
                cmp -s in.bin got.out ||
                    { echo "# $f -j $j -c $c: other bytes" >&2; return 1; }
            done
        done
        everything -j 16 -c 4K < $f > got.out
        expect_same in.bin got.out
    done
}

@test "par-ahead: a corrupt frame in the middle of a round: the frames before it, one message with its offset, exit 1" {
    command -v zstd > /dev/null || skip "the 'zstd' command is not installed"
    gen_file in.bin 5242880 9 0.7 --max 1000
    # 20 frames of 1 MiB, each with its content size.
    split -b 1048576 in.bin piece.
    local p k=0 at=0 j c
    for p in piece.*; do
        k=$((k + 1))
        [ $k -eq 10 ] && at=$(stat -c %s all.zst)
        zstd -q -c $p >> all.zst
    done
    cp all.zst bad.zst
    flip_byte bad.zst $((at + 5000))
    head -c $((9 * 1048576)) in.bin > want.out
    for j in 1 2 16 64; do
        for c in 4K 4M; do
            run_to got.out err.txt sc-compact -j $j -c $c --ge 0 bad.zst
            [ "$status" -eq 1 ] || { echo "# -j $j -c $c: status $status" >&2; return 1; }
            expect_same want.out got.out
            expect_one_line_error sc-compact err.txt
            grep -q "^sc-compact: bad.zst: corrupt zstd data near compressed byte $at: " err.txt
        done
    done
}

@test "par-ahead: a write error while a round decodes ahead: one line, exit 1, at -j 2, 8, 64" {
    [ -w /dev/full ] || skip "/dev/full not available"
    # 48 MB of BGZF: the first request stages a round and starts the next
    # one reading and decoding behind it, and the first write fails.  The
    # reader must end that round before it closes the file and its read
    # pool (under check-tsan or check-asan a race shows as more lines).
    gen_file in.bin 12000000 10 0.7 --max 1000
    sc-compact --ge 0 -z --level 1 in.bin > in.gz
    local j
    for j in 2 8 64; do
        run -1 --separate-stderr bash -c \
            "timeout 60 sc-compact --ge 0 -j $j -c 64K in.gz > /dev/full"
        [ "$stderr" = "sc-compact: (standard output): write error: No space left on device" ] ||
            { echo "# -j $j: $stderr" >&2; return 1; }
    done
}
