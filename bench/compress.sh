#!/bin/sh
# compress.sh — sc's gzip and zstd, written and read, against the peers
# (pigz, igzip, libdeflate-gzip, bgzip, zstd -T0, pzstd, gzip) measured in
# the same run on the same data, with a line per target of issue #29
# ("compressed streams at the speed of raw ones").  Run by bench/run-bench
# (BENCH_COMPRESS=0 leaves it out) and by `scripts/gpu compress`; alone:
#   bench/compress.sh BIN_DIR
#
# Environment:
#   COMPRESS_BYTES    bytes of each input (default 1G; suffix K, M or G)
#   COMPRESS_PREFIX   bytes of the prefix that one-thread peers (gzip,
#                     libdeflate-gzip) and the size comparison use
#                     (default 64M, at most COMPRESS_BYTES)
#   COMPRESS_KINDS    data kinds, of "half max1000 binary" (default all)
#   COMPRESS_FILE     the real file for "binary" (default: the largest
#                     libcublasLt.so of the CUDA toolkit or Python's
#                     site-packages, else torch/lib's largest .so, else the
#                     largest .so found under /usr/lib, /usr/local, /opt)
#   COMPRESS_THREADS  threads given to the parallel peers (default nproc)
#   COMPRESS_SLOW     a run longer than this many seconds is not repeated
#                     (default 1.5)
#   COMPRESS_BUDGET   past this many seconds every run is taken once (300)
#   BENCH_DIR         where the temporary directory goes ($TMPDIR or /tmp)
#
# Every figure is GB/s (1e9 bytes a second) of uncompressed data, wall
# clock, each command run as a user runs it from a file in the page cache:
# the median of 3 runs, or 1 run (marked *) where the first took longer
# than COMPRESS_SLOW or the bench had run past COMPRESS_BUDGET.  Peers that are missing or fail a round trip are
# skipped with a line saying so.
set -eu
BIN=${1:?usage: bench/compress.sh BIN_DIR}
. "$(dirname "$0")/tools-env.sh"

# bytes SIZE: SIZE with an optional K, M or G suffix, in bytes
bytes() {
    awk -v s="$1" 'BEGIN { m = 1; u = toupper(substr(s, length(s)))
        if (u == "K") m = 1024; else if (u == "M") m = 1048576; else if (u == "G") m = 1073741824
        if (m > 1) s = substr(s, 1, length(s) - 1)
        printf "%.0f\n", s * m }'
}
SIZE=$(bytes "${COMPRESS_BYTES:-1G}")
SIZE=$((SIZE / 4 * 4))
PREFIX=$(bytes "${COMPRESS_PREFIX:-64M}")
[ "$PREFIX" -le "$SIZE" ] || PREFIX=$SIZE
PREFIX=$((PREFIX / 4 * 4))
EIGHTH=$((SIZE / 32 * 4))
KINDS=${COMPRESS_KINDS:-half max1000 binary}
NT=${COMPRESS_THREADS:-$(nproc)}
SLOW=${COMPRESS_SLOW:-1.5}
BUDGET=${COMPRESS_BUDGET:-300}
SC=$BIN/sc-compact
KEEP="--range 0:4294967295"     # sc-compact's keep-all: data through unchanged

D=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/sc-compress.XXXXXX")
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
RES=$D/results          # KIND KEY SECONDS BYTES RUNS RSS_KIB CPU%  (or FAIL)
: >"$RES"
T0=$(date +%s)

say() { printf '%s\n' "$*"; }
calc() { awk "BEGIN { printf \"%.${2:-2}f\", $1 }"; }
elapsed() { echo $(($(date +%s) - T0)); }

# GNU time, for each run's peak RSS and CPU share (not the shell's keyword)
GTIME=
for d in /usr/bin $(echo "$PATH" | tr ':' ' '); do
    if [ -x "$d/time" ] && "$d/time" -f '%M %P' -o "$D/probe" true 2>/dev/null; then
        GTIME=$d/time; break
    fi
done

