#!/bin/sh
# scaleout.sh -- what spreading sc over job slots through GNU parallel
# gains on this machine's cores: one host's sc against the recipes of
# examples/scaleout/ run with parallel -S : at JOBS jobs x THREADS
# threads, for a filter (sc-compact), gzip compression (sc-compact -z)
# and the sort (sc-stat --quantiles, sc-split --ranges per block,
# sc-rsort per range, joined).  Every result is checked with cmp against
# sc -j 1's.  Prints seconds (best of SC_REPS, default 3) and the
# speed-up over sc with one thread.
#
# Usage: bench/scaleout.sh [COUNT]   (default 256M elements: 1 GiB)
# Environment: SC_CONFIGS (default "1x1 2x1 1x2 2x2", JOBSxTHREADS),
# SC_BLOCK (default 64M), SC_REPS, TMPDIR (the files, 3 x the input);
# SC_BIN, the directory of the tools (default: this build tree's bin/).
# Measure an installed sc (make install; SC_BIN=PREFIX/bin, with
# LD_LIBRARY_PATH=PREFIX/lib where PREFIX/lib is not searched): in a build
# tree bin/ holds libtool's wrapper scripts, which cost about 0.15 s a
# process here, paid once per block.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${SC_BIN:-$here/../bin}
[ -x "$bin/sc-gen" ] && PATH="$bin:$PATH"
export PATH
command -v parallel >/dev/null ||
    { echo "scaleout.sh: GNU parallel not found" >&2; exit 1; }
n=${1:-256M}
block=${SC_BLOCK:-64M}
reps=${SC_REPS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
all=$tmp/all.u32
sc-gen -n "$n" -s 7 --max 100000000 --density 0.7 -o "$all"

# One host: TASK THREADS.
one() {
    case $1 in
        compact) sc-compact -j "$2" --gt 1000 "$all" ;;
        gzip) sc-compact -j "$2" --ge 0 -z --level 1 "$all" ;;
        sort) sc-rsort -j "$2" "$all" ;;
    esac
}

# Spread: TASK JOBS THREADS, through parallel -S :.
spread() {
    case $1 in
        compact) blocks "$2" "sc-compact -j $3 --gt 1000" ;;
        gzip) blocks "$2" "sc-compact -j $3 --ge 0 -z --level 1" ;;
        sort) spread_sort "$2" "$3" ;;
    esac
}

blocks() {
    parallel -S : -j "$1" --pipepart --block "$block" --recend '' -k "$2" \
        :::: "$all"
}

spread_sort() {
    b=$(sc-stat -j "$2" --sample 0.02 --quantiles $((4 * $1)) "$all" |
        sed -n 's/^quantiles *//p')
    blocks "$1" "sc-split -j $2 --ranges '$b' -o $tmp/piece.{#}.%d" >/dev/null
    r=$(( $(printf '%s' "$b" | tr -cd , | wc -c) + ${b:+1} + 1 ))
    seq 0 $((r - 1)) |
        parallel -S : -j "$1" "sc-rsort -j $2 -o $tmp/s.{} $tmp/piece.*.{}"
    for p in $(seq 0 $((r - 1))); do cat "$tmp/s.$p"; done
    rm -f "$tmp"/piece.* "$tmp"/s.*
}

# best CMD...: runs CMD > $tmp/got reps times; the least wall time.
best() {
    b_best=1000000
    i=0
    while [ "$i" -lt "$reps" ]; do
        t0=$(date +%s.%N)
        "$@" > "$tmp/got"
        t=$(echo "$t0 $(date +%s.%N)" | awk '{ printf "%.3f", $2 - $1 }')
        b_best=$(echo "$b_best $t" | awk '{ print ($2 < $1) ? $2 : $1 }')
        i=$((i + 1))
    done
    echo "$b_best"
}

row() {
    printf '%-8s %-16s %8s %8s\n' "$1" "$2" "$3" \
        "$(echo "$base $3" | awk '{ printf "%.2f", $1 / $2 }')"
}

printf '%-8s %-16s %8s %8s\n' task how seconds speed-up
for task in compact gzip sort; do
    base=$(best one "$task" 1)
    mv "$tmp/got" "$tmp/want"
    row "$task" "sc -j 1" "$base"
    s=$(best one "$task" 2)
    cmp "$tmp/want" "$tmp/got"
    row "$task" "sc -j 2" "$s"
    for c in ${SC_CONFIGS:-1x1 2x1 1x2 2x2}; do
        s=$(best spread "$task" "${c%x*}" "${c#*x}")
        cmp "$tmp/want" "$tmp/got"
        row "$task" "parallel ${c%x*} x ${c#*x}" "$s"
    done
done
