#!/usr/bin/env bats
# records.bats -- --record N --key OFF[:T] of sc-gen, sc-compact and
# sc-split against sc-ref's records (the plain way): record sizes 4 to
# 4096, keys at the start, middle and end, key types u32 i32 f32 u64 f64,
# record counts 0, 1, 31, 33, a prime and 4097, chunks that cut anywhere,
# threads, gzip and zstd input, --big-endian keys, the stray-bytes error,
# stability through sc-gen's index words, and the usage errors.  The data
# is sc-ref gen's: each key drawn among the type's specials, duplicates
# and any bit pattern, the other words the record's index.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split
}

# cond TYPE: a condition that keeps some keys and drops others.
cond() {
    case $1 in
    u32) echo "--range 100:3000000000" ;;
    i32) echo "--lt 0" ;;
    f32|f64) echo "--ge -0.5" ;;
    u64) echo "--gt 4294967295" ;;
    esac
}

# recs_vs_ref FILE SIZE OFF TYPE [ARGS...]: sc-compact (values, --indices,
# --count) and sc-split (and --count) vs sc-ref on FILE, with EXTRA.
recs_vs_ref() {
    local f=$1 size=$2 off=$3 t=$4
    shift 4
    local r=(--record "$size" --key "$off:$t")
    vs_ref sc-compact compact "$f" "${r[@]}" "$@" || return 1
    vs_ref sc-compact compact "$f" "${r[@]}" --indices "$@" || return 1
    vs_ref sc-compact compact "$f" "${r[@]}" --count "$@" || return 1
    vs_ref sc-split split "$f" "${r[@]}" "$@" || return 1
    vs_ref sc-split split "$f" "${r[@]}" --count "$@" || return 1
}

# compact_layout SIZE OFF TYPE K: sc-compact and sc-split -x of 1009
# records (37 of 4096 bytes) vs sc-ref under a condition on the key; the
# whole set of outputs for u32 keys at 0 (each tool starts in about 0.2 s
# here: the whole set once a size, the others by a condition).
compact_layout() {
    local size=$1 off=$2 t=$3 n=1009 c r
    [ "$size" -eq 4096 ] && n=37
    recgen a "$size" "$off" "$t" "$n" $((size + off)) || return 1
    c=$(cond "$t")
    r=(--record "$size" --key "$off:$t")
    if [ "$t" = u32 ] && [ "$off" -eq 0 ]; then
        recs_vs_ref a "$size" "$off" "$t" || return 1
    fi
    # shellcheck disable=SC2086
    vs_ref sc-compact compact a "${r[@]}" $c &&
    vs_ref sc-split split a "${r[@]}" $c -x || { echo "# $c" >&2; return 1; }
}

@test "records: every size, key place and key type vs sc-ref (compact, --indices, --count, split)" {
    for_each_layout "u32 i32 f32 u64 f64" compact_layout
    # 6 sizes: 4 takes the 32-bit keys at 0 only; the others 2 or 3 places.
    [ "$LAYOUTS" -ge 60 ]
}

@test "records: the key type defaults to -e's, else u32; a record of its key alone" {
    recgen a 16 8 f64 500 7
    # -e f64 --key 8 is --key 8:f64
    ref compact --record 16 --key 8:f64 --gt 0 < a > ref.out
    sc-compact -e f64 --record 16 --key 8 --gt 0 < a > tool.out
    cmp ref.out tool.out
    [ -s ref.out ]
    # no --key: offset 0, u32
    recgen b 12 0 u32 500 8
    ref compact --record 12 --key 0:u32 --lt 1000 < b > ref.out
    sc-compact --record 12 --lt 1000 < b > tool.out
    cmp ref.out tool.out
    [ -s ref.out ]
    # --record 4 (or 8 with a 64-bit key) is the element itself
    recgen c 8 0 i64 3001 9
    vs_ref sc-compact compact c --record 8 --key 0:i64 --lt -5
    cmp <(sc-compact -e i64 --lt -5 < c) <(sc-compact --record 8 --key 0:i64 --lt -5 < c)
}

