# test_helper.bash -- shared setup and helpers for the sc bats suites.
#
# Environment (set by tests/run-suite, i.e. by `make check`):
#   SC_BUILDDIR  absolute top build dir: tools in $SC_BUILDDIR/bin, the
#                reference program in $SC_BUILDDIR/tests/ref/sc-ref
#   SC_SRCDIR    absolute top source dir
# Run by hand from the source tree, both default to the directory above tests/.
#
# Tests never assume which device runs: with SC_DEVICE=cuda in the
# environment every test must still pass.  Tests that compare devices pass
# --device cpu / --device cuda explicitly.

bats_require_minimum_version 1.5.0

: "${SC_SRCDIR:=$(cd "$BATS_TEST_DIRNAME/.." && pwd)}"
: "${SC_BUILDDIR:=$SC_SRCDIR}"
export SC_SRCDIR SC_BUILDDIR
REF="$SC_BUILDDIR/tests/ref/sc-ref"
PATH="$SC_BUILDDIR/bin:$PATH"
export PATH

# Per-test working directory (removed by bats afterwards).
sc_setup() {
    T="$BATS_TEST_TMPDIR"
    cd "$T" || return 1
}

setup() {
    sc_setup
}

# require_tool PROG...: fail (never skip) when a tool was not built.
require_tool() {
    local p
    for p in "$@"; do
        if [ ! -x "$SC_BUILDDIR/bin/$p" ]; then
            echo "# $p missing: $SC_BUILDDIR/bin/$p was not built" >&2
            return 1
        fi
    done
    if [ ! -x "$REF" ]; then
        echo "# reference program missing: $REF" >&2
        return 1
    fi
}

# ref SUBCOMMAND [options] <in >out: the reference implementation.
ref() {
    "$REF" "$@"
}

# gen_random N SEED [DENSITY [sc-gen options...]] > FILE
# Uniform data with about DENSITY (default 0.5) of the elements nonzero.
# Test data is made on the CPU explicitly: sc-gen itself is tested in
# sc-gen.bats (any device) and gpu.bats (cpu == cuda), and on a GPU machine
# every CUDA run pays for a context, which would double the suite's time.
gen_random() {
    local n=$1 seed=$2 density=${3:-0.5}
    shift 2
    [ $# -gt 0 ] && shift
    sc-gen --device cpu -n "$n" -s "$seed" --dist uniform --density "$density" "$@"
}

# gen_file FILE N SEED [DENSITY [sc-gen options]]: gen_random into FILE,
# checking that sc-gen succeeded and wrote exactly N elements.
gen_file() {
    local f=$1 n=$2
    shift
    gen_random "$@" > "$f" || { echo "sc-gen failed for $f" >&2; return 1; }
    local size
    size=$(stat -c %s "$f")
    if [ "$size" -ne $((n * 4)) ]; then
        echo "sc-gen wrote $size bytes, expected $((n * 4))" >&2
        return 1
    fi
}

# have_gpu: true when a CUDA device can be used.
have_gpu() {
    sc-compact --device cuda </dev/null >/dev/null 2>&1
}

skip_without_gpu() {
    if ! have_gpu; then
        skip "no CUDA GPU: 'sc-compact --device cuda' fails here${1:+ ($1)}"
    fi
}

# u32le N... : the exact little-endian bytes of each uint32 N (decimal or 0x).
u32le() {
    local x
    for x in "$@"; do
        x=$((x))
        printf "$(printf '\\%03o\\%03o\\%03o\\%03o' \
            $((x & 255)) $(((x >> 8) & 255)) $(((x >> 16) & 255)) $(((x >> 24) & 255)))"
    done
}

# u64le N...: the same for uint64 values below 2^63.
u64le() {
    local x
    for x in "$@"; do
        u32le $((x & 0xffffffff)) $(((x >> 32) & 0xffffffff))
    done
}

# u32text [FILE]: raw uint32 -> one decimal per line.
u32text() {
    od -An -v -tu4 -w4 ${1:+"$1"} | tr -d ' '
}

# u64text [FILE]: raw uint64 -> one decimal per line.
u64text() {
    od -An -v -tu8 -w8 ${1:+"$1"} | tr -d ' '
}

# gen64 FILE TYPE N SEED [sc-ref options]: N elements of TYPE from sc-ref
# gen into FILE, checked to be N elements long.
gen64() {
    local f=$1 t=$2 n=$3 s=$4
    shift 4
    ref gen --type "$t" -n "$n" -s "$s" "$@" > "$f" ||
        { echo "# sc-ref gen --type $t -n $n failed" >&2; return 1; }
    case " $* " in *" -t "*) return 0 ;; esac
    [ "$(stat -c %s "$f")" -eq $((n * 8)) ] ||
        { echo "# $f: $(stat -c %s "$f") bytes, not $((n * 8))" >&2; return 1; }
}

