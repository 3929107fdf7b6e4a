#!/usr/bin/env bats
# records-field.bats -- --field OFF[:T]: sc-rsort, sc-compact, sc-split
# (-r rejects, held rejects, --ranges parts) and sc-gen write one field
# of each record instead of the whole, against sc-ref's records piped
# through `sc-ref field` byte for byte: record sizes 4 to 4096, fields at
# the start, middle and end of every type, text output, counts 0, 1 and
# odd, chunks that cut anywhere, threads, -S runs and -m, gzip and zstd
# in and out, big-endian records, the column indices of CSR, and the
# usage errors.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-rsort
}

# field_vs_ref TOOL SUB FILE FIELD [OPS...]: `TOOL EXTRA R OPS --field
# FIELD T` against `sc-ref SUB R OPS | sc-ref field R FIELD T` on FILE;
# the arrays R (the record's layout, --big-endian) and T (-t) are the
# caller's, EXTRA the tool's own (-c, -j, ...).
field_vs_ref() {
    local tool=$1 sub=$2 in=$3 field=$4
    shift 4
    { ref "$sub" "${R[@]}" "$@" < "$in" |
          ref field "${R[@]}" "$field" "${T[@]}"; } > ref.out ||
        { echo "# sc-ref $sub ${R[*]} $* | field $field failed" >&2; return 1; }
    if ! "$tool" "${EXTRA[@]}" "${R[@]}" "$@" --field "$field" "${T[@]}" \
            < "$in" > tool.out 2> tool.err; then
        echo "# $tool ${EXTRA[*]} ${R[*]} $* --field $field ${T[*]} failed: $(cat tool.err)" >&2
        return 1
    fi
    [ ! -s tool.err ] || { echo "# $tool wrote to stderr: $(cat tool.err)" >&2; return 1; }
    cmp ref.out tool.out >&2 ||
        { echo "# $tool ${EXTRA[*]} ${R[*]} $* --field $field ${T[*]} differs from sc-ref" >&2; return 1; }
}
R=()
T=()

