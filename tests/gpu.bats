#!/usr/bin/env bats
# GPU: --device cpu and --device cuda give the same bytes, and -v proves the
# GPU was really used.  Every test here is skipped (loudly) without a GPU.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort
    skip_without_gpu "the CPU-vs-GPU comparisons need one"
}

# same_on_both TOOL ARGS...: run with --device cpu and --device cuda,
# outputs must be identical and both runs must succeed.
same_on_both() {
    "$1" --device cpu "${@:2}" > cpu.out 2> cpu.err || { echo "# cpu run failed: $* $(cat cpu.err)" >&2; return 1; }
    "$1" --device cuda "${@:2}" > gpu.out 2> gpu.err || { echo "# cuda run failed: $* $(cat gpu.err)" >&2; return 1; }
    expect_same cpu.out gpu.out || { echo "# differs between cpu and cuda: $*" >&2; return 1; }
}

@test "gpu: -v on --device cuda names a cuda device (no silent CPU fallback)" {
    local t
    u32le 1 0 2 > in.bin
    for t in sc-compact sc-split sc-scan sc-rsort; do
        $t --device cuda -v in.bin > /dev/null 2> err.txt
        grep -q -i cuda err.txt || { echo "# $t -v: $(cat err.txt)" >&2; return 1; }
    done
    sc-gen -n 1000 --device cuda -v > /dev/null 2> err.txt
    grep -q -i cuda err.txt
    sc-compact --device cuda:0 -v in.bin > /dev/null 2> err.txt
    grep -q -i cuda err.txt
    # auto takes the GPU where the cost model says it pays (a sort waits
    # for the GPU to start; a stream that ends first never does)
    env -u SC_DEVICE SC_TEST_COST=gpu sc-rsort -v in.bin > /dev/null 2> err.txt
    grep -q -i cuda err.txt || { echo "# auto -v: $(cat err.txt)" >&2; return 1; }
}

@test "gpu: -d cuda reads while the GPU starts; a bad input does not wait for it" {
    # empty input: the GPU is still checked, and -v names it
    sc-compact -d cuda -v </dev/null >got.out 2>err.txt
    grep -q 'device: cuda:0 (' err.txt || { cat err.txt >&2; return 1; }
    [ ! -s got.out ]
    # a start held back 6 s: malformed text is reported at once
    printf 'x\n' > bad.txt
    local t0 t1
    t0=$(date +%s%N)
    run_to got.out err.txt env SC_TEST_DEVICE_DELAY_MS=6000 sc-compact -d cuda --in text bad.txt
    t1=$(date +%s%N)
    [ "$status" -eq 1 ] || { echo "# status $status: $(cat err.txt)" >&2; return 1; }
    (( (t1 - t0) / 1000000 < 4000 )) || { echo "# waited $(( (t1 - t0) / 1000000 )) ms" >&2; return 1; }
    # and what is read before the GPU is ready comes out right
    sc-gen -n 300000 --density 0.4 -s 5 > in.bin
    sc-compact -d cpu -c 64K in.bin > cpu.out
    SC_TEST_DEVICE_DELAY_MS=500 sc-compact -d cuda -c 64K -v in.bin > gpu.out 2> err.txt
    expect_same cpu.out gpu.out
    grep -q 'device: cuda:0 (' err.txt || { cat err.txt >&2; return 1; }
}

@test "gpu: sc-gen cpu == cuda for every distribution and density" {
    local d p
    for d in uniform structured iota constant; do
        for p in 0 0.3 0.5 1; do
            same_on_both sc-gen -n 1000003 --dist $d --density $p -s 7 || return 1
        done
    done
    same_on_both sc-gen -n 4M --min 10 --max 20 --density 0.5
    same_on_both sc-gen -n 65537 --dist constant --value 0xdeadbeef -c 4K
}

@test "gpu: sc-compact cpu == cuda: sizes, densities, predicates, --indices, chunks" {
    # (each run starts a CUDA context: the matrix is kept small)
    local n d p
    for n in 0 1 33 65537 4194304; do
        for d in 0 0.5 1; do
            [ $n -lt 1000 ] && [ $d != 0.5 ] && continue
            gen_file in.bin $n $((n + 1)) $d
            for p in "" "--indices -w --gt 0x80000000" "-x --mask 3 --count"; do
                same_on_both sc-compact $p in.bin || return 1
                same_on_both sc-compact -c 4K $p in.bin || return 1
            done
        done
    done
    for p in "--range 1000:0x7fffffff --ne 5000" "--indices" "--count" "--indices --lt 0x10000000" "-x"; do
        same_on_both sc-compact $p in.bin || return 1
    done
    # and against the reference, on the GPU
    gen_file in.bin 4194304 3 0.5
    EXTRA=(--device cuda)
    vs_ref sc-compact compact in.bin
    vs_ref sc-compact compact in.bin --indices -w --mask 0x100
    EXTRA=(--device cuda -c 4K)
    vs_ref sc-compact compact in.bin --count
}

