#!/bin/sh
# types.sh — sc-rsort of each element type, file to file from a cached
# file as a user runs it, beside cat, numpy (one core) and CuPy measured
# in the same run.  Prints one table of seconds and GB/s, and the CPU's
# rate for 64-bit keys against its rate for u32 (bytes a second).  Run by
# bench/run-bench, or alone:
#   bench/types.sh BIN_DIR [BYTES] [TYPES]   (default 1 GiB of each of
#   u32 i32 f32 u64 i64 f64)
set -eu
BIN=$1
. "$(dirname "$0")/tools-env.sh"
BYTES=${2:-1073741824}
TYPES=${3:-"u32 i32 f32 u64 i64 f64"}
D=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/sc-types.XXXXXX")
trap 'rm -rf "$D"' EXIT

gbs() { awk -v b="$BYTES" -v t="$1" 'BEGIN { if (t == "FAIL" || t <= 0) print "-"; else printf "%.2f", b / t / 1e9 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "FAIL" || b == "FAIL" || b <= 0 || a == "-" || b == "-") print "-"; else printf "%.2f", a / b }'; }

dtype() {
    case $1 in
    u32) echo uint32 ;; i32) echo int32 ;; f32) echo float32 ;;
    u64) echo uint64 ;; i64) echo int64 ;; f64) echo float64 ;;
    esac
}

has_cupy=no
python3 -c 'import cupy; cupy.zeros(1)' 2>/dev/null && has_cupy=yes
has_numpy=no
python3 -c 'import numpy' 2>/dev/null && has_numpy=yes

echo "sc-rsort by element type, $BYTES bytes each, file -> file (seconds, best of 3; GB/s of input)"
printf '%-4s %8s %8s %8s %8s %8s | %6s %6s %6s %6s\n' type cat sc-auto sc-cpu numpy cupy \
    "xcat" "xnumpy" "xcupy" "cpuGB/s"
cpu_u32=
for t in $TYPES; do
    case $t in u64|i64|f64) size=8 ;; *) size=4 ;; esac
    n=$((BYTES / size))
    F="$D/in.$t"
    case $t in
    f32|f64) "$BIN/sc-gen" -e "$t" -n "$n" --min -1e6 --max 1e6 >"$F" ;;
    *) "$BIN/sc-gen" -e "$t" -n "$n" >"$F" ;;
    esac
    cat "$F" >/dev/null
    t_cat=$(best "cat <'$F' >'$D/out'")
    t_auto=$(best "'$BIN/sc-rsort' -e $t <'$F' >'$D/out'")
    cp "$D/out" "$D/sorted"
    t_cpu=$(best "'$BIN/sc-rsort' -d cpu -e $t <'$F' >'$D/out'")
    cmp -s "$D/out" "$D/sorted" || echo "  $t: -d cpu and auto differ  <-- tool problem"
    "$BIN/sc-rsort" -C -e "$t" "$D/sorted" || echo "  $t: output not in order  <-- tool problem"
    dt=$(dtype "$t")
    t_np=-
    [ $has_numpy = yes ] && t_np=$(best "python3 -c \"import numpy as np; np.sort(np.fromfile('$F', dtype=np.$dt), kind='stable').tofile('$D/out')\"")
    t_cp=-
    [ $has_cupy = yes ] && t_cp=$(best "python3 -c \"import cupy, numpy as np; cupy.asnumpy(cupy.sort(cupy.asarray(np.fromfile('$F', dtype=np.$dt)))).tofile('$D/out')\"")
    cpu=$(gbs "$t_cpu")
    [ "$t" = u32 ] && cpu_u32=$cpu
    printf '%-4s %8s %8s %8s %8s %8s | %6s %6s %6s %6s\n' "$t" "$t_cat" "$t_auto" "$t_cpu" "$t_np" "$t_cp" \
        "$(ratio "$t_auto" "$t_cat")" "$(ratio "$t_np" "$t_auto")" "$(ratio "$t_cp" "$t_auto")" "$cpu"
    rm -f "$F" "$D/sorted" "$D/out"
done
echo "xcat: sc-rsort's time / cat's (#30's target <= 1.3); xnumpy, xcupy: their time / sc-rsort's (target >= 2 for CuPy)"
[ -n "$cpu_u32" ] && echo "-d cpu GB/s of 64-bit types against u32's $cpu_u32 (#30's target: at least half)"
