#!/bin/sh
# types.sh — sc-rsort of each element type, file to file from a cached
# file as a user runs it, beside cat, numpy (one core) and CuPy measured
# in the same run.  Prints one table of seconds and GB/s, and the CPU's
# rate for 64-bit keys against its rate for u32 (bytes a second).  Run by
# bench/run-bench, or alone:
#   bench/types.sh BIN_DIR [BYTES] [TYPES]   (default 1 GiB of each of
#   u32 i32 f32 u64 i64 f64)
# TYPES may name records too: r8 (8-byte records, a u32 key at 0: an
# edge list), r16 (16 bytes, a u64 key at 0), r64 (64 bytes, a u32 key
# at 0); numpy and CuPy sort them by a stable argsort of the key column
# and a gather of the rows.
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
    u32|r8|r64) echo uint32 ;; i32) echo int32 ;; f32) echo float32 ;;
    u64|r16) echo uint64 ;; i64) echo int64 ;; f64) echo float64 ;;
    esac
}

# The size of one element or record, and sc's options for it.
elem_bytes() {
    case $1 in
    u64|i64|f64|r8) echo 8 ;; r16) echo 16 ;; r64) echo 64 ;; *) echo 4 ;;
    esac
}
sc_opts() {
    case $1 in
    r8) echo "--record 8 --key 0:u32" ;; r16) echo "--record 16 --key 0:u64" ;;
    r64) echo "--record 64 --key 0:u32" ;; *) echo "-e $1" ;;
    esac
}

# The Python that sorts F into O as numpy (np) or CuPy (cupy) would: the
# elements, or the rows of records by their first column.
py_sort() {
    dt=$(dtype "$1")
    case $1 in
    r*) words=$(( $(elem_bytes "$1") / $(python3 -c "import numpy as np; print(np.dtype(np.$dt).itemsize)") ))
        if [ "$2" = np ]; then
            echo "import numpy as np; a = np.fromfile('$3', dtype=np.$dt).reshape(-1, $words); a[np.argsort(a[:, 0], kind='stable')].tofile('$4')"
        else
            echo "import cupy, numpy as np; a = cupy.asarray(np.fromfile('$3', dtype=np.$dt).reshape(-1, $words)); cupy.asnumpy(a[cupy.argsort(a[:, 0])]).tofile('$4')"
        fi ;;
    *)  if [ "$2" = np ]; then
            echo "import numpy as np; np.sort(np.fromfile('$3', dtype=np.$dt), kind='stable').tofile('$4')"
        else
            echo "import cupy, numpy as np; cupy.asnumpy(cupy.sort(cupy.asarray(np.fromfile('$3', dtype=np.$dt)))).tofile('$4')"
        fi ;;
    esac
}

# Records sorted by a stable argsort are sc's bytes (elements always are).
same_as() {
    case $1 in
    r*) cmp -s "$D/out" "$D/sorted" ||
            echo "  $1: sc-rsort's records differ from $2's stable argsort  <-- tool problem" ;;
    esac
}

has_cupy=no
python3 -c 'import cupy; cupy.zeros(1)' 2>/dev/null && has_cupy=yes
has_numpy=no
# TYPES_NUMPY=no leaves numpy out (a minute or more a type at 2 GiB).
[ "${TYPES_NUMPY:-yes}" = yes ] && python3 -c 'import numpy' 2>/dev/null && has_numpy=yes

echo "sc-rsort by element type, $BYTES bytes each, file -> file (seconds, best of 3; GB/s of input)"
printf '%-4s %8s %8s %8s %8s %8s | %6s %6s %6s %6s\n' type cat sc-auto sc-cpu numpy cupy \
    "xcat" "xnumpy" "xcupy" "cpuGB/s"
cpu_u32=
for t in $TYPES; do
    size=$(elem_bytes "$t")
    opts=$(sc_opts "$t")
    n=$((BYTES / size))
    F="$D/in.$t"
    case $t in
    f32|f64) "$BIN/sc-gen" -e "$t" -n "$n" --min -1e6 --max 1e6 >"$F" ;;
    *) "$BIN/sc-gen" $opts -n "$n" >"$F" ;;
    esac
    cat "$F" >/dev/null
    t_cat=$(best "cat <'$F' >'$D/out'")
    t_auto=$(best "'$BIN/sc-rsort' $opts <'$F' >'$D/out'")
    cp "$D/out" "$D/sorted"
    t_cpu=$(best "'$BIN/sc-rsort' -d cpu $opts <'$F' >'$D/out'")
    cmp -s "$D/out" "$D/sorted" || echo "  $t: -d cpu and auto differ  <-- tool problem"
    "$BIN/sc-rsort" -C $opts "$D/sorted" || echo "  $t: output not in order  <-- tool problem"
    t_np=-
    if [ $has_numpy = yes ]; then
        t_np=$(best "python3 -c \"$(py_sort "$t" np "$F" "$D/out")\"")
        same_as "$t" numpy
    fi
    t_cp=-
    if [ $has_cupy = yes ]; then
        t_cp=$(best "python3 -c \"$(py_sort "$t" cupy "$F" "$D/out")\"")
        same_as "$t" CuPy
    fi
    cpu=$(gbs "$t_cpu")
    [ "$t" = u32 ] && cpu_u32=$cpu
    printf '%-4s %8s %8s %8s %8s %8s | %6s %6s %6s %6s\n' "$t" "$t_cat" "$t_auto" "$t_cpu" "$t_np" "$t_cp" \
        "$(ratio "$t_auto" "$t_cat")" "$(ratio "$t_np" "$t_auto")" "$(ratio "$t_cp" "$t_auto")" "$cpu"
    # Where each device's time went (-v's phases, one more run each),
    # printed after the table.
    for dev in auto cpu; do
        "$BIN/sc-rsort" -v -d $dev $opts <"$F" >"$D/out" 2>"$D/v" || true
        printf '%-4s %-4s %s\n' "$t" "$dev" \
            "$(sed -n 's/^sc-rsort: time: //p' "$D/v" | tr -d '\n')" >>"$D/phases"
        rm -f "$D/out"
    done
    rm -f "$F" "$D/sorted" "$D/out"
done
echo "sc-rsort -v's phases, seconds (one run each):"
cat "$D/phases"
echo "xcat: sc-rsort's time / cat's (#30's and #31's target <= 1.3, at 2 GiB); xnumpy, xcupy: their time / sc-rsort's (target >= 2 for CuPy)"
[ -n "$cpu_u32" ] && echo "-d cpu GB/s of 64-bit types against u32's $cpu_u32 (#30's target: at least half)"