# field_layout SIZE OFF TYPE K: the field TYPE at OFF of records of SIZE
# bytes whose key is the u32 at 0, sorted, compacted and split; text
# output every other layout; K picks the count.
field_layout() {
    local size=$1 off=$2 t=$3 k=$4 counts=(1009 31 0 33 1 4097) n
    n=${counts[$((k % ${#counts[@]}))]}
    [ "$size" -eq 4096 ] && [ "$n" -gt 1009 ] && n=257
    recgen a "$size" 0 u32 "$n" $((size + off + k)) || return 1
    R=(--record "$size" --key 0:u32)
    T=()
    [ $((k % 2)) -eq 1 ] && T=(-t)
    field_vs_ref sc-rsort sort a "$off:$t" &&
    field_vs_ref sc-compact compact a "$off:$t" --range 100:3000000000 &&
    field_vs_ref sc-split split a "$off:$t" --lt 2000000000 ||
        { echo "# $n records ${T[*]}" >&2; return 1; }
}

@test "records-field: every record size, field place and field type, binary and text, vs sc-ref (sort, compact, split)" {
    for_each_layout "u32 i32 f32 u64 i64 f64" field_layout
    [ "$LAYOUTS" -ge 60 ]
}

@test "records-field: the type defaults to the key's; --field 0 of a record of its key alone is the key" {
    recgen a 16 8 f64 777 3
    R=(--record 16 --key 8:f64)
    T=(-t)
    field_vs_ref sc-rsort sort a 8 -r
    grep -q '\.' tool.out
    # -e i64 --key 8 is --key 8:i64, and --field 0 then an i64
    R=(--record 16 --key 8:i64)
    T=()
    ref sort "${R[@]}" < a | ref field "${R[@]}" 0:i64 -t > ref.out
    sc-rsort -e i64 --record 16 --key 8 --field 0 -t a > tool.out
    cmp ref.out tool.out
    # --record 4: the field is the element
    sc-gen -n 1001 -s 4 > e
    sc-rsort --record 4 --field 0 e | cmp - <(sc-rsort e)
    sc-compact --record 4 --field 0 --gt 5 e | cmp - <(sc-compact --gt 5 e)
}

@test "records-field: CSR column indices: the dst of (u32 src, u32 dst) edges sorted stably by src" {
    # 20000 edges of 100 vertices, src at 0 and dst at 4.
    ref gen -n 40000 -s 9 --type u32 | od -An -v -tu4 -w4 |
        awk '{ printf "%d\n", $1 % 100 }' > edges.txt
    sc-compact --in text -e u32 --ge 0 edges.txt > edges
    [ "$(stat -c %s edges)" -eq 160000 ]
    sc-rsort --record 8 --key 0 --field 4 edges > colidx
    ref sort --record 8 --key 0:u32 < edges | ref field --record 8 4 | cmp - colidx
    [ "$(stat -c %s colidx)" -eq 80000 ]
    # the same, read back as text, in the order of a stable sort by src
    sc-rsort --record 8 --key 0 --field 4 -t edges > colidx.txt
    paste -d ' ' <(sed -n 'p;n' edges.txt) <(sed -n 'n;p' edges.txt) |
        sort -s -n -k1,1 | awk '{ print $2 }' | cmp - colidx.txt
}

@test "records-field: stability: sc-gen's index words as the field are sc-rsort --indices" {
    sc-gen -n 20011 --max 10 --record 16 --key 8:u32 -s 5 > a
    local o
    for o in "" -r -u; do
        # shellcheck disable=SC2086
        sc-rsort --record 16 --key 8:u32 $o --field 0:u64 a > f
        # shellcheck disable=SC2086
        sc-rsort --record 16 --key 8:u32 $o --indices a | cmp - f
        [ -s f ]
    done
}

@test "records-field: chunks that cut anywhere and threads (sc-compact, sc-split with -r and held rejects, --ranges)" {
    recgen a 12 4 i32 10007 11
    R=(--record 12 --key 4:i32)
    local e
    for e in "-c 4K -j 1" "-c 4K -j 3" "-c 12K -j 2" "-j 4"; do
        # shellcheck disable=SC2206
        EXTRA=($e)
        T=()
        field_vs_ref sc-compact compact a 8:f32 --lt 0 &&
        field_vs_ref sc-split split a 0 --lt 0 &&
        EXTRA+=(-S 4K) && field_vs_ref sc-split split a 4 --lt 0 &&
        T=(-t) && field_vs_ref sc-split split a 8:u32 --ge 0 ||
            { echo "# $e" >&2; return 1; }
    done
    EXTRA=()
    # -r: both files hold the field
    sc-split "${R[@]}" --lt 0 --field 0 -r rej -c 4K -j 3 a > sel
    ref compact "${R[@]}" --lt 0 < a | ref field "${R[@]}" 0 | cmp - sel
    ref compact "${R[@]}" --lt 0 -x < a | ref field "${R[@]}" 0 | cmp - rej
    [ -s sel ] && [ -s rej ]
    # --ranges: each part holds the field, text too
    sc-split "${R[@]}" --ranges=-1000,0,1000 --field 0:u64 -o 'part.%d' a
    sc-split "${R[@]}" --ranges=-1000,0,1000 --field 4 -t -o 'text.%d' a
    local p lo hi
    for p in 0 1 2 3; do
        lo=(-2147483648 -1000 0 1000) hi=(-1001 -1 999 2147483647)
        ref compact "${R[@]}" --range "${lo[p]}:${hi[p]}" < a > want
        ref field "${R[@]}" 0:u64 < want | cmp - "part.$p"
        ref field "${R[@]}" 4 -t < want | cmp - "text.$p"
    done
    # --count is the same with a field as without
    [ "$(sc-split "${R[@]}" --lt 0 --count --field 4 a)" = "$(sc-split "${R[@]}" --lt 0 --count a)" ]
    [ "$(sc-compact "${R[@]}" --lt 0 --count --field 4 a)" = "$(sc-compact "${R[@]}" --lt 0 --count a)" ]
}

@test "records-field: sc-rsort -S runs, -m and -u, threads" {
    recgen a 24 16 u64 30011 12
    R=(--record 24 --key 16:u64)
    mkdir tmp
    local e
    for e in "-S 64K -T tmp" "-S 4K -T tmp -j 3" "-j 1"; do
        # shellcheck disable=SC2206
        EXTRA=($e)
        T=()
        field_vs_ref sc-rsort sort a 4:u32 &&
        field_vs_ref sc-rsort sort a 8:f64 -r -u &&
        T=(-t) && field_vs_ref sc-rsort sort a 0:i32 ||
            { echo "# $e" >&2; return 1; }
    done
    [ -z "$(ls tmp)" ]
    EXTRA=()
    # -m of sorted files: the merge's output is the field
    head -c $((24 * 1000)) a | sc-rsort "${R[@]}" > m1
    tail -c +$((24 * 1000 + 1)) a | sc-rsort "${R[@]}" > m2
    sc-rsort -m "${R[@]}" --field 12:u32 m1 m2 > out
    ref sort "${R[@]}" < a | ref field "${R[@]}" 12:u32 | cmp - out
    sc-rsort -m -u "${R[@]}" --field 16 -t -S 4K -T tmp m1 m2 > out
    ref sort -u "${R[@]}" < a | ref field "${R[@]}" 16 -t | cmp - out
}

@test "records-field: gzip and zstd in and out" {
    recgen a 16 4 u32 5003 13
    R=(--record 16 --key 4:u32)
    ref sort "${R[@]}" < a | ref field "${R[@]}" 8:u64 > want
    gzip -c a > a.gz
    sc-rsort "${R[@]}" --field 8:u64 -z a.gz > out.gz
    gzip -dc out.gz | cmp - want
    ref compact "${R[@]}" --gt 7 < a | ref field "${R[@]}" 12 > want.c
    sc-compact "${R[@]}" --gt 7 --field 12 -z -c 4K -j 3 a.gz | gzip -dc | cmp - want.c
    if sc-gen -n 0 --zstd > /dev/null 2>&1; then
        zstd -q -c a > a.zst
        sc-rsort "${R[@]}" --field 8:u64 --zstd a.zst | zstd -dc | cmp - want
        sc-split "${R[@]}" --gt 7 --field 12 -r rej.zst --zstd a.zst > sel.zst
        zstd -dc sel.zst | cmp - want.c
        ref compact "${R[@]}" --gt 7 -x < a | ref field "${R[@]}" 12 |
            cmp - <(zstd -dc rej.zst)
    fi
}

@test "records-field: --big-endian: the field's bytes as they are, its value as text" {
    recgen a 16 8 u32 3001 14 --big-endian
    R=(--record 16 --key 8:u32 --big-endian)
    local f
    for f in 0:u64 0:i32 4:f32 12 8:f64; do
        T=()
        field_vs_ref sc-rsort sort a "$f" &&
        field_vs_ref sc-compact compact a "$f" --gt 1000 &&
        T=(-t) && field_vs_ref sc-rsort sort a "$f" -r &&
        field_vs_ref sc-split split a "$f" --gt 1000 || { echo "# $f" >&2; return 1; }
    done
    # a field is copied, not swapped: the key field of big-endian records
    # is the big-endian key
    printf '\0\0\0\3\0\0\0\x2c\0\0\0\1\0\0\1\x2c' > be
    sc-rsort --record 8 --big-endian --field 0 be | od -An -tx1 | tr -s ' \n' ' ' > out
    [ "$(cat out)" = " 00 00 00 01 00 00 00 03 " ]
    [ "$(sc-rsort --record 8 --big-endian --field 4 -t be | tr '\n' ' ')" = "300 44 " ]
}

@test "records-field: sc-gen --field writes the field of the records it makes" {
    sc-gen -n 3001 --record 12 --key 4:i32 --min -5 --max 5 -s 2 > a
    R=(--record 12 --key 4:i32)
    sc-gen -n 3001 "${R[@]}" --min -5 --max 5 -s 2 --field 4 -t > out
    ref field "${R[@]}" 4 -t < a | cmp - out
    sc-gen -n 3001 "${R[@]}" --min -5 --max 5 -s 2 --field 0:u64 -c 4K -j 3 > out
    ref field "${R[@]}" 0:u64 < a | cmp - out
}

@test "records-field: empty input, one record, stray bytes" {
    R=(--record 8 --key 0:u32)
    : > empty
    sc-rsort "${R[@]}" --field 4 empty > o
    [ ! -s o ]
    sc-compact "${R[@]}" --field 4 -z empty | gzip -dc | cmp - empty
    printf '\1\0\0\0\7\0\0\0' > one
    [ "$(sc-rsort "${R[@]}" --field 4 -t one)" = 7 ]
    printf '\1\0\0\0\7\0\0\0\2\0' > stray
    run_to out err sc-compact "${R[@]}" --field 4 -t stray
    expect_status 1
    [ "$(cat out)" = 7 ]
    expect_one_line_error sc-compact err
    grep -q 'stray' err || grep -q 'byte' err
}

@test "records-field: usage errors (no --record, misaligned, outside, bad type, with --indices or -C, tools without records)" {
    printf '\1\0\0\0\7\0\0\0' > one
    local args
    for args in "--field 4" "--record 8 --field 2" "--record 8 --field 8" \
                "--record 8 --field 4:u64" "--record 8 --field 4:u16" \
                "--record 8 --field :u32" "--record 8 --field 4 --indices" \
                "--record 8 --field 4 -C" "--record 8 --field 4 --indices=32"; do
        # shellcheck disable=SC2086
        run sc-rsort $args one
        expect_usage sc-rsort || { echo "# sc-rsort $args" >&2; return 1; }
    done
    run sc-compact --record 8 --field 4 --indices one
    expect_usage sc-compact
    [[ "$output" == *"--field and --indices"* ]]
    run sc-compact --record 8 --field 6 one
    expect_usage sc-compact
    [[ "$output" == *"not a multiple of the u32 field's 4 bytes"* ]]
    run sc-split --field 4 one
    expect_usage sc-split
    [[ "$output" == *"--field goes with --record"* ]]
    run sc-split --record 16 --field 16:u32 one
    expect_usage sc-split
    [[ "$output" == *"not inside a record of 16 bytes"* ]]
    run sc-scan --record 8 --field 4 one
    expect_usage sc-scan
    run sc-stat --record 8 --field 4 one
    expect_usage sc-stat
    # without --field, records are still refused as text
    run sc-rsort --record 8 -t one
    expect_usage sc-rsort
}
