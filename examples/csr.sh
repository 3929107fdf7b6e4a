#!/bin/sh
# csr.sh -- the compressed sparse row (CSR) form of a graph from its edge
# list, with sc tools alone.  The edges are (u32 src, u32 dst) records of
# 8 bytes; the CSR form is the row offsets (V + 1 u64 values: row v's
# columns are col[rowptr[v] .. rowptr[v+1])) and the column indices (the
# dst of every edge, rows in order, each row's in the order of the input):
#
#     sc-stat --record 8 --key 0 --bincount=V edges |
#         sc-scan -e u64 --offsets > rowptr
#     sc-rsort --record 8 --key 0 --field 4 edges > col
#
# Usage: csr.sh [EDGES]          a random graph of EDGES edges (default
#                                1M; K, M, G suffixes) on EDGES/8 vertices
#        csr.sh FILE V [PREFIX]  FILE's edges (raw, gzip or zstd), src < V:
#                                PREFIX.rowptr and PREFIX.col (default csr)
# Either way it checks the result: the offsets rise from 0 to the number
# of edges, and a few rows hold exactly the edges sc-compact finds for
# them, in order.
set -eu

# The tools of the build tree this script sits in, else those on PATH.
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$here/../bin/sc-gen" ] && PATH="$here/../bin:$PATH"
command -v sc-stat >/dev/null ||
    { echo "csr.sh: sc-stat not found: put sc's bin/ on PATH" >&2; exit 1; }
die() { echo "csr.sh: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# EDGES with a K, M, G or T suffix as a number.
count() {
    case $1 in
    *[Kk]) echo $(( ${1%?} * 1024 )) ;;
    *[Mm]) echo $(( ${1%?} * 1048576 )) ;;
    *[Gg]) echo $(( ${1%?} * 1073741824 )) ;;
    *[Tt]) echo $(( ${1%?} * 1099511627776 )) ;;
    *) echo "$1" ;;
    esac
}

if [ $# -ge 2 ]; then
    edges=$1 v=$2 out=${3:-csr}
    [ -r "$edges" ] || die "cannot read $edges"
else
    e=$(count "${1:-1M}")
    v=$(( e / 8 > 16 ? e / 8 : 16 ))
    edges=$tmp/edges out=$tmp/csr
    # Random edges: src and dst each uniform below V (perl's rand, seeded,
    # so that a run repeats); any (u32, u32) records would do.
    perl -e 'srand(1); my ($e, $v) = @ARGV;
             for (my $i = 0; $i < $e; $i += 65536) {
                 my $k = $e - $i < 65536 ? $e - $i : 65536;
                 print pack("V*", map { int(rand($v)) } 1 .. 2 * $k);
             }' "$e" "$v" > "$edges"
fi

# The CSR form: the out-degree of each vertex, their offsets; the dst
# field of the edges sorted stably by src.
# (a pipe's status is its last command's: sc-stat's is kept aside)
{ sc-stat --record 8 --key 0 --bincount="$v" "$edges" || echo $? > "$tmp/failed"; } |
    sc-scan -e u64 --offsets > "$out.rowptr"
[ ! -e "$tmp/failed" ] ||
    { rm -f "$out.rowptr"; die "sc-stat failed: no CSR written"; }
sc-rsort --record 8 --key 0 --field 4 "$edges" > "$out.col"

n=$(sc-stat --record 8 --key 0 "$edges" | awk '$1 == "count" { print $2 }')
rows=$(( $(wc -c < "$out.rowptr") / 8 ))
echo "edges:          $n"
echo "vertices:       $v"
echo "rowptr:         $rows u64 offsets, first 5: $(sc-stat -e u64 --head 5 "$out.rowptr" | tr '\n' ' ')"
echo "col:            $(( $(wc -c < "$out.col") / 4 )) u32 indices"

# Checks: V + 1 offsets, sorted (-C), from 0 to the number of edges.
[ "$rows" -eq $((v + 1)) ] || die "$rows offsets, want $((v + 1))"
sc-rsort -C -e u64 "$out.rowptr" || die "the offsets are not sorted"
# offset K: the K-th u64 of rowptr (od reads it in the host's order, as
# sc wrote it).
offset() { od -An -t u8 -j $(($1 * 8)) -N 8 "$out.rowptr" | tr -d ' '; }
first=$(offset 0)
last=$(offset "$v")
[ "$first" -eq 0 ] && [ "$last" -eq "$n" ] ||
    die "offsets run from $first to $last, want 0 to $n"
[ "$(( $(wc -c < "$out.col") / 4 ))" -eq "$n" ] || die "col is not $n long"

# A few rows: row r's columns are the dst of the edges whose src is r, in
# the input's order (sc-compact keeps the order; --field takes the dst).
for r in 0 1 $((v / 2)) $((v - 1)); do
    sc-compact --record 8 --key 0 --eq "$r" --field 4 "$edges" > "$tmp/want"
    lo=$(offset "$r") hi=$(offset $((r + 1)))
    tail -c +$((lo * 4 + 1)) "$out.col" | head -c $(((hi - lo) * 4)) > "$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || die "row $r differs from sc-compact's edges"
done
echo "checked:        offsets 0 .. $n, sorted; rows 0, 1, $((v / 2)), $((v - 1)) against sc-compact"
