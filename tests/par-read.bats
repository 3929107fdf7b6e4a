#!/usr/bin/env bats
# Compressed inputs read on every thread where they split (BGZF members,
# zstd frames with their content size, pzstd's frames) and as one stream where they do
# not: the same bytes whatever made the file, at any -j and -c, through a
# pipe too; faults reported after all that came before them, with the
# offset of the bad member or frame; -v says how each input was read.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact
    # Pieces of an odd size, so that elements straddle members and frames.
    gen_file in.bin 300007 5 0.7 --max 1000
}

need_cmd() {
    command -v "$1" > /dev/null || skip "the '$1' command is not installed"
}

have_zstd() {
    sc-gen -n 0 --zstd > /dev/null 2>&1
}

need_zstd() {
    have_zstd || skip "sc built without zstd (configure --without-zstd)"
    need_cmd zstd
}

# everything FILE: what sc-compact decodes FILE to, kept whole.
everything() {
    sc-compact --ge 0 "$@"
}

# same_everywhere FILE WANT: FILE decodes to WANT at every -j and -c, and
# through a pipe.
same_everywhere() {
    local j c
    for j in 1 2 16 64; do
        for c in 4K 64K 1M 64M; do
            everything -j $j -c $c "$1" > got.out ||
                { echo "# $1 -j $j -c $c failed" >&2; return 1; }
            cmp -s "$2" got.out ||
                { echo "# $1 -j $j -c $c: other bytes" >&2; return 1; }
        done
    done
    everything -j 16 -c 64K < "$1" > got.out
    expect_same "$2" got.out
}

# how FILE: -v's word for how FILE was read.
how() {
    sc-compact -v --count "$1" 2>&1 >/dev/null |
        sed -n "s/^sc-compact: input $1: \(.*\), [0-9.]* MiB decoded at [0-9]* MiB\/s$/\1/p"
}

# pieces N: in.bin cut into piece.* of N bytes.
pieces() {
    split -b "$1" in.bin piece.
}

@test "par-read: BGZF from bgzip and bgzip -@4 is read in parallel, the same bytes at every -j and -c" {
    need_cmd bgzip
    bgzip -c in.bin > a.gz
    bgzip -@4 -c in.bin > b.gz
    pieces 100003
    for p in piece.*; do bgzip -c "$p"; done > c.gz
    for f in a.gz b.gz c.gz; do
        same_everywhere $f in.bin
        [ "$(how $f)" = "parallel BGZF" ]
    done
}

@test "par-read: single-stream gzip (gzip, pigz, igzip, libdeflate-gzip) is read as one stream" {
    local engine=zlib tool
    grep -q '^#define SC_HAVE_ISAL\|-DSC_HAVE_ISAL' "$SC_BUILDDIR/Makefile" &&
        engine=ISA-L
    gzip -n -c in.bin > gzip.gz
    for tool in pigz igzip libdeflate-gzip; do
        command -v $tool > /dev/null && $tool -c in.bin > $tool.gz
    done
    for f in *.gz; do
        same_everywhere $f in.bin
        [ "$(how $f)" = "one stream ($engine)" ]
    done
}

@test "par-read: zstd frames with their sizes (zstd, zstd -T0, frames joined) in parallel; unsized frames as one stream" {
    need_zstd
    zstd -q -c in.bin > one.zst
    zstd -q -T0 -c in.bin > t0.zst
    pieces 100003
    for p in piece.*; do zstd -q -c "$p"; done > frames.zst
    for f in one.zst t0.zst frames.zst; do
        same_everywhere $f in.bin
        [ "$(how $f)" = "parallel zstd frames" ]
    done
    zstd -q -c < in.bin > unsized.zst
    same_everywhere unsized.zst in.bin
    [ "$(how unsized.zst)" = "one stream (libzstd)" ]
}

# pzstd_frames FILE: the offset of each of pzstd's headers in FILE (a
# skippable frame of four bytes: the compressed size of the frame after
# it), or of whatever else starts where a header was expected.
pzstd_frames() {
    perl -e 'local $/; open(my $f, "<", $ARGV[0]) or die; binmode $f;
             my $d = <$f>; my $at = 0;
             while ($at < length $d) {
                 my ($magic, $four, $size) = unpack("VVV", substr($d, $at, 12));
                 if ($magic != 0x184D2A50 || $four != 4) { print "other $at\n"; last }
                 print "$at\n"; $at += 12 + $size;
             }' "$1"
}

