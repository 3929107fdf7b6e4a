#!/bin/sh
# csr.sh — examples/csr.sh's two pipelines (the CSR form of an edge list
# of (u32 src, u32 dst) records) on a random graph, file to file from a
# cached file, beside the same done with numpy (a stable argsort, bincount
# and cumsum, one core) and CuPy, measured in the same run, and beside
# `cat <F >out` of the edge list.  The outputs are compared byte for byte.
#   bench/csr.sh BIN_DIR [LG]   (2^LG edges, default 28, on 2^(LG-3)
#   vertices)
set -eu
BIN=$1
. "$(dirname "$0")/tools-env.sh"
LG=${2:-28}
D=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/sc-csr.XXXXXX")
trap 'rm -rf "$D"' EXIT
E=$((1 << LG)) V=$((1 << (LG - 3)))
F=$D/edges

python3 -c 'import numpy' 2>/dev/null ||
    { echo "csr.sh: numpy is needed to make the edge list"; exit 0; }
python3 - "$F" "$E" "$V" <<'EOF'
import numpy as np, sys
f, e, v = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
r = np.random.default_rng(1)
edges = np.empty((e, 2), dtype=np.uint32)
edges[:, 0] = r.integers(0, v, e, dtype=np.uint32)
edges[:, 1] = r.integers(0, 1 << 32, e, dtype=np.uint64).astype(np.uint32)
edges.tofile(f)
EOF
cat "$F" >/dev/null

sc_csr="'$BIN/sc-stat' --record 8 --key 0 --bincount=$V '$F' |
        '$BIN/sc-scan' -e u64 --offsets > '$D/out' &&
        '$BIN/sc-rsort' --record 8 --key 0 --field 4 '$F' > '$D/copy'"
np_csr="import numpy as np
e = np.fromfile('$F', dtype=np.uint32).reshape(-1, 2)
src, dst = e[:, 0], e[:, 1]
rowptr = np.zeros($V + 1, dtype=np.uint64)
np.cumsum(np.bincount(src, minlength=$V), out=rowptr[1:])
rowptr.tofile('$D/out')
dst[np.argsort(src, kind='stable')].tofile('$D/copy')"
cp_csr="import numpy as np, cupy as cp
e = cp.asarray(np.fromfile('$F', dtype=np.uint32)).reshape(-1, 2)
src, dst = e[:, 0], e[:, 1]
rowptr = cp.zeros($V + 1, dtype=cp.uint64)
cp.cumsum(cp.bincount(src, minlength=$V), out=rowptr[1:])
cp.asnumpy(rowptr).tofile('$D/out')
cp.asnumpy(dst[cp.argsort(src)]).tofile('$D/copy')"

echo "CSR of 2^$LG random edges on 2^$((LG - 3)) vertices, file -> files (seconds, best of 3)"
t_cat=$(best "cat <'$F' >'$D/out'")
t_sc=$(best "$sc_csr")
mv "$D/out" "$D/sc.rowptr"
mv "$D/copy" "$D/sc.col"
# the same without the sort: the row offsets alone
t_rows=$(best "'$BIN/sc-stat' --record 8 --key 0 --bincount=$V '$F' | '$BIN/sc-scan' -e u64 --offsets > '$D/out'")
t_np=$(best "python3 -c \"$np_csr\"")
if [ "$t_np" != FAIL ]; then
    cmp -s "$D/out" "$D/sc.rowptr" || echo "  numpy's rowptr differs from sc's  <-- problem"
    cmp -s "$D/copy" "$D/sc.col" || echo "  numpy's col differs from sc's  <-- problem"
fi
t_cp=-
if python3 -c 'import cupy; cupy.zeros(1)' 2>/dev/null; then
    t_cp=$(best "python3 -c \"$cp_csr\"")
    # CuPy's argsort is not stable: only the offsets compare
    [ "$t_cp" = FAIL ] || cmp -s "$D/out" "$D/sc.rowptr" ||
        echo "  CuPy's rowptr differs from sc's  <-- problem"
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "FAIL" || b == "FAIL" || a == "-" || b == "-" || b <= 0) print "-"; else printf "%.2f", a / b }'; }
printf '%-22s %9s %9s\n' "" seconds "x sc"
printf '%-22s %9s %9s\n' "cat <edges >out" "$t_cat" "$(ratio "$t_cat" "$t_sc")"
printf '%-22s %9s %9s\n' "sc (examples/csr.sh)" "$t_sc" 1.00
printf '%-22s %9s %9s\n' "sc, row offsets alone" "$t_rows" "$(ratio "$t_rows" "$t_sc")"
printf '%-22s %9s %9s\n' "numpy" "$t_np" "$(ratio "$t_np" "$t_sc")"
printf '%-22s %9s %9s\n' "CuPy" "$t_cp" "$(ratio "$t_cp" "$t_sc")"
echo "x sc: each one's time / sc's (above 1: sc is faster)"
