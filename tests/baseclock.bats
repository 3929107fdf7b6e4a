#!/usr/bin/env bats
# baseclock.bats -- bench/baseclock.sh without a GPU: its table from
# fabricated ncu CSV (ncu --csv --page raw, the mangled names nvcc 13.0
# gives bench_compact's kernels), and its two ncu runs through a stand-in
# ncu that records its arguments.

load test_helper

BC="$SC_SRCDIR/bench/baseclock.sh"
FILL=_Z11fill_kernelPjmm
INIT=_ZN3cub17CUB_300001_SM_9006detail4scan23DeviceCompactInitKernelINS0_13ScanTileStateIiLb1EEEPmEEvT_iT0_
SWEEP=_ZN3cub17CUB_300001_SM_9006detail6select23DeviceSelectSweepKernelINS2_10policy_hubIjNS0_8NullTypeEiLb0ELNS0_10SelectImplE
SWEEP_END=EE10Policy1000EPjPS5_S9_PmNS0_13ScanTileStateIiLb1EEE7nonzeroS5_iNS2_19streaming_context_tIlLb1EEELS6_0EEEvT0_T1_T2_T3_T4_T5_T6_T7_iT8_NS1_7vsmem_tE
FUSED=_ZN2te19fused_select_kernelINS_6sel_opINS_12pred_range_tIjEEj
FUSED_END=jEELi384ELi4ELi2ELi3ELb0EEEvT_NS_5inputEmNS_13packed_statusEPm

# fixture DIR CLOCK SCALE UNIT: DIR/ncu-CLOCK.csv as ncu writes it, in UNIT
# (nsecond: integers with thousands separators; usecond: decimals), every
# time SCALE times its base one, and DIR/bench-CLOCK.txt's CUB select rows
# for 10, 50 and 90 %.  Per keep K, four launches a call (us): CUB init 2,
# select sweep 500+K+i, partition sweep 800+i, sc compaction 700+K+i,
# idx32 650+K+i, split 780+2i (i = 1..4).
fixture() {
    awk -v scale="$3" -v unit="$4" -v fill=$FILL -v init=$INIT \
        -v sel="${SWEEP}0$SWEEP_END" -v part="${SWEEP}2$SWEEP_END" \
        -v cmp="${FUSED}Lb0ELb0E$FUSED_END" -v idx="${FUSED}Lb1ELb0E$FUSED_END" \
        -v spl="${FUSED}Lb0ELb1E$FUSED_END" '
    function row(name, t,    v) {
        t *= scale
        if (unit == "usecond" || unit == "us") v = sprintf("%.3f", t)
        else {
            t = int(t * 1000 + 0.5)
            v = t >= 1000 ? sprintf("%d,%03d", t / 1000, t % 1000) : t
        }
        printf "\"%d\",\"4242\",\"bench_compact\",\"127.0.0.1\",\"%s\",\"1\",\"7\",\"(384, 1, 1)\",\"(396, 1, 1)\",\"0\",\"9.0\",\"%s\"\n", id++, name, v
    }
    BEGIN {
        print "==PROF== Connected to process 4242 (bench_compact)"
        print "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"gpu__time_duration.sum\""
        print "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"" unit "\""
        for (k = 10; k <= 90; k += 40) {
            row(fill, 100)
            for (i = 1; i <= 4; i++) { row(init, 2); row(sel, 500 + k + i) }
            for (i = 1; i <= 4; i++) { row(init, 2); row(part, 800 + i) }
            for (i = 1; i <= 4; i++) row(cmp, 700 + k + i)
            for (i = 1; i <= 4; i++) row(idx, 650 + k + i)
            for (i = 1; i <= 4; i++) row(spl, 780 + 2 * i)
        }
        print "==PROF== Disconnected from process 4242"
    }' >"$1/ncu-$2.csv"
    for k in 10 50 90; do
        printf '%-26s %4d%% %9.3f %9.3f %8.2fx %7.1f%%\n' cub::DeviceSelect::If $k 0.5 0.5 1 50
    done >"$1/bench-$2.txt"
}

# the table of fixture base (scale 1) and boost (scale 0.7), its data rows
EXPECT_10='10%   compact     512.5    712.5   0.72    358.8    498.8   0.72    514.5  0.72    360.1  0.72   4/4'
EXPECT_50_IDX='50%   idx32       552.5    702.5   0.79    386.8    491.8   0.79    554.5  0.79    388.1  0.79   4/4'
EXPECT_90_SPLIT='90%   split       802.5    785.0   1.02    561.8    549.5   1.02    804.5  1.02    563.1  1.02   4/4'

