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
    echo '#include "io/io.h"' >> t/bin/cli.c
    run sh "$CHECK" t
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"lib/io/fdio.c:"*"jobs is not under io"* ]]
    [[ "$output" == *"lib/cuda/gpus.c:"*"cpu is not under cuda"* ]]
    [[ "$output" == *"lib/ops/policy.c:"*"through cpu/cpu.h alone"* ]]
    [[ "$output" == *"lib/io/reader.c:"*"by a bare name"* ]]
    [[ "$output" == *"bin/cli.c:"*"only core/sc.h"* ]]
    [ "$(echo "$output" | wc -l)" -eq 5 ]
}

@test "layers: the check catches a call up and two files that call each other" {
    # Objects named as libtool names them, with made-up symbols.
    mkdir -p b/lib/io b/lib/jobs b/lib/cpu
    printf 'int sc_job_thing(void) { return 1; }\n' > job.c
    printf 'int sc_job_thing(void);\nint sc_io_ping(void) { return sc_job_thing(); }\n' > io.c
    printf 'int sc_pong(void);\nint sc_ping(void) { return sc_pong(); }\n' > a.c
    printf 'int sc_ping(void);\nint sc_pong(void) { return sc_ping(); }\n' > b.c
    cc -c job.c -o b/lib/jobs/libsc_la-job.o
    cc -c io.c -o b/lib/io/libsc_la-io.o
    cc -c a.c -o b/lib/cpu/libsc_la-a.o
    cc -c b.c -o b/lib/cpu/libsc_la-b.o
    mkdir -p s/lib
    run sh "$CHECK" s b
    echo "$output"
    [ "$status" -eq 1 ]
    [[ "$output" == *"io/io.c: calls sc_job_thing of jobs/job.c: jobs is not under io"* ]]
    [[ "$output" == *"cpu/a.c and cpu/b.c call each other"* ]]
    [ "$(echo "$output" | wc -l)" -eq 2 ]
}

@test "layers: no file of lib/ or bin/ is over 400 lines" {
    run sh -c 'wc -l "$1"/lib/*/*.[ch] "$1"/bin/*.[ch] |
               awk '\''$2 != "total" && $1 > 400'\''' sh "$SC_SRCDIR"
    echo "$output"
    [ -z "$output" ]
}
