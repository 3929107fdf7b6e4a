#!/bin/sh
# baseclock.sh — bench_compact's kernels timed by Nsight Compute at the
# GPU's base clock and at boost: sc's fused compaction and split against
# CUB's DeviceSelect::If and DevicePartition::If, 2^28 uint32, 10 / 50 /
# 90 % kept.  The fused pass is issue-bound and CUB's sweep nearer the
# memory's rate, so the clock can change which is faster (issue #32).
#
#   sh bench/baseclock.sh BENCH_COMPACT [LOG2_N [KEEP%]]   (the program's own)
#   sh bench/baseclock.sh --table LOGDIR      the table again from the logs
#
# One ncu run of the program a clock (--clock-control base, then none),
# with SC_BENCH_RUNS (BASECLOCK_RUNS, default 3) timed runs a call after one
# warm-up, so that a few launches of each kernel are profiled (ncu
# serializes each and flushes the caches before it), collecting only
# gpu__time_duration.sum of fill_kernel (which starts each keep %), CUB's
# DeviceCompactInitKernel and DeviceSelectSweepKernel and sc's
# fused_select_kernel (the variant libsc calls; the others run unprofiled).
# The table: per keep % and op (compaction of values, of indices as
# idx32, split), CUB's sweep and sc's kernel at each clock, then CUB's call
# (init + sweep) against sc's; x is CUB's time over sc's.  NCU names ncu
# (default: on PATH, else CUDA's).  The logs (ncu's CSV and the program's
# output, a clock each) go to BASECLOCK_LOG (default $OUT, else
# ./baseclock-out); the table is printed last.
set -u
KERNELS='.*(fill_kernel|DeviceCompactInitKernel|DeviceSelectSweepKernel|fused_select_kernel).*'

