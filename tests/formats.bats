#!/usr/bin/env bats
# Input formats under --in auto (gzip and zstd read; xz, bzip2, lz4 and
# text, compressed or CSV too, refused with what to do), compressed text
# under --in text, zstd in and out, --level, and binary output refused on
# a terminal.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort
    gen_file in.bin 300007 11 0.5
    ref compact < in.bin > want.out
}

# have_zstd: this sc was built with libzstd.
have_zstd() {
    sc-gen -n 0 --zstd > /dev/null 2>&1
}

need_zstd() {
    have_zstd || skip "sc built without zstd (configure --without-zstd)"
    need_cmd zstd
}

# need_cmd PROG: skip loudly when a command the test needs is missing.
need_cmd() {
    command -v "$1" > /dev/null || skip "the '$1' command is not installed"
}

# ------------------------------------------------------ zstd input

@test "formats: zstd input (auto, --in zst, stdin, pipe) equals raw input" {
    need_zstd
    zstd -q -c in.bin > in.zst
    sc-compact in.zst > got.out
    expect_same want.out got.out
    sc-compact --in zst in.zst > got.out
    expect_same want.out got.out
    sc-compact < in.zst > got.out
    expect_same want.out got.out
    cat in.zst | sc-compact -c 4K > got.out
    expect_same want.out got.out
    cat in.zst | sc-compact --in zstd > got.out
    expect_same want.out got.out
}

@test "formats: multi-frame zstd is one stream, skippable frames skipped" {
    need_zstd
    gen_file b.bin 70001 12 0.5
    zstd -q -c in.bin > a.zst
    zstd -q -c b.bin > b.zst
    : | zstd -q -c > e.zst
    # a skippable frame: magic 0x184D2A53, 4 bytes of payload
    printf '\123\052\115\030\004\000\000\000skip' > skip.bin
    cat skip.bin a.zst e.zst skip.bin b.zst skip.bin > ab.zst
    cat in.bin b.bin | ref compact > want2.out
    sc-compact ab.zst > got.out
    expect_same want2.out got.out
    cat ab.zst | sc-compact --in zst -c 4K > got.out
    expect_same want2.out got.out
    # zstd and raw files given together, each judged on its own
    sc-compact a.zst b.bin > got.out
    expect_same want2.out got.out
}

@test "formats: truncated zstd: what was decoded is written, one-line error, exit 1" {
    need_zstd
    zstd -q -c in.bin > in.zst
    head -c $(( $(stat -c %s in.zst) - 7 )) in.zst > cut.zst
    run --separate-stderr sc-compact -o got.out cut.zst
    expect_status 1
    [[ "$stderr" == "sc-compact: cut.zst: truncated zstd data"*"compressed bytes)" ]]
    [ ! -e got.out ]
    sc-compact cut.zst > got.out 2> err || true
    expect_one_line_error sc-compact err
    expect_prefix got.out want.out
    [ "$(stat -c %s got.out)" -gt 0 ]
    # a frame cut inside its header
    head -c 3 in.zst > tiny.zst
    run sc-compact --in zst tiny.zst
    expect_status 1
    [[ "$output" == *"truncated zstd data"* ]]
}

@test "formats: a zstd stream's fault: every block before it is written, the same at every chunk size" {
    need_zstd
    # a frame without its size (zstd of a pipe) is decoded as one stream
    cat in.bin | zstd -q --check -c > in.zst
    local size c
    size=$(stat -c %s in.zst)
    # a checksum that does not match: all of the data, then the fault
    cp in.zst sum.zst
    flip_byte sum.zst $((size - 2))
    for c in 4K 64K 1M 4M; do
        run_to got.out err.txt sc-compact --ge 0 -c $c sum.zst
        expect_status 1
        expect_one_line_error sc-compact err.txt
        grep -q "^sc-compact: sum.zst: corrupt zstd data near compressed byte $((size - 4)): " err.txt
        expect_same in.bin got.out
        cat sum.zst | sc-scan -c $c --total > got.txt 2> err.txt || true
        [ "$(cat got.txt)" = "$(ref scan --total < in.bin)" ]
    done
    # bytes changed halfway (caught as corrupt data or by the checksum):
    # what is written and said is the same whatever -c
    cp in.zst bad.zst
    set_byte bad.zst $((size / 2)) 0
    set_byte bad.zst $((size / 2 + 1)) 255
    sc-compact --ge 0 -c 4K bad.zst > want.bad 2> want.err || true
    [ "$(stat -c %s want.bad)" -gt 0 ]
    for c in 8K 64K 1M 4M; do
        run_to got.out err.txt sc-compact --ge 0 -c $c bad.zst
        expect_status 1
        expect_same want.bad got.out
        cmp want.err err.txt
        cat bad.zst | sc-compact --ge 0 -c $c > got.out 2> /dev/null || true
        expect_same want.bad got.out
    done
}

