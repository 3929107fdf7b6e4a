#!/usr/bin/env bats
# -v's time line (each tool's man page, -v): each run reports the time
# of its own phases, the same seven for every tool, in the same order.
# That a second job on one context reports its own times and not the sum
# is tested through libsc (tests/unit/test_api.c); that the threads
# adding to them lose nothing, in tests/unit/test_phase_times.c.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat
    gen_file in.bin 1000000 7 0.5
}

# The line every run ends its -v report with.
time_line='^sc-[a-z]+: time: read [0-9]+\.[0-9]{3} s, upload [0-9]+\.[0-9]{3} s, count [0-9]+\.[0-9]{3} s, prefix [0-9]+\.[0-9]{3} s, move [0-9]+\.[0-9]{3} s, download [0-9]+\.[0-9]{3} s, write [0-9]+\.[0-9]{3} s, total [0-9]+\.[0-9]{3} s$'

# phase NAME: the seconds of phase NAME on err.txt's time line.
phase() {
    sed -n "s/.*: time: .* $1 \([0-9.]*\) s,.*/\1/p" err.txt
}

@test "phase-times: every tool ends -v with the seven phases and the total" {
    local cmd
    while read -r cmd; do
        $cmd -d cpu -v -o out in.bin 2> err.txt ||
            { echo "# $cmd failed: $(cat err.txt)" >&2; return 1; }
        [[ "$(tail -n 1 err.txt)" =~ $time_line ]] ||
            { echo "# $cmd: $(tail -n 1 err.txt)" >&2; return 1; }
    done <<'EOF_CMDS'
sc-compact --gt 100
sc-split --gt 100
sc-scan
sc-rsort
sc-rsort -S 1M
sc-stat
sc-stat --quantiles 4
EOF_CMDS
    sc-gen -d cpu -n 1000000 -v -o out 2> err.txt
    [[ "$(tail -n 1 err.txt)" =~ $time_line ]]
}

@test "phase-times: a CPU sort's time reaches the report, and no transfer's" {
    sc-rsort -d cpu -v -o out in.bin 2> err.txt
    [ "$(phase upload)" = 0.000 ] && [ "$(phase download)" = 0.000 ]
    # A million keys take milliseconds to move, whatever the machine.
    awk -v m="$(phase move)" 'BEGIN { exit !(m > 0) }' ||
        { echo "# $(cat err.txt)" >&2; return 1; }
}

@test "phase-times: --count on the CPU counts and moves nothing (no move time), with the reference's counts" {
    gen_file big.bin 8000000 11 0.6
    # The same run with output moves for milliseconds, so a 0.000 below
    # is the move skipped, not a move too quick to show.
    sc-compact -d cpu -j 2 -v -o out big.bin 2> err.txt
    awk -v m="$(phase move)" 'BEGIN { exit !(m > 0) }' ||
        { echo "# $(cat err.txt)" >&2; return 1; }
    local kept total extra
    kept=$(( $(ref compact < big.bin | wc -c) / 4 ))
    total=8000000
    # A file's chunks go one to a thread; a pipe's and a gzip file's are
    # each cut over all threads.
    gzip -1 -c big.bin > big.gz
    local how
    for extra in "-j 1" "-j 2" "-j 4 -c 4K" "-c 1M"; do
        for how in file pipe gz; do
            run_count() {
                case $how in
                file) "$@" big.bin ;;
                pipe) cat big.bin | "$@" ;;
                gz) "$@" big.gz ;;
                esac
            }
            run_count sc-compact -d cpu $extra --count -v > out 2> err.txt
            [ "$(cat out)" = "$kept" ] && [ "$(phase move)" = 0.000 ] ||
                { echo "# sc-compact $extra, $how: $(cat out); $(cat err.txt)" >&2; return 1; }
            run_count sc-split -d cpu $extra --count -v > out 2> err.txt
            [ "$(cat out)" = "$kept $((total - kept))" ] && [ "$(phase move)" = 0.000 ] ||
                { echo "# sc-split $extra, $how: $(cat out); $(cat err.txt)" >&2; return 1; }
        done
    done
    # Records, and 8-byte elements: their keys' counts.
    sc-compact -d cpu --record 8 --key 4 --count -v --lt 1000000000 big.bin > out 2> err.txt
    [ "$(phase move)" = 0.000 ]
    sc-compact -d cpu --record 8 --key 4 --lt 1000000000 big.bin | wc -c > want
    [ "$(cat out)" = $(( $(cat want) / 8 )) ]
    sc-split -d cpu -e u64 --count -v --gt 5 big.bin > out 2> err.txt
    [ "$(phase move)" = 0.000 ]
    [ "$(cat out)" = "$(sc-compact -d cpu -e u64 --gt 5 big.bin | wc -c | awk '{print $1 / 8}') $(sc-compact -d cpu -e u64 --le 5 big.bin | wc -c | awk '{print $1 / 8}')" ]
}