@test "records: 0, 1, 31, 33, 1009 and 4097 records, chunks that cut anywhere, -j 1 and -j 4" {
    local n size cj r
    for size in 12 4096; do
        for n in 0 1 31 33 1009 4097; do
            [ "$size" -eq 4096 ] && [ "$n" -gt 1009 ] && continue
            recgen a "$size" 4 u32 "$n" "$n"
            r=(--record "$size" --key 4:u32 --gt 2000)
            for cj in "4K 1" "4K 4" "8K 4" "1M 2"; do
                EXTRA=(-c "${cj% *}" -j "${cj#* }")
                { vs_ref sc-compact compact a "${r[@]}" &&
                  vs_ref sc-split split a "${r[@]}"; } ||
                    { echo "# $n records of $size, ${EXTRA[*]}" >&2; return 1; }
            done
            EXTRA=(-c 4K -j 4)
            vs_ref sc-compact compact a "${r[@]}" --indices ||
                { echo "# $n records of $size, --indices" >&2; return 1; }
        done
    done
    # 4097 records of 12 bytes through a pipe: the chunks are cut by what
    # comes, not by the file.
    recgen p 12 8 f32 4097 5
    EXTRA=(-c 4K -j 4)
    ref compact --record 12 --key 8:f32 --lt 0 < p > ref.out
    cat p | sc-compact -c 4K -j 4 --record 12 --key 8:f32 --lt 0 > tool.out
    cmp ref.out tool.out
}

@test "records: -v counts records in and out" {
    recgen a 16 4 u32 5003 31
    n=$(ref compact --record 16 --key 4:u32 --gt 5000 --count < a)
    run -0 --separate-stderr sc-compact -v --record 16 --key 4 --gt 5000 -o out a
    [[ "$stderr" == *"sc-compact: records: in 5003, out $n"* ]]
    run -0 --separate-stderr sc-split -v -c 4K --record 16 --key 4 --gt 5000 -o out a
    [[ "$stderr" == *"sc-split: records: in 5003, out 5003"* ]]
    run -0 --separate-stderr sc-gen -v -n 77 --record 4096 -o out
    [[ "$stderr" == *"sc-gen: records: in 77, out 77"* ]]
}

@test "records: sc-split -r writes the rejects, -S spills the held ones: the same bytes as sc-ref" {
    recgen a 64 32 u64 5003 11
    ref split --record 64 --key 32:u64 --gt 4294967295 < a > ref.out
    sel=$(ref compact --record 64 --key 32:u64 --gt 4294967295 --count < a)
    [ "$sel" -gt 0 ] && [ "$sel" -lt 5003 ]
    sc-split -c 4K -j 4 --record 64 --key 32:u64 --gt 4294967295 -r rej -o sel a
    cat sel rej | cmp - ref.out
    [ "$(stat -c %s sel)" -eq $((sel * 64)) ]
    mkdir tmp
    sc-split -c 4K -S 4K -T tmp --record 64 --key 32:u64 --gt 4294967295 a > held
    cmp held ref.out
    [ -z "$(ls tmp)" ]
}

@test "records: gzip and zstd input, -z and --zstd output" {
    recgen a 16 4 i32 20011 12
    gzip -c a > a.gz
    local zst=
    if zstd_built; then zstd -q -c a > a.zst; zst=a.zst; fi
    ref compact --record 16 --key 4:i32 --lt 0 < a > ref.out
    ref split --record 16 --key 4:i32 --lt 0 < a > ref.split
    for f in a.gz $zst; do
        sc-compact -c 4K --record 16 --key 4:i32 --lt 0 "$f" > tool.out
        cmp ref.out tool.out
        sc-split --record 16 --key 4:i32 --lt 0 < "$f" > tool.split
        cmp ref.split tool.split
    done
    sc-compact --record 16 --key 4:i32 --lt 0 -z a | gzip -dc | cmp - ref.out
    if zstd_built; then
        sc-compact --record 16 --key 4:i32 --lt 0 --zstd a | zstd -qdc | cmp - ref.out
    fi
    # gzip members cut inside records, joined with a raw file
    head -c 100001 a | gzip -c > p1.gz
    tail -c +100002 a > p2
    sc-compact --record 16 --key 4:i32 --lt 0 p1.gz p2 | cmp - ref.out
}

@test "records: --big-endian reads the key big-endian and moves the rest as it is" {
    local t
    for t in u32 f32 u64 f64; do
        recgen a 24 8 "$t" 3001 13 --big-endian
        EXTRA=(-c 4K)
        # shellcheck disable=SC2046
        recs_vs_ref a 24 8 "$t" --big-endian $(cond "$t") ||
            { echo "# $t" >&2; return 1; }
    done
    # the key read little-endian gives another answer: the option counts
    recgen a 24 8 u32 3001 13 --big-endian
    [ "$(sc-compact --record 24 --key 8:u32 --big-endian --gt 65535 --count < a)" != \
      "$(sc-compact --record 24 --key 8:u32 --gt 65535 --count < a)" ]
    # a record's bytes come out as they went in: only the key is read
    u32le 1 2 3 > b
    sc-compact --record 12 --key 4:u32 --big-endian --eq 0x02000000 b | cmp - b
}