@test "formats: truncated zstd: sc-rsort sorts and sc-stat reports what was decoded, exit 1" {
    need_zstd
    zstd -q -c in.bin > in.zst
    head -c 300000 in.zst > cut.zst
    zstd -q -d -c cut.zst > part.bin 2> /dev/null || true
    local n=$(( $(stat -c %s part.bin) / 4 ))
    [ "$n" -gt 0 ]
    head -c $((n * 4)) part.bin | ref sort > want.sorted
    run_to got.sorted err sc-rsort cut.zst
    expect_status 1
    expect_one_line_error sc-rsort err
    grep -q "^sc-rsort: cut.zst: truncated zstd data" err
    expect_same want.sorted got.sorted
    run_to got.stat err sc-stat cut.zst
    expect_status 1
    expect_one_line_error sc-stat err
    [ "$(head -n 1 got.stat)" = "count $n" ]
    run_to got.tail err sc-stat --tail 1 cut.zst
    expect_status 1
    [ "$(cat got.tail)" = "$(head -c $((n * 4)) part.bin | tail -c 4 | od -An -tu4 | tr -d ' ')" ]
}

@test "formats: corrupt zstd frame: the frames before it are written, error names the byte, exit 1" {
    need_zstd
    gen_file b.bin 70001 12 0.5
    zstd -q -c in.bin > a.zst
    zstd -q -c b.bin > b.zst
    cp b.zst bad.zst
    # damage the second frame's data (its checksum will not match)
    printf '\377\377\377\377\377\377\377\377' |
        dd of=bad.zst bs=1 seek=2000 conv=notrunc 2> /dev/null
    cat a.zst bad.zst > ab.zst
    sc-compact ab.zst > got.out 2> err && return 1
    expect_one_line_error sc-compact err
    grep -q "^sc-compact: ab.zst: corrupt zstd data near compressed byte [0-9]*: " err
    expect_prefix want.out got.out
    # garbage after the last frame
    { cat a.zst; printf 'garbage!'; } > g.zst
    run sc-compact g.zst
    expect_status 1
    [[ "$output" == *"g.zst: corrupt zstd data near compressed byte $(stat -c %s a.zst): "* ]]
}

@test "formats: a corrupt zstd frame after good ones: what came before goes out in every form, as after gzip" {
    need_zstd
    gen_file in.bin 100003 42 0.7 --min 0 --max 100000
    zstd -q -c in.bin > good.zst
    printf 'not a frame' > junk
    cat good.zst junk > bad.zst
    local o
    for o in "" -z --zstd -t; do
        run_to got.out err.txt sc-compact $o bad.zst
        [ "$status" -eq 1 ] || { echo "# sc-compact $o: status $status" >&2; return 1; }
        expect_one_line_error sc-compact err.txt
        sc-compact $o in.bin > want.out
        cmp want.out got.out || { echo "# sc-compact $o: output differs" >&2; return 1; }
    done
    # split's rejects held in memory, and the figures.
    run_to got.out err.txt sc-split bad.zst
    [ "$status" -eq 1 ]
    sc-split in.bin | cmp - got.out
    local args
    for args in "sc-compact --count" "sc-split --count" "sc-scan --total" \
                "sc-scan --offsets -t" "sc-split --ranges 50000 --count"; do
        run_to got.out err.txt $args bad.zst
        [ "$status" -eq 1 ] || { echo "# $args: status $status" >&2; return 1; }
        $args in.bin | cmp - got.out || { echo "# $args: $(tail -c 80 got.out)" >&2; return 1; }
    done
}