@test "gpu: sc-split cpu == cuda, with -r and spilling" {
    local n
    for n in 0 1 33 65537 4194304; do
        gen_file in.bin $n 5 0.5
        same_on_both sc-split in.bin || return 1
        same_on_both sc-split -c 4K --gt 0x40000000 in.bin || return 1
        same_on_both sc-split --count -x in.bin || return 1
    done
    sc-split --device cuda -r rej.bin in.bin > sel.bin
    ref compact < in.bin > want.sel
    ref compact -x < in.bin > want.rej
    expect_same want.sel sel.bin
    expect_same want.rej rej.bin
    mkdir spill
    same_on_both sc-split -S 64K -T spill in.bin
    [ -z "$(ls -A spill)" ]
}

@test "gpu: sc-scan cpu == cuda for every op, -i, -w, carry-in" {
    gen_file in.bin 4194304 9 0.7
    local op inc wide
    for op in sum max min xor; do
        for inc in "" -i; do
            for wide in "" -w; do
                same_on_both sc-scan --op $op $inc $wide in.bin || return 1
            done
        done
        same_on_both sc-scan --op $op -i --carry-in 1234 -c 4K in.bin || return 1
        same_on_both sc-scan --op $op -w --total in.bin || return 1
    done
    for n in 0 1 33 65537; do
        gen_file small.bin $n 2 0.5
        same_on_both sc-scan -i small.bin || return 1
    done
    EXTRA=(--device cuda)
    vs_ref sc-scan scan in.bin -w -i
}

@test "gpu: sc-rsort cpu == cuda: -r, --bits, -u, -S runs" {
    gen_file in.bin 4194304 11 0.5
    gen_file narrow.bin 1000003 12 0.5 --min 0 --max 5000
    local a
    for a in "" "-r" "--bits 4:12" "--bits 0:8 -r" "-u" "--bits 16:32 -u"; do
        same_on_both sc-rsort $a in.bin || return 1
        same_on_both sc-rsort $a narrow.bin || return 1
    done
    mkdir runs
    same_on_both sc-rsort -S 1M -T runs narrow.bin
    [ -z "$(ls -A runs)" ]
    for n in 0 1 33 65537; do
        gen_file small.bin $n 2 0.5
        same_on_both sc-rsort small.bin || return 1
    done
    EXTRA=(--device cuda)
    vs_ref sc-rsort sort narrow.bin --bits 2:9 -r
}

@test "gpu: sc-stat cpu == cuda, with a histogram" {
    require_tool sc-stat
    gen_file in.bin 1000003 61 0.5
    same_on_both sc-stat --hist 16 in.bin
}

@test "gpu: auto: sc-rsort reading a large pipe starts the GPU meanwhile and sorts there" {
    # A pipe's size shows only at its end.  Once what it has given would
    # pay for the GPU with half its start still ahead, the start runs while
    # the rest is read, so the sort finds the GPU (nearly) ready: the start
    # left at the decision is under the 0.16 s of a GPU not yet started.
    sc-gen -n 384M -s 5 | env -u SC_DEVICE -u SC_TEST_COST sc-rsort -v -j 16 \
        > out.bin 2> err.txt
    grep -q 'auto chose the GPU' err.txt || { echo "# -v: $(cat err.txt)" >&2; return 1; }
    local left
    left=$(sed -n 's/.*(start \([0-9.]*\) s).*/\1/p' err.txt)
    awk -v l="$left" 'BEGIN { exit !(l != "" && l < 0.16) }' ||
        { echo "# start left at the decision: '$left' s; -v: $(cat err.txt)" >&2; return 1; }
    [ "$(wc -c < out.bin)" -eq $((384 << 22)) ]
    sc-rsort -d cpu -C out.bin
}

@test "gpu: sc-rsort of every type: cpu == cuda (the kernels rank and unrank), -v names the GPU" {
    local t a n
    for t in i32 f32 u64 i64 f64; do
        for n in 1 33 5121 400003; do
            ref gen --type "$t" -n "$n" -s $((n + 7)) > in.bin
            for a in "" "-r" "-u"; do
                same_on_both sc-rsort -e "$t" $a in.bin || return 1
            done
        done
        case $t in f*) ;; *)
            same_on_both sc-rsort -e "$t" --bits 3:17 in.bin || return 1
            same_on_both sc-rsort -e "$t" --bits 0:8 -r in.bin || return 1 ;;
        esac
        # -S cuts the input into runs, each sorted on the GPU, then merged
        same_on_both sc-rsort -e "$t" -S 256K in.bin || return 1
        sc-rsort -e "$t" --device cuda -v in.bin > /dev/null 2> err.txt
        grep -q "device: cuda" err.txt || { echo "# -e $t -v: $(cat err.txt)" >&2; return 1; }
        ! grep -q "host's threads took" err.txt
        files_differ in.bin gpu.out
    done
}
