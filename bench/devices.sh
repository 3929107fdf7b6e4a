#!/bin/sh
# devices.sh — each tool at each input size on -d cpu, -d cuda and -d auto,
# end to end from a cached file as a user runs it, with cat and (for the
# sort) CuPy measured in the same run.  Prints one table; the last column
# says whether auto came within 5 % of the faster device.  Run by
# bench/run-bench on a GPU machine, or alone:
#   bench/devices.sh BIN_DIR [SIZES]   (SIZES in bytes, default
#   "0 4096 4194304 67108864 1073741824 4294967296")
set -eu
BIN=$1
. "$(dirname "$0")/tools-env.sh"
SIZES=${2:-"0 4096 4194304 67108864 1073741824 4294967296"}
D=$(mktemp -d "${BENCH_DIR:-${TMPDIR:-/tmp}}/sc-devices.XXXXXX")
trap 'rm -rf "$D"' EXIT

# best CMD (tools-env.sh): the best wall time of 3 runs, or FAIL.

# runs CMD K: the mean wall time of K runs of CMD one after another, each
# with a fresh output file "$O", or FAIL.  The files go after the timing:
# overwriting or removing the last run's pays for freeing its pages, and
# made the third device's sort look slow (0.78-1.15 s for one cat <F >out
# of 1 GiB).
runs() {
    k=$2 i=0
    t0=$(date +%s.%N)
    while [ $i -lt "$k" ]; do
        O="$D/out.$i" sh -c "$1" >/dev/null 2>"$D/err" || { echo FAIL; rm -f "$D"/out.*; return; }
        i=$((i + 1))
    done
    t1=$(date +%s.%N)
    rm -f "$D"/out.*
    awk "BEGIN { printf \"%.4f\", ($t1 - $t0) / $k }"
}

# reps T: runs of T seconds each that make one timing of at least 0.25 s
# (1 to 40): a single run of a few ms varies by more than the 5 % asked
# of auto (sc-split of nothing took 4.1 to 5.9 ms on one code path).
reps() {
    awk -v t="$1" 'BEGIN { if (t == "FAIL") t = 1; k = int(0.25 / (t > 0.001 ? t : 0.001)) + 1
                          print (k > 40 ? 40 : k) }'
}

# by_turns CPU GPU AUTO: the three commands by turns, six rounds (one when
# a run takes over 3 s), the rounds in every order of the three, so that
# each follows each of the others as often: a drift of the machine (its
# page cache, its clocks, what a CUDA process leaves the driver to do
# after it exits) falls on all three alike.  A first run of each warms it
# and sets its repetitions (reps).  Prints the best timing of each.  Run
# one after the other, best of 3, auto missed its 5 % by the jitter of a
# few ms runs; in five rounds, four of auto's came right after a -d cuda
# run and none of cpu's.
by_turns() {
    kc=$(reps "$(runs "$1" 1)") kg=$(reps "$(runs "$2" 1)") ka=$(reps "$(runs "$3" 1)")
    bc= bg= ba=
    for order in "c g a" "g a c" "a c g" "c a g" "a g c" "g c a"; do
        slow=
        for k in $order; do
            case $k in c) cmd=$1 n=$kc ;; g) cmd=$2 n=$kg ;; a) cmd=$3 n=$ka ;; esac
            t=$(runs "$cmd" "$n")
            [ "$t" != FAIL ] && awk "BEGIN { exit !($t > 3) }" && slow=1
            eval "b=\$b$k"
            if [ "$t" = FAIL ] || [ "$b" = FAIL ]; then b=FAIL
            elif [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
            eval "b$k=\$b"
        done
        [ -z "$slow" ] || break
    done
    echo "$bc $bg $ba"
}

row() {
    printf '%-12s %-22s %9s %9s %9s %9s %7s  %s\n' "$@"
}

verdict() {
    awk -v c="$1" -v g="$2" -v a="$3" 'BEGIN {
        if (a == "FAIL") { print "FAIL"; exit }
        m = c; if (g != "FAIL" && g != "-" && g + 0 < m + 0) m = g
        printf "%.2f %s\n", a / m, (a <= m * 1.05) ? "yes" : "NO" }'
}