@test "formats: --in zst on data that is not zstd is an error, exit 1" {
    need_zstd
    run sc-compact --in zst in.bin
    expect_status 1
    [ "$output" = "sc-compact: in.bin: not in zstd format (no zstd magic number at byte 0)" ]
    # A skippable frame first is zstd all the same.
    { printf '\x50\x2a\x4d\x18\x04\x00\x00\x00skip'; zstd -q -c in.bin; } > skip.zst
    sc-compact --in zst skip.zst | cmp - <(sc-compact in.bin)
}

@test "formats: empty zstd input, and --in zst on an empty file: empty output, exit 0" {
    need_zstd
    : > empty
    run sc-compact --in zst empty
    expect_status 0
    [ -z "$output" ]
    : | zstd -q -c > e.zst
    sc-compact e.zst > got.out
    [ ! -s got.out ]
    sc-compact --count e.zst > got.out
    [ "$(cat got.out)" = 0 ]
}

# ------------------------------------------------------ zstd output

@test "formats: --zstd output: zstd -d gives the raw bytes, every tool" {
    need_zstd
    sc-compact --zstd in.bin | zstd -dc > got.out
    expect_same want.out got.out
    ref scan < in.bin > want.scan
    sc-scan --zstd in.bin | zstd -dc > got.out
    expect_same want.scan got.out
    ref sort < in.bin > want.sort
    sc-rsort --zstd in.bin | zstd -dc > got.out
    expect_same want.sort got.out
    ref split < in.bin > want.split
    sc-split --zstd in.bin | zstd -dc > got.out
    expect_same want.split got.out
    sc-gen -n 1000 -s 3 > g.bin
    sc-gen -n 1000 -s 3 --zstd | zstd -dc > got.out
    expect_same g.bin got.out
    # and our own reader reads it back
    sc-compact --zstd in.bin > out.zst
    sc-compact out.zst > got.out
    ref compact < want.out > want2.out
    expect_same want2.out got.out
}

@test "formats: sc-split -r with --zstd: the rejects file is zstd too" {
    need_zstd
    ref compact --invert < in.bin > want.rej
    sc-split --zstd -r rej.zst in.bin > sel.zst
    zstd -dc sel.zst > got.out
    expect_same want.out got.out
    zstd -dc rej.zst > got.rej
    expect_same want.rej got.rej
}

@test "formats: --zstd with no output data is an empty zstd frame" {
    need_zstd
    sc-gen -n 0 --zstd > e.zst
    [ -s e.zst ]
    zstd -t -q e.zst
    [ -z "$(zstd -dc e.zst)" ]
    sc-compact --zstd --eq 7 --range 8:9 in.bin > e2.zst
    [ -z "$(zstd -dc e2.zst)" ]
}

@test "formats: --zstd bytes do not depend on -j or -c; --level changes them" {
    need_zstd
    sc-gen -n 2000000 -s 4 -p 0.3 --max 1000 --zstd -j 1 > j1.zst
    sc-gen -n 2000000 -s 4 -p 0.3 --max 1000 --zstd -j 3 -c 4K > j3.zst
    sc-gen -n 2000000 -s 4 -p 0.3 --max 1000 --zstd -j 2 -c 1M > j2.zst
    cmp j1.zst j3.zst
    cmp j1.zst j2.zst
    sc-gen -n 2000000 -s 4 -p 0.3 --max 1000 --zstd --level 3 > l3.zst
    cmp j1.zst l3.zst
    sc-gen -n 2000000 -s 4 -p 0.3 --max 1000 --zstd --level 1 > l1.zst
    sc-gen -n 2000000 -s 4 -p 0.3 --max 1000 --level 19 --zstd > l19.zst
    files_differ l1.zst l19.zst
    [ "$(stat -c %s l19.zst)" -lt "$(stat -c %s l1.zst)" ]
    zstd -dc l1.zst | cmp - <(zstd -dc l19.zst)
}

@test "formats: --count and --total with --zstd are plain text" {
    need_zstd
    [ "$(sc-compact --zstd --count in.bin)" = "$(ref compact --count < in.bin)" ]
    [ "$(sc-scan --zstd --total in.bin)" = "$(ref scan --total < in.bin)" ]
}

# ------------------------------------------------------ levels and usage