@test "records: an input not a multiple of the record: the whole records written, then the stray bytes, exit 1" {
    recgen a 12 0 u32 101 14
    head -c 1207 a > cut
    ref compact --record 12 --key 0:u32 < cut > ref.out
    [ "$(stat -c %s ref.out)" -gt 0 ]
    run -1 --separate-stderr sc-compact --record 12 cut -o out
    [[ "$stderr" == *"7 stray bytes after 100 whole records"* ]]
    [ ! -e out ]
    run -1 --separate-stderr sh -c 'sc-compact --record 12 < cut > out'
    cmp ref.out out
    printf '%s\n' "$stderr" > err
    expect_one_line_error sc-compact err
    ref split --record 12 --key 0:u32 < cut > ref.split
    run -1 --separate-stderr sh -c 'sc-split -c 4K --record 12 < cut > out'
    cmp ref.split out
    [[ "$stderr" == *"stray bytes after 100 whole records"* ]]
    # fewer bytes than one record
    run -1 --separate-stderr sh -c 'head -c 11 cut | sc-split --record 12'
    [ -z "$output" ]
    [[ "$stderr" == *"11 stray bytes after 0 whole records"* ]]
}

# ranges_vs_ref FILE SIZE OFF TYPE B1 B2 B3 [ARGS...]: sc-split --ranges
# B1,B2,B3 of FILE's records, with EXTRA, vs sc-ref compact of each range
# (integer keys: the order of --ranges is the conditions' there).
ranges_vs_ref() {
    local f=$1 size=$2 off=$3 t=$4 b1=$5 b2=$6 b3=$7
    shift 7
    local r=(--record "$size" --key "$off:$t" "$@")
    rm -f part.*
    sc-split "${EXTRA[@]}" "${r[@]}" --ranges "$b1,$b2,$b3" -o 'part.%d' "$f" ||
        return 1
    ref compact "${r[@]}" --lt "$b1" < "$f" | cmp - part.0 &&
    ref compact "${r[@]}" --ge "$b1" --lt "$b2" < "$f" | cmp - part.1 &&
    ref compact "${r[@]}" --ge "$b2" --lt "$b3" < "$f" | cmp - part.2 &&
    ref compact "${r[@]}" --ge "$b3" < "$f" | cmp - part.3 || return 1
    # every record in one part, and not a part left empty
    [ "$(cat part.* | wc -c)" -eq "$(stat -c %s "$f")" ] &&
    [ -s part.0 ] && [ -s part.1 ] && [ -s part.2 ] && [ -s part.3 ]
}

@test "records: sc-split --ranges cuts records by their key: each part is sc-ref's compact of its range" {
    recgen a 24 8 i64 5003 21
    EXTRA=(-c 4K -j 4)
    ranges_vs_ref a 24 8 i64 -1000 0 100000
    EXTRA=(-j 1)
    ranges_vs_ref a 24 8 i64 -1000 0 100000
    recgen b 12 4 u32 4099 22
    EXTRA=(-c 8K -j 2)
    ranges_vs_ref b 12 4 u32 100 1000 3000000000
    recgen c 4096 2048 i32 101 23 --big-endian
    EXTRA=(-c 4K)
    ranges_vs_ref c 4096 2048 i32 -1000 0 1000 --big-endian
    run -0 sc-split --record 4096 --key 2048:i32 --big-endian --ranges -1000,0,1000 --count c
    [ "$output" = "$(for f in part.*; do echo $(($(stat -c %s "$f") / 4096)); done | xargs)" ]
    # float keys: -0, NaNs have their own place in --ranges' order; finite
    # draws of sc-gen keep to the conditions'
    sc-gen -n 7001 -s 3 -e f64 --min -2 --max 2 --record 16 --key 8 > d
    EXTRA=(-c 4K -j 4)
    ranges_vs_ref d 16 8 f64 -1 0.5 1.5
    # gzip parts read back to the raw ones
    sc-split --record 16 --key 8:f64 --ranges -1,0.5,1.5 -z -o 'gz.%d' d
    for p in 0 1 2 3; do gzip -dc "gz.$p" | cmp - "part.$p"; done
}