# table LOGDIR: medians per keep %, op and clock from LOGDIR's
# ncu-CLOCK.csv (ncu --csv --page raw, mangled kernel names) and
# bench-CLOCK.txt (the program's output, whose CUB select rows name the
# keeps in order); each line is taken for what it looks like, so a CSV
# that came out on the program's stdout is read too.
table() {
    d=$1
    set --
    for c in base boost; do
        for f in "$d/bench-$c.txt" "$d/ncu-$c.csv"; do
            [ -f "$f" ] && set -- "$@" clock=$c "$f"
        done
    done
    [ $# -gt 0 ] || { echo "baseclock.sh: no logs in $d" >&2; return 1; }
    awk '
# csv(line, f): the fields of one CSV line into f[1..n] (quotes, "" inside).
function csv(line, f,    n, i, c, q, cur) {
    n = 0; cur = ""; q = 0
    for (i = 1; i <= length(line); i++) {
        c = substr(line, i, 1)
        if (q) {
            if (c != "\"") cur = cur c
            else if (substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
            else q = 0
        } else if (c == "\"") q = 1
        else if (c == ",") { f[++n] = cur; cur = "" }
        else cur = cur c
    }
    f[++n] = cur
    return n
}
function add(key, v) { vals[key, ++nv[key]] = v }
# med(key): the median of the values under key, "" when none.
function med(key,    n, i, j, t, a) {
    n = nv[key] + 0
    if (n == 0) return ""
    for (i = 1; i <= n; i++) a[i] = vals[key, i]
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# unknown(what, name): says once a name that the table cannot place.
function unknown(what, name) {
    if (name in other) return
    other[name] = 1; bad = 1
    print "baseclock.sh: unknown " what " " name > "/dev/stderr"
}
function us(x) { return x == "" ? "-" : sprintf("%.1f", x) }
function ratio(a, b) { return a == "" || b == "" || b == 0 ? "-" : sprintf("%.2f", a / b) }
FNR == 1 && clock != last { last = clock; seg = 0; pend = ""; head = 0 }
{ sub(/\r$/, "") }
$1 == "cub::DeviceSelect::If" { keeps[clock, ++nk[clock]] = $2; next }
substr($0, 1, 1) != "\"" { next }
{ n = csv($0, f) }
f[1] == "ID" {
    head = 1; tcol = kcol = 0
    scale = 0.001       # --print-units base: nanoseconds
    # the metric by name, or by its label where ncu prints labels
    for (i = 1; i <= n; i++) {
        if (f[i] == "gpu__time_duration.sum" || (f[i] == "Duration" && !tcol)) tcol = i
        if (f[i] == "Kernel Name" || (f[i] == "Function Name" && !kcol)) kcol = i
    }
    if (!tcol || !kcol) {
        print "baseclock.sh: " FILENAME ": no gpu__time_duration.sum or Kernel Name column" > "/dev/stderr"
        bad = 1
    }
    next
}
!head || !tcol || !kcol { next }
f[1] == "" {            # the units row
    u = f[tcol]
    # ncu 2025 names the units short (ns), older ones long (nsecond)
    scale = u == "nsecond" || u == "ns" ? 0.001 : u == "usecond" || u == "us" ? 1 : \
            u == "msecond" || u == "ms" ? 1000 : u == "second" || u == "s" ? 1e6 : 0
    if (!scale) {
        print "baseclock.sh: " FILENAME ": gpu__time_duration.sum in " u > "/dev/stderr"
        bad = 1; head = 0
    }
    next
}
f[1] !~ /^[0-9]+$/ { next }
{
    name = f[kcol]; t = f[tcol]; gsub(/,/, "", t); t *= scale
    if (!nrow++) first = name
    if (name ~ /fill_kernel/) {
        seg++; pend = ""
        if (seg > nseg) nseg = seg
        next
    }
    if (!seg) next
    k = clock SUBSEP seg
    if (name ~ /DeviceCompactInitKernel/) { pend = t; next }
    if (name ~ /DeviceSelectSweepKernel/) {
        # SelectImpl in its policy: Select (0), or Partition (2), which keeps the rejects
        op = name ~ /SelectImplE2E/ ? "split" : name ~ /SelectImplE0E/ ? "compact" : ""
        if (op == "") { unknown("CUB kernel", name); pend = ""; next }
        add(k SUBSEP op SUBSEP "sweep", t)
        if (pend != "") add(k SUBSEP op SUBSEP "call", pend + t)
        pend = ""
    } else if (name ~ /fused_select_kernel/) {
        # sel_op<PRED, OUT, INDEX, SPLIT, ELEM> of uint32 (j): INDEX, SPLIT
        op = name ~ /jLb0ELb1Ej/ ? "split" : name ~ /jLb1ELb0Ej/ ? "idx32" : name ~ /jLb0ELb0Ej/ ? "compact" : ""
        if (op == "") { unknown("sc kernel", name); next }
        add(k SUBSEP op SUBSEP "sc", t)
    } else
        unknown("kernel", name)
}
END {
    print "ncu gpu__time_duration.sum (us), medians of n launches a clock; x = CUB us / sc us (> 1: sc faster)"
    print "a call: CUB init + sweep kernels against sc (whose memset of its statuses is no kernel)"
    printf "%-14s %24s %24s %29s\n", "", "------ base clock ------", "------ boost clock -----",
        "-- CUB call = init + sweep --"
    printf "%-5s %-8s %8s %8s %6s %8s %8s %6s %8s %5s %8s %5s %5s\n", "keep", "op", "CUB", "sc", "x",
        "CUB", "sc", "x", "base", "x", "boost", "x", "n"
    split("compact idx32 split", ops, " ")
    rows = 0
    for (s = 1; s <= nseg; s++) {
        label = (("base", s) in keeps) ? keeps["base", s] : (("boost", s) in keeps) ? keeps["boost", s] : "#" s
        for (j = 1; j <= 3; j++) {
            line = sprintf("%-5s %-8s", label, ops[j]); calls = ""; n = ""; any = 0
            for (c = 1; c <= 2; c++) {
                cl = c == 1 ? "base" : "boost"
                key = cl SUBSEP s SUBSEP ops[j]
                ck = cl SUBSEP s SUBSEP (ops[j] == "split" ? "split" : "compact")
                sc = med(key SUBSEP "sc"); sw = med(ck SUBSEP "sweep"); call = med(ck SUBSEP "call")
                if (sc != "") any = 1
                line = line sprintf(" %8s %8s %6s", us(sw), us(sc), ratio(sw, sc))
                calls = calls sprintf(" %8s %5s", us(call), ratio(call, sc))
                n = n (c == 2 ? "/" : "") (nv[key SUBSEP "sc"] + 0)
            }
            if (!any) continue
            printf "%s%s %5s\n", line, calls, n
            rows++
        }
    }
    if (!rows) {
        print "baseclock.sh: no kernel times found in " nrow " rows" (nrow ? ", the first " first : "") > "/dev/stderr"
        exit 1
    }
    exit bad
}' "$@"
}

if [ "${1:-}" = --table ]; then
    [ $# -eq 2 ] || { echo "usage: sh bench/baseclock.sh --table LOGDIR" >&2; exit 2; }
    table "$2"
    exit
fi
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: sh bench/baseclock.sh BENCH_COMPACT [LOG2_N [KEEP%]] (a built bench_compact)" >&2
    exit 2
fi
bin=$1
shift
[ $# -gt 0 ] || set -- 28
ncu=${NCU:-$(command -v ncu || ls /usr/local/cuda/bin/ncu /usr/local/cuda*/nsight-compute*/ncu \
                 /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)}
[ -n "$ncu" ] || { echo "baseclock.sh: no ncu (NCU names one)" >&2; exit 1; }
log=${BASECLOCK_LOG:-${OUT:-$PWD/baseclock-out}}
mkdir -p "$log"
"$ncu" --version | tail -n 1
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.sm --format=csv 2>/dev/null || true
rc=0
for c in base boost; do
    [ $c = base ] && cc=base || cc=none
    rm -f "$log/ncu-$c.csv"
    t0=$(date +%s)
    SC_BENCH_RUNS=${BASECLOCK_RUNS:-3} "$ncu" --clock-control "$cc" \
        --metrics gpu__time_duration.sum --kernel-name-base function \
        --kernel-name "regex:$KERNELS" --csv --page raw --print-units base \
        --print-kernel-base mangled --log-file "$log/ncu-$c.csv" \
        "$bin" "$@" >"$log/bench-$c.txt" 2>&1 || {
        rc=$?
        echo "baseclock.sh: ncu --clock-control $cc exited $rc:" >&2
        tail -n 15 "$log/bench-$c.txt" "$log/ncu-$c.csv" >&2
    }
    echo "$c: $(( $(date +%s) - t0 )) s, $(cat "$log/ncu-$c.csv" "$log/bench-$c.txt" 2>/dev/null | grep -c '^"[0-9]') kernels profiled"
done
table "$log" || rc=1
exit $rc