@test "formats: --level: with -z 1-9, with --zstd 1-19, alone a usage error" {
    for t in sc-compact sc-split sc-scan sc-rsort; do
        run $t --level 3 in.bin
        expect_usage $t
        [[ "$output" == "$t: --level goes with -z (--gzip) or --zstd"* ]]
        run $t --level 3 -t in.bin
        expect_usage $t
        run $t -z --level 10 in.bin
        expect_usage $t
        run $t --level 0 -z in.bin
        expect_usage $t
    done
    run sc-gen -n 4 --level 5
    expect_usage sc-gen
    run sc-gen -n 4 --level 20 --zstd
    expect_usage sc-gen
    run sc-gen -n 4 -z --zstd
    expect_usage sc-gen
    run sc-gen -n 4 --zstd -t
    expect_usage sc-gen
    # --level before the format is fine
    sc-gen -n 4 --level 9 -z | gzip -dc > /dev/null
    if have_zstd && command -v zstd > /dev/null; then
        sc-gen -n 4 --level 19 --zstd | zstd -dc > /dev/null
    fi
}

@test "formats: a --level out of range names the format's range" {
    run sc-rsort -z --level 0 in.bin
    expect_usage sc-rsort
    [[ "$output" == "sc-rsort: --level for gzip must be 1 to 9 (got '0')"* ]]
    run sc-gen -n 4 --level 10 -z
    expect_usage sc-gen
    [[ "$output" == "sc-gen: --level for gzip must be 1 to 9 (got '10')"* ]]
    if have_zstd; then
        run sc-compact --zstd --level 0 in.bin
        expect_usage sc-compact
        [[ "$output" == "sc-compact: --level for zstd must be 1 to 19 (got '0')"* ]]
    fi
}

@test "formats: --in takes zst and zstd, lists them when wrong" {
    run sc-compact --in lzma in.bin
    expect_usage sc-compact
    [[ "$output" == *"(auto, raw, gz, zst, text)"* ]]
}

@test "formats: a build without zstd refuses --zstd and --in zst as usage errors" {
    have_zstd && skip "sc built with zstd (configure --without-zstd to run this)"
    run sc-gen -n 4 --zstd
    expect_usage sc-gen
    [[ "$output" == "sc-gen: --zstd: this sc was built without zstd support"* ]]
    run sc-compact --in zst in.bin
    expect_usage sc-compact
}

# ------------------------------------------------------ --in auto: refused formats

# refused FMT CMD FILE: FILE made by CMD is refused under auto by every
# streaming tool and sc-rsort, naming FMT and the command; nothing written.
refused() {
    local fmt=$1 cmd=$2 f=$3 t
    for t in sc-compact sc-split sc-scan sc-rsort; do
        echo old > out.bin
        run --separate-stderr $t -o out.bin "$f"
        expect_status 1
        [ "$stderr" = "$t: $f: $fmt-compressed input; decompress it first: $cmd -dc $f | $t ..." ] ||
            { echo "# $stderr" >&2; return 1; }
        [ "$(cat out.bin)" = old ]
        [ -z "$output" ]
        # from a pipe: named as standard input
        run --separate-stderr bash -c "cat $f | $t"
        expect_status 1
        [ "$stderr" = "$t: (standard input): $fmt-compressed input; decompress it first: $cmd -dc | $t ..." ] ||
            { echo "# $stderr" >&2; return 1; }
        [ -z "$output" ]
    done
    # a refused file after a good one: nothing written at all
    run --separate-stderr sc-compact in.bin "$f"
    expect_status 1
    [ -z "$output" ]
    # --in raw takes the bytes as they are
    run sc-compact --in raw --count "$f"
    [ "$status" -le 1 ]
    [[ "$output" != *compressed* ]]
}

@test "formats: xz input is refused with the command to use, exit 1" {
    need_cmd xz
    xz -c in.bin > in.xz
    refused xz xz in.xz
}

@test "formats: bzip2 input is refused with the command to use, exit 1" {
    need_cmd bzip2
    bzip2 -c in.bin > in.bz2
    refused bzip2 bzip2 in.bz2
}

@test "formats: lz4 input is refused with the command to use, exit 1" {
    need_cmd lz4
    lz4 -q -c in.bin > in.lz4
    refused lz4 lz4 in.lz4
}