@test "records: sc-split is stable: each group's index words ascend" {
    sc-gen -n 30011 -s 3 --record 16 --key 8:u32 --max 9 > a
    sc-split -c 4K -j 4 --record 16 --key 8:u32 --lt 5 a > out
    read -r sel rej < <(sc-split --count --record 16 --key 8:u32 --lt 5 a)
    [ "$sel" -gt 10000 ] && [ "$rej" -gt 10000 ]
    [ $((sel + rej)) -eq 30011 ]
    # word 0 is each record's index; keys < 5 first, each group ascending
    od -An -v -tu4 -w16 out | awk -v sel="$sel" '
        { i = $1; k = $3; n++
          if ((n <= sel) != (k < 5)) { print "record " n " in the wrong group"; exit 1 }
          if (n != sel + 1 && n > 1 && i <= last) { print "index " i " after " last; exit 1 }
          last = i }
        END { if (n != 30011) { print n " records"; exit 1 } }'
}

# bounds TYPE: sc-gen's --min and --max for TYPE: keys of both signs
# for the signed types, the whole type for the unsigned ones.
bounds() {
    case $1 in u32|u64) ;; *) echo "--min -100 --max 100" ;; esac
}

@test "records: sc-gen --record: the keys of -e T, the index in the other words; the same bytes at any -j, -c" {
    local size off t
    for size in 4 12 64; do
        for t in u32 i32 f32 u64 f64; do
            for off in $(offsets "$size" "$t"); do
                # shellcheck disable=SC2046
                sc-gen -n 1009 -s 5 -e "$t" $(bounds "$t") | ref gen \
                    --record "$size" --key "$off:$t" --keys-in > ref.out
                [ "$(stat -c %s ref.out)" -eq $((1009 * size)) ]
                # shellcheck disable=SC2046
                sc-gen -n 1009 -s 5 -e "$t" $(bounds "$t") -c 4K -j 4 \
                    --record "$size" --key "$off" > tool.out
                cmp ref.out tool.out ||
                    { echo "# --record $size --key $off:$t" >&2; return 1; }
            done
        done
    done
    # the other words: the index's low word, its high word, the low again
    sc-gen -n 3 --dist iota --record 16 --key 4:u32 | od -An -tu4 -w16 > w
    printf ' %10d %10d %10d %10d\n' 0 0 0 0 1 1 0 1 2 2 0 2 | cmp - w
    sc-gen -n 20003 -s 9 --record 4096 --key 4088:f64 -c 4K -j 1 > big1
    sc-gen -n 20003 -s 9 --record 4096 --key 4088:f64 -j 4 > big4
    cmp big1 big4
    sc-gen -n 20003 -s 9 -e f64 | ref gen --record 4096 --key 4088:f64 --keys-in | cmp - big1
    sc-gen -n 20003 -s 9 --record 12 --key 8 --big-endian -c 4K -j 4 > be
    sc-gen -n 20003 -s 9 --big-endian | ref gen --record 12 --key 8:u32 --keys-in --big-endian | cmp - be
    sc-gen -n 20003 -s 9 --record 12 --key 8 -z | gzip -dc |
        cmp - <(sc-gen -n 20003 -s 9 --record 12 --key 8)
}

@test "records: usage errors: exit 2, one line naming the option" {
    local opt args
    # each line: what the message names, then the arguments
    while IFS='|' read -r opt args; do
        # shellcheck disable=SC2086
        run sc-compact $args </dev/null
        expect_usage sc-compact || { echo "# sc-compact $args" >&2; return 1; }
        [ "${#lines[@]}" -eq 2 ]
        [[ "${lines[0]}" == "sc-compact: "*"$opt"* ]] ||
            { echo "# '$opt' not in: ${lines[0]}" >&2; return 1; }
    done <<'EOF'
--key goes with --record|--key 4
--record|--record 6
--record|--record 0
--record|--record 4100
--record|--record 8192
--record|--record abc
--key 3:u32|--record 12 --key 3:u32
--key 4:u64|--record 12 --key 4:u64
--key 8:u64|--record 12 --key 8:u64
--key 12|--record 12 --key 12
--key type 'x64'|--record 12 --key 0:x64
--key ':u32'|--record 12 --key :u32
--record 4|--record 4 -e u64
--in text|--record 12 --in text
-t (--text)|--record 12 -t
EOF
    local tool
    for tool in sc-scan sc-stat; do
        run "$tool" --key 0 </dev/null
        expect_usage "$tool"
        [[ "${lines[0]}" == *"--key goes with --record"* ]]
    done
    run sc-split --record 8 --key 0:u64 --ranges 5,-1 -o 'p%d' </dev/null
    expect_usage sc-split
    [[ "${lines[0]}" == *"--ranges"* ]]
    run sc-gen -n 1 --record 4 --key 0:u64
    expect_usage sc-gen
    [[ "${lines[0]}" == *"--key 0:u64"* ]]
    # positions and figures of records have a text form
    u32le 5 0 7 1 > a
    run -0 sc-compact --record 8 --indices -t a
    [ "$output" = "$(printf '0\n1')" ]
    run -0 sc-split --record 8 --count -t --gt 5 a
    [ "$output" = "1 1" ]
}

