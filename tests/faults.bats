#!/usr/bin/env bats
# Faults that once bit (issue 12): threads that cannot start, -C across
# files, a file size limit, a tiny -S, --help to a full device, -o
# through a dangling link or with a long name, and sc-split's pair of
# outputs replaced together. Fault injection: SC_TEST_FAIL_THREAD=N and
# SC_TEST_FAIL_RENAME=N make the N-th thread start or rename fail.

load test_helper

setup() {
    sc_setup
    mkdir tmp && export TMPDIR=$T/tmp
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort
    gen_file in.bin 5000 3 0.5
}

# no_leftovers: neither the output nor a temporary beside it or in $TMPDIR.
no_leftovers() {
    local left
    left=$(ls -A . "$TMPDIR" | grep -E '^(\.?out\.|\.sc-|sc-rsort-|sc-spill-)' || true)
    [ -z "$left" ] || { echo "# left behind: $left" >&2; return 1; }
}

# ---------------------------------------------------------------- threads

@test "faults: a CPU thread that cannot start: one line, exit 1, no output file" {
    for t in sc-compact sc-split sc-scan sc-rsort; do
        SC_TEST_FAIL_THREAD=2 run -1 --separate-stderr \
            timeout 20 "$t" -d cpu -j 4 -o out.bin in.bin
        [ "$stderr" = "$t: cannot start 4 host threads: Resource temporarily unavailable" ] ||
            { echo "# $stderr" >&2; return 1; }
        no_leftovers
    done
}

@test "faults: gzip's compression threads that cannot start: one line, exit 1" {
    # -j 2: thread 1 is the context's pool, thread 2 the writer's.
    SC_TEST_FAIL_THREAD=2 run -1 --separate-stderr \
        timeout 20 sc-gen -d cpu -j 2 -z -n 10 -o out.gz
    [ "$stderr" = "sc-gen: cannot start compression threads: Resource temporarily unavailable" ]
    [ ! -e out.gz ]
}

@test "faults: the streaming tools' reader and writer threads that cannot start" {
    # -j 1: no pool threads, so the first thread is the pipeline's reader.
    for n in 1 2; do
        for t in sc-compact sc-scan sc-split; do
            SC_TEST_FAIL_THREAD=$n run --separate-stderr \
                timeout 20 "$t" -d cpu -j 1 -o out.bin in.bin
            expect_status 1
            echo "$stderr" > err.txt
            expect_one_line_error "$t" err.txt
            [ ! -e out.bin ]
        done
    done
    SC_TEST_FAIL_THREAD=1 run -1 timeout 20 sc-gen -d cpu -j 1 -n 100 -o out.bin
}

@test "faults: threads sc-rsort can do without that cannot start: the sort goes on" {
    # -j 4: threads 1-3 are the pool's, 4 -P's ticker, 5 the hand-off that
    # writes buckets while the others sort (2^18 keys or more).
    gen_file big.bin 300000 7 0.9
    ref sort < big.bin > want.out
    local n
    for n in 4 5; do
        SC_TEST_FAIL_THREAD=$n run -0 --separate-stderr \
            timeout 20 sc-rsort -d cpu -j 4 -P -o out.bin big.bin
        expect_same want.out out.bin || { echo "# thread $n" >&2; return 1; }
        [[ "$stderr" == *"sorted and written"*"100%"* ]] ||
            { echo "# thread $n: $stderr" >&2; return 1; }
    done
}

# ------------------------------------------------------- -C over several files

@test "faults: sc-rsort -C reads its inputs as one stream (text split across files)" {
    printf '1 2' > ta
    printf '0\n' > tb
    run -0 bash -c 'cat ta tb | sc-rsort --in text -C'
    run -0 sc-rsort --in text -C ta tb
    printf '1 2 ' > ta
    run -1 --separate-stderr sc-rsort --in text -C ta tb
    [ "$stderr" = "sc-rsort: (inputs as one stream): disorder at element 2: 0 after 2" ]
}

@test "faults: sc-rsort -C reads its inputs as one stream (raw elements split across files)" {
    u32le 1 2 3 4 > whole
    head -c 6 whole > ra
    tail -c +7 whole > rb
    run -0 --separate-stderr sc-rsort -C ra rb
    [ -z "$stderr" ]
    u32le 1 3 2 > whole
    head -c 5 whole > ra
    tail -c +6 whole > rb
    run -1 --separate-stderr sc-rsort -C ra - < rb
    [ "$stderr" = "sc-rsort: (inputs as one stream): disorder at element 2: 2 after 3" ]
    # One input keeps its own name.
    run -1 --separate-stderr sc-rsort -C whole
    [ "$stderr" = "sc-rsort: whole: disorder at element 2: 2 after 3" ]
}

# ------------------------------------------------------------ ulimit -f

# limited KIB CMD...: CMD under a file size limit of KIB KiB.
limited() {
    local kib=$1
    shift
    bash -c 'ulimit -f "$0" && exec "$@"' "$kib" "$@"
}