echo "== devices: each tool on cpu, cuda and auto (seconds a run, best of 6 timings by turns, a timing of short runs repeating them for 0.25 s)"
row size tool cpu cuda auto ref "auto/best" "within 5%"
for size in $SIZES; do
    n=$((size / 4))
    "$BIN/sc-gen" -d cpu -n "$n" --density 0.5 -o "$D/in"
    sync    # no writeback of the new file during the timed runs
    cat "$D/in" >/dev/null
    ref_cat=$(runs "cat '$D/in'" "$(reps "$(runs "cat '$D/in'" 1)")")
    ref_copy=$(runs "cat <'$D/in' >\"\$O\"" "$(reps "$(runs "cat <'$D/in' >\"\$O\"" 1)")")
    for tool in sc-gen sc-compact sc-split sc-scan sc-rsort; do
        case $tool in
        sc-gen) cmd="'$BIN/sc-gen' -n $n --density 0.5 -DEV" ref=$ref_cat ;;
        sc-rsort) cmd="'$BIN/sc-rsort' -DEV <'$D/in' >\"\$O\"" ref=$ref_copy ;;
        sc-split) cmd="'$BIN/sc-split' -r /dev/null -DEV <'$D/in'" ref=$ref_cat ;;
        *) cmd="'$BIN/$tool' -DEV <'$D/in'" ref=$ref_cat ;;
        esac
        set -- $(by_turns "$(echo "$cmd" | sed 's/-DEV/-d cpu/')" \
                          "$(echo "$cmd" | sed 's/-DEV/-d cuda/')" \
                          "$(echo "$cmd" | sed 's/-DEV/-d auto/')")
        t_cpu=$1 t_gpu=$2 t_auto=$3
        v=$(verdict "$t_cpu" "$t_gpu" "$t_auto")
        row "$size" "$tool" "$t_cpu" "$t_gpu" "$t_auto" "$ref" ${v}
    done
    # CuPy, file -> GPU sort -> file, in the same run (1 GiB only).
    if [ "$size" -eq 1073741824 ] && python3 -c 'import cupy' 2>/dev/null; then
        t_cupy=$(best "python3 -c \"import cupy, numpy; a = numpy.fromfile('$D/in', dtype=numpy.uint32); cupy.asnumpy(cupy.sort(cupy.asarray(a))).tofile('$D/out')\"")
        t_rs=$(best "'$BIN/sc-rsort' <'$D/in' >'$D/out'")
        echo "   CuPy file->sort->file $t_cupy s; sc-rsort (auto) $t_rs s: $(awk "BEGIN { printf \"%.2f\", $t_cupy / $t_rs }")x (target >= 2)"
        echo "   sc-rsort (auto) vs cat <F >out: $(awk "BEGIN { printf \"%.2f\", $t_rs / $ref_copy }") (target <= 1.0)"
        sync    # the sorts' outputs written back before the next timing
        t_c=$(best "'$BIN/sc-compact' <'$D/in'")
        t_cc=$(best "'$BIN/sc-compact' -d cpu <'$D/in'")
        echo "   sc-compact <F >/dev/null vs cat F: auto $(awk "BEGIN { printf \"%.2f\", $ref_cat / $t_c }")x, cpu $(awk "BEGIN { printf \"%.2f\", $ref_cat / $t_cc }")x (targets >= 2, >= 1.5)"
    fi
    rm -f "$D/in" "$D/out" "$D/copy"
done
echo "== empty input, 20 runs each (target: at most 10 ms a run)"
for d in cpu auto; do
    t0=$(date +%s.%N)
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
        "$BIN/sc-compact" -d $d </dev/null
    done
    t1=$(date +%s.%N)
    echo "   sc-compact -d $d </dev/null: $(awk "BEGIN { printf \"%.1f\", ($t1 - $t0) * 1000 / 20 }") ms a run"
done
echo "== pipelines, 1 GiB (auto vs cpu; cat | X | cat vs cat | cat)"
"$BIN/sc-gen" -d cpu -n 256M --density 0.5 -o "$D/in"
sync
cat "$D/in" >/dev/null
for d in cpu auto; do
    eval "p_$d=\$(best \"'$BIN/sc-gen' -n 256M --density 0.5 -d $d | '$BIN/sc-compact' -d $d | '$BIN/sc-scan' -d $d | '$BIN/sc-rsort' -d $d >'$D/out'\")"
done
echo "   gen | compact | scan | rsort >out: cpu $p_cpu s, auto $p_auto s: auto/cpu $(awk "BEGIN { printf \"%.2f\", $p_auto / $p_cpu }") (target <= 0.6)"
# Whatever sorts at the end of that pipe must read all of it and write
# all of it: with cat in the sort's place, what the pipe itself costs.
p_floor=$(best "'$BIN/sc-gen' -n 256M --density 0.5 -d cpu | '$BIN/sc-compact' -d cpu | '$BIN/sc-scan' -d cpu | cat >'$D/out'")
echo "   gen | compact | scan | cat >out (-d cpu; no sort): $p_floor s: $(awk "BEGIN { printf \"%.2f\", $p_floor / $p_cpu }") of cpu's time, the least any sort at its end could take"
t_cc=$(best "cat '$D/in' | cat")
for tool in sc-compact sc-scan sc-split; do
    t=$(best "cat '$D/in' | '$BIN/$tool' | cat")
    echo "   cat F | $tool | cat: $t s vs cat F | cat $t_cc s: $(awk "BEGIN { printf \"%.2f\", $t_cc / $t }")x (target >= 1.0)"
done
# A stable split writes its rejects after its last input: what the read
# alone takes, and so what is left for writing the held half to match
# cat | cat (head | cat: the same half through a pipe of the default size).
t_rd=$(best "cat '$D/in' | '$BIN/sc-split' --count | cat")
t_hw=$(best "head -c 512M '$D/in' | cat")
echo "   cat F | sc-split --count | cat (the read alone): $t_rd s; to match cat | cat, the held half (512 MiB) would have $(awk "BEGIN { printf \"%.3f\", $t_cc - $t_rd }") s ($(awk "BEGIN { d = $t_cc - $t_rd; if (d > 0) printf \"%.1f GB/s\", 0.537 / d; else printf \"none left\" }")); head -c 512M F | cat: $t_hw s"
