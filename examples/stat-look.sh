#!/bin/sh
# stat-look.sh -- look at a stream with sc-stat: the figures, a histogram,
# its ends; check them against sc-compact, sc-scan and sort(1).
#
# Usage: stat-look.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-stat >/dev/null ||
    { echo "stat-look.sh: sc-stat not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# A third zeros, the rest between 1000 and 1999.
sc-gen -n "$n" --min 1000 --max 1999 --density 0.67 -o "$tmp/data.u32"
sc-stat --hist 4 "$tmp/data.u32" | tee "$tmp/report"
figure() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/report"; }

# zeros and sum, the other way round.
nonzero=$(sc-compact --count "$tmp/data.u32")
[ $(( $(figure count) - nonzero )) -eq "$(figure zeros)" ]
[ "$(sc-scan -w --total "$tmp/data.u32")" = "$(figure sum)" ]
echo "zeros and sum agree with sc-compact --count and sc-scan -w --total: ok"

# distinct is an estimate: compare with the exact count.
exact=$(sc-compact --ge 0 -t "$tmp/data.u32" | sort -un | wc -l)
echo "distinct: estimate $(figure distinct), exact $exact"

echo "first 3: $(sc-stat --head 3 "$tmp/data.u32" | tr '\n' ' ')"
echo "last 3:  $(sc-stat --tail 3 "$tmp/data.u32" | tr '\n' ' ')"