# --------------------------------------------------------------- measuring
# measure KEY LABEL BYTES OUT CMD: times CMD (eval'd) and records it under
# KEY for the current $kind; one printed row.  OUT, the file it writes (or
# "-"), is removed before each run, which drops its dirty pages unwritten,
# and the last is written back after the last run, so that no writeback
# falls into the next command's time; both untimed.  CMD's standard
# output is kept in $D/stdout.KEY.
measure() {
    _key=$1 _label=$2 _b=$3 _out=$4 _cmd=$5 _times= _n=0 _rss=0 _cpu=0
    while :; do
        [ "$_out" = - ] || rm -f "$_out"
        _t0=$(date +%s.%N)
        if [ -n "$GTIME" ]; then
            eval "\"\$GTIME\" -f '%M %P' -o \"\$D/rss\" $_cmd" >"$D/stdout.$_key" 2>"$D/err" || _st=$?
        else
            eval "$_cmd" >"$D/stdout.$_key" 2>"$D/err" || _st=$?
        fi
        _t1=$(date +%s.%N)
        if [ "${_st:-0}" -ne 0 ]; then
            printf '    %-44s FAIL (exit %s): %s\n' "$_label" "$_st" "$(grep -v 'exited with non-zero' "$D/err" | head -n 1)"
            printf '%s %s FAIL\n' "$kind" "$_key" >>"$RES"
            unset _st
            return 0
        fi
        _t=$(calc "$_t1 - $_t0" 4)
        _times="$_times $_t"
        _n=$((_n + 1))
        if [ -n "$GTIME" ]; then
            set -- $(tail -n 1 "$D/rss")
            [ "$1" -le "$_rss" ] || _rss=$1
            _cpu=${2%\%}
        fi
        [ $_n -lt 3 ] || break
        [ $_n -eq 2 ] && continue       # a median of 3, once begun
        awk "BEGIN { exit !($_t > $SLOW) }" && break
        [ "$(elapsed)" -le "$BUDGET" ] || break
    done
    [ "$_out" = - ] || sync
    _med=$(printf '%s\n' $_times | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
    printf '%s %s %s %s %s %s %s\n' "$kind" "$_key" "$_med" "$_b" "$_n" "$_rss" "$_cpu" >>"$RES"
    printf '    %-44s %8.3f s %7.2f GB/s%s  %s\n' "$_label" "$_med" \
        "$(calc "$_b / $_med / 1e9")" "$([ $_n -eq 3 ] || echo " *")" \
        "$([ -z "$GTIME" ] || echo "RSS $(calc "$_rss / 1024" 1) MiB, CPU $_cpu%")"
}

# get KIND KEY [FIELD]: a recorded figure: GB/s (default, 2 decimals),
# rate (GB/s, 6 digits), s, rss (MiB), runs, size; "" when not measured
# or failed
get() {
    awk -v k="$1" -v key="$2" -v f="${3:-gbs}" '
        $1 == k && $2 == key && $3 != "FAIL" {
            if (f == "gbs") printf "%.2f", $4 / $3 / 1e9
            else if (f == "rate") printf "%.6g", $4 / $3 / 1e9
            else if (f == "s") print $3
            else if (f == "rss") printf "%.1f", $6 / 1024
            else if (f == "runs") print $5
            else if (f == "size") print $3
            exit }' "$RES"
}

# size KEY FILE: records FILE's size under size.KEY (as "seconds")
size() {
    [ -s "$2" ] || return 0
    printf '%s size.%s %s 0 0 0 0\n' "$kind" "$1" "$(wc -c <"$2")" >>"$RES"
}

# ------------------------------------------------------------------- peers
# works NAME CMD: whether a peer is there and CMD, a round trip through it
# (sh -c, with $0 a directory for its files), gives its input back: pigz
# with a zlib it does not know aborts ("zlib version less than 1.2.3").
have_tool() { command -v "$1" >/dev/null 2>&1; }
works() {
    _name=$1; shift
    if ! have_tool "$_name"; then
        say "  $_name: not found, skipped"
        return 1
    fi
    if [ "$(printf 'sc probe' | sh -c "$*" "$D" 2>"$D/err")" != "sc probe" ]; then
        say "  $_name: fails a round trip ($(head -n 1 "$D/err")), skipped"
        return 1
    fi
    return 0
}
version() { "$@" 2>&1 | grep -m 1 -E '[0-9]+\.[0-9]+' | cut -c1-70 || true; }

say "== compress: sc's gzip and zstd against the peers, $(date -u '+%Y-%m-%d %H:%M UTC') on $(uname -n), $(nproc) CPUs"
say "  sc: $("$SC" --version 2>&1 | head -n 1) ($BIN)"
say "  inputs: $SIZE bytes each, in the page cache; one-thread peers and sizes on a prefix of $PREFIX bytes"
say "  GB/s of uncompressed data, wall clock, median of 3 (* = 1 run: the first took over ${SLOW} s, or past ${BUDGET} s of the bench)"
[ -n "$GTIME" ] || say "  no GNU time found: no RSS or CPU figures"
P_PIGZ= P_IGZIP= P_LD= P_LDU= P_BGZIP= P_ZSTD= P_PZSTD= P_GZIP=
works gzip 'gzip -1 -c | gzip -dc' && P_GZIP=1
works pigz "pigz -p $NT -1 -c | pigz -dc" && P_PIGZ=1
works igzip "igzip -1 -c | igzip -dc" && P_IGZIP=1
works libdeflate-gzip 'cat >"$0/ld" && libdeflate-gzip -1 -c "$0/ld" | gzip -dc' && P_LD=1
works libdeflate-gunzip 'gzip -c >"$0/ld.gz" && libdeflate-gunzip -c "$0/ld.gz"' && P_LDU=1
works bgzip "bgzip -@ $NT -l 1 -c | bgzip -dc -@ $NT" && P_BGZIP=1
works zstd 'zstd -q -T0 -3 -c | zstd -q -dc -T0' && P_ZSTD=1
works pzstd "pzstd -q -p $NT -3 -c | pzstd -q -dc -p $NT" && P_PZSTD=1
for t in gzip pigz igzip libdeflate-gzip bgzip zstd pzstd; do
    have_tool "$t" || continue
    case $t in
    libdeflate-gzip) v=$(version libdeflate-gzip -V) ;;
    *) v=$(version "$t" --version) ;;
    esac
    say "  $t: $(command -v "$t"): $v"
