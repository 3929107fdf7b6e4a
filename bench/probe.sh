#!/bin/sh
# probe.sh — where the time of one tool run goes on the GPU machine:
# CUDA's start with and without another process holding the GPU open,
# and sc-compact over a cached 1 GiB file by chunk size and thread count,
# with -v's phase times.  Questions for a session to answer, not the
# benchmark: bench/run-bench is that.
#   bench/probe.sh BIN_DIR
set -u
BIN=$1
. "$(dirname "$0")/tools-env.sh"
D=$(mktemp -d "${TMPDIR:-/tmp}/sc-probe.XXXXXX")
trap 'kill $holder 2>/dev/null; rm -rf "$D"' EXIT
holder=

t() {
    t0=$(date +%s.%N)
    sh -c "$1" >/dev/null 2>>"$D/err"
    t1=$(date +%s.%N)
    awk "BEGIN { printf \"%.4f\", $t1 - $t0 }"
}
# tries N CMD: N timings on one line.
tries() {
    n=$1; shift
    line=
    for i in $(seq "$n"); do line="$line $(t "$1")"; done
    echo "$line"
}

echo "== persistence mode"
nvidia-smi -q 2>/dev/null | grep -i -m2 'persistence' || echo "(unknown)"

echo "== empty run, -d cuda, 5 tries (s)"
echo "alone:      $(tries 5 "'$BIN/sc-compact' -d cuda </dev/null")"
echo "gen 1, cuda: $(tries 5 "'$BIN/sc-gen' -n 1 -d cuda")"
# A process of our own that keeps a CUDA context open, as persistence
# mode or a long-lived user of the GPU would.
( printf '\001\000\000\000'; sleep 600 ) | "$BIN/sc-compact" -d cuda -c 4K \
    >/dev/null 2>&1 &
holder=$!
sleep 2
echo "held open:  $(tries 5 "'$BIN/sc-compact' -d cuda </dev/null")"
echo "gen 1, held: $(tries 5 "'$BIN/sc-gen' -n 1 -d cuda")"
kill $holder 2>/dev/null; holder=
pkill -f 'sc-compact -d cuda -c 4K' 2>/dev/null
sleep 1

echo "== sc-compact over 1 GiB cached (s, 3 tries)"
"$BIN/sc-gen" -d cpu -n 256M --density 0.5 -o "$D/in"
cat "$D/in" >/dev/null
echo "cat F:                  $(tries 3 "cat '$D/in'")"
for c in 4M 16M 64M; do
    for j in 8 16; do
        echo "cpu -c $c -j $j:        $(tries 3 "'$BIN/sc-compact' -d cpu -c $c -j $j <'$D/in'")"
    done
done
echo "auto:                   $(tries 3 "'$BIN/sc-compact' <'$D/in'")"
echo "cuda:                   $(tries 3 "'$BIN/sc-compact' -d cuda <'$D/in'")"
echo "-- -v, cpu:"
"$BIN/sc-compact" -d cpu -v <"$D/in" 2>&1 >/dev/null | tail -8
echo "-- -v, auto:"
"$BIN/sc-compact" -v <"$D/in" 2>&1 >/dev/null | tail -8
echo "-- -v, cuda:"
"$BIN/sc-compact" -d cuda -v <"$D/in" 2>&1 >/dev/null | tail -8
echo "== sc-rsort 1 GiB -v (auto)"
"$BIN/sc-rsort" -v <"$D/in" 2>&1 >"$D/out" | tail -8
echo "cat <F >out: $(tries 3 "cat <'$D/in' >'$D/out'")"
echo "rsort auto:  $(tries 3 "'$BIN/sc-rsort' <'$D/in' >'$D/out'")"
if command -v perf >/dev/null; then
    echo "== perf stat, sc-compact -d cpu"
    perf stat -e task-clock,page-faults,context-switches \
        "$BIN/sc-compact" -d cpu <"$D/in" 2>&1 >/dev/null | tail -12
fi
echo "== errors"
sort -u "$D/err" | head -10
