#!/usr/bin/env bats
# sc-split --ranges and sc-stat --quantiles / --sample: cutting a stream
# into parts by value, and choosing the bounds.  Each part is checked
# against sc-compact with the same range, an independent implementation.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-split sc-stat sc-compact
}

# parts_vs_compact IN BOUNDS PATTERN: part p of IN (PATTERN with %d as p)
# equals sc-compact of IN on [B(p), B(p+1)).
parts_vs_compact() {
    local in=$1 pattern=$3 lo="" p=0 b
    local -a bounds
    IFS=, read -r -a bounds <<< "$2"
    for b in "${bounds[@]}" ""; do
        local args=()
        [ -n "$lo" ] && args+=(--ge "$lo")
        [ -n "$b" ] && args+=(--lt "$b")
        [ ${#args[@]} -gt 0 ] || args=(--ge 0)
        sc-compact -d cpu "${args[@]}" "$in" > want.part
        expect_same want.part "${pattern/\%d/$p}" ||
            { echo "# part $p of bounds '$2'" >&2; return 1; }
        lo=$b
        p=$((p + 1))
    done
    [ ! -e "${pattern/\%d/$p}" ] || { echo "# part $p should not exist" >&2; return 1; }
}

# usage_errors PROG < LINES: for each line "ARGS|MESSAGE", PROG ARGS in.bin
# is a usage error whose message holds MESSAGE, and leaves no file but
# in.bin behind.
usage_errors() {
    local args want
    while IFS='|' read -r args want; do
        # shellcheck disable=SC2086
        run -2 "$1" $args in.bin
        expect_usage "$1"
        [[ "$output" == *"$want"* ]] || { echo "# $args: $output" >&2; return 1; }
        [ -z "$(ls -A | grep -v '^in.bin$')" ] ||
            { echo "# $args left: $(ls -A)" >&2; return 1; }
    done
}

@test "sc-split --ranges: parts equal sc-compact per range, sizes 0..300007, any bounds" {
    local n bounds
    for n in 0 1 4097 300007; do
        gen_file in.bin $n $((n + 11)) 0.9
        for bounds in 2147483648 1000,2000000000,3000000000 0,1,4294967295 \
                      4294967295 0; do
            rm -f part.*
            run -0 sc-split --ranges "$bounds" -o 'part.%d' in.bin
            parts_vs_compact in.bin "$bounds" 'part.%d' ||
                { echo "# n=$n" >&2; return 1; }
        done
    done
}

@test "sc-split --ranges: each part keeps input order (a small case by hand)" {
    echo 5 1 9 3 7 2 8 3 | sc-split --in text --ranges 3,7 -t -o 'p.%d'
    [ "$(xargs < p.0)" = "1 2" ]
    [ "$(xargs < p.1)" = "5 3 3" ]
    [ "$(xargs < p.2)" = "9 7 8" ]
}

@test "sc-split --ranges: the same bytes for any chunk size, thread count and device" {
    gen_file in.bin 1000003 5
    local bounds=100000000,900000000,1500000000,2500000000,4000000000
    sc-split -d cpu -j 1 --ranges $bounds -o 'a.%d' in.bin
    local opts p
    for opts in "-c 4K -j 2" "-c 64K -j 3" "-c 16M" "-d auto" "-d cpu -j 4 -c 8K"; do
        # shellcheck disable=SC2086
        sc-split $opts --ranges $bounds -o 'b.%d' in.bin
        for p in 0 1 2 3 4 5; do
            expect_same a.$p b.$p || { echo "# $opts, part $p" >&2; return 1; }
        done
    done
}

@test "sc-split --ranges: every part file is made, empty ones too; '' is one part" {
    u32le 1 2 3 > in.bin
    run -0 sc-split --ranges 10,20,30 -o 'p.%d' in.bin
    [ "$(nelems p.0)" -eq 3 ] && [ -f p.1 ] && [ ! -s p.1 ] &&
        [ ! -s p.2 ] && [ ! -s p.3 ] && [ ! -e p.4 ]
    run -0 sc-split --ranges '' -o 'one.%d' in.bin
    cmp one.0 in.bin && [ ! -e one.1 ]
    : > empty.bin
    run -0 sc-split --ranges 5 -z -o 'e.%d.gz' empty.bin
    [ "$(gzip -dc e.0.gz | wc -c)" -eq 0 ] && [ "$(gzip -dc e.1.gz | wc -c)" -eq 0 ]
}

@test "sc-split --ranges: names with %0Nd and %%, in a directory" {
    gen_file in.bin 1000 3
    mkdir d
    run -0 sc-split --ranges 2000000000 -o 'd/x%%y.%03d.u32' in.bin
    [ -f 'd/x%y.000.u32' ] && [ -f 'd/x%y.001.u32' ]
    [ $(( $(nelems 'd/x%y.000.u32') + $(nelems 'd/x%y.001.u32') )) -eq 1000 ]
    [ "$(ls -A d | wc -l)" -eq 2 ]
}

@test "sc-split --ranges: gzip, zstd and text parts read back to the raw ones" {
    gen_file in.bin 300007 8 0.7
    local b=1000000000,3000000000 p
    sc-split --ranges $b -o 'r.%d' in.bin
    sc-split --ranges $b -z -o 'g.%d' in.bin
    sc-split --ranges $b -t -o 't.%d' in.bin
    if command -v zstd >/dev/null && zstd_built; then
        sc-split --ranges $b --zstd -o 'z.%d' in.bin
    fi
    for p in 0 1 2; do
        gzip -dc g.$p | cmp - r.$p
        sc-compact --ge 0 g.$p | cmp - r.$p
        [ "$(u32text r.$p)" = "$(cat t.$p)" ]
        if [ -e z.$p ]; then zstd -qdc z.$p | cmp - r.$p; fi
    done
}

@test "sc-split --ranges --count prints the parts' sizes on one line" {
    u32le 5 1 9 3 7 2 8 3 > in.bin
    run -0 --separate-stderr sc-split --ranges 3,7 --count in.bin
    [ "$output" = "2 3 3" ]
    run -0 --separate-stderr sc-split --ranges '' --count in.bin
    [ "$output" = "8" ]
    # Even with -z: the figures are text; -o names the file for the line.
    run -0 sc-split --ranges 3,7 --count -z -o counts.txt in.bin
    [ "$(cat counts.txt)" = "2 3 3" ]
    # After stray bytes the sizes of the whole elements still come out.
    printf 'xy' >> in.bin
    run -1 --separate-stderr sc-split --ranges 3,7 --count in.bin
    [ "$output" = "2 3 3" ] && [[ "$stderr" == *"stray byte"* ]]
}

@test "sc-split --ranges: 255 bounds make 256 parts; 256 bounds are a usage error" {
    gen_file in.bin 100000 4
    local b
    b=$(seq 16777216 16777216 4278190080 | paste -sd, -)
    run -0 sc-split --ranges "$b" -o 'p.%03d' in.bin
    [ -f p.000 ] && [ -f p.255 ] && [ ! -e p.256 ]
    [ "$(cat p.* | wc -c)" -eq 400000 ]
    sc-compact --ge 4278190080 in.bin | cmp - p.255
    sc-compact --ge 16777216 --lt 33554432 in.bin | cmp - p.001
    run -2 sc-split --ranges "$b,4278190081" -o 'q.%d' in.bin
    expect_usage sc-split
    [[ "$output" == *"at most 255"* ]] && [ ! -e q.0 ]
}

@test "sc-split --ranges: bad bounds and names are usage errors that write nothing" {
    u32le 1 2 3 > in.bin
    usage_errors sc-split <<'EOF'
--ranges 5,3 -o p.%d|must increase: 3 follows 5
--ranges 5,5 -o p.%d|must increase: 5 follows 5
--ranges 1,,2 -o p.%d|empty bound 2
--ranges 1, -o p.%d|empty bound 2
--ranges ,1 -o p.%d|empty bound 1
--ranges 1,x -o p.%d|invalid value 'x' for --ranges
--ranges 1,0123456789012345678901234567890123456789012345678901234567890123456789 -o p.%d|malformed bound 2
--ranges 4294967296 -o p.%d|out of range
--ranges 5 -o p|needs a %d
--ranges 5 -o p.%d.%d|more than one %d
--ranges 5 -o p.%s|only %d, %0Nd
--ranges 5 -o p.%5d|only %d, %0Nd
--ranges 5 -o p.%|only %d, %0Nd
--ranges 5|needs an output name
--ranges 5 -o -|needs an output name
--ranges 5 --gt 3 -o p.%d|does not go with a condition
--ranges 5 -x -o p.%d|does not go with a condition
--ranges 5 --mask 1 -o p.%d|does not go with a condition
--ranges 5 -r r -o p.%d|--ranges and --rejects exclude each other
EOF
}

@test "sc-split --ranges: a part that is an input is refused before anything is written" {
    u32le 1 2 3 > p.1
    cp p.1 keep
    run -1 --separate-stderr sc-split --ranges 2 -o 'p.%d' p.1
    [[ "$stderr" == "sc-split: p.1: output file is also an input" ]]
    cmp p.1 keep && [ ! -e p.0 ]
}

@test "sc-split --ranges: a fault in the input leaves every old part as it was" {
    gen_file in.bin 100000 6
    echo old0 > p.0
    echo old1 > p.1
    printf 'abc' >> in.bin
    run -1 --separate-stderr sc-split --ranges 2000000000 -o 'p.%d' in.bin
    [[ "$stderr" == *"stray bytes"* ]]
    [ "$(cat p.0)" = old0 ] && [ "$(cat p.1)" = old1 ] && [ ! -e p.2 ]
    [ -z "$(ls -A | grep '^\.')" ]
    # A corrupt gzip input: the same.
    gen_random 100000 6 | gzip -c | head -c 30000 > cut.gz
    run -1 sc-split --ranges 2000000000 -o 'p.%d' cut.gz
    [ "$(cat p.0)" = old0 ] && [ "$(cat p.1)" = old1 ]
    [ -z "$(ls -A | grep '^\.')" ]
}

@test "sc-split --ranges: a failed rename puts back the parts already replaced" {
    gen_file in.bin 1000 6
    local n p
    for p in 0 1 2; do echo old$p > p.$p; done
    rm p.1      # a part that did not exist is removed again
    for n in 1 2 3; do
        SC_TEST_FAIL_RENAME=$n run -1 --separate-stderr \
            sc-split --ranges 1000000000,3000000000 -o 'p.%d' in.bin
        [[ "$stderr" == "sc-split: p.$((n - 1)): cannot rename temporary file into place: Permission denied" ]] ||
            { echo "# $n: $stderr" >&2; return 1; }
        [ "$(cat p.0)" = old0 ] && [ ! -e p.1 ] && [ "$(cat p.2)" = old2 ]
        [ "$(stat -c %h p.0)" -eq 1 ]
        [ -z "$(ls -A | grep '^\.')" ] || { echo "# left: $(ls -A)" >&2; return 1; }
    done
    run -0 sc-split --ranges 1000000000,3000000000 -o 'p.%d' in.bin
    cat p.0 p.1 p.2 | sc-rsort | cmp - <(sc-rsort in.bin)
}

@test "sc-split --ranges: parts wait while another run holds the directory's lock" {
    command -v flock > /dev/null || skip "no flock(1) here"
    gen_file in.bin 1000 6
    mkdir d
    exec 8< d
    flock 8
    sc-split --ranges 2000000000 -o 'd/p.%d' in.bin 3>&- 8<&- &
    local split=$!
    sleep 1
    # Written beside their names, and held back until the lock is free.
    [ ! -e d/p.0 ] && [ ! -e d/p.1 ] ||
        { flock -u 8; echo "# renamed under another's lock: $(ls -A d)" >&2; return 1; }
    [ -n "$(ls -A d | grep '^\.p\.0\.sc-')" ]
    flock -u 8
    exec 8<&-
    wait "$split"
    parts_vs_compact in.bin 2000000000 'd/p.%d'
}

@test "sc-split --ranges: two runs onto the same names at once leave one run's parts, whole" {
    # Whether the runs' renames would have met is chance; the lock that
    # keeps them apart is tested above. This checks that taking turns
    # ends well for both.
    gen_file a.bin 20000 6
    gen_file b.bin 20000 7
    local b k round
    b=$(seq -s, 67108864 67108864 4227858432)      # 63 bounds
    mkdir A B
    sc-split --ranges "$b" -o 'A/p.%d' a.bin
    sc-split --ranges "$b" -o 'B/p.%d' b.bin
    (cd A && md5sum p.* > ../a.sums)
    (cd B && md5sum p.* > ../b.sums)
    for round in 1 2 3; do
        sc-split --ranges "$b" -o 'p.%d' a.bin 3>&- & k=$!
        sc-split --ranges "$b" -o 'p.%d' b.bin 3>&-
        wait "$k"
        md5sum p.* > got.sums
        cmp -s got.sums a.sums || cmp -s got.sums b.sums ||
            { echo "# round $round: $(diff got.sums a.sums | grep -c '^>') parts of b, $(diff got.sums b.sums | grep -c '^>') of a" >&2
              return 1; }
    done
    [ -z "$(ls -A | grep '^\.')" ]
}

@test "sc-split --ranges: memory stays at a few chunks, whatever the input's size" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time to measure memory"
    gen_file in.bin 25000000 9             # 100 MB
    run -0 /usr/bin/time -f %M -o rss.txt sc-split -d cpu -c 1M \
        --ranges 268435456,536870912,1073741824,2147483648 -o 'p.%d' in.bin
    [ "$(cat p.* | wc -c)" -eq 100000000 ]
    # Under a sanitizer memory is what the sanitizer makes it.
    [ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] || skip "sanitizer build: peak memory not checked"
    [ "$(cat rss.txt)" -lt 40000 ] || { echo "# RSS $(cat rss.txt) KB" >&2; return 1; }
}

@test "sc-split --ranges: 256 gzip parts, read back whole, in little memory" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time to measure memory"
    gen_file in.bin 4000000 9
    local b
    b=$(seq 16777216 16777216 4278190080 | paste -sd, -)
    run -0 /usr/bin/time -f %M -o rss.txt sc-split -d cpu -c 1M -z --level 1 \
        --ranges "$b" -o 'p.%03d.gz' in.bin
    gzip -dc p.*.gz | sc-rsort | cmp - <(sc-rsort in.bin)
    sc-compact --ge 33554432 --lt 50331648 in.bin | cmp - <(gzip -dc p.002.gz)
    [ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] || skip "sanitizer build: peak memory not checked"
    # 256 writers of 1 MiB blocks, not 64 MiB each; no 256 thread pools.
    [ "$(cat rss.txt)" -lt 100000 ] || { echo "# RSS $(cat rss.txt) KB" >&2; return 1; }
}

