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
trap 'rm -f "$D/holding"; kill $holder 2>/dev/null; rm -rf "$D"' EXIT
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
# Its input ends, and it with it, within a second of the flag's removal
# (a killed pipeline would leave its sleeping writer behind).
: >"$D/holding"
{ printf '\001\000\000\000'
  while [ -e "$D/holding" ]; do sleep 1; done; } 2>/dev/null |
    "$BIN/sc-compact" -d cuda -c 4K >/dev/null 2>&1 &
holder=$!
sleep 2
echo "held open:  $(tries 5 "'$BIN/sc-compact' -d cuda </dev/null")"
echo "gen 1, held: $(tries 5 "'$BIN/sc-gen' -n 1 -d cuda")"
rm -f "$D/holding"
wait $holder; holder=

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
echo "== the machine"
uname -r; nproc
lscpu 2>/dev/null | grep -E 'Model name|L2|L3|NUMA node\(s\)' || true
for t in perf nsys ncu; do command -v $t || echo "no $t"; done

# Strategies for a CPU compaction of the cached file (readprobe.c): whole
# chunks per thread, read with pread or from the mapped file.
echo "== readprobe: 1 GiB, x != 0, s (3 tries)"
SRC=$(dirname "$0")
if ${CC:-cc} -O2 -march=native -pthread -o "$D/readprobe" "$SRC/readprobe.c"; then
    for m in pread mmap mmappop; do
        for j in 8 16; do
            for c in 1048576 4194304; do
                line=
                for i in 1 2 3; do
                    line="$line $("$D/readprobe" "$D/in" $j $c $m | cut -d' ' -f1)"
                done
                echo "$m -j $j -c $c:$line"
            done
        done
    done
fi

# CUDA's start call by call (cudastart.cu), alone and 16 at once: whether
# a parallel suite's starts wait on each other.
echo "== cudastart (ms)"
if nvcc -O2 -o "$D/cudastart" "$SRC/cudastart.cu" 2>>"$D/err"; then
    for i in 1 2 3; do echo "alone: $("$D/cudastart")"; done
    pids=
    for i in $(seq 16); do "$D/cudastart" >"$D/cs.$i" & pids="$pids $!"; done
    wait $pids
    echo "16 at once:"; cat "$D"/cs.*
fi
head -c 4096 "$D/in" >"$D/small"
echo "16 x sc-compact -d cuda on 4 KiB, at once: $(t "for i in \$(seq 16); do '$BIN/sc-compact' -d cuda <'$D/small' & done; wait")"
echo "16 x sc-compact -d cuda on 4 KiB, one by one: $(t "for i in \$(seq 16); do '$BIN/sc-compact' -d cuda <'$D/small'; done")"

echo "== sc-rsort by device and size (s, 2 tries), -v of auto"
for n in 256M 512M 1G; do
    "$BIN/sc-gen" -d cpu -n $n --density 0.5 -o "$D/s"
    for d in cpu cuda auto; do
        echo "$n $d: $(tries 2 "'$BIN/sc-rsort' -d $d <'$D/s' >'$D/out'")"
    done
    "$BIN/sc-rsort" -v <"$D/s" 2>&1 >"$D/out" | grep -i -E 'device|auto|time' | head -4
done
rm -f "$D/s" "$D/out"

echo "== errors"
sort -u "$D/err" | head -10
