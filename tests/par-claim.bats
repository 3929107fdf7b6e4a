#!/usr/bin/env bats
# BGZF files claimed by the CPU's workers: each worker takes the next
# whole members that fit its chunk and decodes them on its own thread.
# Whatever the tool, -j, -c or element size, the bytes are those of the
# raw input; where members cannot be claimed (an ordinary gzip member, a
# long header, the end-of-file block, a cut) the stream's reader goes on;
# a fault comes after everything before it, and of several, the first.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-stat
    # 24 MB: chunks enough for every worker at -j 16.
    gen_file in.bin 6000011 7 0.6 --max 100000
    sc-compact -z --level 1 --ge 0 in.bin > sc.gz
}

need_cmd() {
    command -v "$1" > /dev/null || skip "the '$1' command is not installed"
}

# workers_read FILE WORD [ARGS...]: -v says FILE was read in parallel
# WORD ("BGZF", "zstd frames") by the workers (one chunk a thread), not
# by the one reader.
workers_read() {
    local f=$1 word=$2
    shift 2
    sc-compact -v -d cpu --count "$@" "$f" > /dev/null 2> v.txt
    grep -q "input $f: parallel $word" v.txt &&
        grep -q "each read and processed whole by one of" v.txt ||
        { cat v.txt >&2; return 1; }
}

# in_every_way FILE: FILE decodes to in.bin on the CPU at every -j and
# chunk size.
in_every_way() {
    local j c
    for j in 2 3 16 64; do
        for c in 64K 1M 4M; do
            sc-compact -d cpu -j $j -c $c --ge 0 "$1" > got.out
            cmp -s in.bin got.out ||
                { echo "# $1 -j $j -c $c: other bytes" >&2; return 1; }
        done
    done
}

# random_damage FILE WANT LIST N: N copies of FILE (which decodes to
# WANT; LIST: "offset size" of its units) damaged at random, a byte
# flipped or zeroed or a piece cut out, read at -j 2 to 16: exit 0 with
# WANT exactly, or 1 with one line after every unit before the damage
# (what a stream decoder makes of a damaged unit before its check fails
# is gzip's way, not a claim's); never another status, never a hang.
random_damage() {
    local f=$1 want=$2 list=$3 n=$4 i size at kind j before
    size=$(stat -c %s "$f")
    for i in $(seq 1 "$n"); do
        cp "$f" dam
        # past the magic, which would make it another format
        at=$(( 4 + (RANDOM * 32768 + RANDOM) % (size - 4) ))
        kind=$((i % 3))
        case $kind in
            0) flip_byte dam $at ;;
            1) set_byte dam $at 0 ;;
            2) { head -c $at "$f"; tail -c +$((at + 1 + RANDOM % 5000)) "$f"; } > dam ;;
        esac
        before=$(awk -v at=$at '$1 < at { if (prev != "") s += prev; prev = $2 }
                                END { print s + 0 }' "$list")
        j=$((2 + i % 15))
        run_to got.out err.txt timeout 60 sc-compact -d cpu -j $j --ge 0 dam
        case $status in
            0) expect_same "$want" got.out ||
                   { echo "# damage $kind at $at -j $j: other bytes, exit 0" >&2; return 1; } ;;
            1) head -c $before "$want" > want.out
               expect_prefix want.out got.out ||
                   { echo "# damage $kind at $at -j $j: lost what came before" >&2; return 1; }
               expect_one_line_error sc-compact err.txt ;;
            *) echo "# damage $kind at $at -j $j: status $status" >&2; cat err.txt >&2; return 1 ;;
        esac
    done
}

@test "par-claim: sc's and bgzip's BGZF are claimed by the workers, the same bytes at every -j and -c" {
    need_cmd bgzip
    bgzip -@2 -c in.bin > bg.gz
    local f j c
    for f in sc.gz bg.gz; do
        workers_read $f BGZF -j 4
        in_every_way $f
    done
}

@test "par-claim: every tool reads the claimed chunks in order: scan carries, indices count, split, stat" {
    local j
    for j in 2 16; do
        sc-scan -d cpu -j $j sc.gz > got.out
        sc-scan -d cpu -j 1 in.bin > want.out
        expect_same want.out got.out
        sc-compact -d cpu -j $j --indices --gt 50000 sc.gz > got.out
        sc-compact -d cpu -j 1 --indices --gt 50000 in.bin > want.out
        expect_same want.out got.out
        sc-split -d cpu -j $j --gt 50000 -r rej.out sc.gz > got.out
        sc-split -d cpu -j 1 --gt 50000 -r rej.want in.bin > want.out
        expect_same want.out got.out
        expect_same rej.want rej.out
        sc-stat -d cpu -j $j sc.gz > got.out
        sc-stat -d cpu -j 1 in.bin > want.out
        expect_same want.out got.out
    done
}