@test "par-read: pzstd's frames (no content size, a header with each one's compressed size) in parallel, the same bytes at every -j and -c" {
    need_zstd
    need_cmd pzstd
    gen_file big.bin 2500007 11 0.6 --max 100000
    pzstd -q -1 -p 2 -c big.bin > big.pz
    [ "$(pzstd_frames big.pz | wc -l)" -ge 4 ]
    ! pzstd_frames big.pz | grep -q other
    same_everywhere big.pz big.bin
    [ "$(how big.pz)" = "parallel zstd frames" ]
    # pzstd of pieces joined, then sc's own frames, then pzstd again
    pieces 100003
    for p in piece.*; do pzstd -q -p 1 -c "$p"; done > joined.pz
    same_everywhere joined.pz in.bin
    [ "$(how joined.pz)" = "parallel zstd frames" ]
    sc-compact --ge 0 --zstd in.bin > own.zst
    cat joined.pz own.zst joined.pz > mixed.zst
    cat in.bin in.bin in.bin > three.bin
    same_everywhere mixed.zst three.bin
    [ "$(how mixed.zst)" = "parallel zstd frames" ]
    # empty input: one header and an empty frame
    pzstd -q -c < /dev/null > empty.pz
    everything empty.pz > got.out
    [ ! -s got.out ]
    # rounds of empty frames alone, first, between and last
    { for i in $(seq 300); do cat empty.pz; done; cat big.pz empty.pz empty.pz big.pz empty.pz; } > empties.pz
    cat big.bin big.bin > two.bin
    same_everywhere empties.pz two.bin
}

@test "par-read: a pzstd header that does not give its frame's size is skipped, and the rest read as one stream" {
    need_zstd
    need_cmd pzstd
    pieces 400000
    for p in piece.*; do pzstd -q -p 1 -c "$p"; done > p.pz
    local second
    second=$(pzstd_frames p.pz | sed -n 2p)
    cp p.pz lie.pz
    flip_byte lie.pz $((second + 8))
    same_everywhere lie.pz in.bin
    [ "$(how lie.pz)" = "parallel zstd frames, then one stream (libzstd)" ]
}

@test "par-read: mixed streams: BGZF then gzip, gzip then BGZF, sized frames then unsized ones, several operands" {
    need_cmd bgzip
    bgzip -c in.bin > a.bgz
    gzip -n -c in.bin > b.gz
    cat in.bin in.bin > two.bin
    cat a.bgz b.gz > ab.gz
    cat b.gz a.bgz > ba.gz
    same_everywhere ab.gz two.bin
    [ "$(how ab.gz)" = "parallel BGZF, then one stream ($(how b.gz | sed 's/one stream (\(.*\))/\1/'))" ]
    same_everywhere ba.gz two.bin
    [[ "$(how ba.gz)" == "one stream ("* ]]
    # zeros after the members are padding, as gzip -d takes them
    { cat a.bgz; head -c 100 /dev/zero; } > padded.gz
    same_everywhere padded.gz in.bin
    cat in.bin in.bin in.bin > three.bin
    everything a.bgz in.bin b.gz > got.out
    expect_same three.bin got.out
    if have_zstd && command -v zstd > /dev/null; then
        zstd -q -c in.bin > s.zst
        zstd -q -c < in.bin > u.zst
        cat s.zst u.zst s.zst > mix.zst
        same_everywhere mix.zst three.bin
        [ "$(how mix.zst)" = "parallel zstd frames, then one stream (libzstd)" ]
        everything s.zst a.bgz in.bin > got.out
        expect_same three.bin got.out
    fi
}

@test "par-read: a corrupt BGZF member first, in the middle, last: what came before, then its offset, exit 1" {
    need_cmd bgzip
    bgzip -c in.bin > a.gz
    members a.gz > list
    local n k at j before
    n=$(wc -l < list)
    for k in 1 $((n / 2)) $((n - 1)); do
        at=$(sed -n "${k}p" list | cut -d' ' -f1)
        before=$(head -n $((k - 1)) list | awk '{ s += $2 } END { print s + 0 }')
        cp a.gz bad.gz
        flip_byte bad.gz $((at + 100))
        head -c "$before" in.bin > want.out
        for j in 1 2 16 64; do
            run_to got.out err.txt sc-compact -j $j --ge 0 bad.gz
            [ "$status" -eq 1 ] || { echo "# member $k -j $j: status $status" >&2; return 1; }
            expect_same want.out got.out
            expect_one_line_error sc-compact err.txt
            grep -q "^sc-compact: bad.gz: corrupt gzip data near compressed byte $at: " err.txt
        done
    done
    # a CRC-32 that does not match
    cp a.gz crc.gz
    flip_byte crc.gz $(( $(stat -c %s a.gz) - 28 - 8 ))
    run_to got.out err.txt sc-compact --ge 0 crc.gz
    [ "$status" -eq 1 ]
    grep -q "CRC-32 mismatch" err.txt
    # a size (ISIZE) that is not what the member decodes to, one larger
    # and one smaller: the message names it
    local last
    last=$(tail -n 1 list | cut -d' ' -f1)
    for k in 1 -1; do
        cp a.gz size.gz
        perl -e 'open(my $f, "+<", $ARGV[0]) or die; binmode $f;
                 seek($f, $ARGV[1], 0); read($f, my $v, 4);
                 seek($f, $ARGV[1], 0); print $f pack("V", unpack("V", $v) + $ARGV[2]);
                 close $f' size.gz $((last - 4)) $k
        for j in 1 16; do
            run_to got.out err.txt sc-compact -j $j --ge 0 size.gz
            [ "$status" -eq 1 ]
            expect_one_line_error sc-compact err.txt
            grep -q "invalid deflate data, or not of the size in its trailer (ISIZE)" err.txt
        done
    done
}

