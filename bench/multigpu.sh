#!/bin/sh
# multigpu.sh — one GPU against all of them (-d cuda:0 vs -d cuda:all),
# end to end from a cached file as a user runs it: sc-rsort of 4 GiB and
# 16 GiB into a file, and sc-compact, sc-split, sc-scan over 4 GiB.  Checks
# that both give the same bytes, prints one table with the speed-up
# (cuda:0 time / cuda:all time), then where a cuda:all sort's time went
# (-v).  Run by `scripts/gpu multi` on a machine with 2+ GPUs, or alone:
#   bench/multigpu.sh BIN_DIR [SORT_SIZES [STREAM_SIZE]]
#   (BIN_DIR: installed tools, or a build's bin/, whose libtool wrappers
#   find the library; sizes in bytes, default "4294967296 17179869184" and
#   4294967296)
# Needs about 2.5 times the largest size free in BENCH_DIR (default
# $TMPDIR or /tmp) and memory for the page cache to hold it.
set -eu
LC_ALL=C
export LC_ALL
BIN=$1
SORT_SIZES=${2:-"4294967296 17179869184"}
STREAM_SIZE=${3:-4294967296}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
if [ "${gpus:-0}" -lt 2 ]; then
    echo "multigpu: needs 2 GPUs (found ${gpus:-0}); nothing measured"
    exit 0
fi
D=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/sc-multigpu.XXXXXX")
trap 'rm -rf "$D"' EXIT

# timed CMD: seconds of one run of CMD (stdout to /dev/null), or FAIL.
timed() {
    t0=$(date +%s.%N)
    sh -c "$1" >/dev/null 2>"$D/err" || { echo FAIL; return; }
    t1=$(date +%s.%N)
    awk "BEGIN { printf \"%.3f\", $t1 - $t0 }"
}

# fastest RUNS CMD: the least of RUNS timed runs; FAIL if any failed.
fastest() {
    runs=$1 low=
    while [ "$runs" -gt 0 ]; do
        t=$(timed "$2")
        [ "$t" = FAIL ] && { echo FAIL; return; }
        low=$(awk -v a="$t" -v b="${low:-$t}" 'BEGIN { print (a < b) ? a : b }')
        runs=$((runs - 1))
    done
    echo "$low"
}

line() {
    printf '%-12s %-26s %10s %10s %8s  %s\n' "$@"
}

# compare SIZE WHAT RUNS CMD: CMD (with DEV for the device) on cuda:0 and
# cuda:all, a row of the table, and whether both wrote the same bytes
# ($D/out.0 and $D/out.all when CMD writes $D/out).
compare() {
    one=$(echo "$4" | sed 's/DEV/cuda:0/')
    all=$(echo "$4" | sed 's/DEV/cuda:all/')
    t1=$(fastest "$3" "$one")
    [ -f "$D/out" ] && mv "$D/out" "$D/out.0"
    ta=$(fastest "$3" "$all")
    same=-
    if [ -f "$D/out" ]; then
        same=$(cmp -s "$D/out" "$D/out.0" && echo same || echo DIFFERENT)
        rm -f "$D/out" "$D/out.0"
    fi
    ratio=$(awk -v a="$t1" -v b="$ta" 'BEGIN {
        if (a == "FAIL" || b == "FAIL") print "-"; else printf "%.2fx", a / b }')
    line "$1" "$2" "$t1" "$ta" "$ratio" "$same"
}

nvidia-smi -L
echo "== multigpu: cuda:0 vs cuda:all, seconds (best of 3; of 2 past 8 GiB)"
line size what cuda:0 cuda:all speedup output
for size in $SORT_SIZES; do
    "$BIN/sc-gen" -d cuda:0 -n $((size / 4)) -s 5 -o "$D/in"
    cat "$D/in" >/dev/null
    runs=3
    [ "$size" -gt 8589934592 ] && runs=2
    compare "$size" "sc-rsort >file" $runs "'$BIN/sc-rsort' -d DEV -o '$D/out' '$D/in'"
    echo "   where the time goes, cuda:all:"
    "$BIN/sc-rsort" -d cuda:all -v -o "$D/out" "$D/in" 2>&1 | sed 's/^/     /'
    rm -f "$D/in" "$D/out"
done
"$BIN/sc-gen" -d cuda:0 -n $((STREAM_SIZE / 4)) --density 0.5 -s 6 -o "$D/in"
cat "$D/in" >/dev/null
compare "$STREAM_SIZE" "sc-compact" 3 "'$BIN/sc-compact' -d DEV '$D/in'"
compare "$STREAM_SIZE" "sc-split -r /dev/null" 3 "'$BIN/sc-split' -d DEV -r /dev/null '$D/in'"
compare "$STREAM_SIZE" "sc-scan" 3 "'$BIN/sc-scan' -d DEV '$D/in'"
compare "$STREAM_SIZE" "sc-scan -w >file" 2 "'$BIN/sc-scan' -d DEV -w -o '$D/out' '$D/in'"
compare "$STREAM_SIZE" "sc-gen >/dev/null" 3 "'$BIN/sc-gen' -d DEV -n $((STREAM_SIZE / 4))"
echo "   where the time goes, sc-compact -d cuda:all:"
"$BIN/sc-compact" -d cuda:all -v "$D/in" 2>&1 >/dev/null | sed 's/^/     /'