# pack64 TYPE NUMBER...: the little-endian bytes (perl's pack: Q<, q<, d<).
pack64() {
    local t=$1
    shift
    perl -e 'my %f = (u64 => "Q<", i64 => "q<", f64 => "d<");
             my $f = $f{shift @ARGV}; print pack("$f*", @ARGV)' "$t" "$@"
}

# swap64 < IN > OUT: the byte order of every 8-byte element reversed.
swap64() {
    perl -e 'local $/; print pack("Q>*", unpack("Q<*", <STDIN>))'
}

# sample_in_place TYPE FILE BLOCK: sc-stat -e TYPE --sample 0.1 looks at
# whole blocks of BLOCK elements (64 KiB) of FILE, about a tenth of them
# (FILE: 245 blocks), and reads only those from the file (-v's count of
# elements in); through a pipe it reads everything and looks at the same
# blocks.  Another seed takes other blocks; --sample 1 takes all.
sample_in_place() {
    local t=$1 f=$2 block=$3 count
    local n=$(($(stat -c %s "$f") / (65536 / block)))
    run -0 --separate-stderr sc-stat -e "$t" -v --sample 0.1 "$f"
    count=$(sed -n 's/^count //p' <<< "$output")
    [ $((count % block)) -eq 0 ] && [ "$count" -gt $((n / 20)) ] &&
        [ "$count" -lt $((n / 6)) ] || { echo "# -e $t: count $count of $n" >&2; return 1; }
    [[ "$stderr" == *"elements: in $count,"* ]] || { echo "# -e $t: $stderr" >&2; return 1; }
    run -0 --separate-stderr sh -c 'cat "$1" | sc-stat -e "$2" -v --sample 0.1' sh "$f" "$t"
    [ "$(sed -n 's/^count //p' <<< "$output")" -eq "$count" ] &&
        [[ "$stderr" == *"elements: in $n,"* ]] || { echo "# -e $t, a pipe: $stderr" >&2; return 1; }
    [ "$(sc-stat -e "$t" --sample 0.1 --seed 2 "$f")" != "$(sc-stat -e "$t" --sample 0.1 "$f")" ] &&
        [ "$(sc-stat -e "$t" --sample 1 "$f")" = "$(sc-stat -e "$t" "$f")" ]
}

# stat_any_way TYPE FILE [OPTIONS...]: sc-stat -e TYPE OPTIONS prints the
# same of FILE (over 1000008 bytes) for any chunk size and thread count,
# from the file, a pipe or gzip, cut in two files, or big-endian.
stat_any_way() {
    local t=$1 f=$2 want size=4
    shift 2
    case $t in *64) size=8 ;; esac
    head -c 1000008 "$f" > any.a
    tail -c +1000009 "$f" > any.b
    perl -e 'local $/; print $ARGV[0] == 8 ? pack("Q>*", unpack("Q<*", <STDIN>))
                                          : pack("N*", unpack("V*", <STDIN>))' \
        "$size" < "$f" > any.be
    want=$(sc-stat -e "$t" "$@" "$f")
    [ "$(sc-stat -e "$t" -c 4K -j 1 "$@" "$f")" = "$want" ] &&
    [ "$(sc-stat -e "$t" -j 3 "$@" < "$f")" = "$want" ] &&
    [ "$(cat "$f" | sc-stat -e "$t" -c 8K "$@")" = "$want" ] &&
    [ "$(gzip -1 -c "$f" | sc-stat -e "$t" "$@")" = "$want" ] &&
    [ "$(sc-stat -e "$t" "$@" any.a any.b)" = "$want" ] &&
    [ "$(sc-stat -e "$t" --big-endian -c 4K "$@" any.be)" = "$want" ] ||
        { echo "# sc-stat -e $t $*" >&2; return 1; }
}

