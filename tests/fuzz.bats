#!/usr/bin/env bats
# The libFuzzer harnesses of tests/fuzz/ (make fuzz), built with clang
# from this build's libsc sources and run for SC_FUZZ_SECONDS each
# (default 30), so that they cannot break unseen. Skipped, saying why,
# where clang cannot link -fsanitize=fuzzer, and with SC_FUZZ_SECONDS=0.

load test_helper

RUN_FUZZ="$SC_SRCDIR/tests/fuzz/run-fuzz"

# need_fuzz: skip loudly where the harnesses cannot be built or are not
# wanted.
need_fuzz() {
    [ "${SC_FUZZ_SECONDS:-30}" != 0 ] || skip "SC_FUZZ_SECONDS=0"
    run --separate-stderr "$RUN_FUZZ" --check
    [ "$status" -ne 77 ] || skip "${stderr#fuzz: }"
    expect_status 0
}

# fuzz TARGET: runs one harness, built by the first test, clean for its
# time: no crash, leak, hang or sanitizer report.
fuzz() {
    need_fuzz
    run --separate-stderr env FUZZ_BUILD=no \
        FUZZ_SECONDS="${SC_FUZZ_SECONDS:-30}" "$RUN_FUZZ" "$1"
    [ "$status" -ne 77 ] || skip "${stderr#fuzz: }"
    [ "$status" -eq 0 ] || { printf '# %s\n' "$stderr" >&2; return 1; }
    # libFuzzer's closing line: it ran to its time
    [[ "$stderr" == *"DONE"* ]] || { printf '# %s\n' "$stderr" >&2; return 1; }
}

@test "fuzz: the harnesses build with clang (libFuzzer, ASan, UBSan)" {
    need_fuzz
    run --separate-stderr env FUZZ_SECONDS=0 "$RUN_FUZZ"
    [ "$status" -eq 0 ] || { printf '# %s\n' "$stderr" >&2; return 1; }
    for t in raw text gzip job bgzf; do
        [ -x "$SC_BUILDDIR/tests/fuzz/fuzz_$t" ]
    done
}

@test "fuzz: fuzz_raw (the raw reader) runs clean" {
    fuzz raw
}

@test "fuzz: fuzz_text (the text reader, plain and compressed) runs clean" {
    fuzz text
}

@test "fuzz: fuzz_gzip (the gzip reader) runs clean" {
    fuzz gzip
}

@test "fuzz: fuzz_zstd (the zstd reader) runs clean" {
    fuzz zstd
}

@test "fuzz: fuzz_bgzf (the parallel BGZF reader) runs clean" {
    fuzz bgzf
}

@test "fuzz: fuzz_zframes (the parallel reader of zstd frames) runs clean" {
    fuzz zframes
}

@test "fuzz: fuzz_job (compact, split, sort from bytes to output) runs clean" {
    fuzz job
}
