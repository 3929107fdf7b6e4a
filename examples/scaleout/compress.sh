#!/bin/sh
# compress.sh -- gzip and zstd output compressed block by block on the
# hosts through GNU parallel and joined: a series of gzip members and
# of zstd frames is itself a valid gzip or zstd file, which gzip -d,
# zstd -d and the sc tools read back whole.
#
# sc's own gzip output is BGZF, so the joined file is BGZF too, with an
# end-of-file block (an empty member) after each block's members: other
# bytes than one host's, the same elements.  A zstd file is one frame per
# job: other bytes than one host's single frame, the same elements.
#
# Usage: compress.sh [COUNT]   (default 4M elements; K, M, G suffixes)
# Knobs: SC_HOSTS, SC_JOBS, SC_THREADS, SC_BLOCK, TMPDIR (see common.sh).
set -eu
. "$(dirname "$0")/common.sh"

n=${1:-4M}
all=$tmp/all.u32
sc-gen -n "$n" -s 3 --max 1000 --density 0.5 -o "$all"
echo "input:   $(( $(wc -c < "$all") / 4 )) elements, blocks of $block," \
     "hosts '$hosts', $jobs jobs x $threads threads"

# joined FILE FORMAT-OPTION: an empty input has no blocks, so nothing is
# joined, and an empty file is no gzip or zstd file: it gets what one
# host writes for no elements, an empty member or frame.
joined() {
    [ -s "$1" ] || sc-compact $2 -o "$1" /dev/null
}

# Compression alone: sc-compact --ge 0 keeps every element.
blocks "$all" "sc-compact -j $threads --ge 0 -z" > "$tmp/all.gz"
joined "$tmp/all.gz" -z
gzip -t "$tmp/all.gz"
gzip -dc "$tmp/all.gz" | cmp - "$all"
sc-compact --ge 0 "$tmp/all.gz" | cmp - "$all"
echo "gzip:    $(wc -c < "$tmp/all.gz") bytes, members from every block"

# Filtering and compressing at once: the zeros dropped, the rest gzipped.
blocks "$all" "sc-compact -j $threads -z" > "$tmp/nonzero.gz"
joined "$tmp/nonzero.gz" -z
sc-compact -o "$tmp/nonzero" "$all"
gzip -dc "$tmp/nonzero.gz" | cmp - "$tmp/nonzero"
echo "filter:  sc-compact -z per block = sc-compact of the whole, gzipped"

if command -v zstd >/dev/null; then
    blocks "$all" "sc-compact -j $threads --ge 0 --zstd" > "$tmp/all.zst"
    joined "$tmp/all.zst" --zstd
    zstd -qt "$tmp/all.zst"
    zstd -qdc "$tmp/all.zst" | cmp - "$all"
    sc-compact --ge 0 "$tmp/all.zst" | cmp - "$all"
    echo "zstd:    $(wc -c < "$tmp/all.zst") bytes, one frame per block, read back whole"
else
    echo "zstd:    not checked: no zstd command here"
fi
echo "ok"