# ---------------------------------------------------------------- sc-stat

@test "sc-stat --quantiles: exact on an input that fits the sample" {
    sc-gen -n 1000 --dist iota > in.bin
    run -0 --separate-stderr sc-stat --quantiles 4 in.bin
    [ "$(grep '^quantiles' <<< "$output")" = "quantiles 250,500,750" ]
    # The rest of the report is what it was, the line comes after distinct.
    sc-stat in.bin > plain.txt
    [ "$(grep -v '^quantiles' <<< "$output")" = "$(cat plain.txt)" ]
    [ "$(tail -n 1 <<< "$output")" = "quantiles 250,500,750" ]
    run -0 sc-stat --quantiles 1 in.bin
    [ "$(tail -n 1 <<< "$output")" = "quantiles" ]
    run -0 sc-stat --quantiles 2 --hist 2 in.bin
    [ "${lines[7]}" = "quantiles 500" ] && [ "${lines[8]}" = "hist 0 499 500" ]
}

@test "sc-stat --quantiles: bounds split a large input into parts within 0.5 % of their share" {
    gen_file in.bin 3000000 21 1 --max 100000000
    local q n=3000000 parts=8
    q=$(sc-stat --quantiles $parts in.bin | sed -n 's/^quantiles //p')
    [ "$(tr , '\n' <<< "$q" | wc -l)" -eq 7 ]
    run -0 sc-split --ranges "$q" --count in.bin
    local c
    for c in $output; do
        [ $(( (c - n / parts) < 0 ? (n / parts - c) : (c - n / parts) )) -lt $((n / 200)) ] ||
            { echo "# sizes: $output" >&2; return 1; }
    done
}