@test "par-claim: elements and records that members do not divide: 8-byte big-endian, 28-byte records" {
    head -c 24000040 in.bin > in8.bin
    sc-compact -z --level 1 --ge 0 in8.bin > in8.gz
    sc-compact -d cpu -j 4 -e u64 --big-endian --ge 0 in8.gz > got.out
    expect_same in8.bin got.out
    sc-scan -d cpu -j 4 -e u64 --big-endian in8.gz > got.out
    sc-scan -d cpu -j 1 -e u64 --big-endian in8.bin > want.out
    expect_same want.out got.out
    # 24000044 bytes hold 857144 whole records of 28 bytes, 12 bytes left.
    head -c $((857144 * 28)) in.bin > rec.bin
    sc-compact -z --level 1 --record 28 --ge 0 rec.bin > rec.gz
    workers_read rec.gz BGZF -j 4 --record 28
    sc-compact -d cpu -j 4 --record 28 --key 4:u32 --gt 1000 rec.gz > got.out
    sc-compact -d cpu -j 1 --record 28 --key 4:u32 --gt 1000 rec.bin > want.out
    expect_same want.out got.out
    sc-scan -d cpu -j 3 --record 28 --key 8:u32 rec.gz > got.out
    sc-scan -d cpu -j 1 --record 28 --key 8:u32 rec.bin > want.out
    expect_same want.out got.out
}

@test "par-claim: stray bytes at the end: the whole elements, then the offset of the decoded data" {
    need_cmd bgzip
    head -c 4000002 in.bin > odd.bin
    bgzip -c odd.bin > odd.gz
    run_to got.out err.txt sc-compact -d cpu -j 4 --ge 0 odd.gz
    [ "$status" -eq 1 ]
    head -c 4000000 in.bin > want.out
    expect_same want.out got.out
    grep -q "byte offset 4000000 of the decompressed data" err.txt ||
        { cat err.txt >&2; return 1; }
}

@test "par-claim: BGZF, an ordinary gzip member, BGZF again; files joined; no end-of-file block" {
    head -c 8000000 in.bin > p1
    tail -c +8000001 in.bin | head -c 8000000 > p2
    tail -c +16000001 in.bin > p3
    { sc-compact -z --ge 0 p1; gzip -c p2; sc-compact -z --ge 0 p3; } > mixed.gz
    sc-compact -d cpu -j 4 --ge 0 mixed.gz > got.out
    expect_same in.bin got.out
    { sc-compact -z --ge 0 p1; sc-compact -z --ge 0 p2; sc-compact -z --ge 0 p3; } > joined.gz
    workers_read joined.gz BGZF -j 4
    sc-compact -d cpu -j 4 --ge 0 joined.gz sc.gz > got.out
    cat in.bin in.bin > want.out
    expect_same want.out got.out
    head -c $(( $(stat -c %s sc.gz) - 28 )) sc.gz > noeof.gz
    run_to got.out err.txt sc-compact -d cpu -j 4 --ge 0 noeof.gz
    [ "$status" -eq 1 ]
    expect_same in.bin got.out
    grep -q "BGZF end-of-file block is missing" err.txt
}

# long_header IN OUT: IN's BGZF members, the one at member K given a
# 100-byte extra field (an unknown subfield before BC), the rest as they
# were.
long_header() {
    perl -e 'local $/; open(my $f, "<", $ARGV[0]) or die; binmode $f;
             my $d = <$f>; my ($at, $k, $out) = (0, 0, "");
             while ($at < length $d) {
                 my $size = unpack("v", substr($d, $at + 16, 2)) + 1;
                 my $m = substr($d, $at, $size);
                 if ($k++ == $ARGV[1]) {
                     my $pad = "XY" . pack("v", 90) . ("\0" x 90);
                     my $body = substr($m, 18);
                     my $n = 18 + length($pad) + length($body);
                     $m = substr($m, 0, 10) . pack("v", 6 + length $pad) .
                          $pad . "BC" . pack("v", 2) . pack("v", $n - 1) .
                          $body;
                 }
                 $out .= $m; $at += $size;
             }
             print $out' "$1" "$2" > "$3"
}

@test "par-claim: a member whose header the claims do not read goes to the stream's reader, and claims go on after" {
    long_header sc.gz 40 long.gz
    gzip -t long.gz
    workers_read long.gz BGZF -j 4
    local j
    for j in 2 4 16; do
        sc-compact -d cpu -j $j --ge 0 long.gz > got.out
        expect_same in.bin got.out
    done
}

@test "par-claim: a corrupt member: the elements before it, then its offset; of two, the first, at any -j" {
    members sc.gz > list
    local n k at before j
    n=$(wc -l < list)
    for k in 1 2 $((n / 3)) $((n - 1)); do
        at=$(sed -n "${k}p" list | cut -d' ' -f1)
        before=$(head -n $((k - 1)) list | awk '{ s += $2 } END { print s + 0 }')
        cp sc.gz bad.gz
        flip_byte bad.gz $((at + 200))
        # a second one a chunk later, met first by a thread that starts
        # there, which must not speak first
        [ "$k" -lt $((n - 21)) ] &&
            flip_byte bad.gz $(( $(sed -n "$((k + 20))p" list | cut -d' ' -f1) + 200 ))
        head -c "$before" in.bin > want.out
        for j in 2 4 16; do
            run_to got.out err.txt sc-compact -d cpu -j $j --ge 0 bad.gz
            [ "$status" -eq 1 ] || { echo "# member $k -j $j: status $status" >&2; return 1; }
            expect_same want.out got.out
            expect_one_line_error sc-compact err.txt
            grep -q "^sc-compact: bad.gz: corrupt gzip data near compressed byte $at: " err.txt ||
                { cat err.txt >&2; return 1; }
        done
        run_to got.out err.txt sc-scan -d cpu -j 4 bad.gz
        [ "$status" -eq 1 ]
        head -c "$before" in.bin | sc-scan -d cpu -j 1 > want.out
        expect_same want.out got.out
    done
}

