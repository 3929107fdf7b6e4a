#!/bin/sh
# ab.sh — two builds of sc, run by turns on the same cached input, for a
# change whose worth depends on the machine (cores, memory, page cache):
# sc-rsort of 1 GiB to a file and to /dev/null, at several thread counts,
# best and median of 5 runs each.  Run by `scripts/gpu ab` (the base is
# .carry/base/'s tarball).
#   bench/ab.sh BASE_BIN_DIR NEW_BIN_DIR
set -eu
LC_ALL=C
export LC_ALL
D=$(mktemp -d "${TMPDIR:-/tmp}/sc-ab.XXXXXX")
trap 'rm -rf "$D"' EXIT

# run BIN_DIR ARGS...: one tool run with that build's library; seconds.
run() {
    b=$1; shift
    t0=$(date +%s.%N)
    LD_LIBRARY_PATH="$b/../../lib/.libs" sh -c "$*" >/dev/null 2>&1
    t1=$(date +%s.%N)
    awk "BEGIN { printf \"%.4f\n\", $t1 - $t0 }"
}

# stats: best and median of the numbers on stdin.
stats() {
    sort -n | awk '{ v[NR] = $1 } END { printf "%.3f %.3f", v[1], v[int((NR + 1) / 2)] }'
}

N=${AB_N:-256M}
"$2/sc-gen" -n "$N" --density 0.5 -o "$D/in" 2>/dev/null ||
    LD_LIBRARY_PATH="$2/../../lib/.libs" "$2/sc-gen" -n "$N" --density 0.5 -o "$D/in"
cat "$D/in" >/dev/null
printf '%-34s %-5s %15s %15s %7s\n' "sc-rsort -n $N" "-j" "base best/med" "new best/med" "new/base"
for dest in file null; do
    for j in 2 4 8 16; do
        : >"$D/a"; : >"$D/b"
        for i in 1 2 3 4 5; do
            for side in a b; do
                [ $side = a ] && bin=$1 || bin=$2
                out=/dev/null
                [ $dest = file ] && { rm -f "$D/out"; out="$D/out"; }
                run "$bin" "'$bin/sc-rsort' -d cpu -j $j <'$D/in' >'$out'" >>"$D/$side"
            done
        done
        a=$(stats <"$D/a"); b=$(stats <"$D/b")
        printf '%-34s %-5s %15s %15s %7s\n' "<F >$dest" "$j" "$a" "$b" \
            "$(echo "$a $b" | awk '{ printf "%.2f", $4 / $2 }')"
    done
done
t=$( for i in 1 2 3; do rm -f "$D/out"; run "$2" "cat <'$D/in' >'$D/out'"; done | stats )
echo "cat <F >file: best/median $t"
