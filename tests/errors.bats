#!/usr/bin/env bats
# SPEC "Exit status and errors", for every tool where it applies.

load test_helper

STREAMING="sc-compact sc-split sc-scan"
READERS="sc-compact sc-split sc-scan sc-rsort"
ALL="sc-gen sc-compact sc-split sc-scan sc-rsort"

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort
}

# refsub TOOL: the sc-ref subcommand that does what TOOL does.
refsub() {
    case $1 in
    sc-compact) echo compact ;;
    sc-split) echo split ;;
    sc-scan) echo scan ;;
    sc-rsort) echo sort ;;
    esac
}

# data: 100003 elements with some structure (small values so that sort
# and scan outputs are interesting).
make_data() {
    gen_file in.bin 100003 42 0.7 --min 0 --max 100000
}

# ---------------------------------------------------------------- stray bytes

@test "errors: 4n+3 bytes: whole elements processed and written, then one-line error, exit 1" {
    make_data
    cat in.bin > odd.bin
    printf '\001\002\003' >> odd.bin
    local t
    for t in $READERS; do
        ref $(refsub $t) < in.bin > want.out
        run_to got.out err.txt $t odd.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_same want.out got.out || { echo "# $t" >&2; return 1; }
        expect_one_line_error $t err.txt
        grep -q -i 'byte' err.txt || { echo "# $t: message does not name the stray bytes: $(cat err.txt)" >&2; return 1; }
        grep -q '3' err.txt || { echo "# $t: message does not say 3 bytes: $(cat err.txt)" >&2; return 1; }
        # the same through a pipe
        run_to got.out err.txt $t < odd.bin
        [ "$status" -eq 1 ]
        expect_same want.out got.out
        expect_one_line_error $t err.txt
    done
}

@test "errors: stray bytes with --count / --total still print the figure of the whole elements" {
    make_data
    cat in.bin > odd.bin
    printf '\001' >> odd.bin
    run_to got.out err.txt sc-compact --count odd.bin
    [ "$status" -eq 1 ]
    ref compact --count < in.bin > want.out
    expect_same want.out got.out
    run_to got.out err.txt sc-split --count odd.bin
    [ "$status" -eq 1 ]
    ref split --count < in.bin > want.out
    expect_same want.out got.out
    run_to got.out err.txt sc-scan --total odd.bin
    [ "$status" -eq 1 ]
    ref scan --total < in.bin > want.out
    expect_same want.out got.out
    expect_one_line_error sc-scan err.txt
}

@test "errors: 1 or 2 stray bytes alone: empty output, error, exit 1" {
    local t
    for t in $READERS; do
        printf '\001\002' > two.bin
        run_to got.out err.txt $t two.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        [ ! -s got.out ]
        expect_one_line_error $t err.txt
    done
}

# ---------------------------------------------------------------- gzip faults

# same_prefix_every_chunk FILE WANT MESSAGE: at chunk sizes below and
# above what an inflater may hold back (64 KiB), from the file and from a
# pipe, a faulty FILE gives WANT's elements, then MESSAGE, exit 1.
same_prefix_every_chunk() {
    local c
    for c in 4K 8K 12K 60K 64K 1M; do
        run_to got.out err.txt sc-compact --ge 0 -c $c "$1"
        expect_status 1
        expect_one_line_error sc-compact err.txt
        grep -q "^sc-compact: $3" err.txt
        expect_same "$2" got.out
        cat "$1" | sc-scan -c $c --total > got.txt 2> err.txt || true
        [ "$(cat got.txt)" = "$(ref scan --total < "$2")" ]
    done
}

@test "errors: truncated gzip: every element decoded before the cut is written, whatever the chunk" {
    make_data
    gzip -n -c in.bin > in.gz
    head -c $(( $(stat -c %s in.gz) / 2 )) in.gz > trunc.gz
    # what gzip -d decodes before the cut, in whole elements
    gzip -d -c < trunc.gz > part.bin 2> /dev/null || true
    local n=$(( $(stat -c %s part.bin) / 4 ))
    [ "$n" -gt 20000 ]
    head -c $((n * 4)) part.bin > want.out
    same_prefix_every_chunk trunc.gz want.out "trunc.gz: truncated gzip data"
}

@test "errors: a corrupt gzip block: every element before it is written, whatever the chunk" {
    gen_file in.bin 25000 7
    # one member: two stored blocks holding in.bin, then a block of the
    # reserved type 3, which no inflater takes
    perl -e 'local $/; open(my $f, "<", "in.bin") or die; binmode $f;
             my $d = <$f>; binmode STDOUT;
             print "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03";
             for my $p ([0, 60000], [60000, 40000]) {
                 print pack("Cvv", 0, $p->[1], $p->[1] ^ 0xffff),
                       substr($d, $p->[0], $p->[1]);
             }
             print "\x07", "\x00" x 16' > bad.gz
    # The bad block's header is at byte 100020; where each inflater
    # stops reading past it is its own (zlib 100021, ISA-L 100028).
    same_prefix_every_chunk bad.gz in.bin \
        "bad.gz: corrupt gzip data near compressed byte 1000[23][0-9]: "
}

