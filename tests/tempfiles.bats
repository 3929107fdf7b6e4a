#!/usr/bin/env bats
# Temporary files: what a signal leaves (nothing, but for SIGKILL), and
# what a later run removes (the temporaries of runs that are gone, and
# no others). Names: PREFIX-PID-START-XXXXXX, START being the writer's
# start time from /proc/PID/stat.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-rsort sc-stat
    mkdir tmp
    gen_file in.bin 100000 3 0.5
}

teardown() {
    [ -z "${pid:-}" ] || kill -KILL "$pid" 2>/dev/null || true
    exec 7>&- || true
}

# stalled CMD...: CMD in the background ($pid), reading a FIFO that got
# 400 KB of in.bin and stays open (fd 7) until the test closes it.
stalled() {
    rm -f fifo && mkfifo fifo
    "$@" < fifo > /dev/null 2>&1 3>&- &
    pid=$!
    exec 7> fifo
    head -c 400000 in.bin >&7
}

# appears DIR PATTERN: waits (10 s at most) for a name matching the
# extended regex PATTERN in DIR, and prints it.
appears() {
    local k name
    for k in $(seq 100); do
        name=$(ls -A "$1" | grep -E "$2" || true)
        [ -z "$name" ] || { echo "$name"; return 0; }
        sleep 0.1
    done
    echo "# nothing matching $2 appeared in $1" >&2
    return 1
}

# killed_by SIG: waits for $pid, which must have died of SIG.
killed_by() {
    local st=0
    wait "$pid" || st=$?
    pid=
    [ "$st" -eq $((128 + $(kill -l "$1"))) ] ||
        { echo "# status $st, not that of SIG$1" >&2; return 1; }
}

# start_of PID: the process's start time, as in /proc/PID/stat.
start_of() {
    sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20
}

@test "tempfiles: every catchable fatal signal removes the temporaries" {
    local sig
    for sig in INT TERM HUP QUIT XCPU ALRM VTALRM USR1 USR2; do
        stalled sc-rsort -d cpu -S 4K -T tmp -o out
        appears tmp '^sc-rsort-' > /dev/null
        kill -s "$sig" "$pid"
        killed_by "$sig"
        exec 7>&-
        [ -z "$(ls -A tmp)" ] || { echo "# SIG$sig left $(ls -A tmp)" >&2; return 1; }
        stalled sc-compact -o out
        appears . '^\.out\.sc-' > /dev/null
        kill -s "$sig" "$pid"
        killed_by "$sig"
        exec 7>&-
        [ -z "$(ls -A | grep -E '^\.?out')" ] ||
            { echo "# SIG$sig left $(ls -A)" >&2; return 1; }
    done
}

@test "tempfiles: what SIGKILL leaves in -T names its writer, and the next run there removes it" {
    local name
    stalled sc-rsort -d cpu -S 4K -T tmp -o out
    name=$(appears tmp '^sc-rsort-')
    [[ "$name" =~ ^sc-rsort-$pid-$(start_of "$pid")-......$ ]] ||
        { echo "# $name" >&2; return 1; }
    kill -KILL "$pid"
    killed_by KILL
    exec 7>&-
    [ -e "tmp/$name" ]
    # Any tool that uses -T cleans it: sc-split's and sc-stat's spills,
    # sc-rsort's runs, whichever left them.
    run -0 sc-split -T tmp --gt 5 in.bin -o split.out
    [ ! -e "tmp/$name" ]
    stalled sc-split -d cpu -S 4K -T tmp --gt 2000000000 -o out
    name=$(appears tmp '^sc-spill-')
    kill -KILL "$pid"
    killed_by KILL
    exec 7>&-
    [ -e "tmp/$name" ]
    run -0 sc-rsort -T tmp -o sorted in.bin
    [ ! -e "tmp/$name" ]
    [ -z "$(ls -A tmp)" ]
}

@test "tempfiles: what SIGKILL leaves beside -o goes at the next run onto that name, not another's" {
    local name
    stalled sc-compact -o out
    name=$(appears . '^\.out\.sc-')
    [[ "$name" =~ ^\.out\.sc-$pid-$(start_of "$pid")-......$ ]] ||
        { echo "# $name" >&2; return 1; }
    kill -KILL "$pid"
    killed_by KILL
    exec 7>&-
    [ -e "$name" ]
    run -0 sc-compact -o other in.bin
    [ -e "$name" ]
    run -0 sc-gen -n 5 -o out
    [ ! -e "$name" ]
    [ "$(nelems out)" -eq 5 ]
}

@test "tempfiles: a live run's temporaries stay while other runs clean the same directories" {
    local runs part
    stalled sc-rsort -d cpu -S 4K -T tmp -o out
    runs=$(appears tmp '^sc-rsort-')
    local sorter=$pid
    run -0 sc-rsort -T tmp -o out in.bin
    run -0 sc-split -T tmp -o out in.bin
    [ -e "tmp/$runs" ]
    # The stalled sort ends well once its input does.
    tail -c +400001 in.bin >&7
    exec 7>&-
    wait "$sorter"
    pid=
    ref sort < in.bin > want
    expect_same want out
    [ -z "$(ls -A tmp)" ]
}

@test "tempfiles: a name whose PID is gone or was reused is an orphan; a live writer's is not" {
    local me mine
    me=$(start_of $$)
    mine="sc-spill-$$-$me-abcdef"
    touch "tmp/sc-spill-$$-$((me + 1))-abcdef" "tmp/$mine" \
          "tmp/sc-rsort-999999999-5-ABCDEF" \
          tmp/sc-spill-foo tmp/sc-spill-1-1-toolong tmp/other-1-1-abcdef
    run -0 sc-stat --hist 2 -T tmp in.bin
    run -0 bash -c 'ls -A tmp | LC_ALL=C sort | tr "\n" " "'
    [ "$output" = "other-1-1-abcdef sc-spill-1-1-toolong $mine sc-spill-foo " ] ||
        { echo "# left: $output" >&2; return 1; }
    # A file locked (flock) is a live writer's whatever its name says: a
    # process in another PID namespace, whose ids mean nothing here.
    command -v flock > /dev/null || skip "no flock(1) here: the lock is not checked"
    local locked=sc-spill-999999998-5-locked
    run -0 flock "tmp/$locked" sc-stat --hist 2 -T tmp in.bin
    [ -e "tmp/$locked" ]
}