@test "formats: zstd input in a build without zstd is refused with the command to use" {
    have_zstd && skip "sc built with zstd (configure --without-zstd to run this)"
    printf '\050\265\057\375\000\000\000\000' > in.zst
    run sc-compact in.zst
    expect_status 1
    [[ "$output" == *"zstd-compressed input (this sc was built without zstd); decompress it first: zstd -dc in.zst | sc-compact ..." ]]
}

# ------------------------------------------------------ --in auto: text

@test "formats: text under auto is refused, suggesting --in text or --in raw" {
    printf '1 2 3 4\n' > t.txt
    for t in sc-compact sc-split sc-scan sc-rsort; do
        run --separate-stderr $t t.txt
        expect_status 1
        [ "$stderr" = "$t: t.txt: the input looks like text, not binary elements; use --in text to read its numbers (or --in raw to take its bytes as elements)" ]
        [ -z "$output" ]
        run --separate-stderr bash -c "printf '1 2 3 4\n' | $t"
        expect_status 1
        [[ "$stderr" == "$t: (standard input): the input looks like text"* ]]
    done
    [ "$(sc-rsort -t --in text t.txt | tr '\n' ' ')" = "1 2 3 4 " ]
    # --in raw: the 8 bytes are two elements
    [ "$(sc-compact --in raw --count t.txt)" = 2 ]
}

@test "formats: text detection: hex, tabs, CRLF, a first line longer than a block" {
    printf '0x1F\t0xab 17\r\n' > hex.txt
    run sc-compact hex.txt
    expect_status 1
    [[ "$output" == *"looks like text"* ]]
    # a first line longer than the 4 KiB block: a whole block of numbers
    { for i in $(seq 1000 3000); do printf '%d ' $i; done; echo; } > long.txt
    run sc-compact long.txt
    expect_status 1
    [[ "$output" == *"looks like text"* ]]
    seq 1 100000 > big.txt
    run sc-compact -c 4K big.txt
    expect_status 1
    [[ "$output" == *"looks like text"* ]]
    # in a pipe, too, however it arrives
    run bash -c '{ printf "12"; sleep 0.2; printf " 3\n4"; } | sc-compact'
    expect_status 1
    [[ "$output" == *"looks like text"* ]]
}

@test "formats: raw data that is not text: no newline, other bytes, a bad token" {
    # digits and spaces but no newline: raw (two elements)
    printf '1234 678' > nonl.bin
    [ "$(sc-compact --count nonl.bin)" = 2 ]
    # a letter that no number has
    printf '12 4\n7z9' > letter.bin
    [ "$(sc-compact --count letter.bin)" = 2 ]
    # hex digits without 0x are not a number of --in text
    printf 'ab 1\ncd9' > hexnox.bin
    [ "$(sc-compact --count hexnox.bin)" = 2 ]
    # a text-like start and binary later within the first block
    { printf '1 2\n'; u32le 0xffffffff 0 7; } > mixed.bin
    [ "$(sc-compact --count mixed.bin)" = 3 ]
    # a whole block of digits without white space: raw
    head -c 8192 /dev/zero | tr '\0' 7 > sevens.bin
    [ "$(sc-compact --count sevens.bin)" = 2048 ]
    # text-like bytes past the first block do not matter
    { u32le 0xffffffff; head -c 8188 /dev/zero; printf '1 2\n'; } > late.bin
    [ "$(sc-compact --count late.bin)" = 2 ]
}

@test "formats: short inputs: fewer bytes than a magic, a bare magic, one element" {
    u32le 7 > one.bin
    [ "$(sc-compact --count one.bin)" = 1 ]
    printf '\001\002' > two.bin
    run sc-compact two.bin
    expect_status 1
    [[ "$output" == *"2 stray bytes"* ]]
    # the xz magic cut short: raw, one element
    printf '\3757zX' > xzish.bin
    run sc-compact --count xzish.bin
    expect_status 0
    [ "$output" = 1 ]
    printf 'BZh' > bzish.bin
    run sc-compact bzish.bin
    expect_status 1
    [[ "$output" == *"stray bytes"* ]]
    # a lone newline is text; empty input is empty output
    printf '\n' > nl.txt
    run sc-compact nl.txt
    expect_status 1
    [[ "$output" == *"looks like text"* ]]
    run sc-compact < /dev/null
    expect_status 0
    [ -z "$output" ]
}