@test "records: every tool's help lists --record and --key, and what it does with a record" {
    local tool
    for tool in sc-gen sc-compact sc-split sc-rsort; do
        run -0 "$tool" --help
        [[ "$output" == *"--record N"* ]] && [[ "$output" == *"--key OFF[:T]"* ]]
        [[ "$output" == *"moved whole"* ]]
    done
    for tool in sc-scan sc-stat; do
        run -0 "$tool" --help
        [[ "$output" == *"--record N"* ]] && [[ "$output" == *"--key OFF[:T]"* ]]
        [[ "$output" == *"the key alone"* ]]
    done
}

@test "records: -d cuda gives the bytes of -d cpu (sc-gen and the ranges on the host's threads, compaction and split of 16-byte records on the GPU)" {
    skip_without_gpu
    recgen a 16 8 u64 100003 41
    local r=(--record 16 --key 8:u64)
    for d in cpu cuda; do
        sc-gen -d "$d" -n 100003 -s 4 "${r[@]}" > "gen.$d"
        sc-compact -d "$d" "${r[@]}" --gt 4294967295 a > "compact.$d"
        sc-compact -d "$d" "${r[@]}" --gt 4294967295 --indices a > "indices.$d"
        sc-split -d "$d" "${r[@]}" --gt 4294967295 a > "split.$d"
        sc-split -d "$d" "${r[@]}" --ranges 1000,4294967296 -o "part.$d.%d" a
    done
    for f in gen compact indices split; do cmp "$f.cpu" "$f.cuda"; done
    for p in 0 1 2; do cmp "part.cpu.$p" "part.cuda.$p"; done
    [ -s compact.cpu ] && [ -s part.cpu.0 ] && [ -s part.cpu.2 ]
}

# recs_on_gpu SIZE TYPE: recs_vs_ref under -d cuda (whole, and in chunks
# that end inside a record's neighbours' tiles) for each key place of
# TYPE in a SIZE-byte record.
recs_on_gpu() {
    local size=$1 t=$2 off
    for off in $(offsets "$size" "$t"); do
        recgen a "$size" "$off" "$t" 100003 $((size + off))
        EXTRA=(-d cuda)
        recs_vs_ref a "$size" "$off" "$t" $(cond "$t") || return 1
        EXTRA=(-d cuda -c 12K)
        recs_vs_ref a "$size" "$off" "$t" $(cond "$t") -x || return 1
        EXTRA=(-d cuda -c 4K -j 3)
        vs_ref sc-split split a --record "$size" --key "$off:$t" --ne 0 || return 1
        EXTRA=()
    done
}

@test "records: -d cuda compacts and splits 8- and 16-byte records on the GPU: sc-ref's bytes, every key type and place" {
    skip_without_gpu
    local size t
    for size in 8 16; do
        for t in u32 i32 f32 u64 f64; do
            recs_on_gpu "$size" "$t" || { echo "# --record $size, $t keys" >&2; return 1; }
        done
    done
    # -v says the GPU ran them, and the host's threads what no kernel
    # takes: big-endian keys, other record sizes
    recgen a 16 8 u64 100003 5
    run -0 --separate-stderr sc-compact -d cuda -v -o c.out --record 16 --key 8:u64 a
    [[ "$stderr" == *"device: cuda"* && "$stderr" != *"host's threads took"* ]] ||
        { echo "# $stderr" >&2; return 1; }
    run -0 --separate-stderr sc-split -d cuda -v -o s.out --record 8 --key 4:u32 a
    [[ "$stderr" == *"device: cuda"* && "$stderr" != *"host's threads took"* ]] ||
        { echo "# $stderr" >&2; return 1; }
    run -0 --separate-stderr sc-compact -d cuda -v -o c.out --record 16 --key 8:u64 --big-endian a
    [[ "$stderr" == *"host's threads took every chunk"* ]] || { echo "# $stderr" >&2; return 1; }
    recgen a12 12 4 u32 100003 7
    run -0 --separate-stderr sc-split -d cuda -v -o s.out --record 12 --key 4:u32 a12
    [[ "$stderr" == *"host's threads took every chunk"* ]] || { echo "# $stderr" >&2; return 1; }
    # and big-endian keys give sc-ref's bytes under -d cuda too
    recgen b 16 8 u64 100003 6 --big-endian
    EXTRA=(-d cuda)
    recs_vs_ref b 16 8 u64 --big-endian $(cond u64)
}
