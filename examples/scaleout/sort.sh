#!/bin/sh
# sort.sh -- sc-rsort of a large file spread over hosts by value ranges,
# through GNU parallel:
#   1. bounds from a sample: sc-stat --sample F --quantiles P;
#   2. each block cut into the P ranges, on the hosts: sc-split --ranges;
#   3. each range's pieces sorted together, on the hosts: sc-rsort;
#   4. the sorted ranges joined in range order.
# The result is checked equal to sc-rsort of the whole on one host.
#
# Usage: sort.sh [COUNT]   (default 4M elements; K, M, G suffixes)
# Knobs: SC_HOSTS, SC_JOBS, SC_THREADS, SC_BLOCK, TMPDIR (see common.sh);
# SC_PARTS, the ranges (default 4 per job slot: more, smaller sorts
# even out the hosts' loads); SC_SAMPLE, the fraction of the input the
# bounds come from (default: about 16 MiB of it, enough for the 2^20
# elements sc-stat samples).
set -eu
. "$(dirname "$0")/common.sh"

n=${1:-4M}
parts=${SC_PARTS:-$((4 * jobs))}
all=$tmp/all.u32
sc-gen -n "$n" -s 11 --max 100000000 -o "$all"
echo "input:   $(( $(wc -c < "$all") / 4 )) elements, blocks of $block," \
     "hosts '$hosts', $jobs jobs x $threads threads"

# 1. At most parts - 1 bounds (fewer if values repeat a lot; none for an
# empty input, which then sorts as one range).
size=$(wc -c < "$all")
sample=$(awk -v s="$size" 'BEGIN { printf "%.6f", (s > 16777216 ? 16777216 / s : 1) }')
sample=${SC_SAMPLE:-$sample}
sc-stat -j "$threads" --sample "$sample" --quantiles "$parts" "$all" > "$tmp/stat"
bounds=$(sed -n 's/^quantiles *//p' "$tmp/stat")
echo "bounds:  ${bounds:-(none)}, from a sample of $sample"

# 2. Block {#}'s range p goes to piece.{#}.p.
blocks "$all" "sc-split -j $threads --ranges '$bounds' -o $tmp/piece.{#}.%d" \
    > /dev/null
# 3. Range p: every block's piece of it, sorted at once.  An empty input
# has no blocks, so no pieces: its ranges sort nothing.
ranges=$(( $(printf '%s' "$bounds" | tr -cd , | wc -c) + ${bounds:+1} + 1 ))
seq 0 $((ranges - 1)) | parallel -S "$hosts" -j "$jobs" \
    "if [ -s $all ]; then sc-rsort -j $threads -o $tmp/sorted.{} $tmp/piece.*.{};
     else : > $tmp/sorted.{}; fi"
# 4. In range order.
p=0
while [ "$p" -lt "$ranges" ]; do
    cat "$tmp/sorted.$p"
    p=$((p + 1))
done > "$tmp/joined"
sc-rsort "$all" | cmp - "$tmp/joined"
printf 'sort:    %s ranges of ' "$ranges"
for p in $(seq 0 $((ranges - 1))); do
    printf '%s ' $(( $(wc -c < "$tmp/sorted.$p") / 4 ))
done
echo "elements, joined = sc-rsort of the whole"
echo "ok"