@test "formats: CSV under auto is refused with the tr command that makes it text" {
    printf '5,3,1\n2;4;9\n' > t.csv
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        echo old > out.bin
        run --separate-stderr $t -o out.bin t.csv
        expect_status 1
        [ "$stderr" = "$t: t.csv: the input looks like text of numbers separated by commas or semicolons, not binary elements; --in text reads numbers separated by white space: tr ',;' '\n\n' < t.csv | $t --in text ..." ] ||
            { echo "# $stderr" >&2; return 1; }
        [ "$(cat out.bin)" = old ]
        run --separate-stderr bash -c "cat t.csv | $t"
        expect_status 1
        [ "$stderr" = "$t: (standard input): the input looks like text of numbers separated by commas or semicolons, not binary elements; --in text reads numbers separated by white space: ... | tr ',;' '\n\n' | $t --in text ..." ] ||
            { echo "# $stderr" >&2; return 1; }
        [ -z "$output" ]
    done
    # the command the message gives works
    [ "$(tr ',;' '\n\n' < t.csv | sc-rsort --in text -t | xargs)" = "1 2 3 4 5 9" ]
    # --in text on CSV says the same
    run --separate-stderr sc-rsort --in text t.csv
    expect_status 1
    [ "$stderr" = "sc-rsort: t.csv: line 1: malformed number '5,3,1' (numbers are separated by white space: tr ',;' '\n\n' makes CSV so)" ]
    # spaces after the commas, and a first line longer than a block
    printf '1, 2, 0x3\r\n' > spaced.csv
    run sc-compact spaced.csv
    expect_status 1
    [[ "$output" == *"separated by commas or semicolons"* ]]
    seq 1 3000 | paste -sd, > long.csv
    run sc-compact long.csv
    expect_status 1
    [[ "$output" == *"separated by commas or semicolons"* ]]
    # commas alone, without a newline and shorter than a block: raw
    printf '12,4' > short.bin
    [ "$(sc-compact --count short.bin)" = 1 ]
}

# packed_text CMD EXT: text compressed by CMD is refused under auto (file,
# pipe, after a good file: nothing written) and read by --in text.
packed_text() {
    local cmd=$1 ext=$2 fmt=$3 t
    seq 3 -1 1 > t.txt
    seq 100000 -7 1 >> t.txt
    $cmd -c t.txt > t.$ext
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        echo old > out.bin
        run --separate-stderr $t -o out.bin t.$ext
        expect_status 1
        [ "$stderr" = "$t: t.$ext: the input is $cmd-compressed text, not binary elements; use --in text to read its numbers (or --in $fmt to take its bytes as elements)" ] ||
            { echo "# $stderr" >&2; return 1; }
        [ "$(cat out.bin)" = old ]
        run --separate-stderr bash -c "cat t.$ext | $t"
        expect_status 1
        [ "$stderr" = "$t: (standard input): the input is $cmd-compressed text, not binary elements; use --in text to read its numbers (or --in $fmt to take its bytes as elements)" ] ||
            { echo "# $stderr" >&2; return 1; }
        [ -z "$output" ]
    done
    # a refused file after a good one: nothing written at all
    run --separate-stderr sc-compact in.bin t.$ext
    expect_status 1
    [ -z "$output" ]
    # --in text reads it: file, pipe, joined with plain text
    sc-rsort --in text t.txt > want.bin
    sc-rsort --in text t.$ext > got.bin
    expect_same want.bin got.bin
    cat t.$ext | sc-rsort --in text -c 4K > got.bin
    expect_same want.bin got.bin
    printf '7 8\n' > more.txt
    [ "$(sc-compact --in text more.txt t.$ext more.txt --count)" = $(( $(wc -l < t.txt) + 4 )) ]
    # compressed CSV: decompress, then tr
    printf '5,3\n1,2\n' | $cmd -c > c.$ext
    run --separate-stderr sc-rsort c.$ext
    expect_status 1
    [ "$stderr" = "sc-rsort: c.$ext: the input is $cmd-compressed text of numbers separated by commas or semicolons, not binary elements; --in text reads numbers separated by white space: $cmd -dc c.$ext | tr ',;' '\n\n' | sc-rsort --in text ..." ] ||
        { echo "# $stderr" >&2; return 1; }
    [ "$($cmd -dc c.$ext | tr ',;' '\n\n' | sc-rsort --in text -t | xargs)" = "1 2 3 5" ]
    # raw elements that start like text are raw, compressed too
    { printf '1 2\n'; u32le 0xffffffff 0 7; } | $cmd -c > mixed.$ext
    [ "$(sc-compact --count mixed.$ext)" = 3 ]
    # truncated compressed text: the numbers before the cut, then an error
    head -c 300 t.$ext > cut.$ext
    run --separate-stderr sc-compact --in text --count cut.$ext
    expect_status 1
    [[ "$stderr" == *"truncated $cmd data"* ]]
}

