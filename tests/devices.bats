#!/usr/bin/env bats
# Devices: -d cpu never touches CUDA, -d auto says what it chose and why,
# and a run whose chunks went partly to the CPU (before the GPU was
# ready) and partly to the GPU gives the same bytes as either alone.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat
}

# cuda_build: this libsc was built with the CUDA backend.
cuda_build() {
    grep -q '^#define SC_HAVE_CUDA 1' "$SC_BUILDDIR/config.h" 2>/dev/null ||
        grep -q -- '-DSC_HAVE_CUDA=1' "$SC_BUILDDIR/Makefile" 2>/dev/null
}

# The real program, not the libtool wrapper script (whose shell would show
# in LD_DEBUG too).
real_tool() {
    if [ -x "$SC_BUILDDIR/bin/.libs/$1" ]; then
        echo "$SC_BUILDDIR/bin/.libs/$1"
    else
        echo "$SC_BUILDDIR/bin/$1"
    fi
}

# loads_driver TOOL ARGS...: the dynamic loader was asked for libcuda.
loads_driver() {
    local t
    t=$(real_tool "$1")
    shift
    LD_LIBRARY_PATH="$SC_BUILDDIR/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        LD_DEBUG=libs "$t" "$@" 2>&1 >/dev/null | grep -q 'libcuda'
}

@test "devices: -d cpu never loads the CUDA driver, in any tool" {
    gen_file in.bin 100000 3 0.5
    local t
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        ! loads_driver $t -d cpu in.bin || { echo "# $t -d cpu loaded libcuda" >&2; return 1; }
        SC_DEVICE=cpu run ! loads_driver $t in.bin
    done
    ! loads_driver sc-gen -d cpu -n 100000
    ! loads_driver sc-compact -d cpu </dev/null
}

@test "devices: the driver probe can fail: -d cuda asks for libcuda (CUDA builds)" {
    cuda_build || skip "this build has no CUDA backend"
    loads_driver sc-compact -d cuda </dev/null || true
    run loads_driver sc-compact -d cuda </dev/null
    [ "$status" -eq 0 ]
}

@test "devices: -d cuda refuses a job that cannot start before it starts CUDA" {
    u32le 1 2 3 > in.bin
    local t
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        run_to got.out err.txt $t -d cuda missing.bin
        [ "$status" -eq 1 ] || { echo "# $t: status $status" >&2; return 1; }
        expect_one_line_error $t err.txt
        grep -q "missing.bin: No such file or directory" err.txt ||
            { echo "# $t: $(cat err.txt)" >&2; return 1; }
        ! loads_driver $t -d cuda missing.bin ||
            { echo "# $t: libcuda loaded for a missing input" >&2; return 1; }
        SC_DEVICE=cuda run_to got.out err.txt $t in.bin missing.bin
        [ "$status" -eq 1 ] && [ ! -s got.out ]
        grep -q "missing.bin: No such file or directory" err.txt
    done
    run_to got.out err.txt sc-split -d cuda -r in.bin in.bin
    [ "$status" -eq 1 ]
    grep -q "in.bin: rejects file is also an input" err.txt
    ! loads_driver sc-split -d cuda -r in.bin in.bin
    run_to got.out err.txt sc-compact -d cuda .
    [ "$status" -eq 1 ]
    grep -q "Is a directory" err.txt
    # a usage error found in the job (-o without %d for --ranges): exit 2
    run_to got.out err.txt sc-split -d cuda --ranges 5 -o part.bin in.bin
    [ "$status" -eq 2 ]
    grep -q "needs a %d" err.txt
    ! loads_driver sc-split -d cuda --ranges 5 -o part.bin in.bin
}

@test "devices: -d auto on a small input keeps to the CPU and -v says why" {
    u32le 1 0 2 > in.bin
    run sc-compact -d auto -v in.bin
    [ "$status" -eq 0 ]
    [[ "$output" == *"device: cpu"* ]]
    [[ "$output" == *"why: auto kept to the CPU"* ]]
    ! loads_driver sc-compact -d auto in.bin
}

@test "devices: -d auto never starts CUDA for a known input too small to pay" {
    : > empty.bin
    gen_file small.bin 1000 3 0.5
    local t
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        ! loads_driver $t -d auto empty.bin || { echo "# $t: empty" >&2; return 1; }
        ! loads_driver $t -d auto small.bin || { echo "# $t: small" >&2; return 1; }
        ! loads_driver $t -d auto < small.bin || { echo "# $t: <small" >&2; return 1; }
    done
    ! loads_driver sc-gen -d auto -n 1000
    # sc-stat's chunks that the worker hands on (a type but u32)
    ! loads_driver sc-stat -d auto -e u64 empty.bin
    ! loads_driver sc-stat -d auto -e i64 small.bin
    ! loads_driver sc-stat -d auto -e f32 < small.bin
}