@test "par-claim: cut at many points: the members before the cut, exit 1, no hang, at -j 2 and 16" {
    local size cut j
    size=$(stat -c %s sc.gz)
    for cut in 100 70000 $((size / 3)) $((size / 2 + 12345)) $((size - 29)) $((size - 1)); do
        head -c $cut sc.gz > cut.gz
        for j in 2 16; do
            run_to got.out err.txt timeout 60 sc-compact -d cpu -j $j --ge 0 cut.gz
            [ "$status" -eq 1 ] || { echo "# cut $cut -j $j: status $status" >&2; return 1; }
            expect_prefix got.out in.bin
            expect_one_line_error sc-compact err.txt
        done
    done
}

@test "par-claim: random damage (bytes flipped, zeroed, cut out): exit 0 with the input, or 1 with one line after every member before the damage; no crash, no hang" {
    head -c 4000000 in.bin > small.bin
    sc-compact -z --level 1 --ge 0 small.bin > small.gz
    members small.gz > list
    random_damage small.gz small.bin list 60
}

# zstd frames with their sizes, claimed where SC_TEST_ZSTD_CLAIMS=1 asks
# (the claims of frames wait to be measured against the rounds).
zstd_claims() {
    zstd_built || skip "sc built without zstd (configure --with-zstd)"
    export SC_TEST_ZSTD_CLAIMS=1
}

@test "par-claim: sc's zstd frames and zstd's own are claimed by the workers, the same bytes at every -j and -c; pzstd's and 8 MiB frames read as before" {
    zstd_claims
    sc-compact --zstd --level 3 --ge 0 in.bin > sc.zst
    split -b 1000000 in.bin piece.
    local p f j c
    if command -v zstd > /dev/null; then
        for p in piece.*; do zstd -q -c "$p"; done > cli.zst
    else
        cp sc.zst cli.zst
    fi
    workers_read sc.zst "zstd frames" -j 4
    workers_read cli.zst "zstd frames" -j 4
    sc-compact --zstd --level 9 --ge 0 in.bin > big.zst
    for f in sc.zst cli.zst big.zst; do in_every_way $f; done
    if command -v pzstd > /dev/null; then
        pzstd -q -p 4 -c in.bin > pz.zst
        sc-compact -d cpu -j 4 --ge 0 pz.zst > got.out
        expect_same in.bin got.out
    fi
    sc-scan -d cpu -j 4 sc.zst > got.out
    sc-scan -d cpu -j 1 in.bin > want.out
    expect_same want.out got.out
    sc-compact -d cpu -j 4 --record 28 --key 4:u32 --gt 1000 sc.zst > got.out 2> err.txt || true
    head -c $((857144 * 28)) in.bin > rec.bin
    sc-compact -d cpu -j 1 --record 28 --key 4:u32 --gt 1000 rec.bin > want.out
    expect_same want.out got.out
}

@test "par-claim: a corrupt zstd frame: the frames before it, then its offset; of two, the first; random damage" {
    zstd_claims
    sc-compact --zstd --level 3 --ge 0 in.bin > sc.zst
    # "offset size" of each of sc's frames, from its seek table
    perl -e 'local $/; open(my $f, "<", $ARGV[0]) or die; binmode $f;
             my $d = <$f>; my $n = unpack("V", substr($d, -9, 4));
             my $t = length($d) - 9 - 12 * $n; my $at = 0;
             for my $k (0 .. $n - 1) {
                 my ($c, $u) = unpack("VV", substr($d, $t + 12 * $k, 8));
                 print "$at $u\n"; $at += $c;
             }' sc.zst > list
    [ "$(wc -l < list)" -ge 10 ]
    local k at j
    for k in 1 4; do
        at=$(sed -n "$((k + 1))p" list | cut -d' ' -f1)
        cp sc.zst bad.zst
        flip_byte bad.zst $((at + 5000))
        flip_byte bad.zst $(( $(sed -n "$((k + 3))p" list | cut -d' ' -f1) + 5000 ))
        head -c $((k * 2097152)) in.bin > want.out
        for j in 2 4 16; do
            run_to got.out err.txt sc-compact -d cpu -j $j --ge 0 bad.zst
            [ "$status" -eq 1 ]
            expect_same want.out got.out
            expect_one_line_error sc-compact err.txt
            grep -q "^sc-compact: bad.zst: corrupt zstd data near compressed byte $at: " err.txt ||
                { cat err.txt >&2; return 1; }
        done
    done
    random_damage sc.zst in.bin list 30
}