# two_clocks [BASE_UNIT]: logs/ with the fixture at base (scale 1, in
# BASE_UNIT, default nsecond) and at boost (0.7).
two_clocks() {
    mkdir logs
    fixture logs base 1 "${1:-nsecond}"
    fixture logs boost 0.7 nsecond
}

# table_as_expected: the table from logs/ has the rows of EXPECT_*.
table_as_expected() {
    run sh "$BC" --table logs
    [ "$status" -eq 0 ]
    [ "${lines[4]}" = "$EXPECT_10" ]
    [ "${lines[8]}" = "$EXPECT_50_IDX" ]
    [ "${lines[12]}" = "$EXPECT_90_SPLIT" ]
}

@test "baseclock: the table from ncu's CSV: medians, CUB's init + sweep a call, CUB over sc" {
    two_clocks
    table_as_expected
    [ "${#lines[@]}" -eq 13 ]
    [ "$(printf '%s\n' "${lines[@]}" | awk 'NR > 4 {print $1, $2}' | tr '\n' ' ')" = \
        "10% compact 10% idx32 10% split 50% compact 50% idx32 50% split 90% compact 90% idx32 90% split " ]
}

@test "baseclock: microseconds, CRLF line ends and an odd count of launches read alike" {
    two_clocks usecond
    # the first compaction launch of 10 % at base dropped: 712, 713, 714
    awk '/jLb0ELb0Ej/ && !gone { gone = 1; next } { printf "%s\r\n", $0 }' logs/ncu-base.csv >x
    mv x logs/ncu-base.csv
    run sh "$BC" --table logs
    [ "$status" -eq 0 ]
    [ "${lines[4]}" = '10%   compact     512.5    713.0   0.72    358.8    498.8   0.72    514.5  0.72    360.1  0.72   3/4' ]
    [ "${lines[8]}" = "$EXPECT_50_IDX" ]
}

@test "baseclock: ncu 2025's short units (ns, us, ms) read as the long ones" {
    local u
    for u in ns us; do
        rm -rf logs
        two_clocks "$u"
        table_as_expected
    done
    rm -rf logs
    two_clocks ms
    sed -i '4,$s/"\([0-9][0-9,.]*\)"$/"0.001"/' logs/ncu-base.csv
    run sh "$BC" --table logs
    [ "$status" -eq 0 ]
    [[ "${lines[4]}" == "10%   compact       1.0      1.0   1.00 "* ]]
}

@test "baseclock: the metric's label and the kernel's function name as the columns' names" {
    two_clocks
    sed -i '2s/"Kernel Name"/"Function Name"/; 2s/"gpu__time_duration.sum"/"Duration"/' logs/ncu-base.csv
    table_as_expected
}

@test "baseclock: a CSV that came out on the program's stdout is read" {
    two_clocks
    cat logs/ncu-base.csv >>logs/bench-base.txt
    rm logs/ncu-base.csv
    table_as_expected
}

@test "baseclock: one clock alone leaves the other's columns empty" {
    mkdir logs
    fixture logs boost 0.7 nsecond
    run sh "$BC" --table logs
    [ "$status" -eq 0 ]
    [ "${lines[4]}" = '10%   compact         -        -      -    358.8    498.8   0.72        -     -    360.1  0.72   0/4' ]
}

# edited_fails SED MESSAGE: the table of the base fixture edited by the
# sed script SED exits 1, saying MESSAGE.
edited_fails() {
    rm -rf edited
    mkdir edited
    fixture edited base 1 nsecond
    sed -i "$1" edited/ncu-base.csv
    run sh "$BC" --table edited
    [ "$status" -eq 1 ]
    [[ "$output" == *"$2"* ]]
}

@test "baseclock: no logs, no kernels it knows, a unit it does not: exit 1, saying why" {
    mkdir empty
    run sh "$BC" --table empty
    [ "$status" -eq 1 ]
    [[ "$output" == *"no logs in empty"* ]]
    edited_fails 's/gpu__time_duration.sum/gpu__cycles_elapsed.max/' \
        "no gpu__time_duration.sum or Kernel Name column"
    edited_fails 's/fill_kernel/fill_other/' "no kernel times found in 87 rows, the first _Z11fill_otherPjmm"
    edited_fails 's/SelectImplE2E/SelectImplE1E/' "unknown CUB kernel ${SWEEP}1E"
    edited_fails 's/jLb0ELb1Ej/jLb1ELb1Ej/' "unknown sc kernel ${FUSED}Lb1ELb1E"
    edited_fails '3s/nsecond/cycle/' "gpu__time_duration.sum in cycle"
}