@test "faults: past ulimit -f a write error, exit 1, no temporary left (not SIGXFSZ)" {
    gen_file big.bin 100000 4 0.5
    run -1 --separate-stderr limited 100 sc-compact -o out big.bin
    [ "$stderr" = "sc-compact: out: write error: File too large" ]
    no_leftovers
    run -1 --separate-stderr limited 100 sc-rsort -o out big.bin
    [ "$stderr" = "sc-rsort: out: write error: File too large" ]
    no_leftovers
    # The runs' temporary file is the one that hits the limit.
    run -1 --separate-stderr limited 100 sc-rsort -S 4K -o /dev/null big.bin
    [[ "$stderr" == "sc-rsort: $TMPDIR/sc-rsort-"*": write error: File too large" ]]
    no_leftovers
    run -1 --separate-stderr limited 100 sc-split -S 4K -o /dev/null big.bin
    [[ "$stderr" == "sc-split: $TMPDIR/sc-spill-"*": write error: File too large" ]]
    no_leftovers
    run -1 --separate-stderr limited 100 sc-split -r rej -o out big.bin
    [[ "$stderr" == *": write error: File too large" ]]
    [ ! -e rej ]
    no_leftovers
}

@test "faults: sc-scan with threads taking whole chunks: a write error mid-stream stops them all, exit 1, no file" {
    # 4 KiB chunks over 4 threads: a thread waiting for the carry of a
    # chunk the writer will never take must not hang the run.
    gen_file big.bin 100000 4 0.5
    run -1 --separate-stderr timeout 60 bash -c 'ulimit -f 100 && exec "$@"' _ \
        sc-scan -d cpu -j 4 -c 4K -o out big.bin
    [ "$stderr" = "sc-scan: out: write error: File too large" ]
    no_leftovers
    [ ! -e out ]
}

# ------------------------------------------------- --help to a full device

@test "faults: --help and --version to a full device: a write error, exit 1" {
    [ -w /dev/full ] || skip "no /dev/full here"
    for t in sc-gen sc-compact sc-split sc-scan sc-rsort; do
        for o in --help --version; do
            run -1 --separate-stderr bash -c 'exec "$0" "$1" > /dev/full' "$t" "$o"
            [ "$stderr" = "$t: write error: No space left on device" ] ||
                { echo "# $t $o: $stderr" >&2; return 1; }
        done
    done
}

# ------------------------------------------------------------------ -o

@test "faults: -o through a dangling symbolic link creates the link's target" {
    for t in sc-gen sc-compact sc-rsort; do
        rm -rf dl new sub && mkdir sub
        ln -s new dl
        if [ "$t" = sc-gen ]; then
            run -0 "$t" -n 3 -o dl
        else
            run -0 "$t" -o dl in.bin
        fi
        [ -L dl ] && [ "$(readlink dl)" = new ] && [ -f new ] && [ -s new ]
        # A chain of links, relative to each link's own directory.
        ln -s ../x sub/l2 && ln -s sub/l2 l1
        run -0 sc-gen -n 3 -o l1
        [ -L l1 ] && [ -L sub/l2 ] && [ "$(nelems x)" -eq 3 ]
        rm -f l1 x
    done
    no_leftovers
}

@test "faults: -o with a name of 245 to 255 bytes (the temporary's name fits)" {
    local n name
    for n in 245 250 255; do
        name=$(printf "%${n}s" "" | tr ' ' o)
        run -0 --separate-stderr sc-gen -n 5 -o "$name"
        [ "$(nelems "$name")" -eq 5 ]
        mkdir -p d
        run -0 --separate-stderr sc-split -r "d/$name" -o "$name" in.bin
        [ -s "$name" ] && [ -s "d/$name" ] && rm "$name" "d/$name"
        [ -z "$(ls -A d)" ]
    done
    no_leftovers
}

# ------------------------------------------------- sc-split -r: the pair

@test "faults: sc-split -r R -o O: a failed second rename leaves both old files" {
    echo old-rejects > R
    echo old-output > O
    for n in 1 2; do
        SC_TEST_FAIL_RENAME=$n run -1 --separate-stderr sc-split -r R -o O in.bin
        [[ "$stderr" == "sc-split: "?": cannot rename temporary file into place: Permission denied" ]] ||
            { echo "# $stderr" >&2; return 1; }
        [ "$(cat R)" = old-rejects ] && [ "$(cat O)" = old-output ]
        [ "$(stat -c %h R)" -eq 1 ]
        no_leftovers
        [ -z "$(ls -A | grep '^\.')" ]
    done
    # No old rejects file: none is left either.
    rm R
    SC_TEST_FAIL_RENAME=2 run -1 sc-split -r R -o O in.bin
    [ ! -e R ] && [ "$(cat O)" = old-output ]
    # Without a fault both are replaced.
    run -0 sc-split -r R -o O in.bin
    ref split < in.bin > both
    cat O R | cmp - both
}

# ------------------------------------------------------- sc-rsort -S tiny

@test "faults: sc-rsort -S 4K on 20 MB: merged in passes, memory stays near -S" {
    gen_file in20.bin 5000000 9 0.9 --max 100000
    mkdir runs
    ref sort --bits 0:12 < in20.bin > want.out
    local timer=()
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -f %M -o rss.txt)
    # -d cpu: the merge's memory is measured, not a CUDA context's
    run -0 "${timer[@]}" sc-rsort -d cpu -S 4K -T runs --bits 0:12 -o got.out in20.bin
    expect_same want.out got.out
    [ -z "$(ls -A runs)" ]
    [ ${#timer[@]} -gt 0 ] || skip "no /usr/bin/time: peak memory not checked"
    # Under a sanitizer memory is what the sanitizer makes it.
    [ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] || skip "sanitizer build: peak memory not checked"
    # 5000 runs of 4 KiB: one buffer each at once would be 20 MB.
    local peak
    peak=$(tail -n 1 rss.txt)
    [ "$peak" -lt 12000 ] || { echo "# peak RSS $peak KiB" >&2; return 1; }
}
