#!/bin/sh
# sort-unique.sh -- sort with duplicates dropped, check the order, and
# compare with sort(1) and uniq(1) on the same data as text.
#
# Usage: sort-unique.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-gen >/dev/null ||
    { echo "sort-unique.sh: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Many duplicates: values from 0 to 99999.
sc-gen -n "$n" --max 99999 -o "$tmp/data.u32"
sc-rsort -u "$tmp/data.u32" -o "$tmp/uniq.u32"

first() { tr '\n' ' ' | cut -c 1-60; }
echo "input, first 8:   $(sc-compact --ge 0 -t "$tmp/data.u32" | head -n 8 | first)"
echo "unique, first 8:  $(sc-compact --ge 0 -t "$tmp/uniq.u32" | head -n 8 | first)"
echo "unique values:    $(( $(wc -c < "$tmp/uniq.u32") / 4 )) of $n elements"

# -C writes nothing: exit 0 when sorted, 1 (and a message) when not.
sc-rsort -C "$tmp/uniq.u32"
echo "sc-rsort -C uniq: sorted"
if sc-rsort -C "$tmp/data.u32" 2> "$tmp/msg"; then
    echo "sort-unique.sh: unsorted input passed -C" >&2
    exit 1
fi
echo "sc-rsort -C data: exit 1, $(cat "$tmp/msg")"

# The same with sort(1) and uniq(1), through text.
sc-compact --ge 0 -t "$tmp/data.u32" | sort -n | uniq > "$tmp/uniq.txt"
sc-compact --ge 0 -t "$tmp/uniq.u32" | cmp - "$tmp/uniq.txt"
echo "same as sort -n | uniq: ok"