@test "baseclock: usage errors exit 2" {
    run sh "$BC"
    [ "$status" -eq 2 ]
    [[ "$output" == *usage* ]]
    run sh "$BC" ./no-such-program
    [ "$status" -eq 2 ]
    run sh "$BC" --table
    [ "$status" -eq 2 ]
}

# A stand-in ncu: records its arguments and SC_BENCH_RUNS, runs the
# program, and writes the fixture of the clock it was asked for (base, or
# boost for none) to --log-file.  FAKE_NCU_FAIL=1: exits 1 instead.
fake_ncu() {
    mkdir -p fix
    fixture fix base 1 nsecond
    fixture fix boost 0.7 nsecond
    cat >ncu <<EOF
#!/bin/sh
[ "\$1" = --version ] && { echo "Version 0 (stand-in)"; exit 0; }
echo "SC_BENCH_RUNS=\$SC_BENCH_RUNS \$*" >>"$T/ncu.args"
[ -z "\${FAKE_NCU_FAIL:-}" ] || { echo "==ERROR== stand-in failure"; exit 1; }
while [ \$# -gt 0 ]; do
    case \$1 in
    --csv) shift ;;
    --clock-control) cc=\$2; shift 2 ;;
    --log-file) log=\$2; shift 2 ;;
    --*) shift 2 ;;
    *) break ;;
    esac
done
[ "\$cc" = base ] && c=base || c=boost
cp "$T/fix/ncu-\$c.csv" "\$log"
"\$@" && cat "$T/fix/bench-\$c.txt"
EOF
    printf '#!/bin/sh\necho "bench_compact $*"\n' >bench_compact
    chmod +x ncu bench_compact
}

@test "baseclock: two ncu runs, base clock then none, of gpu__time_duration.sum alone, the table last" {
    fake_ncu
    NCU=$T/ncu BASECLOCK_LOG=$T/out run sh "$BC" "$T/bench_compact"
    [ "$status" -eq 0 ]
    [ "${lines[-9]}" = "$EXPECT_10" ]
    [ "${lines[-1]}" = "$EXPECT_90_SPLIT" ]
    [[ "$output" == *"base: "*" s, 87 kernels profiled"* ]]
    [ "$(wc -l <ncu.args)" -eq 2 ]
    run sed -n 1p ncu.args
    [[ "$output" == "SC_BENCH_RUNS=3 --clock-control base --metrics gpu__time_duration.sum "* ]]
    [[ "$output" == *" --csv --page raw "* ]]
    [[ "$output" == *" --print-kernel-base mangled --log-file $T/out/ncu-base.csv $T/bench_compact 28" ]]
    run sed -n 2p ncu.args
    [[ "$output" == "SC_BENCH_RUNS=3 --clock-control none "* ]]
    [[ "$output" == *" $T/out/ncu-boost.csv $T/bench_compact 28" ]]
    grep -qx 'bench_compact 28' out/bench-base.txt
}

@test "baseclock: BASECLOCK_RUNS and the program's arguments pass through; OUT holds the logs" {
    fake_ncu
    NCU=$T/ncu OUT=$T/o BASECLOCK_RUNS=1 run sh "$BC" "$T/bench_compact" 24 50
    [ "$status" -eq 0 ]
    [ -s o/ncu-base.csv ] && [ -s o/ncu-boost.csv ]
    grep -qx 'bench_compact 24 50' o/bench-boost.txt
    [ "$(grep -c '^SC_BENCH_RUNS=1 .*/bench_compact 24 50$' ncu.args)" -eq 2 ]
}

@test "baseclock: an ncu that fails: its words, and exit status not 0" {
    fake_ncu
    FAKE_NCU_FAIL=1 NCU=$T/ncu BASECLOCK_LOG=$T/out run sh "$BC" "$T/bench_compact"
    [ "$status" -ne 0 ]
    [[ "$output" == *"ncu --clock-control base exited 1"* ]]
    [[ "$output" == *"stand-in failure"* ]]
}

@test "baseclock: every command scripts/gpu's usage names has its function there (baseclock's was once lost in a merge)" {
    local gpu=$SC_SRCDIR/scripts/gpu cmds c
    cmds=$(sed -n 's/.*usage: scripts\/gpu \([a-z|]*\).*/\1/p' "$gpu" | tr '|' ' ')
    [ -n "$cmds" ]
    for c in $cmds; do
        grep -q "^$c() {" "$gpu" || { echo "# scripts/gpu $c: no function $c" >&2; return 1; }
        grep -q "^$c) " "$gpu" || { echo "# scripts/gpu $c: not in the case" >&2; return 1; }
    done
    [[ " $cmds " == *" baseclock "* ]]
}