@test "errors: truncated gzip: output is a prefix of the correct output, error, exit 1" {
    make_data
    gzip -n -c in.bin > in.gz
    local size
    size=$(stat -c %s in.gz)
    head -c $((size / 2)) in.gz > trunc.gz
    local t
    for t in sc-compact sc-scan; do
        ref $(refsub $t) < in.bin > want.out
        run_to got.out err.txt $t trunc.gz
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_prefix got.out want.out
        expect_one_line_error $t err.txt
    done
    # missing only the trailer
    head -c $((size - 4)) in.gz > notrailer.gz
    run_to got.out err.txt sc-compact notrailer.gz
    [ "$status" -eq 1 ]
    ref compact < in.bin > want.out
    expect_prefix got.out want.out
    expect_one_line_error sc-compact err.txt
    # split -r: both outputs are prefixes
    ref compact < in.bin > want.sel
    ref compact -x < in.bin > want.rej
    run_to got.sel err.txt sc-split -r got.rej trunc.gz
    [ "$status" -eq 1 ]
    expect_prefix got.sel want.sel
    expect_one_line_error sc-split err.txt
    # sort: what was decoded, sorted
    run_to got.out err.txt sc-rsort trunc.gz
    [ "$status" -eq 1 ]
    expect_one_line_error sc-rsort err.txt
    ref sort < got.out > resorted.out
    expect_same resorted.out got.out
}

