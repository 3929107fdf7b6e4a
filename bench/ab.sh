#!/bin/sh
# ab.sh — two builds of sc (or one build under two environments), run by
# turns on the same cached input, for a change whose worth depends on the
# machine (cores, memory, page cache): one tool over 1 GiB to a file and
# to /dev/null at several thread counts, best and median of 5 runs each.
# Run by `scripts/gpu ab`.
#   bench/ab.sh BASE_BIN_DIR NEW_BIN_DIR
# Environment (defaults in brackets):
#   AB_TOOL [sc-rsort]  AB_ARGS [-d cpu]  AB_JOBS [2 4 8 16]
#   AB_DESTS [file null]  AB_N [256M elements]
#   AB_ENV_A, AB_ENV_B: variable assignments each side runs under
#   ("SC_X_SPIN_NS=0"), to compare settings of one build.
set -eu
LC_ALL=C
export LC_ALL
D=$(mktemp -d "${TMPDIR:-/tmp}/sc-ab.XXXXXX")
trap 'rm -rf "$D"' EXIT
TOOL=${AB_TOOL:-sc-rsort}
ARGS=${AB_ARGS:--d cpu}

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
LD_LIBRARY_PATH="$2/../../lib/.libs" "$2/sc-gen" -d cpu -n "$N" --density 0.5 -o "$D/in"
cat "$D/in" >/dev/null
echo "A: $1 ${AB_ENV_A:-}"
echo "B: $2 ${AB_ENV_B:-}"
printf '%-34s %-5s %15s %15s %7s\n' "$TOOL $ARGS, -n $N" "-j" "A best/med" "B best/med" "B/A"
for dest in ${AB_DESTS:-file null}; do
    for j in ${AB_JOBS:-2 4 8 16}; do
        : >"$D/a"; : >"$D/b"
        for i in 1 2 3 4 5; do
            for side in a b; do
                if [ $side = a ]; then bin=$1; env=${AB_ENV_A:-}
                else bin=$2; env=${AB_ENV_B:-}; fi
                out=/dev/null
                [ $dest = file ] && { rm -f "$D/out"; out="$D/out"; }
                run "$bin" "$env '$bin/$TOOL' $ARGS -j $j <'$D/in' >'$out'" >>"$D/$side"
            done
        done
        a=$(stats <"$D/a"); b=$(stats <"$D/b")
        printf '%-34s %-5s %15s %15s %7s\n' "<F >$dest" "$j" "$a" "$b" \
            "$(echo "$a $b" | awk '{ printf "%.2f", $4 / $2 }')"
    done
done
for dest in ${AB_DESTS:-file null}; do
    o=/dev/null
    t=$( for i in 1 2 3; do
             [ $dest = file ] && { rm -f "$D/out"; o="$D/out"; }
             run "$2" "cat <'$D/in' >'$o'"; done | stats )
    echo "cat <F >$dest: best/median $t"
done
