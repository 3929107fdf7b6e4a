#!/bin/sh
# offsets.sh -- where each nonzero element lands in the compacted stream:
# compact, then an exclusive prefix sum, compressed.
#
#     sc-gen -n 1G --density 0.5 | sc-compact | sc-scan -z > offsets.gz
#
# Usage: offsets.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-gen >/dev/null ||
    { echo "offsets.sh: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# Small values, so that the 32-bit sums are easy to read.
gen() { sc-gen -n "$n" --density 0.5 --min 1 --max 9 "$@"; }

gen | sc-compact | sc-scan -z > "$tmp/offsets.gz"

first() { tr '\n' ' ' | cut -c 1-60; }
echo "input, first 8:      $(gen -t | head -n 8 | first)"
echo "compacted, first 5:  $(gen | sc-compact -t | head -n 5 | first)"
# --ge 0 selects everything: sc-compact -t then just prints the stream.
echo "offsets, first 5:    $(sc-compact --ge 0 -t "$tmp/offsets.gz" |
                             head -n 5 | first)"
echo "offsets.gz:          $(wc -c < "$tmp/offsets.gz") bytes," \
     "$(( $(gzip -dc "$tmp/offsets.gz" | wc -c) / 4 )) offsets"
t32=$(gen | sc-compact | sc-scan --total)
t64=$(gen | sc-scan -w --total)
echo "total (--total):     $t32"
echo "total (64-bit):      $t64"
# Zeros add nothing, so compacting first changes no sum: the 32-bit total
# is the 64-bit one modulo 2^32.
if [ "$t32" -ne $((t64 % 4294967296)) ]; then
    echo "offsets.sh: totals disagree: $t32 vs $t64" >&2
    exit 1
fi