# text2raw [FILE]: whitespace-separated decimal/0x numbers -> raw uint32.
text2raw() {
    perl -ne 'for (split) { print pack("V", /^0x/i ? hex($_) : $_) }' ${1:+"$1"}
}

# nelems FILE: number of whole uint32 elements in FILE.
nelems() {
    echo $(( $(stat -c %s "$1") / 4 ))
}

# expect_same EXPECTED ACTUAL: byte comparison with a useful message.
expect_same() {
    if ! cmp "$1" "$2" >&2; then
        echo "# expected $1: $(stat -c %s "$1") bytes; got $2: $(stat -c %s "$2") bytes" >&2
        return 1
    fi
}

# expect_prefix SHORT LONG: SHORT is a (possibly empty) prefix of LONG.
expect_prefix() {
    local n
    n=$(stat -c %s "$1")
    if ! cmp -n "$n" "$1" "$2" >&2 || [ "$n" -gt "$(stat -c %s "$2")" ]; then
        echo "# $1 ($n bytes) is not a prefix of $2" >&2
        return 1
    fi
}

# vs_ref TOOL SUB INPUT [ARGS...]: run `TOOL ${EXTRA[@]} ARGS` and
# `sc-ref SUB ARGS` on INPUT, compare their outputs byte for byte.
# Set the array EXTRA for tool-only options (-c 4K, -j 2, ...).
vs_ref() {
    local tool=$1 sub=$2 in=$3
    shift 3
    ref "$sub" "$@" < "$in" > ref.out || { echo "# sc-ref $sub $* failed" >&2; return 1; }
    if ! "$tool" "${EXTRA[@]}" "$@" < "$in" > tool.out 2> tool.err; then
        echo "# $tool ${EXTRA[*]} $* failed: $(cat tool.err)" >&2
        return 1
    fi
    if [ -s tool.err ]; then
        echo "# $tool ${EXTRA[*]} $* wrote to stderr: $(cat tool.err)" >&2
        return 1
    fi
    if ! cmp ref.out tool.out >&2; then
        echo "# $tool ${EXTRA[*]} $* differs from sc-ref $sub $* on $in ($(nelems "$in") elements)" >&2
        return 1
    fi
}
EXTRA=()

# expect_usage PROG: the last `run` was a usage error of PROG.
expect_usage() {
    if [ "$status" -ne 2 ]; then
        echo "# expected exit status 2, got $status; output: $output" >&2
        return 1
    fi
    if [[ "$output" != *"Try '$1 --help'"* ]]; then
        echo "# expected \"Try '$1 --help'\" in: $output" >&2
        return 1
    fi
}

# expect_one_line_error PROG FILE: FILE (captured stderr) is one line
# starting with "PROG: ".
expect_one_line_error() {
    local lines
    lines=$(wc -l < "$2")
    if [ "$lines" -ne 1 ] || ! head -n 1 "$2" | grep -q "^$1: "; then
        echo "# expected one line starting '$1: ' on stderr, got $lines lines:" >&2
        sed 's/^/#   /' "$2" >&2
        return 1
    fi
}

# expect_status N: the last `run` exited N.
expect_status() {
    if [ "$status" -ne "$1" ]; then
        echo "# expected exit status $1, got $status; output: $output" >&2
        return 1
    fi
}

# files_differ A B: true when A and B differ (use instead of `! cmp`,
# which bats would not count as a failure).
files_differ() {
    if cmp -s "$1" "$2"; then
        echo "# $1 and $2 are identical, expected them to differ" >&2
        return 1
    fi
}

# run_to OUT ERR CMD...: run CMD with stdout to OUT and stderr to ERR;
# sets $status (never fails by itself).
run_to() {
    local o=$1 e=$2
    shift 2
    status=0
    "$@" > "$o" 2> "$e" || status=$?
}

# flip_byte FILE OFFSET: complement one byte in place.
flip_byte() {
    perl -e 'open(my $f, "+<", $ARGV[0]) or die; binmode $f;
             seek($f, $ARGV[1], 0); read($f, my $c, 1);
             seek($f, $ARGV[1], 0); print $f chr(ord($c) ^ 0xff); close $f' "$1" "$2"
}

# set_byte FILE OFFSET VALUE: overwrite one byte in place.
set_byte() {
    perl -e 'open(my $f, "+<", $ARGV[0]) or die; binmode $f;
             seek($f, $ARGV[1], 0); print $f chr($ARGV[2]); close $f' "$1" "$2" "$3"
}

