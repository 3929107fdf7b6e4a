#!/bin/sh
# kernels.sh — the CUDA kernel benchmarks against CUB (bench_compact,
# bench_select_types, bench_select_records, bench_scan_sort,
# bench_scan_types, bench_sort_types, bench_sort_records, bench_stat) and libsc's
# device API against CUB
# (bench_api), each built here and run once.  Part of `make bench`
# (run-bench's section f); `make bench-kernels` runs it alone.
#
#   sh bench/kernels.sh SRCDIR BUILDDIR [WORKDIR]
# NVCC_ALL: nvcc with its flags (Makefile.am's).  WORKDIR (default a
# temporary directory) holds the programs.  BENCHES names fewer of them.
# BENCH_BUILD_ONLY=DIR builds them into DIR and runs none (scripts/gpu
# prebuild).
set -eu
S=$1 B=$2
if [ -n "${3:-}" ]; then D=$3; else D=$(mktemp -d); trap 'rm -rf "$D"' EXIT; fi
say() { printf '%s\n' "$*"; }
: "${NVCC_ALL:?NVCC_ALL is empty: no CUDA build}"

# bench_api calls libsc through sc.h as a user does: this build's
# shared libsc, and CUB from the toolkit, called the same way;
# bench_sort_types and bench_scan_types time every tile of 8-byte keys or
# elements (-DSCG_TUNE) and mark the one libsc calls.
libsc="-I$S/lib/core -L$B/lib/.libs -lsc -Xlinker -rpath -Xlinker $B/lib/.libs"
# The programs are built at once (nvcc compiles one file on one core and
# each takes minutes), then run one at a time.
all=${BENCHES:-bench_compact bench_select_types bench_select_records bench_scan_sort bench_scan_types bench_sort_types bench_sort_records bench_stat bench_api}
srcs_of() {
    case $1 in
    bench_compact) echo "$S/kernels/compact.cu $S/kernels/split.cu $S/kernels/gen.cu" ;;
    bench_select_types|bench_select_records)
        echo "$S/kernels/compact.cu $S/kernels/split.cu $libsc" ;;
    bench_scan_sort) echo "$S/kernels/scan.cu $S/kernels/sort.cu" ;;
    bench_scan_types) echo "-DSCG_TUNE $S/kernels/scan.cu $S/kernels/scan_typed.cu $libsc" ;;
    bench_sort_types) echo "-DSCG_TUNE $S/kernels/sort.cu" ;;
    bench_sort_records) echo "$S/kernels/sort.cu $S/kernels/sort_records.cu" ;;
    bench_stat) echo "$S/kernels/stat.cu $libsc" ;;
    bench_api) echo "$libsc" ;;
    esac
}
for b in $all; do
    srcs=$(srcs_of "$b")
    if [ ! -f "$S/bench/$b.cu" ]; then
        echo "skipped, $S/bench/$b.cu is missing" >"$D/$b.why"
    elif [ "$srcs" != "${srcs%-lsc*}" ] && [ ! -e "$B/lib/.libs/libsc.so" ]; then
        echo "skipped, no shared libsc in $B/lib/.libs" >"$D/$b.why"
    else
        # NVCC_ALL and srcs are word-split on purpose
        $NVCC_ALL -o "$D/$b" "$S/bench/$b.cu" $srcs >"$D/$b.err" 2>&1 &
    fi
done
wait
if [ -n "${BENCH_BUILD_ONLY:-}" ]; then
    for b in $all; do
        if [ -x "$D/$b" ]; then cp "$D/$b" "$BENCH_BUILD_ONLY/"
        else say "  $b: build FAILED:"; tail -n 20 "$D/$b.err" 2>/dev/null; fi
    done
    exit 0
fi
for b in $all; do
    if [ -f "$D/$b.why" ]; then
        say "  $b: $(cat "$D/$b.why")"
        continue
    fi
    say "  -- $b"
    if [ ! -x "$D/$b" ]; then
        say "  $b: build FAILED:"
        sed 's/^/    /' "$D/$b.err" | tail -n 20
        [ -s "$D/$b.err" ] || say "    (no output)"
        continue
    fi
    if "$D/$b" >"$D/out" 2>&1; then rc=0; else rc=$?; fi
    sed 's/^/    /' "$D/out"
    [ $rc -eq 0 ] || say "  $b: exited $rc"
    rm -f "$D/out"
done
