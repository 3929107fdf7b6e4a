#!/usr/bin/env bats
# records-sort.bats -- sc-rsort --record N --key OFF[:T] and --indices
# (argsort, of records and of plain elements) against sc-ref byte for
# byte: record sizes 4 to 4096, keys at the start, middle and end, key
# types u32 i32 f32 u64 i64 f64 (sc-ref gen's data: each type's specials,
# -0, NaNs and infinities among them, many duplicates, any bit pattern),
# record counts 0, 1, 31, 33, a prime and 4097; -r, -u, --bits; -C, -m,
# -S runs, threads, gzip and zstd, --big-endian keys, stray bytes,
# stability through sc-gen's index words, and the usage errors.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-rsort
}

# sort_vs_ref FILE ARGS...: sc-rsort ARGS vs sc-ref sort ARGS on FILE.
sort_vs_ref() {
    local f=$1
    shift
    vs_ref sc-rsort sort "$f" "$@"
}

# sort_layout SIZE OFF TYPE K: sc-rsort of records of that layout vs
# sc-ref, K choosing the count (0 to 4097); at key place 0 with -r -u and
# --indices too.
sort_layout() {
    local size=$1 off=$2 t=$3 k=$4 counts=(1009 31 4097 33 1 0) n r
    n=${counts[$((k % ${#counts[@]}))]}
    [ "$size" -eq 4096 ] && [ "$n" -gt 1009 ] && n=257
    recgen a "$size" "$off" "$t" "$n" $((size + off + k)) || return 1
    r=(--record "$size" --key "$off:$t")
    sort_vs_ref a "${r[@]}" || { echo "# $n records" >&2; return 1; }
    if [ "$off" -eq 0 ]; then
        sort_vs_ref a "${r[@]}" -r -u &&
        sort_vs_ref a "${r[@]}" --indices || { echo "# $n records" >&2; return 1; }
    fi
}

@test "records-sort: every size, key place and key type vs sc-ref (and -r -u, --indices)" {
    for_each_layout "u32 i32 f32 u64 i64 f64" sort_layout
    [ "$LAYOUTS" -ge 60 ]
}

@test "records-sort: record counts 0, 1, 31, 33, 4097 and a prime, with -r, -u and --indices=32" {
    local n
    for n in 0 1 31 33 4097 10007; do
        recgen a 12 4 u32 "$n" "$n"
        sort_vs_ref a --record 12 --key 4:u32 -r &&
        sort_vs_ref a --record 12 --key 4:u32 -u --indices=32 &&
        recgen b 24 16 f64 "$n" $((n + 1)) &&
        sort_vs_ref b --record 24 --key 16:f64 -u ||
            { echo "# $n records" >&2; return 1; }
    done
    [ "$(stat -c %s ref.out)" -gt 0 ]
}

@test "records-sort: stable: equal keys keep input order (sc-gen's index words), -r too" {
    # 16-byte records, u32 key at byte 8: the u64 at byte 0 is the
    # record's index (sc-gen's other words: low, high, low).
    sc-gen -n 20011 --max 10 --record 16 --key 8:u32 -s 5 > a
    local o
    for o in "" -r; do
        # shellcheck disable=SC2086
        sc-rsort --record 16 --key 8:u32 $o a > s
        cmp s <(ref sort --record 16 --key 8:u32 $o < a)
        # within each key the indices rise; keys go up (down with -r)
        od -An -v -tu8 -w16 s | awk -v rev="$o" '
            { key = $2 % 4294967296; idx = $1 }
            NR > 1 && key == pk && idx <= pi { bad = 1 }
            NR > 1 && (rev == "" ? key < pk : key > pk) { bad = 1 }
            { pk = key; pi = idx } END { exit bad || NR != 20011 }'
        # --indices gives the same indices, which applied give the sort
        # shellcheck disable=SC2086
        sc-rsort --record 16 --key 8:u32 $o --indices -t a > i.txt
        od -An -v -tu8 -w16 s | awk '{ print $1 }' | cmp - i.txt
        # shellcheck disable=SC2086
        sc-rsort --record 16 --key 8:u32 $o --indices a > i
        ref gather --indices i --record 16 --key 8:u32 < a | cmp - s
    done
}

@test "records-sort: --bits on integer keys, -u with --bits keeps the first" {
    recgen a 8 0 u32 5003 3
    sort_vs_ref a --record 8 --bits 4:12
    sort_vs_ref a --record 8 --bits 0:3 -u
    recgen b 16 8 i64 5003 4
    sort_vs_ref b --record 16 --key 8:i64 --bits 20:50 -r
    sort_vs_ref b --record 16 --key 8:i64 --bits 60:64 -u --indices
    recgen c 8 4 i32 5003 5
    sort_vs_ref c --record 8 --key 4:i32 --bits 28:32
}

@test "records-sort: argsort of plain elements of every type: sc-ref's indices, which applied to the input give the sort" {
    local t
    for t in u32 i32 f32 u64 i64 f64; do
        ref gen -n 7919 --type "$t" -s 8 > a
        sort_vs_ref a --type "$t" --indices &&
        sort_vs_ref a --type "$t" --indices=32 -r -u ||
            { echo "# --type $t" >&2; return 1; }
        sc-rsort --type "$t" --indices a > i
        ref gather --indices i --type "$t" < a | cmp - <(sc-rsort --type "$t" a)
        [ "$(stat -c %s i)" -eq $((7919 * 8)) ]
    done
    # text output of positions, and big-endian positions
    printf '30 10 20 10\n' | sc-rsort --in text --indices -t > out
    [ "$(tr '\n' ' ' < out)" = "1 3 2 0 " ]
    printf '30 10 20 10\n' | sc-rsort --in text --indices=32 --big-endian | od -An -tx1 | tr -s ' \n' ' ' > out
    [ "$(cat out)" = " 00 00 00 01 00 00 00 03 00 00 00 02 00 00 00 00 " ]
    ref gen -n 999 --type u64 -s 2 > b
    sort_vs_ref b --type u64 --big-endian --indices -u
}

@test "records-sort: -C on sorted and unsorted records: exit status and the message naming the record" {
    recgen a 12 8 i32 3001 6
    sc-rsort --record 12 --key 8:i32 a > s
    run -0 sc-rsort -C --record 12 --key 8:i32 s
    [ -z "$output" ]
    run -1 --separate-stderr sc-rsort -C --record 12 --key 8:i32 a
    printf '%s\n' "$stderr" > err
    expect_one_line_error sc-rsort err
    run -1 ref check --record 12 --key 8:i32 < a
    local want=${output#record }
    [[ "$stderr" == *"a: disorder at record ${want%%:*}: key "* ]]
    # -u: strictly increasing, so sorted records with equal keys fail
    sc-gen -n 100 --max 3 --record 8 | sc-rsort --record 8 > d
    run -1 --separate-stderr sc-rsort -C -u --record 8 d
    [[ "$stderr" == *"disorder at record "*": key "*" after key "* ]]
    run -0 sc-rsort -C -r --record 8 < <(sc-rsort -r --record 8 d)
}

@test "records-sort: -m of 3 sorted files, ties from the earlier file; --indices count across them" {
    local i
    for i in 1 2 3; do
        sc-gen -n $((999 * i + 1)) --max 40 --record 12 --key 4:u32 -s "$i" |
            sc-rsort --record 12 --key 4:u32 -r > "m$i"
    done
    cat m1 m2 m3 > all
    sc-rsort -m -r --record 12 --key 4:u32 m1 m2 m3 > out
    cmp out <(ref sort -r --record 12 --key 4:u32 < all)
    sc-rsort -m -r -u --record 12 --key 4:u32 --indices m1 m2 - < m3 > out
    cmp out <(ref sort -r -u --record 12 --key 4:u32 --indices < all)
    [ -s out ]
    # positions held past -S go to a temporary file, removed after
    mkdir tmp
    sc-rsort -m -r --record 12 --key 4:u32 --indices=32 -S 4K -T tmp m1 m2 m3 > out
    cmp out <(ref sort -r --record 12 --key 4:u32 --indices=32 < all)
    [ -z "$(ls tmp)" ]
    # an unsorted input is an error naming it
    run -1 --separate-stderr sc-rsort -m --record 12 --key 4:u32 m1 all
    [[ "$stderr" == *"m1: disorder at record "* ]]
}

@test "records-sort: -S small enough for many runs gives the bytes of one piece, -u and --indices too" {
    recgen a 16 8 u64 65536 9         # 1 MiB
    local o
    for o in "" "-u" "--indices" "-r -u --indices=32"; do
        # shellcheck disable=SC2086
        ref sort --record 16 --key 8:u64 $o < a > ref.out
        # shellcheck disable=SC2086
        sc-rsort -S 64K --record 16 --key 8:u64 $o a > out
        cmp ref.out out || { echo "# -S 64K $o" >&2; return 1; }
    done
    ref gen -n 300000 --type f32 -s 3 > e
    sc-rsort -S 64K -e f32 --indices e | cmp - <(ref sort --type f32 --indices < e)
}

@test "records-sort: -j 1 and -j 4, gzip and zstd in and out, --big-endian keys" {
    recgen a 64 28 f32 20000 10
    ref sort --record 64 --key 28:f32 < a > ref.out
    sc-rsort -j 1 --record 64 --key 28:f32 a | cmp ref.out -
    sc-rsort -j 4 --record 64 --key 28:f32 a | cmp ref.out -
    gzip -c a > a.gz
    sc-rsort --record 64 --key 28:f32 -z a.gz | gzip -dc | cmp ref.out -
    if zstd_built; then
        zstd -q -c a > a.zst
        sc-rsort --record 64 --key 28:f32 --zstd a.zst | zstd -dc | cmp ref.out -
    fi
    recgen b 8 0 i32 20000 11 --big-endian
    ref sort --record 8 --key 0:i32 --big-endian -u < b > ref.be
    sc-rsort --record 8 --key 0:i32 --big-endian -u b | cmp ref.be -
    # the payload is never swapped: only the key is read big-endian
    u32le 0x02000000 7 0x01000000 9 > c
    sc-rsort --record 8 --big-endian c | od -An -tu4 | tr -s ' \n' ' ' > out
    [ "$(cat out)" = " 16777216 9 33554432 7 " ]
}

@test "records-sort: an input not a multiple of the record: the whole records sorted and written, then the stray bytes, exit 1" {
    recgen a 12 0 u32 101 14
    head -c 1207 a > cut
    head -c 1200 a | ref sort --record 12 > ref.out
    run -1 --separate-stderr sh -c 'sc-rsort --record 12 < cut > out'
    cmp ref.out out
    printf '%s\n' "$stderr" > err
    expect_one_line_error sc-rsort err
    [[ "$stderr" == *"7 stray bytes after 100 whole records"* ]]
    run -1 --separate-stderr sc-rsort --record 12 cut -o out2
    [ ! -e out2 ]
    run -1 --separate-stderr sh -c 'sc-rsort --record 12 --indices < cut > idx'
    cmp idx <(head -c 1200 a | ref sort --record 12 --indices)
}

@test "records-sort: usage errors: text with records, --indices with -C, a bad --indices width, --bits of a float key" {
    u32le 7 0 5 1 > a
    run sc-rsort --record 8 --in text a
    expect_usage sc-rsort
    [[ "${lines[0]}" == *"--in text: records are read raw, gzip or zstd"* ]]
    run sc-rsort --record 8 -t a
    expect_usage sc-rsort
    [[ "${lines[0]}" == *"-t (--text): records are written raw"* ]]
    run sc-rsort -C --indices a
    expect_usage sc-rsort
    [[ "${lines[0]}" == *"--check and --indices exclude each other"* ]]
    run sc-rsort --indices=16 a
    expect_usage sc-rsort
    [[ "${lines[0]}" == *"invalid --indices width '16'"* ]]
    run sc-rsort --record 8 --key 0:f32 --bits 0:8 a
    expect_usage sc-rsort
    [[ "${lines[0]}" == *"--bits"* ]]
    run sc-rsort --record 8 --key 4:u64 a
    expect_usage sc-rsort
    # positions of records have a text form
    run -0 sc-rsort --record 8 --indices -t a
    [ "$output" = "$(printf '1\n0')" ]
}

# cpu_vs_cuda NAME FILE ARGS...: sc-rsort ARGS FILE under -d cpu and
# -d cuda, the same bytes.
cpu_vs_cuda() {
    local name=$1 f=$2 d
    shift 2
    for d in cpu cuda; do
        sc-rsort -d "$d" "$@" "$f" > "$name.$d" ||
            { echo "# -d $d $* $f failed" >&2; return 1; }
    done
    cmp "$name.cpu" "$name.cuda" || { echo "# $* $f: cpu and cuda differ" >&2; return 1; }
}

@test "records-sort: -d cuda gives the bytes of -d cpu: the GPU sorts records and argsorts of every layout (-v names it)" {
    skip_without_gpu
    recgen a16 16 8 u64 100003 42
    recgen a8 8 4 i32 100003 44          # in place as u64 words
    recgen b8 8 0 f32 100003 45          # through index words
    recgen c8 8 4 f32 100003 46
    recgen a12 12 4 u32 30011 47
    recgen a64 64 60 f32 20011 48
    recgen a4k 4096 4088 f64 1009 49
    recgen be 24 8 i64 50021 50 --big-endian
    recgen be8 8 4 u32 50021 51 --big-endian
    ref gen -n 100003 --type f32 -s 43 > e
    ref gen -n 100003 --type i64 -s 44 > e64
    cpu_vs_cuda s16 a16 --record 16 --key 8:u64 -u &&
    cpu_vs_cuda i16 a16 --record 16 --key 8:u64 --indices &&
    cpu_vs_cuda b16 a16 --record 16 --key 8:u64 --bits 20:44 -r &&
    cpu_vs_cuda s8 a8 --record 8 --key 4:i32 -r &&
    cpu_vs_cuda bits8 a8 --record 8 --key 4:i32 --bits 8:24 &&
    cpu_vs_cuda f8 b8 --record 8 --key 0:f32 &&
    cpu_vs_cuda g8 c8 --record 8 --key 4:f32 -r &&
    cpu_vs_cuda s12 a12 --record 12 --key 4:u32 --indices=32 &&
    cpu_vs_cuda s64 a64 --record 64 --key 60:f32 -r &&
    cpu_vs_cuda s4k a4k --record 4096 --key 4088:f64 &&
    cpu_vs_cuda sbe be --record 24 --key 8:i64 --big-endian &&
    cpu_vs_cuda sbe8 be8 --record 8 --key 4:u32 --big-endian -r &&
    cpu_vs_cuda runs a16 --record 16 --key 8:u64 -S 256K &&
    cpu_vs_cuda runsi a16 --record 16 --key 8:u64 -S 256K --indices -r &&
    cpu_vs_cuda arg e -e f32 --indices=32 -r &&
    cpu_vs_cuda arg64 e64 -e i64 --indices &&
    cpu_vs_cuda j1 a64 --record 64 --key 60:f32 -j 1 -c 4K
    [ -s s16.cpu ] && [ -s arg.cpu ] && [ -s s4k.cpu ]
    # -v: the GPU took them, the host's threads did not
    local args
    for args in "--record 16 --key 8:u64 a16" "--record 8 --key 4:i32 a8" \
        "--record 64 --key 60:f32 --indices a64" "-e f32 --indices e" \
        "--record 24 --key 8:i64 --big-endian be"; do
        # shellcheck disable=SC2086
        run -0 --separate-stderr sc-rsort -d cuda -v -o out $args
        [[ "$stderr" == *"device: cuda"* && "$stderr" != *"host's threads"* &&
           "$stderr" != *"continued on the CPU"* ]] ||
            { echo "# $args: $stderr" >&2; return 1; }
    done
}
