#!/bin/bash
# device-check.sh BIN OUT [quick] — run the kernel benches, the kernel tests
# and compute-sanitizer on a GPU machine, with programs built beforehand
# (tests/gpu/test_*_kernels and bench/bench_*, built with -DSCG_TUNE so that
# every variant is benchmarked and tested).  Logs go to OUT; a short table
# comes last on stdout.  With "quick", the full tests are skipped.
B=$1 O=$2 Q=$3
mkdir -p "$O"
nvidia-smi -L
s=$SECONDS
hung=
run() {   # run NAME TIMEOUT CMD...: log to $O/NAME, say how it ended; after
          # a time-out (a hung kernel hangs what follows too) run nothing more
    local n=$1 t=$2; shift 2
    if [ -n "$hung" ]; then echo "[$n] $* -> skipped" | tee -a "$O/$n"; return; fi
    timeout "$t" "$@" >>"$O/$n" 2>&1
    local rc=$?
    echo "[$n] $* -> rc $rc after $((SECONDS - s)) s" | tee -a "$O/$n"
    [ $rc -ne 124 ] || hung=1
}
for b in bench_compact_old bench_compact_regs bench_scan_sort_old; do
    [ -x "$B/$b" ] && run old_benches.txt 60 "$B/$b"
done
run bench_compact.txt 90 "$B/bench_compact"
run bench_scan_sort.txt 120 "$B/bench_scan_sort"
if [ "$Q" != quick ]; then
    run tests.txt 150 "$B/test_compact_kernels"
    run tests.txt 120 "$B/test_scan_sort_kernels"
    [ -x "$B/test_stat_kernel" ] && run tests.txt 120 "$B/test_stat_kernel"
fi
export SC_QUICK=1
run sanitizer.txt 100 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/test_compact_kernels"
run sanitizer.txt 80 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/test_scan_sort_kernels"
[ -x "$B/test_stat_kernel" ] &&
    run sanitizer.txt 80 compute-sanitizer --tool memcheck --error-exitcode 9 "$B/test_stat_kernel"
export SC_QUICK=2
run sanitizer.txt 60 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/test_compact_kernels"
run sanitizer.txt 60 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/test_scan_sort_kernels"
[ -x "$B/test_stat_kernel" ] &&
    run sanitizer.txt 60 compute-sanitizer --tool racecheck --error-exitcode 9 "$B/test_stat_kernel"
echo "=== failures (first 30)"
grep -h '^not ok' "$O/tests.txt" "$O/sanitizer.txt" 2>/dev/null | head -30
for f in tests.txt sanitizer.txt; do
    [ -f "$O/$f" ] && echo "$f: $(grep -c '^ok' "$O/$f") ok, $(grep -c '^not ok' "$O/$f") not ok; $(grep -h 'ERROR SUMMARY' "$O/$f" | tr '\n' ' ')"
done
grep -h '^\[' "$O"/*.txt
echo "=== old benches"
grep -E 'MISMATCH|^cub|^scg|^\| (cub|scg|d2d)' "$O/old_benches.txt" 2>/dev/null
echo "=== bench_scan_sort"
grep -E '^\|' "$O/bench_scan_sort.txt"
echo "=== bench_compact"
grep -v '^\[' "$O/bench_compact.txt"
