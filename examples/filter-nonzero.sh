#!/bin/sh
# filter-nonzero.sh -- drop the zeros of a stream, compress the rest, count.
#
# Usage: filter-nonzero.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-gen >/dev/null ||
    { echo "filter-nonzero.sh: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# COUNT elements, 30 % of them nonzero; keep the nonzero ones, as gzip.
sc-gen -n "$n" --density 0.3 | sc-compact -z -o "$tmp/nonzero.gz"

# The count straight from the generator, and the length of the file.
count=$(sc-gen -n "$n" --density 0.3 | sc-compact --count)
kept=$(( $(gzip -dc "$tmp/nonzero.gz" | wc -c) / 4 ))

first() { tr '\n' ' ' | cut -c 1-60; }
echo "input, first 8:    $(sc-gen -n "$n" --density 0.3 -t | head -n 8 | first)"
echo "nonzero, first 4:  $(sc-compact -t "$tmp/nonzero.gz" | head -n 4 | first)"
echo "nonzero (--count): $count of $n"
echo "nonzero (in file): $kept, $(wc -c < "$tmp/nonzero.gz") bytes of gzip"
[ "$count" -eq "$kept" ] || { echo "filter-nonzero.sh: mismatch" >&2; exit 1; }
echo "ok"