done
[ -z "$GTIME" ] || say "  RSS and CPU share: $GTIME -f '%M %P'"

# ------------------------------------------------------------------ inputs
# find_binary: the real file "binary" is made of (see COMPRESS_FILE above)
largest() {
    for f in "$@"; do [ -f "$f" ] && printf '%s %s\n' "$(wc -c <"$f")" "$f"; done |
        sort -n | tail -n 1 | cut -d' ' -f2-
}
find_binary() {
    if [ -n "${COMPRESS_FILE:-}" ]; then echo "$COMPRESS_FILE"; return; fi
    sites=$(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null || true)
    f=$(largest /usr/local/cuda*/lib64/libcublasLt.so* \
                /usr/local/cuda*/targets/*/lib/libcublasLt.so* \
                /usr/lib/x86_64-linux-gnu/libcublasLt.so* \
                $(for s in $sites; do echo "$s"/nvidia/cublas/lib/libcublasLt.so* "$s"/nvidia/cu*/lib/libcublasLt.so*; done))
    [ -n "$f" ] || f=$(largest $(for s in $sites; do echo "$s"/torch/lib/*.so*; done))
    [ -n "$f" ] || f=$(find /usr/lib /usr/local /opt -xdev -type f -name '*.so*' -size +1M \
                           -printf '%s %p\n' 2>/dev/null | sort -n | tail -n 1 | cut -d' ' -f2-)
    echo "$f"
}

# make_input KIND FILE: SIZE bytes of data of KIND; says what it is
make_input() {
    n=$((SIZE / 4))
    case $1 in
    half) "$BIN/sc-gen" -n "$n" --density 0.5 -o "$2"
          say "sc-gen -n $n --density 0.5 (half zeros)" ;;
    max1000) "$BIN/sc-gen" -n "$n" --max 1000 -o "$2"
          say "sc-gen -n $n --max 1000" ;;
    binary)
        src=$(find_binary)
        [ -n "$src" ] && [ -s "$src" ] || { say "no file found"; return 1; }
        : >"$2"
        while [ "$(wc -c <"$2")" -lt "$SIZE" ]; do cat "$src" >>"$2"; done
        truncate -s "$SIZE" "$2"
        if [ "$(wc -c <"$src")" -ge "$SIZE" ]; then how="its first $SIZE bytes"
        else how="repeated to $SIZE bytes"; fi
        say "$src ($(wc -c <"$src") bytes) as uint32, $how" ;;
    *) say "unknown kind"; return 1 ;;
    esac
}

# ------------------------------------------------------------- one kind
# read_row KEY LABEL BYTES FILE CMD: measure, when FILE was written
read_row() {
    if [ -s "$4" ]; then measure "$1" "$2" "$3" - "$5"
    else printf '    %-44s skipped: no %s (its writer missing or failed)\n' "$2" "${4##*/}"; fi
}

# decode FILE: FILE decompressed to standard output by the fastest
# gzip/zstd reader there is (sc's peers: this checks sc's output)
decode() {
    case $1 in
    *.zst) zstd -q -dc "$1" ;;
    *) if [ -n "$P_IGZIP" ]; then igzip -dc "$1"
       elif [ -n "$P_LDU" ]; then libdeflate-gunzip -c "$1"
       else gzip -dc "$1"; fi ;;
    esac
}