@test "sc-stat --quantiles: repeated values give fewer bounds, never 0 or twice the same" {
    sc-gen -n 100000 --dist constant --value 7 > c.bin
    run -0 sc-stat --quantiles 4 c.bin
    [ "$(tail -n 1 <<< "$output")" = "quantiles" ]
    sc-gen -n 100000 --dist structured > s.bin      # half zeros
    run -0 sc-stat --quantiles 4 s.bin
    local q
    q=$(sed -n 's/^quantiles //p' <<< "$output")
    [ "$(tr , '\n' <<< "$q" | wc -l)" -eq 1 ] && [ "$q" -gt 0 ]
    : > empty.bin
    run -0 sc-stat --quantiles 4 empty.bin
    [ "$output" = "count 0" ]
}

@test "sc-stat --quantiles and --sample: the same for any chunk, thread count, file, pipe or gzip" {
    gen_file in.bin 1500000 13
    local opts
    for opts in "--quantiles 16" "--quantiles 16 --sample 0.3" "--sample 0.5 --seed 9 --hist 3"; do
        # shellcheck disable=SC2086
        stat_any_way u32 in.bin $opts || return 1
    done
}

@test "sc-stat --sample: a fraction of the 64 KiB blocks, read in place from a file" {
    gen_file in.bin 4000000 17            # 245 blocks of 16384 elements
    sample_in_place u32 in.bin 16384
}

