#!/usr/bin/env bats
# Several GPUs (-d cuda:all): every tool gives the bytes of -d cpu and of
# -d cuda:0, with chunks small enough to alternate between the GPUs many
# times (a scan's carry crosses from one GPU to the other at each chunk),
# and -v proves that both GPUs ran work.
#
# Every test skips, saying so, unless `nvidia-smi -L` lists at least two
# GPUs.  CUDA_VISIBLE_DEVICES naming one GPU twice (0,0) is not a valid
# substitute: the runtime then shows only one device (cuda:all is cuda:0
# there), and even if it showed two, both would be one device's memory,
# streams and context, which proves nothing about two.

load test_helper

# gpu_count: the GPUs nvidia-smi lists (0 without it; grep -c still
# prints the 0 when it finds none).
gpu_count() {
    nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true
}

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort
    local n
    n=$(gpu_count)
    [ "${n:-0}" -ge 2 ] || skip "needs 2 GPUs (found ${n:-0})"
}

# on_all TOOL ARGS...: -d cuda:all succeeds quietly with the bytes of
# -d cpu (the results are in cpu.out and all.out).
on_all() {
    "$1" -d cpu "${@:2}" > cpu.out 2> cpu.err ||
        { echo "# cpu run failed: $* $(cat cpu.err)" >&2; return 1; }
    "$1" -d cuda:all "${@:2}" > all.out 2> all.err ||
        { echo "# cuda:all run failed: $* $(cat all.err)" >&2; return 1; }
    [ ! -s all.err ] ||
        { echo "# cuda:all wrote to stderr: $*: $(cat all.err)" >&2; return 1; }
    expect_same cpu.out all.out ||
        { echo "# cuda:all differs from cpu: $*" >&2; return 1; }
}

# on_three TOOL ARGS...: on_all, and -d cuda:0 gives the same bytes too.
on_three() {
    on_all "$@" || return 1
    "$1" -d cuda:0 "${@:2}" > one.out 2> one.err ||
        { echo "# cuda:0 run failed: $* $(cat one.err)" >&2; return 1; }
    expect_same cpu.out one.out ||
        { echo "# cuda:0 differs from cpu: $*" >&2; return 1; }
}

# gpus_both_ran ERRFILE: -v's lines name both GPUs, and each ran at least
# one chunk: "PROG: gpus: cuda:0 N chunks (...), cuda:1 M chunks (...)".
gpus_both_ran() {
    local line n0 n1
    grep -q 'device: cuda:0,1' "$1" ||
        { echo "# -v names no 'cuda:0,1': $(cat "$1")" >&2; return 1; }
    line=$(grep ': gpus: ' "$1") ||
        { echo "# -v has no gpus line: $(cat "$1")" >&2; return 1; }
    n0=$(echo "$line" | sed -n 's/.*cuda:0 \([0-9]*\) chunk.*/\1/p')
    n1=$(echo "$line" | sed -n 's/.*cuda:1 \([0-9]*\) chunk.*/\1/p')
    if [ "${n0:-0}" -lt 1 ] || [ "${n1:-0}" -lt 1 ]; then
        echo "# a GPU ran nothing: $line" >&2
        return 1
    fi
}

# random reversed equal fewvals: the sort inputs of N elements.
sort_inputs() {
    local n=$1
    gen_file random.bin "$n" 21 1
    sc-gen -d cpu -n "$n" --dist iota | sc-rsort -d cpu -r > reversed.bin
    sc-gen -d cpu -n "$n" --dist constant --value 77 > equal.bin
    # few distinct keys in bits 8..15, the rest differs: stability shows
    gen_file fewvals.bin "$n" 22 1 --min 0 --max 0x3ffff
}

@test "multigpu: -v names both GPUs and the chunks each ran, in every tool" {
    gen_file in.bin 1000003 1 0.5
    local t
    for t in sc-compact sc-split sc-scan; do
        $t -d cuda:all -c 4K -v in.bin > /dev/null 2> err.txt
        gpus_both_ran err.txt || { echo "# $t" >&2; return 1; }
    done
    sc-gen -d cuda:all -c 4K -n 1000003 -v > /dev/null 2> err.txt
    gpus_both_ran err.txt
    sc-rsort -d cuda:all -v in.bin > /dev/null 2> err.txt
    gpus_both_ran err.txt
    # the device name says how many and which model
    grep -E -q 'device: cuda:0,1[^ ]* \([0-9]+x |device: cuda:0,1[^ ]* \(.*, ' err.txt ||
        { echo "# $(cat err.txt)" >&2; return 1; }
    # the other specs still name one GPU and print no gpus line
    sc-compact -d cuda:0 -v in.bin > /dev/null 2> err.txt
    grep -q 'device: cuda:0 (' err.txt
    if grep -q ': gpus: ' err.txt; then
        echo "# a gpus line with one GPU: $(cat err.txt)" >&2
        return 1
    fi
}

