#!/bin/sh
# filter.sh -- the chunk-local tools over a large file, one block per
# job through GNU parallel: sc-compact, sc-split -r and sc-stat, each
# checked against sc on the whole file on one host.
#
# Usage: filter.sh [COUNT]   (default 4M elements; K, M, G suffixes)
# Knobs: SC_HOSTS, SC_JOBS, SC_THREADS, SC_BLOCK, TMPDIR (see common.sh).
set -eu
. "$(dirname "$0")/common.sh"

n=${1:-4M}
all=$tmp/all.u32
sc-gen -n "$n" -s 7 --density 0.6 -o "$all"
echo "input:   $(( $(wc -c < "$all") / 4 )) elements, blocks of $block," \
     "hosts '$hosts', $jobs jobs x $threads threads"

# Compaction keeps order within a block, and -k keeps the blocks' order.
blocks "$all" "sc-compact -j $threads --gt 1000" > "$tmp/kept"
sc-compact --gt 1000 "$all" | cmp - "$tmp/kept"
echo "compact: $(( $(wc -c < "$tmp/kept") / 4 )) kept = sc-compact of the whole"

# sc-split -r: the selected come out in order; each block's rejects go to
# a file of its own, joined in block order afterwards.
blocks "$all" "sc-split -j $threads --lt 2147483648 -r $tmp/rejects.{#}" \
    > "$tmp/selected"
i=1
while [ -e "$tmp/rejects.$i" ]; do
    cat "$tmp/rejects.$i"
    i=$((i + 1))
done > "$tmp/rejected"
sc-split --lt 2147483648 -r "$tmp/rejects.one" -o "$tmp/selected.one" "$all"
cmp "$tmp/selected" "$tmp/selected.one"
cmp "$tmp/rejected" "$tmp/rejects.one"
echo "split:   $((i - 1)) blocks' rejects joined = sc-split -r of the whole"

# sc-stat: count, min, max, sum and zeros merge exactly; the mean is
# recomputed from them, in integers as sc-stat does.  The distinct
# estimate does not merge from printed reports, so it is left out of the
# comparison.  Shell arithmetic is 64-bit: sums below 2^63.
blocks "$all" "sc-stat -j $threads" > "$tmp/reports"
count=0 sum=0 zeros=0 min='' max=0
while read -r name value; do
    case $name in
        count) count=$((count + value)) ;;
        sum) sum=$((sum + value)) ;;
        zeros) zeros=$((zeros + value)) ;;
        min) if [ -z "$min" ] || [ "$value" -lt "$min" ]; then min=$value; fi ;;
        max) if [ "$value" -gt "$max" ]; then max=$value; fi ;;
    esac
done < "$tmp/reports"
if [ "$count" -eq 0 ]; then
    echo "count 0"          # an empty file has no blocks
else
    q=$((sum / count)) frac=$(( (sum % count * 1000000 + count / 2) / count ))
    if [ "$frac" -eq 1000000 ]; then q=$((q + 1)) frac=0; fi
    printf 'count %s\nmin %s\nmax %s\nsum %s\nmean %s.%06d\nzeros %s\n' \
        "$count" "$min" "$max" "$sum" "$q" "$frac" "$zeros"
fi > "$tmp/merged"
sc-stat "$all" | grep -v '^distinct ' | cmp - "$tmp/merged"
echo "stat:    $(grep -c '^count' "$tmp/reports") reports merged = sc-stat of the whole (but distinct)"
echo "ok"