@test "sc-stat --sample: where no block is taken, the first is: never an empty sample" {
    # Shorter than a block: the whole input, from a file or a pipe, and the
    # quantiles that sc-split --ranges needs.
    gen_file small.bin 1000 5 1
    sc-stat --quantiles 4 small.bin > whole.txt
    grep -q '^quantiles [0-9]*,[0-9]*,[0-9]*$' whole.txt
    run -0 sc-stat --sample 0.01 --quantiles 4 small.bin
    [ "$output" = "$(cat whole.txt)" ]
    run -0 sh -c 'cat small.bin | sc-stat --sample 0.01 --quantiles 4'
    [ "$output" = "$(cat whole.txt)" ]
    # Three blocks, none taken at 1e-9: the first block, read in place or
    # through a pipe in chunks smaller than a block.
    gen_file three.bin 49152 6 1
    head -c 65536 three.bin > first.bin
    sc-stat --hist 3 --quantiles 2 first.bin > first.txt
    run -0 sc-stat --sample 1e-9 --hist 3 --quantiles 2 three.bin
    [ "$output" = "$(cat first.txt)" ] || { echo "# $output" >&2; return 1; }
    run -0 sh -c 'cat three.bin | sc-stat -c 4K --sample 1e-9 --hist 3 --quantiles 2'
    [ "$output" = "$(cat first.txt)" ] || { echo "# $output" >&2; return 1; }
    # An empty input stays empty.
    : > empty.bin
    run -0 sc-stat --sample 0.01 empty.bin
    [ "$output" = "count 0" ]
}

@test "sc-stat --sample with stray bytes: read through, the fault reported" {
    gen_file in.bin 100000 3
    printf 'z' >> in.bin
    run -1 --separate-stderr sc-stat --sample 0.5 in.bin
    [[ "$stderr" == *"stray byte"* ]] && [[ "$output" == "count "* ]]
}

@test "sc-stat --quantiles, --sample, --seed: bad values are usage errors" {
    u32le 1 2 3 > in.bin
    usage_errors sc-stat <<'EOF'
--quantiles 0|at least 1 part
--quantiles 257|out of range (at most 256)
--quantiles x|invalid value 'x' for --quantiles
--sample 0|above 0 and at most 1
--sample 1.5|above 0 and at most 1
--sample -0.5|invalid value '-0.5' for --sample
--sample abc|invalid value 'abc' for --sample
--sample nan|invalid value 'nan' for --sample
--sample inf|invalid value 'inf' for --sample
--sample 0x0.8|invalid value '0x0.8' for --sample
--sample 0.5x|invalid value '0.5x' for --sample
--seed -1|invalid value '-1' for --seed
--quantiles 4 --head 2|do not go with --head or --tail
--sample 0.5 --tail 2|do not go with --head or --tail
EOF
}
