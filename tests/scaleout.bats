#!/usr/bin/env bats
# The scale-out recipes of examples/scaleout/, run as written with GNU
# parallel -S : (this host standing in for a cluster).  Each recipe
# checks its own result against sc on the whole input on one host, byte
# for byte (cmp), and exits non-zero when they differ.  Inputs are not a
# multiple of the block size, so the last block is a short one.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat
    R="$SC_SRCDIR/examples/scaleout"
    export SC_HOSTS=: SC_JOBS=2 SC_THREADS=1
}

need_parallel() {
    command -v parallel >/dev/null ||
        skip "GNU parallel is not installed: the scale-out recipes need it (apt-get install parallel)"
}

# recipe NAME COUNT BLOCK: runs examples/scaleout/NAME.sh; it must end
# with "ok" and exit 0.
recipe() {
    need_parallel
    SC_BLOCK=$3 run --separate-stderr sh "$R/$1.sh" "$2"
    echo "# $1.sh $2 (blocks of $3): status $status" >&2
    printf '#   %s\n' "${lines[@]}" "$stderr" >&2
    [ "$status" -eq 0 ] && [ "${lines[${#lines[@]} - 1]}" = ok ]
}

@test "scaleout: parallel --pipepart --recend '' cuts at exact multiples of --block" {
    need_parallel
    sc-gen -n 100003 --dist iota -o in.bin      # 400012 bytes
    parallel -S : --pipepart --block 128K --recend '' -k 'wc -c' :::: in.bin > sizes
    [ "$(xargs < sizes)" = "131072 131072 131072 6796" ]
    # Each block starts on its element: the join is the input itself.
    parallel -S : --pipepart --block 128K --recend '' -k 'sc-compact --ge 0' \
        :::: in.bin | cmp - in.bin
}

@test "scaleout: compact, split -r and stat per block (filter.sh) = one host" {
    recipe filter 100003 128K
}

@test "scaleout: the scan in two passes, --total then --carry-in (scan.sh) = one host" {
    recipe scan 100003 128K
}

@test "scaleout: sample, bounds, split by ranges, sort per range (sort.sh) = one host" {
    recipe sort 100003 128K
    # The bounds came from the sample and cut the input into 8 ranges.
    [[ "${lines[2]}" == "sort:    8 ranges of "* ]]
}

@test "scaleout: gzip and zstd blocks joined (compress.sh) read back = one host" {
    recipe compress 100003 128K
    recipe compress 300001 1M
    [[ "${lines[1]}" == "gzip: "*" bytes, members from every block" ]]
}

@test "scaleout: an empty input (no blocks at all) gives what one host gives" {
    local r
    for r in filter scan sort compress; do
        recipe $r 0 128K || return 1
    done
}

@test "scaleout: a block size that would cut elements is refused" {
    need_parallel
    SC_BLOCK=1001 run sh "$R/filter.sh" 1000
    [ "$status" -eq 1 ] && [[ "$output" == *"not a multiple of 4 bytes"* ]]
    SC_BLOCK=12X run sh "$R/filter.sh" 1000
    [ "$status" -eq 1 ] && [[ "$output" == *"is not a size"* ]]
}

@test "scaleout: without GNU parallel a recipe says so and fails" {
    # A PATH with what the recipe needs before it looks for parallel; an
    # sc-gen of its own, for a build tree apart from the sources (make
    # distcheck), whose recipes find no bin/ beside them.
    mkdir tools
    local t
    for t in sh dirname basename; do ln -s "$(command -v $t)" tools/$t; done
    printf '#!/bin/sh\n' > tools/sc-gen
    chmod +x tools/sc-gen
    run env PATH="$PWD/tools" sh "$R/sort.sh" 1000
    [ "$status" -eq 1 ] &&
        [ "$output" = "sort.sh: GNU parallel not found: install it (apt-get install parallel)" ]
}