@test "multigpu: sc-gen cuda:all == cpu == cuda:0, sizes, distributions, chunks" {
    local n d
    for n in 0 1 33 65537 1000003; do
        on_three sc-gen -n $n -c 4K --density 0.5 -s 3 || return 1
    done
    for d in uniform structured iota constant; do
        on_all sc-gen -n 1000003 -c 4K --dist $d --density 0.3 -s 7 || return 1
        on_all sc-gen -n 4M --dist $d || return 1
    done
    on_all sc-gen -n 65537 --min 10 --max 20 -c 4K -z || return 1
}

@test "multigpu: sc-compact cuda:all == cpu == cuda:0: values, --indices, --count" {
    local n p
    for n in 0 1 33 65537 1000003; do
        gen_file in.bin $n $((n + 3)) 0.5
        for p in "" "--indices" "--indices -w --gt 0x80000000" "--count" \
                 "-x --mask 3" "--range 1000:0x7fffffff --ne 5000"; do
            on_all sc-compact -c 4K $p in.bin || return 1
        done
        on_three sc-compact -c 4K --indices -w in.bin || return 1
        on_three sc-compact in.bin || return 1
    done
    # all kept, none kept, and from a pipe (size unknown)
    gen_file in.bin 1000003 5 1
    on_all sc-compact -c 4K in.bin || return 1
    on_all sc-compact -c 4K --eq 1 in.bin || return 1
    sc-compact -d cpu -c 4K < in.bin > cpu.out
    cat in.bin | sc-compact -d cuda:all -c 4K > all.out
    expect_same cpu.out all.out
}

@test "multigpu: sc-split cuda:all == cpu == cuda:0: held rejects, -r, --count, spills" {
    local n
    for n in 0 1 33 65537 1000003; do
        gen_file in.bin $n $((n + 5)) 0.5
        on_three sc-split -c 4K in.bin || return 1
        on_all sc-split -c 4K --gt 0x40000000 in.bin || return 1
        on_all sc-split -c 4K --count -x in.bin || return 1
        sc-split -d cpu -c 4K -r cpu.rej --mask 5 in.bin > cpu.sel
        sc-split -d cuda:all -c 4K -r all.rej --mask 5 in.bin > all.sel
        expect_same cpu.sel all.sel || return 1
        expect_same cpu.rej all.rej || return 1
    done
    mkdir spill
    on_all sc-split -c 4K -S 64K -T spill in.bin
    [ -z "$(ls -A spill)" ]
}

@test "multigpu: sc-scan cuda:all == cpu: every op, -i, -w, --carry-in, --total" {
    gen_file in.bin 1000003 9 0.7
    local op inc wide
    for op in sum max min xor; do
        for inc in "" -i; do
            for wide in "" -w; do
                on_all sc-scan -c 4K --op $op $inc $wide in.bin || return 1
                on_all sc-scan -c 4K --op $op $inc $wide --carry-in 0xfffffff0 \
                    in.bin || return 1
            done
        done
        on_all sc-scan -c 4K --op $op --total in.bin || return 1
        on_all sc-scan -c 4K --op $op -w -i --total --carry-in 99 in.bin || return 1
    done
    # default chunks, and cuda:0 as well
    on_three sc-scan in.bin || return 1
    on_three sc-scan -c 4K -w -i in.bin || return 1
    # a carry that wraps: 32-bit sums of large values
    gen_file big.bin 65537 10 1 --min 0xf0000000
    on_three sc-scan -c 4K big.bin || return 1
    on_all sc-scan -c 4K -w big.bin || return 1
}

@test "multigpu: sc-scan cuda:all == cpu at sizes 0, 1, 33, 65537 and from a pipe" {
    local n
    for n in 0 1 33 65537; do
        gen_file in.bin $n $((n + 7)) 0.5
        on_three sc-scan -c 4K -i in.bin || return 1
        on_all sc-scan -c 4K -w --carry-in 5 in.bin || return 1
        on_all sc-scan -c 4K --op max in.bin || return 1
    done
    gen_file in.bin 1000003 8 0.5
    sc-scan -d cpu -c 4K -i < in.bin > cpu.out
    cat in.bin | sc-scan -d cuda:all -c 4K -i > all.out
    expect_same cpu.out all.out
}

