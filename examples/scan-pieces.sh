#!/bin/sh
# scan-pieces.sh -- scan a stream cut in two pieces, carrying the total of
# the first into the second, and check that the pieces join into the scan
# of the whole.
#
# Usage: scan-pieces.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-gen >/dev/null ||
    { echo "scan-pieces.sh: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

sc-gen -n "$n" -s 3 -o "$tmp/all.u32"

# Cut at about a third, on a whole element (4 bytes).
size=$(wc -c < "$tmp/all.u32")
third=$(( size / 12 ))
cut=$(( third * 4 ))
head -c "$cut" "$tmp/all.u32" > "$tmp/p1.u32"
tail -c +"$(( cut + 1 ))" "$tmp/all.u32" > "$tmp/p2.u32"
echo "pieces:  $(( cut / 4 )) + $(( (size - cut) / 4 )) elements"

for opts in "" "-i" "-w" "--op max" "-i --op xor"; do
    # The total of piece 1 is the carry-in of piece 2.
    # shellcheck disable=SC2086  # $opts is a list of options
    t=$(sc-scan $opts --total "$tmp/p1.u32")
    # shellcheck disable=SC2086
    { sc-scan $opts "$tmp/p1.u32"
      sc-scan $opts --carry-in "$t" "$tmp/p2.u32"; } > "$tmp/joined"
    # shellcheck disable=SC2086
    sc-scan $opts "$tmp/all.u32" | cmp - "$tmp/joined"
    # shellcheck disable=SC2086
    printf 'sc-scan %-12s carry %-20s total %s: joined = whole\n' \
        "$opts" "$t" "$(sc-scan $opts --total "$tmp/all.u32")"
done
echo "ok"