@test "formats: gzip-compressed text: refused under auto, read by --in text" {
    packed_text gzip gz gz
}

@test "formats: zstd-compressed text: refused under auto, read by --in text" {
    need_zstd
    packed_text zstd zst zst
}

@test "formats: --in text names xz input and the command to use" {
    need_cmd xz
    seq 1 10 | xz -c > t.xz
    run --separate-stderr sc-compact --in text t.xz
    expect_status 1
    [ "$stderr" = "sc-compact: t.xz: xz-compressed input; decompress it first: xz -dc t.xz | sc-compact ..." ]
    run --separate-stderr bash -c "cat t.xz | sc-compact --in text"
    expect_status 1
    [ "$stderr" = "sc-compact: (standard input): xz-compressed input; decompress it first: xz -dc | sc-compact ..." ]
}

@test "formats: --help says what --in auto refuses and that --in text reads compressed text" {
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        run $t --help
        expect_status 0
        [[ "$output" == *"by the first bytes; text, CSV, xz, bzip2 and"*"lz4 are refused, naming what to run"* ]]
        [[ "$output" == *"text (numbers, plain or gzip- or"*"zstd-compressed)"* ]]
    done
}

@test "formats: zstd with a 2 GiB window (zstd --long=31) is read" {
    need_zstd
    # from a pipe zstd knows no size, so the frame keeps the whole window
    cat in.bin | zstd -q --long=31 -c > long.zst
    zstd -q -c in.bin > in.zst
    # zstd -d itself refuses this window without --long=31 or --memory
    run zstd -q -dc long.zst
    [ "$status" -ne 0 ]
    sc-compact long.zst > got.out
    expect_same want.out got.out
    cat long.zst | sc-compact --in zst > got.out
    expect_same want.out got.out
    # short of memory for the window: said so, not called corrupt (not
    # under a sanitizer, whose shadow memory needs more address space)
    [[ "${SC_CC_FLAGS:-}" != *sanitize* ]] || return 0
    run --separate-stderr bash -c 'ulimit -v 1500000
        sc-compact -d cpu -j 2 in.zst > /dev/null &&
        sc-compact -d cpu -j 2 long.zst > /dev/null'
    expect_status 1
    [ "$stderr" = "sc-compact: long.zst: not enough memory for the window of the zstd frame near compressed byte 0 (zstd --long frames take up to 2 GiB)" ] ||
        { echo "# $stderr" >&2; return 1; }
}

@test "formats: detection is per file: gzip, zstd and raw files given together" {
    gen_file b.bin 70001 12 0.5
    gzip -c b.bin > b.gz
    cat in.bin b.bin in.bin | ref compact > want3.out
    if have_zstd && command -v zstd > /dev/null; then
        zstd -q -c in.bin > a.zst
        sc-compact a.zst b.gz - < in.bin > got.out
    else
        sc-compact in.bin b.gz - < in.bin > got.out
    fi
    expect_same want3.out got.out
}

@test "formats: -P shows no percent for a zstd input found by auto-detection" {
    need_zstd
    zstd -q -c in.bin > in.zst
    run --separate-stderr sc-compact -P in.zst -o /dev/null
    expect_status 0
    [[ "$stderr" != *%* ]]
}

# ------------------------------------------------------ terminals

# on_tty CMD: runs CMD with standard output on a pseudo-terminal; its
# standard error goes to err, its status to status.
on_tty() {
    need_cmd script
    script -qec "$1 2> err" /dev/null > tty.out < /dev/null && status=0 || status=$?
}