@test "multigpu: 300 MB through compact, split and scan, cuda:all == cpu" {
    gen_file in.bin 75000000 31 0.5
    local c
    for c in "" "-c 1M"; do
        on_all sc-compact $c in.bin || return 1
        on_all sc-compact $c --indices -w in.bin || return 1
        on_all sc-split $c in.bin || return 1
        on_all sc-scan $c -w in.bin || return 1
        on_all sc-scan $c -i --op max in.bin || return 1
    done
    on_three sc-scan -c 1M in.bin
    sc-split -d cpu -r cpu.rej in.bin > cpu.sel
    sc-split -d cuda:all -r all.rej in.bin > all.sel
    expect_same cpu.sel all.sel
    expect_same cpu.rej all.rej
}

@test "multigpu: sc-rsort cuda:all == cpu == cuda:0 at 0, 1, 31, 1M+3: -r, --bits, -u" {
    local n f a
    for n in 0 1 31; do
        sort_inputs $n
        for f in random reversed equal fewvals; do
            on_all sc-rsort $f.bin || { echo "# n=$n $f" >&2; return 1; }
            on_all sc-rsort --bits 8:16 -r $f.bin || { echo "# n=$n $f" >&2; return 1; }
        done
    done
    sort_inputs 1048579
    for f in random reversed equal fewvals; do
        for a in "" "-r" "--bits 8:16" "--bits 8:16 -r" "-u" "--bits 31:32"; do
            on_all sc-rsort $a $f.bin || { echo "# $f" >&2; return 1; }
        done
        on_three sc-rsort --bits 4:12 $f.bin || { echo "# $f" >&2; return 1; }
    done
    # and the reference sort, on the GPUs
    EXTRA=(-d cuda:all)
    vs_ref sc-rsort sort fewvals.bin --bits 8:16 -r
    vs_ref sc-rsort sort random.bin
}

@test "multigpu: sc-rsort cuda:all == cpu == cuda:0 at 64M elements" {
    sort_inputs 67108864
    local f
    for f in random fewvals; do
        on_three sc-rsort $f.bin || return 1
        on_all sc-rsort --bits 8:16 -r $f.bin || return 1
    done
    on_all sc-rsort reversed.bin || return 1
    on_all sc-rsort -u equal.bin || return 1
    sc-rsort -d cuda:all -v random.bin > /dev/null 2> err.txt
    gpus_both_ran err.txt
}

@test "multigpu: sc-rsort -S: runs sorted on both GPUs, merged, == cpu" {
    mkdir runs
    sort_inputs 1048579
    on_all sc-rsort -S 1M -T runs random.bin || return 1
    on_all sc-rsort -S 1M -T runs --bits 8:16 fewvals.bin || return 1
    on_all sc-rsort -S 1M -T runs -r -u fewvals.bin || return 1
    [ -z "$(ls -A runs)" ]
    sort_inputs 67108864
    on_all sc-rsort -S 64M -T runs fewvals.bin || return 1
    on_all sc-rsort -S 64M -T runs -r random.bin || return 1
    [ -z "$(ls -A runs)" ]
    # each of the 4 runs was cut in two: 4 parts on each GPU
    sc-rsort -d cuda:all -S 64M -T runs -v random.bin > /dev/null 2> err.txt
    grep -q 'cuda:0 4 chunks' err.txt && grep -q 'cuda:1 4 chunks' err.txt ||
        { echo "# $(cat err.txt)" >&2; return 1; }
}

@test "multigpu: a GPU out of memory falls back, output unchanged" {
    gen_file in.bin 1048579 41 0.5
    sc-rsort -d cpu in.bin > cpu.out
    SC_TEST_DEVICE_MEMORY=1M sc-rsort -d cuda:all -v in.bin > all.out 2> err.txt
    expect_same cpu.out all.out
    grep -q 'memory' err.txt || { echo "# $(cat err.txt)" >&2; return 1; }
    local t
    for t in sc-compact sc-split sc-scan; do
        $t -d cpu in.bin > cpu.out
        SC_TEST_DEVICE_MEMORY=1M $t -d cuda:all in.bin > all.out
        expect_same cpu.out all.out || { echo "# $t" >&2; return 1; }
    done
}

@test "multigpu: a GPU thread that cannot start: the GPU starts, and its part is sorted, anyway" {
    gen_file in.bin 1048579 43 0.5
    sc-rsort -d cpu in.bin > cpu.out
    # -j 1: no pool threads; first each other GPU's start, then each other
    # GPU's part of the sort.
    local k n
    n=$(gpu_count)
    for k in $(seq 1 $((2 * n))); do
        run_to all.out err.txt env SC_TEST_FAIL_THREAD=$k sc-rsort -d cuda:all -j 1 in.bin
        if [ "$status" -eq 0 ]; then
            expect_same cpu.out all.out || { echo "# thread $k failed" >&2; return 1; }
        else
            [ "$status" -eq 1 ] && expect_one_line_error sc-rsort err.txt ||
                { echo "# thread $k: status $status" >&2; return 1; }
        fi
    done
}