# same_as REF FILE WHAT: one check line: FILE decodes to REF
same_as() {
    if [ ! -s "$2" ] || { case $2 in *.zst) [ -z "$P_ZSTD" ] ;; *) false ;; esac; }; then
        say "  check: $3: not checked"
    elif decode "$2" | cmp -s - "$1"; then say "  check: $3: yes"
    else say "  check: $3: NO  <-- tool problem"; fi
}

run_kind() {
    kind=$1 F=$D/in P=$D/in
    if ! what=$(make_input "$kind" "$F"); then say ""; say "== $kind: skipped: $what"; return 0; fi
    if [ "$PREFIX" -lt "$SIZE" ]; then P=$D/prefix; head -c "$PREFIX" "$F" >"$P"; fi
    sync
    cat "$F" "$P" >/dev/null
    say ""
    say "== $kind: $what"
    say "  write, from the file to a file (GB/s of input)"
    measure w_sc1 "sc-compact -z --level 1" "$SIZE" "$D/own1.gz" '"$SC" $KEEP -z --level 1 "$F" -o "$D/own1.gz"'
    [ -z "$P_PIGZ" ] || measure w_pigz1 "pigz -p$NT -1" "$SIZE" "$D/pigz1.gz" 'pigz -p "$NT" -1 -c "$F" >"$D/pigz1.gz"'
    [ -z "$P_IGZIP" ] || measure w_igzip1 "igzip -1 -T $NT (threads if built with them)" "$SIZE" "$D/igzip1.gz" 'igzip -1 -T "$NT" -c "$F" >"$D/igzip1.gz"'
    [ -z "$P_BGZIP" ] || measure w_bgzip1 "bgzip -@$NT -l 1" "$SIZE" "$D/bgzip1.gz" 'bgzip -@ "$NT" -l 1 -c "$F" >"$D/bgzip1.gz"'
    measure w_sc6 "sc-compact -z --level 6" "$SIZE" "$D/own6.gz" '"$SC" $KEEP -z --level 6 "$F" -o "$D/own6.gz"'
    [ -z "$P_PIGZ" ] || measure w_pigz6 "pigz -p$NT -6" "$SIZE" "$D/pigz6.gz" 'pigz -p "$NT" -6 -c "$F" >"$D/pigz6.gz"'
    [ -z "$P_BGZIP" ] || measure w_bgzip6 "bgzip -@$NT -l 6" "$SIZE" "$D/bgzip6.gz" 'bgzip -@ "$NT" -l 6 -c "$F" >"$D/bgzip6.gz"'
    measure w_sczst "sc-compact --zstd --level 3" "$SIZE" "$D/own.zst" '"$SC" $KEEP --zstd --level 3 "$F" -o "$D/own.zst"'
    [ -z "$P_ZSTD" ] || measure w_zstd "zstd -T0 -3" "$SIZE" "$D/zstd.zst" 'zstd -q -T0 -3 -c "$F" >"$D/zstd.zst"'
    [ -z "$P_PZSTD" ] || measure w_pzstd "pzstd -p$NT -3" "$SIZE" "$D/pzstd.zst" 'pzstd -q -p "$NT" -3 -c "$F" >"$D/pzstd.zst"'
    say "  write, one thread, the $PREFIX-byte prefix"
    [ -z "$P_LD" ] || measure w_ld1 "libdeflate-gzip -1" "$PREFIX" "$D/ld1.gz" 'libdeflate-gzip -1 -c "$P" >"$D/ld1.gz"'
    [ -z "$P_LD" ] || measure w_ld6 "libdeflate-gzip -6" "$PREFIX" "$D/ld6.gz" 'libdeflate-gzip -6 -c "$P" >"$D/ld6.gz"'
    [ -z "$P_GZIP" ] || measure w_gzip1 "gzip -1" "$PREFIX" "$D/gzip1.gz" 'gzip -1 -c "$P" >"$D/gzip1.gz"'
    [ -z "$P_GZIP" ] || measure w_gzip6 "gzip -6" "$PREFIX" "$D/gzip6.gz" 'gzip -6 -c "$P" >"$D/gzip6.gz"'
    for f in own1.gz own6.gz own.zst pigz1.gz pigz6.gz igzip1.gz bgzip1.gz bgzip6.gz zstd.zst pzstd.zst ld1.gz ld6.gz; do
        size "$f" "$D/$f"
    done
    # The size targets compare the same bytes: sc against one stream of
    # the same level (gzip -N, zstd -N on one thread: one frame).
    "$SC" $KEEP -z --level 1 "$P" -o "$D/p1.gz" && size p_own1 "$D/p1.gz"
    "$SC" $KEEP -z --level 6 "$P" -o "$D/p6.gz" && size p_own6 "$D/p6.gz"
    "$SC" $KEEP --zstd --level 3 "$P" -o "$D/p.zst" && size p_ownzst "$D/p.zst"
    size p_gzip1 "$D/gzip1.gz"
    size p_gzip6 "$D/gzip6.gz"
    if [ -n "$P_ZSTD" ]; then zstd -q -T1 -3 -c "$P" >"$D/p1t.zst" && size p_zstd "$D/p1t.zst"; fi
    same_as "$F" "$D/own1.gz" "sc-compact -z --level 1 output decodes to the input"
    same_as "$F" "$D/own.zst" "sc-compact --zstd output decodes to the input"
    rm -f "$D/own1.gz" "$D/pigz1.gz" "$D/igzip1.gz" "$D/bgzip1.gz" "$D/ld1.gz" "$D/ld6.gz" \
          "$D/gzip1.gz" "$D/p1.gz" "$D/p6.gz" "$D/p.zst" "$D/p1t.zst"

    say "  read, each file to nothing (GB/s of uncompressed data)"
    measure r_cat "cat F >/dev/null (raw)" "$SIZE" - 'cat "$F" >/dev/null'
    measure r_raw "sc-compact --count F (raw)" "$SIZE" - '"$SC" --count "$F"'
    read_row r_own6 "sc-compact --count, sc's -z" "$SIZE" "$D/own6.gz" '"$SC" --count "$D/own6.gz"'
    read_row r_bgzipf "sc-compact --count, bgzip's" "$SIZE" "$D/bgzip6.gz" '"$SC" --count "$D/bgzip6.gz"'
    read_row r_pigzf "sc-compact --count, pigz's" "$SIZE" "$D/pigz6.gz" '"$SC" --count "$D/pigz6.gz"'
    read_row r_gzipf "sc-compact --count, gzip's (prefix)" "$PREFIX" "$D/gzip6.gz" '"$SC" --count "$D/gzip6.gz"'
    read_row r_ownzst "sc-compact --count, sc's --zstd" "$SIZE" "$D/own.zst" '"$SC" --count "$D/own.zst"'
    read_row r_zstdf "sc-compact --count, zstd -T0's" "$SIZE" "$D/zstd.zst" '"$SC" --count "$D/zstd.zst"'
    read_row r_pzstdf "sc-compact --count, pzstd's" "$SIZE" "$D/pzstd.zst" '"$SC" --count "$D/pzstd.zst"'
    [ -z "$P_IGZIP" ] || read_row p_igzip_pigz "igzip -dc, pigz's" "$SIZE" "$D/pigz6.gz" 'igzip -dc "$D/pigz6.gz" >/dev/null'
    [ -z "$P_IGZIP" ] || read_row p_igzip_gzip "igzip -dc, gzip's (prefix)" "$PREFIX" "$D/gzip6.gz" 'igzip -dc "$D/gzip6.gz" >/dev/null'
    [ -z "$P_PIGZ" ] || read_row p_pigz_pigz "pigz -dc, pigz's" "$SIZE" "$D/pigz6.gz" 'pigz -dc "$D/pigz6.gz" >/dev/null'
    [ -z "$P_LDU" ] || read_row p_ld_pigz "libdeflate-gunzip -c, pigz's" "$SIZE" "$D/pigz6.gz" 'libdeflate-gunzip -c "$D/pigz6.gz" >/dev/null'
    [ -z "$P_GZIP" ] || read_row p_gzip_gzip "gzip -dc, gzip's (prefix)" "$PREFIX" "$D/gzip6.gz" 'gzip -dc "$D/gzip6.gz" >/dev/null'
    [ -z "$P_BGZIP" ] || read_row p_bgzip_bgzip "bgzip -dc -@$NT, bgzip's" "$SIZE" "$D/bgzip6.gz" 'bgzip -dc -@ "$NT" "$D/bgzip6.gz" >/dev/null'
    [ -z "$P_BGZIP" ] || read_row p_bgzip_own "bgzip -dc -@$NT, sc's -z" "$SIZE" "$D/own6.gz" 'bgzip -dc -@ "$NT" "$D/own6.gz" >/dev/null'
    [ -z "$P_ZSTD" ] || read_row p_zstd_own "zstd -dc -T0, sc's --zstd" "$SIZE" "$D/own.zst" 'zstd -q -dc -T0 "$D/own.zst" >/dev/null'
    [ -z "$P_ZSTD" ] || read_row p_zstd_zstd "zstd -dc -T0, zstd -T0's" "$SIZE" "$D/zstd.zst" 'zstd -q -dc -T0 "$D/zstd.zst" >/dev/null'
    [ -z "$P_PZSTD" ] || read_row p_pzstd_pzstd "pzstd -dc -p$NT, pzstd's" "$SIZE" "$D/pzstd.zst" 'pzstd -q -dc -p "$NT" "$D/pzstd.zst" >/dev/null'
    n_all=$(cat "$D/stdout.r_raw" 2>/dev/null || true)
    n_pre=$n_all
    [ "$P" = "$F" ] || n_pre=$("$SC" --count "$P")
    bad=
    for key in r_own6 r_bgzipf r_pigzf r_gzipf r_ownzst r_zstdf r_pzstdf; do
        [ -s "$D/stdout.$key" ] || continue
        want=$n_all
        [ "$key" != r_gzipf ] || want=$n_pre
        [ "$(cat "$D/stdout.$key")" = "$want" ] || bad="$bad $key"
    done
    if [ -z "$n_all" ]; then say "  check: counts: not checked (the raw count failed)"
    elif [ -z "$bad" ]; then say "  check: every sc-compact --count equals the raw file's ($n_all)"
    else say "  check: counts: NO  <-- tool problem:$bad differ from the raw file's $n_all"; fi
    rm -f "$D"/stdout.*

    say "  sort, file to file (GB/s of input)"
    measure s_raw "sc-rsort F -o out" "$SIZE" "$D/sorted" '"$BIN/sc-rsort" "$F" -o "$D/sorted"'
    if [ -s "$D/own6.gz" ]; then
        measure s_gz "sc-rsort -z F.gz -o out.gz (sc's -z in)" "$SIZE" "$D/sorted.gz" '"$BIN/sc-rsort" -z "$D/own6.gz" -o "$D/sorted.gz"'
        [ ! -s "$D/sorted" ] || same_as "$D/sorted" "$D/sorted.gz" "sc-rsort -z output decodes to sc-rsort's"
    fi
    rm -f "$D/sorted" "$D/sorted.gz"

    if [ "$kind" = "$first_kind" ] && [ -n "$GTIME" ]; then
        say "  peak RSS at $EIGHTH bytes, an eighth (against the runs above)"
        head -c "$EIGHTH" "$F" >"$D/eighth"
        kind=$kind.8
        measure w_sc6 "sc-compact -z --level 6" "$EIGHTH" "$D/e6.gz" '"$SC" $KEEP -z --level 6 "$D/eighth" -o "$D/e6.gz"'
        measure w_sczst "sc-compact --zstd --level 3" "$EIGHTH" "$D/e.zst" '"$SC" $KEEP --zstd --level 3 "$D/eighth" -o "$D/e.zst"'
        read_row r_own6 "sc-compact --count, sc's -z" "$EIGHTH" "$D/e6.gz" '"$SC" --count "$D/e6.gz"'
        read_row r_ownzst "sc-compact --count, sc's --zstd" "$EIGHTH" "$D/e.zst" '"$SC" --count "$D/e.zst"'
        kind=${kind%.8}
    fi
    rm -f "$D"/*.gz "$D"/*.zst "$D/in" "$D/prefix" "$D/eighth"
}

# --------------------------------------------------------------- summary
# cell KIND KEY: GB/s, * when from one run, - when not measured
cell() {
    v=$(get "$1" "$2")
    if [ -z "$v" ]; then echo -; else echo "$v$([ "$(get "$1" "$2" runs)" = 3 ] || echo '*')"; fi
}
# ratio KIND KEY_A KEY_B FIELD: A/B of a figure (sizes: "size"; seconds: "s")
ratio() {
    a=$(get "$1" "$2" "$4") b=$(get "$1" "$3" "$4")
    if [ -n "$a" ] && [ -n "$b" ]; then calc "$a / $b" 3; else echo -; fi
}
trow() { printf '  %-44s' "$1"; shift; for c in "$@"; do printf ' %10s' "$c"; done; printf '\n'; }

table() {
    trow "GB/s (* one run)" $KINDS_RUN
    while IFS='|' read -r label key; do
        case $key in
        '') trow "$label" ;;
        size.*) set --; for k in $KINDS_RUN; do
                    s=$(get "$k" "$key" size)
                    set -- "$@" "$([ -n "$s" ] && echo "$(calc "100 * $s / $SIZE" 1)%" || echo -)"; done
                trow "$label" "$@" ;;
        *:*) set --; for k in $KINDS_RUN; do set -- "$@" "$(ratio "$k" size.${key%:*} size.${key#*:} size)"; done
             trow "$label" "$@" ;;
        *) set --; for k in $KINDS_RUN; do set -- "$@" "$(cell "$k" "$key")"; done
           trow "$label" "$@" ;;
        esac
    done <<EOF_ROWS
write, GB/s of input|
  sc-compact -z --level 1|w_sc1
  pigz -p$NT -1|w_pigz1
  igzip -1 -T $NT|w_igzip1
  bgzip -@$NT -l 1|w_bgzip1
  libdeflate-gzip -1 (prefix, 1 thread)|w_ld1
  gzip -1 (prefix)|w_gzip1
  sc-compact -z --level 6|w_sc6
  pigz -p$NT -6|w_pigz6
  bgzip -@$NT -l 6|w_bgzip6
  libdeflate-gzip -6 (prefix, 1 thread)|w_ld6
  gzip -6 (prefix)|w_gzip6
  sc-compact --zstd --level 3|w_sczst
  zstd -T0 -3|w_zstd
  pzstd -p$NT -3|w_pzstd
read, GB/s of uncompressed data|
  cat F (raw)|r_cat
  sc-compact --count F (raw)|r_raw
  sc, sc's -z|r_own6
  sc, bgzip's|r_bgzipf
  sc, pigz's|r_pigzf
  sc, gzip's (prefix)|r_gzipf
  sc, sc's --zstd|r_ownzst
  sc, zstd -T0's|r_zstdf
  sc, pzstd's|r_pzstdf
  igzip -dc, pigz's|p_igzip_pigz
  igzip -dc, gzip's (prefix)|p_igzip_gzip
  pigz -dc, pigz's|p_pigz_pigz
  libdeflate-gunzip -c, pigz's|p_ld_pigz
  gzip -dc, gzip's (prefix)|p_gzip_gzip
  bgzip -dc -@$NT, bgzip's|p_bgzip_bgzip
  bgzip -dc -@$NT, sc's -z|p_bgzip_own
  zstd -dc -T0, sc's --zstd|p_zstd_own
  zstd -dc -T0, zstd -T0's|p_zstd_zstd
  pzstd -dc -p$NT, pzstd's|p_pzstd_pzstd
sort, GB/s of input|
  sc-rsort F -o out|s_raw
  sc-rsort -z F.gz -o out.gz|s_gz
compressed size, % of the input|
  sc -z --level 1|size.own1.gz
  pigz -1|size.pigz1.gz
  sc -z --level 6|size.own6.gz
  pigz -6|size.pigz6.gz
  bgzip -l 6|size.bgzip6.gz
  sc --zstd --level 3|size.own.zst
  zstd -T0 -3|size.zstd.zst
  pzstd -3|size.pzstd.zst
size against one stream, same prefix|
  sc -z -1 / gzip -1|p_own1:p_gzip1
  sc -z -6 / gzip -6|p_own6:p_gzip6
  sc --zstd -3 / zstd -3 -T1|p_ownzst:p_zstd
EOF_ROWS
}

# target LABEL FN: one line per target; FN KIND prints "SHOWN ok|no", or
# nothing where the figures are missing.  met: on every kind.
target() {
    _shown= _no= _missing=
    for k in $KINDS_RUN; do
        r=$($2 "$k")
        if [ -z "$r" ]; then _shown="$_shown${_shown:+ | }-"; _missing=1; continue; fi
        _shown="$_shown${_shown:+ | }${r% *}"
        [ "${r##* }" = ok ] || _no=1
    done
    if [ -n "$_no" ]; then v="NOT MET"
    elif [ -n "$_missing" ]; then v="not measured on every kind"
    else v=met; fi
    printf '  %-56s %-44s %s\n' "$1" "$_shown" "$v"
}
# at_least KIND KEY MIN: a rate against a floor
at_least() {
    v=$(get "$1" "$2" rate)
    [ -z "$v" ] || echo "$(calc "$v") $(awk "BEGIN { print ($v >= $3) ? \"ok\" : \"no\" }")"
}
# beats KIND OURS PEER MIN [FLOOR]: our rate over the peer's, at least MIN
# (and ours at least FLOOR GB/s)
beats() {
    o=$(get "$1" "$2" rate) p=$(get "$1" "$3" rate)
    [ -n "$o" ] && [ -n "$p" ] || return 0
    r=$(calc "$o / $p")
    echo "$([ -z "${5:-}" ] || echo "$(calc "$o") GB/s ")${r}x $(awk "BEGIN { print ($o / $p >= $4 && $o >= ${5:-0}) ? \"ok\" : \"no\" }")"
}
t_read_own_gz() { at_least "$1" r_own6 8; }
t_read_bgzip() { at_least "$1" r_bgzipf 8; }
t_read_own_zst() { at_least "$1" r_ownzst 8; }
t_read_pzstd() { at_least "$1" r_pzstdf 8; }
t_read_pigz() { beats "$1" r_pigzf p_igzip_pigz 1; }
t_read_gzip() { beats "$1" r_gzipf p_igzip_gzip 1; }
t_read_par() { at_least "$1" r_pigzf 2; }
t_write1() { beats "$1" w_sc1 w_pigz1 4 4; }
t_write6() { beats "$1" w_sc6 w_pigz6 2; }
t_writez() { beats "$1" w_sczst w_zstd 2 3; }
t_sort() {
    r=$(ratio "$1" s_gz s_raw s)
    [ "$r" = - ] || echo "${r}x $(awk "BEGIN { print ($r <= 1.5) ? \"ok\" : \"no\" }")"
}
within3() {
    r=$(ratio "$1" "$2" "$3" size)
    [ "$r" = - ] || echo "$r $(awk "BEGIN { print ($r <= 1.03) ? \"ok\" : \"no\" }")"
}
t_size1() { within3 "$1" size.p_own1 size.p_gzip1; }
t_size6() { within3 "$1" size.p_own6 size.p_gzip6; }
t_sizez() { within3 "$1" size.p_ownzst size.p_zstd; }
# flat KEY: peak RSS at the full size over that at an eighth (first kind)
flat() {
    a=$(get "$first_kind" "$1" rss) b=$(get "$first_kind.8" "$1" rss)
    [ -n "$a" ] && [ -n "$b" ] || return 0
    r=$(calc "$a / $b")
    echo "${r}x $(awk "BEGIN { print ($a / $b <= 1.25) ? \"ok\" : \"no\" }")"
}
t_mem() {
    [ "$1" = "$first_kind" ] || { echo "- ok"; return; }
    s= bad=
    for key in w_sc6 w_sczst r_own6 r_ownzst; do
        r=$(flat $key)
        [ -n "$r" ] || return 0
        s="$s${s:+ }${r% *}"
        [ "${r##* }" = ok ] || bad=1
    done
    echo "$s $([ -z "$bad" ] && echo ok || echo no)"
}

targets() {
    say "  (values per kind, in the table's order of columns: $KINDS_RUN; met: on every kind)"
    say "  (>= 8 GB/s is also >= 20x the 0.20-0.35 GB/s that 7983fa9 read its own gzip at)"
    target "read sc's own gzip >= 8 GB/s" t_read_own_gz
    target "read bgzip's gzip >= 8 GB/s" t_read_bgzip
    target "read sc's own zstd >= 8 GB/s" t_read_own_zst
    target "read pzstd's zstd >= 8 GB/s" t_read_pzstd
    target "read single-stream gzip (pigz's) >= igzip -dc" t_read_pigz
    target "read single-stream gzip (gzip's, prefix) >= igzip -dc" t_read_gzip
    target "  its parallel decoder, if kept: >= 2 GB/s" t_read_par
    target "write gzip level 1 >= 4 GB/s and >= 4x pigz -p$NT -1" t_write1
    target "write gzip level 6 >= 2x pigz -p$NT -6" t_write6
    target "write zstd level 3 >= 3 GB/s and >= 2x zstd -T0 -3" t_writez
    target "sc-rsort -z F.gz -o out.gz <= 1.5x sc-rsort F -o out (s)" t_sort
    target "size, gzip level 1, within 3 % of gzip -1" t_size1
    target "size, gzip level 6, within 3 % of gzip -6" t_size6
    target "size, zstd level 3, within 3 % of zstd -3 (one frame)" t_sizez
    target "memory flat: RSS at $SIZE B / at an eighth <= 1.25" t_mem
    say "    (memory, on $first_kind: sc's -z write, --zstd write, -z read, --zstd read;"
    say "     MiB at $SIZE bytes / at $EIGHTH:$(for key in w_sc6 w_sczst r_own6 r_ownzst; do
        printf ' %s/%s' "$(get "$first_kind" $key rss)" "$(get "$first_kind.8" $key rss)"; done))"
}

# ------------------------------------------------------------------ main
first_kind=${KINDS%% *}
KINDS_RUN=
for each in $KINDS; do
    run_kind "$each"
    KINDS_RUN="$KINDS_RUN${KINDS_RUN:+ }$each"
done
say ""
say "== compress summary: $SIZE-byte inputs; prefix $PREFIX bytes; $(elapsed) s in all"
table
say ""
say "== compress targets (issue #29)"
targets
