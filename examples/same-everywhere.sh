#!/bin/sh
# same-everywhere.sh -- the output does not depend on the device, the chunk
# size or the number of threads: compare checksums of a pipeline run on the
# CPU with one thread and small chunks, and on the default device.
#
# Usage: same-everywhere.sh [COUNT]    (default 1M elements; K, M, G suffixes)
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-gen >/dev/null ||
    { echo "same-everywhere.sh: sc-gen not found: put sc's bin/ on PATH" >&2; exit 1; }

n=${1:-1M}

run() {
    sc-gen -n "$n" --density 0.5 -s 9 "$@" |
        sc-compact --mask 1 "$@" |
        sc-scan -w "$@" |
        cksum
}

a=$(run -d cpu -j 1 -c 4K)
b=$(run -c 64M)
echo "cpu, 1 thread, 4 KiB chunks:   $a"
echo "default device, 64 MiB chunks: $b"
echo "sc-gen -v says:                $(sc-gen -n 1 -v 2>&1 >/dev/null | head -n 1)"
[ "$a" = "$b" ] || { echo "same-everywhere.sh: outputs differ" >&2; exit 1; }
echo "ok"