@test "formats: binary output to a terminal is refused; -t, -f, --count are fine" {
    for args in "sc-gen -n 4" "sc-gen -n 4 -z" "sc-compact in.bin" \
                "sc-split in.bin" "sc-scan in.bin" "sc-rsort in.bin"; do
        on_tty "$args"
        [ "$status" -eq 1 ] || { echo "# $args: status $status" >&2; return 1; }
        expect_one_line_error "${args%% *}" err
        grep -q ": refusing to write binary data to a terminal; use -t for text, or -f to force$" err
        [ ! -s tty.out ]
    done
    if have_zstd; then
        on_tty "sc-gen -n 4 --zstd"
        [ "$status" -eq 1 ]
    fi
    on_tty "sc-gen -n 4 -t"
    [ "$status" -eq 0 ]
    grep -q 3073443141 tty.out
    on_tty "sc-gen -n 4 -f"
    [ "$status" -eq 0 ]
    [ -s tty.out ]
    on_tty "sc-gen -n 4 --force -z"
    [ "$status" -eq 0 ]
    on_tty "sc-compact --count -z in.bin"
    [ "$status" -eq 0 ]
    on_tty "sc-split --count in.bin"
    [ "$status" -eq 0 ]
    on_tty "sc-scan --total in.bin"
    [ "$status" -eq 0 ]
    # sc-stat's report and ends are text; its --bincount counts are not
    on_tty "sc-stat in.bin"
    [ "$status" -eq 0 ]
    grep -q '^count ' tty.out
    on_tty "sc-stat --tail 2 in.bin"
    [ "$status" -eq 0 ]
    sc-gen -n 100 --max 9 > small.bin
    on_tty "sc-stat --bincount small.bin"
    [ "$status" -eq 1 ]
    grep -q ": refusing to write binary data to a terminal" err
    on_tty "sc-stat --bincount -t small.bin"
    [ "$status" -eq 0 ]
    # -o to a file while standard output is a terminal: fine
    on_tty "sc-compact -o got.out in.bin"
    [ "$status" -eq 0 ]
    expect_same want.out got.out
}

@test "formats: -o /dev/tty and sc-split -r /dev/tty are terminals too" {
    on_tty "sc-compact -o /dev/tty in.bin"
    [ "$status" -eq 1 ]
    grep -q "refusing to write binary data to a terminal" err
    on_tty "sc-split -r /dev/tty -o sel.bin in.bin"
    [ "$status" -eq 1 ]
    [ ! -e sel.bin ]
}

@test "formats: a named pipe as input is opened once, after the regular files are judged" {
    # Looking at a FIFO's first bytes before reading would open it twice:
    # the writer could be cut off (SIGPIPE) or wait for a second opening.
    mkfifo fifo
    gen_file b.bin 70001 12 0.5
    cat in.bin b.bin | ref compact > want2.out
    for i in 1 2 3; do
        { cat b.bin > fifo; } &
        timeout 20 sc-compact in.bin fifo > got.out
        wait
        expect_same want2.out got.out
    done
}

# ------------------------------------------------------- inputs looked at once

# opens_of FILE CMD...: how many times CMD opens FILE (strace).
opens_of() {
    local f=$1
    shift
    strace -f -e trace=open,openat -o trace.txt "$@" >/dev/null 2>&1
    grep -c "\"$f\"" trace.txt || true
}

@test "formats: each regular input is opened once, from its check to its read" {
    command -v strace >/dev/null || skip "no strace here"
    strace -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
    gen_file in.bin 70000 5
    gzip -c in.bin > in.gz
    for t in "sc-compact -o out" "sc-rsort -o out" "sc-scan -o out" "sc-stat"; do
        for f in in.bin in.gz; do
            n=$(opens_of "$T/$f" $t -d cpu "$T/$f")
            [ "$n" -eq 1 ] || { echo "# $t $f: opened $n times" >&2; return 1; }
        done
    done
    # Two inputs: each once.
    n=$(opens_of "$T/in.bin" sc-compact -d cpu -o out "$T/in.bin" "$T/in.bin")
    [ "$n" -eq 2 ]
}