@test "par-read: a corrupt zstd frame in the middle: the frames before it, then its offset, exit 1" {
    need_zstd
    pieces 100000
    local at=0 p j
    for p in piece.aa piece.ab; do zstd -q -c $p >> bad.zst; done
    at=$(stat -c %s bad.zst)
    for p in piece.ac piece.ad; do zstd -q -c $p >> bad.zst; done
    flip_byte bad.zst $((at + 2000))
    head -c 200000 in.bin > want.out
    for j in 1 2 16 64; do
        run_to got.out err.txt sc-compact -j $j --ge 0 bad.zst
        [ "$status" -eq 1 ]
        expect_same want.out got.out
        expect_one_line_error sc-compact err.txt
        grep -q "^sc-compact: bad.zst: corrupt zstd data near compressed byte $at: " err.txt
    done
}

@test "par-read: a corrupt pzstd frame first, in the middle, last: the frames before it, then its header's offset, exit 1" {
    need_zstd
    need_cmd pzstd
    pieces 100000
    local p k at j
    for p in piece.*; do pzstd -q -p 1 -c "$p"; done > p.pz
    pzstd_frames p.pz > list
    ! grep -q other list
    local n
    n=$(wc -l < list)
    # the last frame holds the 28 bytes left over: the one before it
    for k in 1 $((n / 2)) $((n - 1)); do
        at=$(sed -n "${k}p" list)
        cp p.pz bad.pz
        flip_byte bad.pz $((at + 12 + 2000))
        head -c $(( (k - 1) * 100000 )) in.bin > want.out
        for j in 1 2 16 64; do
            run_to got.out err.txt sc-compact -j $j --ge 0 bad.pz
            [ "$status" -eq 1 ] || { echo "# frame $k -j $j: status $status" >&2; return 1; }
            expect_same want.out got.out
            expect_one_line_error sc-compact err.txt
            grep -q "^sc-compact: bad.pz: corrupt zstd data near compressed byte $at: " err.txt
        done
    done
}

@test "par-read: BGZF without its end-of-file block is read whole, then reported truncated, exit 1" {
    need_cmd bgzip
    bgzip -c in.bin > a.gz
    head -c $(( $(stat -c %s a.gz) - 28 )) a.gz > cut.gz
    run_to got.out err.txt sc-compact --ge 0 cut.gz
    [ "$status" -eq 1 ]
    expect_same in.bin got.out
    expect_one_line_error sc-compact err.txt
    grep -q "^sc-compact: cut.gz: truncated gzip data .*end-of-file block is missing" err.txt
}

@test "par-read: truncated at every 4 KiB: a prefix, exit 1, no hang, at -j 1 and 64" {
    need_cmd bgzip
    head -c 200000 in.bin > small.bin
    bgzip -c small.bin > s.gz
    local files=s.gz f size k j
    if have_zstd && command -v zstd > /dev/null; then
        split -b 50000 small.bin sp.
        for f in sp.*; do zstd -q -c $f; done > s.zst
        files="s.gz s.zst"
        if command -v pzstd > /dev/null; then
            for f in sp.*; do pzstd -q -p 1 -c $f; done > s.pz
            files="$files s.pz"
        fi
    fi
    for f in $files; do
        size=$(stat -c %s $f)
        for ((k = 1; k < size; k += 4096)); do
            head -c $k $f > cut
            for j in 1 64; do
                run_to got.out err.txt timeout 20 sc-compact -j $j -c 4K --ge 0 cut
                [ "$status" -eq 1 ] || { echo "# $f cut at $k -j $j: status $status" >&2; return 1; }
                expect_prefix got.out small.bin
                expect_one_line_error sc-compact err.txt
            done
        done
    done
}
