#!/usr/bin/env bats
# The layers of libsc as scripts/check-layers reads them: includes and
# calls run down only, no two files call each other, and no file of lib/
# or bin/ grows past a screenful of screens.

load test_helper

CHECK="$SC_SRCDIR/scripts/check-layers"

@test "layers: every #include of lib/, bin/ and kernels/ runs down" {
    run sh "$CHECK" "$SC_SRCDIR"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "layers: no object of libsc calls up, and no two files call each other" {
    run sh "$CHECK" "$SC_SRCDIR" "$SC_BUILDDIR"
    echo "$output"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
}

@test "layers: the check catches includes that run up, sideways or by bare name" {
    mkdir -p t/lib t/bin t/kernels
    cp -r "$SC_SRCDIR"/lib/* t/lib/
    cp "$SC_SRCDIR"/bin/*.[ch] t/bin/
    cp "$SC_SRCDIR"/kernels/*.h t/kernels/
    echo '#include "jobs/jobs.h"' >> t/lib/io/fdio.c
    echo '#include "cpu/cpu.h"' >> t/lib/cuda/gpus.c
    echo '#include "cpu/phases.h"' >> t/lib/ops/policy.c
    echo '#include "reader_impl.h"' >> t/lib/io/reader.c
    echo '#include "cpu/cpu.h"' >> t/lib/jobs/job.c
    echo '#include "io/io.h"' >> t/bin/cli.c
    run sh "$CHECK" t
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"lib/io/fdio.c:"*"io sees only core"* ]]
    [[ "$output" == *"lib/cuda/gpus.c:"*"cuda sees only core"* ]]
    [[ "$output" == *"lib/ops/policy.c:"*"through cpu/cpu.h alone"* ]]
    [[ "$output" == *"lib/io/reader.c:"*"by a bare name"* ]]
    [[ "$output" == *"bin/cli.c:"*"only core/sc.h"* ]]
    [[ "$output" == *"lib/jobs/job.c:"*"jobs sees only core io ops stream"* ]]
    [ "$(echo "$output" | wc -l)" -eq 6 ]
}

@test "layers: the check catches a call up and two files that call each other" {
    # Sources and objects laid out as libtool lays them, made-up symbols.
    mkdir -p s/lib/io s/lib/jobs s/lib/cpu s/lib/ops b/lib/io b/lib/jobs \
             b/lib/cpu/.libs b/lib/ops
    printf 'int sc_job_thing(void) { return 1; }\n' > s/lib/jobs/job.c
    printf 'int sc_job_thing(void);\nint sc_io_ping(void) { return sc_job_thing(); }\n' > s/lib/io/io.c
    printf 'int sc_pong(void);\nint sc_ping(void) { return sc_pong(); }\n' > s/lib/cpu/a.c
    printf 'int sc_ping(void);\nint sc_pong(void) { return sc_ping(); }\n' > s/lib/cpu/b.c
    printf 'int sc_ping(void);\nint sc_ops_x(void) { return sc_ping(); }\n' > s/lib/ops/x.c
    cc -c s/lib/jobs/job.c -o b/lib/jobs/libsc_la-job.o
    cc -c s/lib/io/io.c -o b/lib/io/libsc_la-io.o
    cc -c s/lib/cpu/a.c -o b/lib/cpu/.libs/libsc_la-a.o
    cc -c s/lib/cpu/b.c -o b/lib/cpu/libsc_la-b.o
    cc -c s/lib/ops/x.c -o b/lib/ops/libsc_la-x.o
    # A stale object, its source moved away: not read.
    cc -c s/lib/jobs/job.c -o b/lib/io/libsc_la-gone.o
    run sh "$CHECK" s b
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"io/io.c: calls sc_job_thing of jobs/job.c: io sees only core"* ]]
    [[ "$output" == *"cpu/a.c and cpu/b.c call each other"* ]]
    [ "$(echo "$output" | wc -l)" -eq 2 ]
}

@test "layers: no file of lib/ or bin/ is over 400 lines" {
    run sh -c 'wc -l "$1"/lib/*/*.[ch] "$1"/bin/*.[ch] |
               awk '\''$2 != "total" && $1 > 400'\''' sh "$SC_SRCDIR"
    echo "$output"
    [ -z "$output" ]
}
