#!/bin/sh
# probe-read.sh — where reading a compressed file loses its cores on the
# GPU machine: sc-compact --count over sc's own BGZF and zstd frames of
# 1 GiB, by thread count, chunk size and device, with elapsed time, CPU
# use and -v's decode line; beside them the same bytes from a pipe (the
# consumer alone) and bgzip -@.  A question for a session, not the
# benchmark: bench/compress.sh is that.
#   bench/probe-read.sh BIN_DIR
set -u
BIN=$1
. "$(dirname "$0")/tools-env.sh"
D=$(mktemp -d "${TMPDIR:-/tmp}/sc-probe-read.XXXXXX")
trap 'rm -rf "$D"' EXIT
NT=$(nproc)
# A build with the decoder's trace (a patch of the probe's own) prints it.
SC_DBG=1; export SC_DBG

# run LABEL CMD: elapsed s, CPU % and the -v decode line of one run.
run() {
    label=$1; shift
    t0=$(date +%s.%N)
    /usr/bin/time -f '%e %P' -o "$D/time" sh -c "$1" >/dev/null 2>"$D/err"
    t1=$(date +%s.%N)
    dec=$(grep -m1 'decoded at' "$D/err" | sed 's/.*: //')
    printf '  %-34s %6.3f s  CPU %5s  %s\n' "$label" \
        "$(awk "BEGIN { print $t1 - $t0 }")" "$(tail -n 1 "$D/time" | cut -d' ' -f2)" "$dec"
    grep -m1 '^trace:' "$D/err" | sed 's/^/    /' || true
}

"$BIN/sc-gen" -d cpu -n 256M --max 1000 -o "$D/in"
"$BIN/sc-compact" --count "$D/in" >/dev/null
"$BIN/sc-compact" -d cpu -z --level 1 "$D/in" -o "$D/in.gz"
"$BIN/sc-compact" -d cpu --zstd --level 3 "$D/in" -o "$D/in.zst"
cat "$D/in.gz" "$D/in.zst" >/dev/null
ls -l "$D"

for f in in.gz in.zst; do
    echo "== $f: sc-compact --count -v"
    for d in cpu cuda; do
        for j in 1 2 4 8 $NT; do
            run "-d $d -j $j" "'$BIN/sc-compact' -d $d -j $j --count -v '$D/$f'"
        done
        for c in 1M 16M 64M; do
            run "-d $d -c $c" "'$BIN/sc-compact' -d $d -c $c --count -v '$D/$f'"
        done
    done
    run "auto, from stdin" "'$BIN/sc-compact' --count -v <'$D/$f'"
done
echo "== the consumer alone: decoded bytes from a pipe"
run "bgzip -dc -@$NT | sc -d cpu" "bgzip -dc -@$NT '$D/in.gz' | '$BIN/sc-compact' -d cpu --count"
run "bgzip -dc -@$NT | sc -d cuda" "bgzip -dc -@$NT '$D/in.gz' | '$BIN/sc-compact' -d cuda --count"
run "bgzip -dc -@$NT >/dev/null" "bgzip -dc -@$NT '$D/in.gz'"
run "cat in | sc -d cpu" "cat '$D/in' | '$BIN/sc-compact' -d cpu --count"
if command -v perf >/dev/null; then
    echo "== perf stat, -d cpu, in.gz"
    perf stat -e task-clock,context-switches,cpu-migrations,page-faults \
        "$BIN/sc-compact" -d cpu --count "$D/in.gz" 2>&1 >/dev/null | tail -10
fi