@test "devices: auto whose GPU failed to start in the background says why (no GPU)" {
    cuda_build || skip "this build has no CUDA backend"
    ! have_gpu || skip "a CUDA GPU is present: this checks a start that fails"
    gen_file a.bin 524288 4 0.5
    gen_file b.bin 524288 5 0.5
    cat a.bin b.bin > both.bin
    # The pipe pauses after its first 2 MiB: the start that the first read
    # set off (SC_TEST_COST=gpu: the GPU pays) has failed when the sort
    # decides, which then keeps to the CPU and must say why.
    { cat a.bin; sleep 2; cat b.bin; } | SC_TEST_COST=gpu sc-rsort -d auto -v \
        > out.bin 2> err.txt
    sc-rsort -d cpu both.bin > want.bin
    expect_same want.bin out.bin
    grep -q "why: auto kept to the CPU: no CUDA GPU: " err.txt ||
        { echo "# -v: $(cat err.txt)" >&2; return 1; }
}

@test "devices: without a CUDA driver -v says there is no GPU, with no GPU estimates" {
    cuda_build || skip "this build has no CUDA backend"
    ! have_gpu || skip "a CUDA GPU is present: this checks a machine without one"
    local driver
    driver=$(sc-compact -d cuda < /dev/null 2>&1 || true)
    [ "$driver" = "sc-compact: no CUDA GPU: no CUDA driver is installed" ] ||
        skip "a CUDA driver is installed here ($driver)"
    gen_file small.bin 1000 3 0.5
    gen_file big.bin 2000000 3 0.5
    local t f
    for t in sc-compact sc-rsort sc-scan; do
        for f in small.bin big.bin; do
            # SC_TEST_COST=gpu: auto starts the GPU, and the start fails.
            for cost in cpu gpu; do
                SC_TEST_COST=$cost run -0 --separate-stderr $t -d auto -v -o out $f
                [[ "$stderr" == *"why: auto kept to the CPU: no CUDA GPU: no CUDA driver is installed"* ]] ||
                    { echo "# $t $f $cost: $stderr" >&2; return 1; }
                [[ "$stderr" != *"estimated"* && "$stderr" != *"GiB/s"* &&
                   "$stderr" != *"insufficient"* ]] ||
                    { echo "# $t $f $cost: $stderr" >&2; return 1; }
            done
        done
    done
}

@test "devices: -d cuda with no usable GPU fails before writing, even where the CPU runs every chunk" {
    ! have_gpu || skip "a CUDA GPU is present: this checks a machine without one"
    gen_file a.bin 70000 9 0.5
    run_to want err sc-compact -d cuda a.bin
    local ws=$status
    [ "$ws" -eq 1 ]
    # Float sums and 64-bit elements have no GPU path: the CPU takes them.
    local args
    for args in "sc-scan -e f32" "sc-scan -e f32 --inclusive" "sc-compact -e u64" \
                "sc-split -e i64" "sc-compact -e f64 --indices"; do
        run_to got err $args -d cuda a.bin
        [ "$status" -eq "$ws" ] || { echo "# $args: status $status" >&2; return 1; }
        [ ! -s got ] || { echo "# $args: wrote $(wc -c < got) bytes" >&2; return 1; }
        expect_one_line_error "${args%% *}" err
    done
}

# split_run TOOL ARGS...: TOOL under auto, told to want the GPU, with its
# first 8 chunks on the CPU as if the GPU were still starting, then the
# rest on the GPU.  Its output must equal the CPU's alone, and -v must
# show both devices.
split_run() {
    local tool=$1
    shift
    "$tool" -d cpu "$@" < in.bin > cpu.out
    SC_TEST_COST=gpu SC_TEST_CPU_CHUNKS=8 "$tool" -d auto -c 64K -v "$@" \
        < in.bin > mixed.out 2> mixed.err
    expect_same cpu.out mixed.out || { echo "# $tool $*" >&2; return 1; }
    grep -q "8 on the CPU (before the GPU was ready)" mixed.err ||
        { echo "# $tool $*: $(cat mixed.err)" >&2; return 1; }
}

@test "devices (GPU): chunks split between the CPU and the GPU give the same bytes" {
    skip_without_gpu "the hand-over from the CPU to the GPU needs one"
    gen_file in.bin 3000017 11 0.5
    split_run sc-compact
    split_run sc-compact --indices
    split_run sc-compact --indices -w --gt 0x80000000
    split_run sc-compact --count
    split_run sc-split --lt 0x40000000
    split_run sc-scan
    split_run sc-scan -i --op max
    split_run sc-scan -w --carry-in 7
    split_run sc-scan --total --op xor
    split_run sc-stat
    split_run sc-stat --hist 7
}

@test "devices (GPU): -d auto sorts a large input on the GPU" {
    skip_without_gpu
    gen_file in.bin 16777216 5 1
    sc-rsort -d cpu in.bin > cpu.out
    SC_TEST_COST=gpu sc-rsort -d auto -v in.bin > gpu.out 2> err.txt
    expect_same cpu.out gpu.out
    grep -q "device: cuda" err.txt || { cat err.txt >&2; return 1; }
}