# report_is_ref TYPE FILE [OPTIONS...]: sc-stat -e TYPE ${EXTRA[@]}
# OPTIONS FILE prints sc-ref stat's report of FILE, line for line, but
# for distinct: an estimate within 3 % of sc-ref's exact count
# (stat64.bats; records-stat.bats, whose OPTIONS name records).
report_is_ref() {
    local t=$1 f=$2
    shift 2
    ref stat --type "$t" "$@" < "$f" > want || { echo "# sc-ref stat $* failed" >&2; return 1; }
    sc-stat -e "$t" "${EXTRA[@]}" "$@" "$f" > got 2> err ||
        { echo "# sc-stat -e $t ${EXTRA[*]} $* failed: $(cat err)" >&2; return 1; }
    grep -v '^distinct ' want > want.rest
    grep -v '^distinct ' got > got.rest
    diff want.rest got.rest >&2 || { echo "# sc-stat -e $t ${EXTRA[*]} $* $f" >&2; return 1; }
    local exact guess
    exact=$(sed -n 's/^distinct //p' want)
    guess=$(sed -n 's/^distinct //p' got)
    [ "$exact" = "$guess" ] && return 0
    awk -v x="$exact" -v e="$guess" 'BEGIN { d = e - x; if (d < 0) d = -d;
        exit !(x != "" && e != "" && d <= 0.03 * x) }' ||
        { echo "# -e $t $*: distinct exact '$exact', estimate '$guess'" >&2; return 1; }
}

# Records (records.bats, records-sort.bats, records-field.bats,
# records-stat.bats).

# recgen FILE SIZE OFF TYPE COUNT SEED [sc-ref options]: COUNT records of
# SIZE bytes from sc-ref gen, checked to be COUNT records long.
recgen() {
    local f=$1 size=$2 off=$3 t=$4 n=$5 s=$6
    shift 6
    ref gen --record "$size" --key "$off:$t" -n "$n" -s "$s" "$@" > "$f" ||
        { echo "# sc-ref gen --record $size --key $off:$t failed" >&2; return 1; }
    [ "$(stat -c %s "$f")" -eq $((size * n)) ] ||
        { echo "# $f: $(stat -c %s "$f") bytes, not $((size * n))" >&2; return 1; }
}

# offsets SIZE TYPE: the key at the start, in the middle and at the end
# of a SIZE-byte record (aligned to the key's size), each once.
offsets() {
    local size=$1 w=4
    case $2 in u64|i64|f64) w=8 ;; esac
    [ "$w" -le "$size" ] || return 0
    local last=$(((size - w) / w * w)) mid=$(((size / 2) / w * w))
    [ "$mid" -gt "$last" ] && mid=$last
    printf '%s\n' 0 "$mid" "$last" | sort -un
}

# for_each_layout TYPES FN: FN SIZE OFF TYPE K for each record size (4,
# 8, 12, 16, 64, 4096), key type of TYPES and key place (offsets), K
# counting them from 0; stops at the first FN that fails, naming its
# layout.  LAYOUTS is then how many ran.
for_each_layout() {
    local types=$1 fn=$2 size t off
    LAYOUTS=0
    for size in 4 8 12 16 64 4096; do
        for t in $types; do
            for off in $(offsets "$size" "$t"); do
                "$fn" "$size" "$off" "$t" "$LAYOUTS" ||
                    { echo "# --record $size --key $off:$t" >&2; return 1; }
                LAYOUTS=$((LAYOUTS + 1))
            done
        done
    done
}

# members FILE: "offset isize" of each BGZF member of FILE.
members() {
    perl -e 'local $/; open(my $f, "<", $ARGV[0]) or die; binmode $f;
             my $d = <$f>; my $at = 0;
             while ($at < length $d) {
                 my $size = unpack("v", substr($d, $at + 16, 2)) + 1;
                 my $isize = unpack("V", substr($d, $at + $size - 4, 4));
                 print "$at $isize\n"; $at += $size;
             }' "$1"
}

# zstd_built: true when this sc reads and writes zstd (configure
# --with-zstd, the default where libzstd is found).
zstd_built() {
    sc-gen -n 0 --zstd > /dev/null 2>&1
}