@test "errors: a corrupt second gzip member: the first member is processed and written, exit 1" {
    make_data
    head -c 200000 in.bin > a.bin
    tail -c +200001 in.bin > b.bin
    gzip -n -c a.bin > a.gz
    gzip -n -c b.bin > b.gz
    local off
    off=$(stat -c %s a.gz)
    cat a.gz b.gz > bad.gz
    # first deflate byte of member 2: BFINAL=1, BTYPE=11 (reserved): invalid
    set_byte bad.gz $((off + 10)) 7
    local t
    for t in $READERS; do
        ref $(refsub $t) < a.bin > want.out
        run_to got.out err.txt $t bad.gz
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_same want.out got.out || { echo "# $t" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
}

@test "errors: corrupt gzip data from the first byte: empty output, exit 1" {
    make_data
    gzip -n -c in.bin > bad.gz
    set_byte bad.gz 10 7
    local t
    for t in $READERS; do
        run_to got.out err.txt $t bad.gz
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        [ ! -s got.out ] || { echo "# $t wrote output" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
}

@test "errors: gzip CRC mismatch is an error, exit 1, output a prefix" {
    make_data
    gzip -n -c in.bin > bad.gz
    local size
    size=$(stat -c %s bad.gz)
    flip_byte bad.gz $((size - 8))
    local t
    for t in sc-compact sc-scan; do
        ref $(refsub $t) < in.bin > want.out
        run_to got.out err.txt $t bad.gz
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_prefix got.out want.out
        expect_one_line_error $t err.txt
    done
}

@test "errors: --in gz on data that is not gzip is an error, exit 1" {
    u32le 1 2 3 4 > in.bin
    local t
    for t in $READERS; do
        run_to got.out err.txt $t --in gz in.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
}

@test "errors: --in gz on data that is not gzip says so at byte 0, after the files before it" {
    u32le 1 2 3 4 > in.bin
    u32le 5 0 6 > a.bin
    gzip -n -c a.bin > a.gz
    local t
    for t in $READERS; do
        run_to got.out err.txt $t --in gz in.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
        grep -q "^$t: in.bin: not in gzip format (no gzip magic number at byte 0)$" err.txt ||
            { echo "# $t: $(cat err.txt)" >&2; return 1; }
    done
    run_to got.out err.txt sc-compact --in gz a.gz in.bin
    [ "$status" -eq 1 ]
    u32le 5 6 | cmp - got.out
    grep -q "^sc-compact: in.bin: not in gzip format" err.txt
}

@test "errors: bad -j values exit 2" {
    local t
    for t in sc-compact sc-rsort; do
        run $t -j abc /dev/null
        expect_usage $t
        run $t -j -1 /dev/null
        expect_usage $t
    done
}

@test "errors: a gzip member cut after its magic is an error, exit 1" {
    make_data
    gzip -n -c in.bin > ok.gz
    cp ok.gz bad.gz
    printf '\037\213\010' >> bad.gz
    ref compact < in.bin > want.out
    run_to got.out err.txt sc-compact bad.gz
    [ "$status" -eq 1 ]
    expect_same want.out got.out
    expect_one_line_error sc-compact err.txt
}

# ---------------------------------------------------------------- text faults

@test "errors: malformed text: what came before is processed and written, exit 1" {
    printf '1 0 2 3\n0 abc 4 5\n' > bad.txt
    u32le 1 0 2 3 0 > good.bin
    local t
    for t in $READERS; do
        ref $(refsub $t) < good.bin > want.out
        run_to got.out err.txt $t --in text bad.txt
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_same want.out got.out || { echo "# $t" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
    # other malformed tokens
    local bad
    for bad in '7 -1 8' '7 12x 8' '7 0x 8' '7 1.5 8' '7 0xfg 8'; do
        printf '%s\n' "$bad" > bad.txt
        run_to got.out err.txt sc-compact --in text bad.txt
        [ "$status" -eq 1 ] || { echo "# '$bad': status $status" >&2; return 1; }
        [ "$(u32text got.out)" = 7 ] || { echo "# '$bad': got $(u32text got.out | tr '\n' ' ')" >&2; return 1; }
        expect_one_line_error sc-compact err.txt
    done
}

@test "errors: a number above 2^32-1 in text: what came before is written, exit 1" {
    local big
    for big in 4294967296 0x100000000 99999999999999999999999; do
        printf '5 6 4294967295 %s 7\n' $big > big.txt
        run_to got.out err.txt sc-compact --in text big.txt
        [ "$status" -eq 1 ] || { echo "# $big: status $status" >&2; return 1; }
        [ "$(u32text got.out | tr '\n' ' ')" = "5 6 4294967295 " ] || { echo "# $big: got $(u32text got.out | tr '\n' ' ')" >&2; return 1; }
        expect_one_line_error sc-compact err.txt
    done
    printf '5 4294967296\n' > big.txt
    run_to got.out err.txt sc-scan -i --in text big.txt
    [ "$status" -eq 1 ]
    [ "$(u32text got.out)" = 5 ]
    expect_one_line_error sc-scan err.txt
}

@test "errors: malformed text late in a large input: everything before it is written" {
    make_data
    u32text in.bin > big.txt
    echo "bogus" >> big.txt
    echo "17" >> big.txt
    local t
    for t in $READERS; do
        ref $(refsub $t) < in.bin > want.out
        run_to got.out err.txt $t --in text -c 4K big.txt
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_same want.out got.out || { echo "# $t" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
}

# ---------------------------------------------------------------- input files

@test "errors: a missing input file is named, exit 1" {
    u32le 1 2 3 > in.bin
    local t
    for t in $READERS; do
        run_to got.out err.txt $t in.bin no-such-file.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        grep -q 'no-such-file.bin' err.txt || { echo "# $t: $(cat err.txt)" >&2; return 1; }
        expect_one_line_error $t err.txt
        run_to got.out err.txt $t no-such-file.bin
        [ "$status" -eq 1 ]
        grep -q 'no-such-file.bin' err.txt
    done
}

@test "errors: a missing input or a directory: --count, --total, --offsets print no figure" {
    u32le 1 2 3 > in.bin
    mkdir adir
    local bad args
    for bad in no-such-file.bin adir; do
        for args in "sc-compact --count" "sc-split --count" "sc-scan --total" \
                    "sc-scan --offsets -t" "sc-split --ranges 2 --count"; do
            run_to got.out err.txt $args in.bin $bad
            [ "$status" -eq 1 ] || { echo "# $args: status $status" >&2; return 1; }
            [ ! -s got.out ] || { echo "# $args $bad printed $(cat got.out)" >&2; return 1; }
            grep -q "$bad" err.txt
        done
    done
    # A fault in the data is another matter: the figure of what came before.
    gzip -n -c in.bin | head -c 5 > cut.gz
    run_to got.out err.txt sc-compact --count in.bin cut.gz
    [ "$status" -eq 1 ]
    [ "$(cat got.out)" = 3 ]
}

@test "errors: an input refused for its kind after others, from a pipe: the figure and output of what came before" {
    u32le 1 0 2 3 > in.bin
    printf '\3757zXZ\0junk' > bad.xz
    printf '1 2 3\n4 5 6\n' | gzip -n -c > text.gz
    local bad args want
    for bad in bad.xz text.gz; do
        # A pipe is judged when it is reached: what came before it counts
        # as before a corrupt gzip member.
        for args in "sc-compact --count:3" "sc-split --count:3 1" "sc-scan --total:6" \
                    "sc-split --ranges 2 --count:2 2"; do
            want=${args#*:}
            run_to got.out err.txt bash -c "cat $bad | ${args%%:*} in.bin -"
            [ "$status" -eq 1 ] || { echo "# ${args%%:*} $bad: status $status" >&2; return 1; }
            [ "$(cat got.out)" = "$want" ] ||
                { echo "# ${args%%:*} $bad printed '$(cat got.out)', not '$want'" >&2; return 1; }
            grep -q '(standard input)' err.txt
            expect_one_line_error "${args%%[ ]*}" err.txt
        done
        run_to got.out err.txt bash -c "cat $bad | sc-stat in.bin -"
        [ "$status" -eq 1 ]
        grep -qx 'count 4' got.out
        # compressed standard output is finished, as after other faults
        run_to got.gz err.txt bash -c "cat $bad | sc-compact -z in.bin -"
        [ "$status" -eq 1 ]
        [ "$(gzip -dc got.gz | od -An -tu4 | xargs)" = "1 2 3" ]
        # a regular file is judged before anything is read: nothing at all
        run_to got.out err.txt sc-compact --count in.bin $bad
        [ "$status" -eq 1 ] && [ ! -s got.out ]
        # and so is a pipe with nothing before it: the whole input refused
        run_to got.out err.txt bash -c "cat $bad | sc-compact --count"
        [ "$status" -eq 1 ] && [ ! -s got.out ]
        run_to got.out err.txt bash -c "cat $bad | sc-stat"
        [ "$status" -eq 1 ] && [ ! -s got.out ]
    done
}

@test "errors: a directory as input is an error naming it, exit 1" {
    mkdir adir
    local t
    for t in $READERS; do
        run_to got.out err.txt $t adir
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        grep -q 'adir' err.txt
        expect_one_line_error $t err.txt
    done
}

@test "errors: an unreadable input file is named, exit 1" {
    [ "$(id -u)" -ne 0 ] || skip "running as root: permissions are not enforced"
    u32le 1 2 3 > locked.bin
    chmod 000 locked.bin
    run_to got.out err.txt sc-compact locked.bin
    [ "$status" -eq 1 ]
    grep -q 'locked.bin' err.txt
}

# ---------------------------------------------------------------- usage

@test "errors: unknown options and missing values exit 2 with Try 'PROG --help'" {
    local t
    for t in $ALL; do
        run $t --no-such-option
        expect_usage $t
        run $t -o
        expect_usage $t
        run $t --in
        expect_usage $t
        run $t --device
        expect_usage $t
    done
    run sc-compact --eq
    expect_usage sc-compact
    run sc-compact --range
    expect_usage sc-compact
    run sc-split --gt
    expect_usage sc-split
    run sc-split -r
    expect_usage sc-split
    run sc-scan --op
    expect_usage sc-scan
    run sc-scan --carry-in
    expect_usage sc-scan
    run sc-rsort --bits
    expect_usage sc-rsort
    run sc-rsort -S
    expect_usage sc-rsort
}

@test "errors: -S and -T where nothing is held aside are usage errors, not ignored" {
    u32le 5 1 9 2 > in.bin
    local args opt
    for args in "sc-split -r rej in.bin" "sc-split --count in.bin" \
                "sc-split --ranges 3 -o p.%d in.bin" "sc-stat in.bin" \
                "sc-stat --head 2 in.bin" "sc-stat --tail 2 in.bin" \
                "sc-stat --bincount in.bin" "sc-stat --quantiles 2 in.bin" \
                "sc-rsort -C in.bin"; do
        for opt in "-S 64K" "-T ." "-S 64K -T ." "--buffer-size=64K" \
                   "--temporary-directory=."; do
            run ${args%% *} $opt ${args#* }
            expect_usage "${args%% *}" || { echo "# $args $opt" >&2; return 1; }
            [[ "$output" == *"nothing"*"only for"* ]] || { echo "# $args $opt: $output" >&2; return 1; }
        done
    done
    [ ! -e rej ] && [ ! -e p.0 ]
    # where something is held they are taken, as before
    mkdir tmp
    [ "$(sc-split -S 64K -T tmp in.bin | od -An -tu4 | xargs)" = "5 1 9 2" ]
    [ "$(sc-split -S 64K -T tmp --lt 3 in.bin | od -An -tu4 | xargs)" = "1 2 5 9" ]
    sc-stat --hist 2 -S 64K -T tmp in.bin | grep -qx 'count 4'
    [ "$(sc-rsort -S 64K -T tmp in.bin | od -An -tu4 | xargs)" = "1 2 5 9" ]
    sc-rsort in.bin > s.bin
    [ "$(sc-rsort -m -S 64K -T tmp s.bin s.bin | od -An -tu4 | xargs)" = "1 1 2 2 5 5 9 9" ]
}

@test "errors: malformed and out-of-range values exit 2" {
    run sc-compact --eq abc
    expect_usage sc-compact
    run sc-compact --eq 4294967296
    expect_usage sc-compact
    run sc-compact --lt -1
    expect_usage sc-compact
    run sc-compact --mask 0xz
    expect_usage sc-compact
    run sc-compact --range 5
    expect_usage sc-compact
    run sc-compact --range 1:4294967296
    expect_usage sc-compact
    run sc-split --ne 12abc
    expect_usage sc-split
    run sc-scan --op avg
    expect_usage sc-scan
    run sc-scan --carry-in xyz
    expect_usage sc-scan
    run sc-rsort --bits 5:5
    expect_usage sc-rsort
    run sc-rsort --bits 0:33
    expect_usage sc-rsort
    run sc-rsort --bits 10:3
    expect_usage sc-rsort
    run sc-rsort --bits 8
    expect_usage sc-rsort
    run sc-rsort -S 12Q
    expect_usage sc-rsort
    run sc-split -S abc
    expect_usage sc-split
}

@test "errors: bad -c (5000, 0, 1K, 4097, 6K, abc) exits 2 for every tool" {
    local t c
    for t in $ALL; do
        for c in 5000 0 1K 4097 6K 2047 abc; do
            if [ $t = sc-gen ]; then run $t -n 10 -c $c; else run $t -c $c /dev/null; fi
            expect_usage $t || { echo "# $t -c $c" >&2; return 1; }
        done
    done
}

@test "errors: bad --level (0, 10, x) exits 2 for every tool" {
    local t l
    for t in $ALL; do
        for l in 0 10 x; do
            if [ $t = sc-gen ]; then run $t -n 10 -z --level $l; else run $t -z --level $l /dev/null; fi
            expect_usage $t || { echo "# $t --level $l" >&2; return 1; }
        done
    done
}

@test "errors: a --level out of range names the range of the format given" {
    local l
    for l in 0 10 20; do
        run sc-compact -z --level $l /dev/null
        expect_usage sc-compact
        [[ "$output" == *"9"* && "$output" != *"19"* ]] ||
            { echo "# -z --level $l: $output" >&2; return 1; }
    done
    sc-compact --level 9 -z /dev/null > /dev/null
    # A build without zstd refuses --zstd itself (formats.bats).
    sc-gen -n 0 --zstd > /dev/null 2>&1 || return 0
    for l in 0 20; do
        run sc-scan --zstd --level $l /dev/null
        expect_usage sc-scan
        [[ "$output" == *"19"* ]] || { echo "# --zstd --level $l: $output" >&2; return 1; }
    done
    sc-compact --zstd --level 19 /dev/null > /dev/null
}

@test "errors: bad --device and --in values exit 2 for every tool" {
    local t
    for t in $ALL; do
        if [ $t = sc-gen ]; then
            run $t -n 10 --device bogus
        else
            run $t --device bogus /dev/null
        fi
        expect_usage $t || { echo "# $t --device bogus" >&2; return 1; }
        [ $t = sc-gen ] && continue
        run $t --in xml /dev/null
        expect_usage $t || { echo "# $t --in xml" >&2; return 1; }
    done
}

@test "errors: a bad SC_DEVICE is named as SC_DEVICE, a bad -d as the device" {
    local t
    for t in $STREAMING; do
        SC_DEVICE=bogus run $t /dev/null
        expect_usage $t
        [[ "$output" == "$t: invalid SC_DEVICE 'bogus' "* ]] ||
            { echo "# $t: $output" >&2; return 1; }
        SC_DEVICE=bogus run $t -d cpux /dev/null
        expect_usage $t
        [[ "$output" == "$t: invalid device 'cpux' "* ]]
    done
    [ "$(SC_DEVICE=bogus sc-compact -d cpu --count /dev/null)" = 0 ]
}

@test "errors: usage errors write nothing to stdout and one line prefixed by PROG on stderr first" {
    local t
    for t in $ALL; do
        run --separate-stderr $t --no-such-option
        [ "$status" -eq 2 ]
        [ -z "$output" ] || { echo "# $t wrote to stdout: $output" >&2; return 1; }
        [[ "$stderr" == "$t: "* ]] || { echo "# $t: stderr: $stderr" >&2; return 1; }
    done
}

# ---------------------------------------------------------------- output = input

@test "errors: -o FILE that is also an input: refused before writing, FILE unchanged, exit 1" {
    make_data
    cp in.bin keep.bin
    local t
    for t in $STREAMING; do
        run_to got.out err.txt $t -o in.bin in.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_same keep.bin in.bin || { echo "# $t changed its input" >&2; return 1; }
        [ ! -s got.out ]
        expect_one_line_error $t err.txt
        # the same file under another name
        run_to got.out err.txt $t -o ./in.bin in.bin
        [ "$status" -eq 1 ] || { echo "# $t (./in.bin): status $status" >&2; return 1; }
        expect_same keep.bin in.bin
        ln -sf in.bin link.bin
        run_to got.out err.txt $t -o link.bin in.bin
        [ "$status" -eq 1 ] || { echo "# $t (symlink): status $status" >&2; return 1; }
        expect_same keep.bin in.bin
    done
    # the rejects file of sc-split is an output too
    run_to got.out err.txt sc-split -r in.bin in.bin
    [ "$status" -eq 1 ]
    expect_same keep.bin in.bin
}

@test "errors: sc-rsort -o FILE with FILE also an input works (sorts in place)" {
    make_data
    ref sort < in.bin > want.out
    run_to got.out err.txt sc-rsort -o in.bin in.bin
    [ "$status" -eq 0 ]
    expect_same want.out in.bin
}

@test "errors: -o onto an existing file with a failing input: old file untouched, no temp file left" {
    make_data
    head -c 200000 in.bin > a.bin
    gzip -n -c a.bin > a.gz
    gzip -n -c in.bin > b.gz
    cat a.gz b.gz > bad.gz
    set_byte bad.gz $(($(stat -c %s a.gz) + 10)) 7
    mkdir outdir
    local t
    for t in $READERS; do
        echo "precious old content" > outdir/result
        run_to got.out err.txt $t -o outdir/result bad.gz
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        [ "$(cat outdir/result)" = "precious old content" ] || { echo "# $t replaced the output" >&2; return 1; }
        [ "$(ls -A outdir)" = result ] || { echo "# $t left: $(ls -A outdir)" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
    # stray bytes
    cp in.bin odd.bin
    printf 'x' >> odd.bin
    for t in $READERS; do
        echo "precious old content" > outdir/result
        run_to got.out err.txt $t -o outdir/result odd.bin
        [ "$status" -eq 1 ]
        [ "$(cat outdir/result)" = "precious old content" ] || { echo "# $t replaced the output" >&2; return 1; }
        [ "$(ls -A outdir)" = result ] || { echo "# $t left: $(ls -A outdir)" >&2; return 1; }
    done
    # and a missing input: no output file created at all
    for t in $READERS; do
        run_to got.out err.txt $t -o outdir/new in.bin missing.bin
        [ "$status" -eq 1 ]
        [ ! -e outdir/new ] || { echo "# $t created outdir/new" >&2; return 1; }
        [ "$(ls -A outdir)" = result ] || { echo "# $t left: $(ls -A outdir)" >&2; return 1; }
    done
}

# ---------------------------------------------------------------- pipes, disks

@test "errors: closed pipe: 'sc-gen -n 10G | head -c 10' ends promptly and quietly" {
    local t0 t1
    t0=$(date +%s%N)
    timeout 60 bash -c 'sc-gen -n 10G 2> gen.err | head -c 10 > head.out'
    t1=$(date +%s%N)
    [ "$(stat -c %s head.out)" -eq 10 ]
    [ ! -s gen.err ] || { echo "# sc-gen wrote: $(cat gen.err)" >&2; return 1; }
    [ $(((t1 - t0) / 1000000)) -lt 5000 ] || { echo "# took $(((t1 - t0) / 1000000)) ms" >&2; return 1; }
}

@test "errors: closed pipe on sc-compact, sc-scan, sc-split output: prompt, no message" {
    local t t0 t1
    for t in sc-compact sc-scan sc-split; do
        t0=$(date +%s%N)
        timeout 60 bash -c "sc-gen -n 4G --dist iota 2>/dev/null | $t 2> tool.err | head -c 10 > head.out"
        t1=$(date +%s%N)
        [ "$(stat -c %s head.out)" -eq 10 ]
        [ ! -s tool.err ] || { echo "# $t wrote: $(cat tool.err)" >&2; return 1; }
        [ $(((t1 - t0) / 1000000)) -lt 8000 ] || { echo "# $t took $(((t1 - t0) / 1000000)) ms" >&2; return 1; }
    done
}

@test "errors: closed pipe while sc-split hands over its held rejects: prompt, no message" {
    # nothing selected: the whole output is the held half, which goes into
    # the pipe by vmsplice after the last input
    local t0 t1
    t0=$(date +%s%N)
    run_to /dev/null tool.err timeout 60 bash -c "sc-gen -n 64M -d cpu 2>/dev/null | sc-split --gt 4294967295 | head -c 10 > head.out"
    t1=$(date +%s%N)
    [ "$(stat -c %s head.out)" -eq 10 ]
    [ ! -s tool.err ] || { echo "# sc-split wrote: $(cat tool.err)" >&2; return 1; }
    [ $(((t1 - t0) / 1000000)) -lt 8000 ]
}

@test "errors: closed pipe with -t and -z outputs is quiet too" {
    run_to /dev/null gen.err timeout 60 bash -c 'sc-gen -n 100M -t | head -n 2 > /dev/null'
    [ ! -s gen.err ]
    run_to /dev/null gen.err timeout 60 bash -c 'sc-gen -n 100M -z | head -c 10 > /dev/null'
    [ ! -s gen.err ]
}

@test "errors: disk full (/dev/full): one-line message, exit 1" {
    [ -w /dev/full ] || skip "/dev/full not available"
    make_data
    run_to /dev/null err.txt bash -c 'sc-gen -n 1M > /dev/full'
    [ "$status" -eq 1 ]
    expect_one_line_error sc-gen err.txt
    local t
    for t in $READERS; do
        run_to /dev/null err.txt bash -c "$t in.bin > /dev/full"
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
    run_to /dev/null err.txt bash -c 'sc-compact --count in.bin > /dev/full'
    [ "$status" -eq 1 ]
    expect_one_line_error sc-compact err.txt
    run_to /dev/null err.txt bash -c 'sc-scan --total in.bin > /dev/full'
    [ "$status" -eq 1 ]
    run_to /dev/null err.txt bash -c 'sc-compact -z in.bin > /dev/full'
    [ "$status" -eq 1 ]
    run_to /dev/null err.txt bash -c 'sc-gen -n 10 -t > /dev/full'
    [ "$status" -eq 1 ]
    expect_one_line_error sc-gen err.txt
}

# ---------------------------------------------------------------- devices

@test "errors: --device cuda without a GPU: one-line error, exit 1" {
    if have_gpu; then
        skip "a CUDA GPU is present: this checks the no-GPU case"
    fi
    u32le 1 2 3 > in.bin
    local t
    for t in $READERS; do
        run_to got.out err.txt $t --device cuda in.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
        [ ! -s got.out ]
    done
    run_to got.out err.txt sc-gen -n 10 --device cuda
    [ "$status" -eq 1 ]
    expect_one_line_error sc-gen err.txt
    run_to got.out err.txt sc-gen -n 10 --device cuda:0
    [ "$status" -eq 1 ]
}

@test "errors: --device cuda without a GPU fails on empty input too, and replaces no output" {
    if have_gpu; then
        skip "a CUDA GPU is present: this checks the no-GPU case"
    fi
    local t
    for t in $READERS sc-stat; do
        echo keep > keep.txt
        run_to got.out err.txt $t --device cuda -o keep.txt /dev/null
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
        [ "$(cat keep.txt)" = keep ] || { echo "# $t replaced its output" >&2; return 1; }
        run_to got.out err.txt $t --device cuda /dev/null
        [ "$status" -eq 1 ] && [ ! -s got.out ] || { echo "# $t to stdout: status $status" >&2; return 1; }
    done
    # the figures, and -m, -C and --head, which never need the GPU
    for t in "sc-compact --count" "sc-split --count" "sc-scan --total" \
             "sc-rsort -m" "sc-rsort -C" "sc-stat --head 2"; do
        run_to got.out err.txt $t --device cuda /dev/null
        [ "$status" -eq 1 ] && [ ! -s got.out ] || { echo "# $t: status $status" >&2; return 1; }
    done
    run_to got.out err.txt sc-gen -n 0 --device cuda
    [ "$status" -eq 1 ]
    expect_one_line_error sc-gen err.txt
}

@test "errors: --device cuda:all parses; without a GPU: one-line error, exit 1" {
    u32le 1 2 3 > in.bin
    local t
    # misspellings are usage errors whose message lists cuda:all
    for d in cuda:al cuda:ALL cuda:all1 cuda:all: "cuda: all"; do
        run sc-compact --device "$d" in.bin
        expect_usage sc-compact || { echo "# --device '$d'" >&2; return 1; }
        [[ "$output" == *"cuda:N, cuda:all"* ]] || { echo "# --device '$d': $output" >&2; return 1; }
    done
    if have_gpu; then
        # with any GPU it runs (one GPU: as cuda:0); tests/multigpu.bats
        # checks its output where there are two
        run_to got.out err.txt sc-compact --device cuda:all in.bin
        [ "$status" -eq 0 ] || { echo "# cuda:all with a GPU: $(cat err.txt)" >&2; return 1; }
        return 0
    fi
    for t in $READERS; do
        run_to got.out err.txt $t --device cuda:all in.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
        grep -q "no CUDA" err.txt || { echo "# $t: $(cat err.txt)" >&2; return 1; }
        [ ! -s got.out ]
    done
    run_to got.out err.txt sc-gen -n 10 --device cuda:all
    [ "$status" -eq 1 ]
    expect_one_line_error sc-gen err.txt
    run_to got.out err.txt env SC_DEVICE=cuda:all sc-scan in.bin
    [ "$status" -eq 1 ]
    expect_one_line_error sc-scan err.txt
}

@test "errors: --device cuda:99 (no such GPU): one-line error, exit 1" {
    u32le 1 2 3 > in.bin
    local t
    for t in $READERS; do
        run_to got.out err.txt $t --device cuda:99 in.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
    done
}

@test "errors: --device auto and cpu always work; the option overrides SC_DEVICE" {
    make_data
    ref compact < in.bin > want.out
    sc-compact --device cpu in.bin > got.out
    expect_same want.out got.out
    sc-compact --device auto in.bin > got.out
    expect_same want.out got.out
    SC_DEVICE=cuda:99 sc-compact --device cpu in.bin > got.out
    expect_same want.out got.out
    SC_DEVICE=cpu sc-compact -v in.bin > got.out 2> err.txt
    expect_same want.out got.out
    grep -q -i cpu err.txt || { echo "# -v with SC_DEVICE=cpu: $(cat err.txt)" >&2; return 1; }
    # SC_DEVICE sets the default: a GPU that does not exist fails
    run_to got.out err.txt env SC_DEVICE=cuda:99 sc-compact in.bin
    [ "$status" -eq 1 ]
}

# ---------------------------------------------------------------- empty input

@test "errors: empty input: empty output, exit 0, figures for --count/--total" {
    local t
    for t in $READERS; do
        run_to got.out err.txt $t /dev/null
        [ "$status" -eq 0 ] || { echo "# $t: status $status" >&2; return 1; }
        [ ! -s got.out ]
        [ ! -s err.txt ]
        run_to got.out err.txt $t < /dev/null
        [ "$status" -eq 0 ]
        [ ! -s got.out ]
        : > empty.bin
        run_to got.out err.txt $t empty.bin
        [ "$status" -eq 0 ]
        [ ! -s got.out ]
    done
    sc-gen -n 0 > got.out
    [ ! -s got.out ]
    [ "$(sc-compact --count < /dev/null)" = 0 ]
    [ "$(sc-split --count < /dev/null)" = "0 0" ]
    [ "$(sc-scan --total < /dev/null)" = 0 ]
    [ "$(sc-scan --total --carry-in 42 < /dev/null)" = 42 ]
    [ "$(sc-scan --total --carry-in 0x10 --op xor < /dev/null)" = 16 ]
    [ "$(sc-scan --total --op max --carry-in 7 < /dev/null)" = 7 ]
    [ "$(sc-scan --total --op min < /dev/null)" = 4294967295 ]
    [ "$(sc-scan --total -w --carry-in 5000000000 < /dev/null)" = 5000000000 ]
    run sc-rsort -C < /dev/null
    [ "$status" -eq 0 ]
    sc-split -r rej.bin < /dev/null > sel.bin
    [ -e rej.bin ] && [ ! -s rej.bin ] && [ ! -s sel.bin ]
    # empty gz and text inputs
    printf '' | gzip -c > e.gz
    [ "$(sc-compact --count e.gz)" = 0 ]
    sc-scan e.gz > got.out
    [ ! -s got.out ]
    [ "$(sc-compact --count --in text /dev/null)" = 0 ]
}

@test "errors: every message is one line starting 'PROG: '" {
    printf 'abc\n' > bad.txt
    local t
    for t in $READERS; do
        run_to got.out err.txt $t --in text bad.txt
        [ "$status" -eq 1 ]
        expect_one_line_error $t err.txt
        run_to got.out err.txt $t missing.bin
        expect_one_line_error $t err.txt
        run_to got.out err.txt $t --bogus-option
        [ "$status" -eq 2 ]
        head -n 1 err.txt | grep -q "^$t: " || { echo "# $t: $(cat err.txt)" >&2; return 1; }
    done
}

# ---------------------------------------------------------------- special outputs

@test "errors: -o and -r onto a FIFO write into it; it stays a FIFO (never renamed over)" {
    mkfifo out.fifo rej.fifo
    timeout 20 cat out.fifo > got.out &
    sc-gen -n 1000 -s 3 -o out.fifo
    wait
    sc-gen -n 1000 -s 3 | cmp - got.out
    [ -p out.fifo ]
    timeout 20 cat rej.fifo > got.rej &
    sc-gen -n 1000 -s 3 --density 0.5 | sc-split -r rej.fifo > got.sel
    wait
    sc-gen -n 1000 -s 3 --density 0.5 | sc-compact -x > want.rej
    cmp want.rej got.rej
    [ -p rej.fifo ]
    # and a character device stays one
    sc-gen -n 10 -o /dev/null
    [ -c /dev/null ]
}

@test "errors: a closed pipe ends the writer by SIGPIPE (status 141), as cat would" {
    run bash -c 'sc-gen -n 100M | head -c 10 > /dev/null; echo "${PIPESTATUS[0]}"'
    [ "$status" -eq 0 ]
    [ "$output" = 141 ]
}

@test "errors: --count and --total figures are plain text whatever -z or -t say" {
    sc-gen -n 1000 -s 2 --density 0.5 > in.bin
    want=$(sc-compact --count < in.bin)
    [ "$(sc-compact --count -z < in.bin)" = "$want" ]
    [ "$(sc-compact --count -t < in.bin)" = "$want" ]
    [ "$(sc-split --count -z < in.bin)" = "$(sc-split --count < in.bin)" ]
    [ "$(sc-scan --total -z < in.bin)" = "$(sc-scan --total < in.bin)" ]
}

@test "errors: sc-rsort -P draws a progress line with the percentage of a known size" {
    sc-gen -n 100000 -s 4 > in.bin
    sc-rsort -P in.bin > got.out 2> err.txt
    sc-rsort in.bin | cmp - got.out
    grep -q "^.*sc-rsort: .* MiB read, .* MiB/s, 100%" err.txt
}
