#!/bin/sh
# kernels.sh — the CUDA kernel benchmarks against CUB (bench_compact,
# bench_select_types, bench_select_records, bench_scan_sort,
# bench_scan_types, bench_sort_types, bench_stat) and libsc's
# device API against CUB
# (bench_api), each built here and run once.  Part of `make bench`
# (run-bench's section f); `make bench-kernels` runs it alone.
#
#   sh bench/kernels.sh SRCDIR BUILDDIR [WORKDIR]
# NVCC_ALL: nvcc with its flags (Makefile.am's).  WORKDIR (default a
# temporary directory) holds the programs.  BENCHES names fewer of them.
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
for b in ${BENCHES:-bench_compact bench_select_types bench_select_records bench_scan_sort bench_scan_types bench_sort_types bench_stat bench_api}; do
    case $b in
    bench_compact) srcs="$S/kernels/compact.cu $S/kernels/split.cu $S/kernels/gen.cu" ;;
    bench_select_types|bench_select_records)
        srcs="$S/kernels/compact.cu $S/kernels/split.cu $libsc" ;;
    bench_scan_sort) srcs="$S/kernels/scan.cu $S/kernels/sort.cu" ;;
    bench_scan_types) srcs="-DSCG_TUNE $S/kernels/scan.cu $S/kernels/scan_typed.cu $libsc" ;;
    bench_sort_types) srcs="-DSCG_TUNE $S/kernels/sort.cu" ;;
    bench_stat) srcs="$S/kernels/stat.cu $libsc" ;;
    bench_api) srcs=$libsc ;;
    esac
    if [ ! -f "$S/bench/$b.cu" ]; then
        say "  $b: skipped, $S/bench/$b.cu is missing"
        continue
    fi
    if [ "$srcs" != "${srcs%-lsc*}" ] && [ ! -e "$B/lib/.libs/libsc.so" ]; then
        say "  $b: skipped, no shared libsc in $B/lib/.libs"
        continue
    fi
    say "  -- $b"
    # NVCC_ALL and srcs are word-split on purpose
    if ! $NVCC_ALL -o "$D/$b" "$S/bench/$b.cu" $srcs >"$D/err" 2>&1; then
        say "  $b: build FAILED:"
        sed 's/^/    /' "$D/err" | tail -n 20
        [ -s "$D/err" ] || say "    (no output)"
        continue
    fi
    if "$D/$b" >"$D/out" 2>&1; then rc=0; else rc=$?; fi
    sed 's/^/    /' "$D/out"
    [ $rc -eq 0 ] || say "  $b: exited $rc"
    rm -f "$D/out"
done
