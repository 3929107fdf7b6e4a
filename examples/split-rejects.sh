#!/bin/sh
# split-rejects.sh -- a stable partition two ways: selected then rejected in
# one stream, or the rejects to a file of their own (bounded memory).
#
# Usage: split-rejects.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-gen >/dev/null ||
    { echo "split-rejects.sh: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

sc-gen -n "$n" --max 999 -o "$tmp/data.u32"

# Values below 100 are selected; the rest are rejected.
sc-split --lt 100 -r "$tmp/high.u32" -o "$tmp/low.u32" "$tmp/data.u32"
sc-split --lt 100 "$tmp/data.u32" > "$tmp/both.u32"
counts=$(sc-split --lt 100 --count "$tmp/data.u32")

first() { tr '\n' ' ' | cut -c 1-60; }
echo "input, first 8:     $(sc-compact --ge 0 -t "$tmp/data.u32" | head -n 8 | first)"
echo "selected, first 5:  $(sc-compact --ge 0 -t "$tmp/low.u32" | head -n 5 | first)"
echo "rejected, first 5:  $(sc-compact --ge 0 -t "$tmp/high.u32" | head -n 5 | first)"
echo "selected rejected:  $counts (--count)"
echo "in the files:       $(( $(wc -c < "$tmp/low.u32") / 4 ))" \
     "$(( $(wc -c < "$tmp/high.u32") / 4 ))"

# The one-stream output is the two files joined; the files hold what they
# should.
cat "$tmp/low.u32" "$tmp/high.u32" | cmp - "$tmp/both.u32"
[ "$(sc-compact --ge 100 --count "$tmp/low.u32")" -eq 0 ]
[ "$(sc-compact --lt 100 --count "$tmp/high.u32")" -eq 0 ]
echo "selected + rejected = the one-stream split: ok"
