#!/usr/bin/env bats
# records-stat.bats -- sc-scan and sc-stat of records (--record N --key
# OFF[:T]: the key of each record alone), sc-stat --bincount[=N] and
# sc-scan --offsets, against sc-ref (scan, stat and bincount, which read
# the keys of records the plain way): record sizes 4 to 4096, keys at the
# start, middle and end, every key type, every operator, -i, -w,
# --carry-in, --total, the report, --hist, --head, --tail, record counts
# 0 and 1 to 100003, chunks that cut anywhere, threads, pipes, gzip and
# zstd input and output, --big-endian, stray bytes, empty input,
# --sample and --quantiles of records (those of the keys alone), the CSR
# offsets of an edge list, and the usage errors.

load test_helper

setup() {
    sc_setup
    require_tool sc-gen sc-scan sc-stat
}

# ops TYPE: the operators TYPE takes (xor: integers only).
ops() {
    case $1 in f32|f64) echo sum max min ;; *) echo sum max min xor ;; esac
}

# scan_layout SIZE OFF TYPE K: sc-scan of 1009 records (37 of 4096 bytes)
# vs sc-ref, each operator in one of the modes (exclusive, -i, --total,
# --offsets, turn by turn with K), and -w of a 32-bit key's sum.
scan_layout() {
    local size=$1 off=$2 t=$3 k=$4 n=1009 op m i=0
    [ "$size" -eq 4096 ] && n=37
    recgen a "$size" "$off" "$t" "$n" $((size + off)) || return 1
    local r=(--record "$size" --key "$off:$t")
    local modes=("" "-i" "--total" "--offsets")
    for op in $(ops "$t"); do
        m=${modes[$(((k + i) % 4))]}
        i=$((i + 1))
        # shellcheck disable=SC2086
        vs_ref sc-scan scan a "${r[@]}" --op "$op" $m ||
            { echo "# --op $op $m" >&2; return 1; }
    done
    case $t in
    u32|i32|f32) vs_ref sc-scan scan a "${r[@]}" -w --offsets ;;
    esac
}

@test "records-stat: sc-scan of every size, key place and key type vs sc-ref (every operator, -i, --total, --offsets, -w)" {
    for_each_layout "u32 i32 f32 u64 i64 f64" scan_layout
    [ "$LAYOUTS" -ge 70 ]
}

# stat_layout SIZE OFF TYPE K: sc-stat's report of 1009 records (37 of
# 4096 bytes) vs sc-ref's, with --hist 7 every other layout; --head and
# --tail of the keys.
stat_layout() {
    local size=$1 off=$2 t=$3 k=$4 n=1009
    [ "$size" -eq 4096 ] && n=37
    recgen a "$size" "$off" "$t" "$n" $((size * 3 + off)) || return 1
    local r=(--record "$size" --key "$off:$t")
    if [ $((k % 2)) -eq 0 ]; then
        report_is_ref "$t" a "${r[@]}" --hist 7 || return 1
    else
        report_is_ref "$t" a "${r[@]}" || return 1
    fi
    vs_ref sc-stat stat a "${r[@]}" --head 5 &&
    vs_ref sc-stat stat a "${r[@]}" --tail 1000
}

@test "records-stat: sc-stat of every size, key place and key type vs sc-ref (report, --hist, --head, --tail)" {
    for_each_layout "u32 i32 f32 u64 i64 f64" stat_layout
    [ "$LAYOUTS" -ge 70 ]
}

@test "records-stat: chunks that cut anywhere, threads, pipes, gzip and zstd input, big-endian keys" {
    local n e
    for n in 0 1 33 4097 100003; do
        recgen a 12 4 u32 "$n" "$n"
        recgen b 16 8 f64 "$n" "$n"
        recgen be 24 16 i64 "$n" "$n" --big-endian
        for e in "-j 1" "-j 4 -c 4K" "-j 3 -c 12K" "-j 2 -c 1M"; do
            # shellcheck disable=SC2206
            local EXTRA=($e)
            vs_ref sc-scan scan a --record 12 --key 4:u32 &&
            vs_ref sc-scan scan a --record 12 --key 4:u32 --op max --offsets &&
            vs_ref sc-scan scan b --record 16 --key 8:f64 -i &&
            vs_ref sc-scan scan be --record 24 --key 16:i64 --big-endian --offsets &&
            report_is_ref u32 a --record 12 --key 4:u32 --hist 5 &&
            report_is_ref i64 be --record 24 --key 16:i64 --big-endian ||
                { echo "# $n records, $e" >&2; return 1; }
        done
        vs_ref sc-stat stat be --record 24 --key 16:i64 --big-endian --head 40 &&
        vs_ref sc-stat stat be --record 24 --key 16:i64 --big-endian --tail 9000 &&
        vs_ref sc-scan scan be --record 24 --key 16:i64 --big-endian -t
        # through a pipe, and compressed (one reader thread; BGZF and
        # zstd frames on every core)
        ref scan --record 16 --key 8:f64 --op min < b > want
        cat b | sc-scan --record 16 --key 8:f64 --op min -c 4K > got
        cmp want got
        gzip -c b | sc-scan --record 16 --key 8:f64 --op min > got
        cmp want got
        if zstd_built; then
            zstd -q -c b | sc-scan --record 16 --key 8:f64 --op min > got
            cmp want got
        fi
        sc-compact --record 16 -x --eq 0xffffffff -z b | sc-scan --record 16 --key 8:f64 --op min > got
        cmp want got
        [ "$(sc-stat --record 12 --key 4 -c 4K < a)" = "$(gzip -c a | sc-stat --record 12 --key 4)" ]
    done
}

@test "records-stat: stray bytes: the whole records' values, figures and counts, then the error, exit 1" {
    sc-gen -d cpu -n 1000 --max 300 --record 12 --key 8 > a
    cp a s
    printf 'abcde' >> s
    gzip -c s > s.gz
    ref scan --record 12 --key 8:u32 --offsets < a > want
    run_to got err sc-scan --record 12 --key 8 --offsets s
    [ "$status" -eq 1 ]
    cmp want got
    [[ "$(cat err)" == *"5 stray bytes"* ]]
    run_to got err sc-stat --record 12 --key 8 s
    [ "$status" -eq 1 ]
    [ "$(cat got)" = "$(sc-stat --record 12 --key 8 a)" ]
    [[ "$(cat err)" == *"stray"* ]]
    ref bincount --record 12 --key 8:u32 < a > want
    for f in s s.gz; do
        run_to got err sc-stat --record 12 --key 8 --bincount "$f"
        [ "$status" -eq 1 ]
        cmp want got
        [[ "$(cat err)" == *"stray"* ]]
    done
    # -o is replaced only by a run that succeeds
    run -1 sc-scan --record 12 --key 8 -o out s
    [ ! -e out ]
}

@test "records-stat: empty input: no values, the carry-in alone for --offsets, count 0, no counts or N zeros" {
    run -0 sc-scan --record 8 -t </dev/null
    [ -z "$output" ]
    run -0 sc-scan --record 8 --key 4 --offsets -t </dev/null
    [ "$output" = 0 ]
    run -0 sc-scan --record 16 --key 8:i64 --op max --offsets -t </dev/null
    [ "$output" = -9223372036854775808 ]
    run -0 sc-scan -e u64 --offsets --carry-in 7 -t </dev/null
    [ "$output" = 7 ]
    run -0 sc-scan -e f32 -w --offsets --carry-in 0.5 -t </dev/null
    [ "$output" = 0.5 ]
    run -0 sc-stat --record 8 </dev/null
    [ "$output" = "count 0" ]
    sc-stat --bincount </dev/null > got
    [ ! -s got ]
    sc-stat --bincount=3 </dev/null > got
    [ "$(u64text got | xargs)" = "0 0 0" ]
}

@test "records-stat: --offsets of elements vs sc-ref: every type, operator, -w and --carry-in" {
    local t op
    for t in u32 i32 f32 u64 i64 f64; do
        ref gen --type "$t" -n 5001 -s 9 > a
        for op in $(ops "$t"); do
            vs_ref sc-scan scan a --type "$t" --op "$op" --offsets || return 1
            local EXTRA=(-j 4 -c 4K)
            vs_ref sc-scan scan a --type "$t" --op "$op" --offsets -t || return 1
            EXTRA=()
        done
        case $t in
        u32|i32|f32) vs_ref sc-scan scan a --type "$t" -w --offsets --carry-in 3 ;;
        *) vs_ref sc-scan scan a --type "$t" --offsets --carry-in 3 ;;
        esac
    done
    # n counts give n + 1 offsets: numpy's concatenate([[0], cumsum(c)])
    u32le 3 0 2 5 > c
    [ "$(sc-scan --offsets -t c | xargs)" = "0 3 3 5 10" ]
    [ "$(sc-scan --offsets -w -t c | xargs)" = "0 3 3 5 10" ]
}

@test "records-stat: --bincount vs sc-ref: u32 and u64 elements and keys, with and without N, formats, threads, big-endian" {
    local EXTRA e
    sc-gen -d cpu -n 300007 --max 5000 -s 3 > a
    sc-gen -d cpu -e u64 -n 100003 --max 70000 -s 4 > b
    swap64 < b > b.be
    sc-gen -d cpu -n 20011 --max 20000 -s 6 --record 16 --key 8 > r
    for e in "" "-j 1" "-j 4 -c 4K"; do
        # shellcheck disable=SC2206
        EXTRA=($e)
        vs_ref sc-stat bincount a --bincount &&
        vs_ref sc-stat bincount a --bincount=6000 &&
        vs_ref sc-stat bincount b --type u64 --bincount &&
        vs_ref sc-stat bincount b.be --type u64 --bincount=70001 --big-endian &&
        vs_ref sc-stat bincount a --bincount -t || return 1
    done
    # sc-ref bincount takes N as an operand, sc-stat as --bincount=N
    ref bincount 5001 < a > want
    sc-stat --bincount=5001 a > got
    cmp want got
    # sc-gen's keys of records: 0..4 (--max 4), each counted
    sc-gen -d cpu -n 1000 --max 4 --record 64 --key 32 > g
    [ "$(sc-stat --bincount --record 64 --key 32 -t g | awk '{ s += $1 } END { print NR, s }')" = "5 1000" ]
    ref --record 64 --key 32:u32 bincount < g > want
    sc-stat --record 64 --key 32 --bincount g -z | gzip -dc > got
    cmp want got
    if zstd_built; then
        sc-stat --record 64 --key 32 --bincount g --zstd | zstd -dcq > got
        cmp want got
    fi
    # sc-ref's keys of the records
    ref --record 16 --key 8:u32 bincount < r > want
    sc-stat --record 16 --key 8 --bincount r -c 4K -j 3 > got
    cmp want got
}

@test "records-stat: --bincount=N: a value >= N names its position and value, exit 1, nothing written" {
    u32le 1 2 3 9 4 12 > a
    run -1 --separate-stderr sc-stat --bincount=5 a
    [ -z "$output" ]
    [[ "$stderr" == "sc-stat: element 3: value 9 is not below --bincount's 5" ]]
    echo keep > out
    run -1 --separate-stderr sc-stat --bincount=5 -o out a
    [ "$(cat out)" = keep ]
    # not even a compressed stream's empty member or frame on stdout
    local z
    for z in -z --zstd; do
        run -1 --separate-stderr sc-stat --bincount=5 -f "$z" a
        [ -z "$output" ] || { echo "# $z wrote ${#output} chars" >&2; return 1; }
    done
    # records: the record's position, the key's value
    sc-gen -n 100000 --record 8 --key 4 --max 99 > r
    run -1 --separate-stderr sc-stat --record 8 --key 4 --bincount=50 -j 4 r
    [ -z "$output" ]
    local first
    first=$(od -An -v -tu4 -w8 r | awk '$2 >= 50 { print NR - 1 ": value " $2; exit }')
    [[ "$stderr" == "sc-stat: record $first is not below --bincount's 50" ]]
    run -0 sc-stat --record 8 --key 4 --bincount=100 -t r
    [ "${#lines[@]}" -eq 100 ]
}

@test "records-stat: -v of --bincount says how many counts went out" {
    sc-gen -n 100000 --max 99 -s 3 > e.bin
    run -0 --separate-stderr sc-stat --bincount -v -o c.bin e.bin
    [[ "$stderr" == *"in 100000, out 100"* ]] || { echo "# $stderr" >&2; return 1; }
    run -0 --separate-stderr sc-stat --record 8 --key 4 --bincount=1000 -v -o c.bin e.bin
    [[ "$stderr" == *"in 50000, out 1000"* ]] || { echo "# $stderr" >&2; return 1; }
}

@test "records-stat: CSR row offsets of an edge list: sc-stat --bincount | sc-scan --offsets" {
    # 10007 (src, dst) edges on 1000 vertices
    sc-gen -d cpu -n 10007 --max 999 -s 21 --record 8 > edges
    sc-stat --record 8 --key 0 --bincount=1000 edges | sc-scan -e u64 --offsets > rows
    ref --record 8 --key 0:u32 bincount 1000 < edges | ref --type u64 scan --offsets > want
    cmp want rows
    [ "$(stat -c %s rows)" -eq $((1001 * 8)) ]
    [ "$(u64text rows | tail -1)" = 10007 ]
}

@test "records-stat: usage errors: exit 2, one line naming the option" {
    local tool opt args
    while IFS='|' read -r tool opt args; do
        # shellcheck disable=SC2086
        run "$tool" $args </dev/null
        expect_usage "$tool" || { echo "# $tool $args" >&2; return 1; }
        [[ "${lines[0]}" == "$tool: "*"$opt"* ]] ||
            { echo "# '$opt' not in: ${lines[0]}" >&2; return 1; }
    done <<'EOF'
sc-stat|--bincount counts u32 or u64 values, not f32|--bincount -e f32
sc-stat|not i64|--bincount -e i64
sc-stat|not f64|--bincount --record 8 --key 0:f64
sc-stat|--bincount needs at least 1 bin|--bincount=0
sc-stat|--bincount|--bincount=x
sc-stat|--hist|--bincount --hist 3
sc-stat|--head|--bincount --head 3
sc-stat|--quantiles|--bincount=8 --quantiles 4
sc-stat|go with --bincount: the report is text|-z
sc-stat|go with --bincount|--zstd
sc-stat|go with --bincount|-f
sc-stat|--level goes with|--level 3
sc-stat|--in text|--record 8 --in text
sc-stat|--key 8|--record 8 --key 8
sc-scan|--offsets excludes|--offsets -i
sc-scan|--offsets excludes|--offsets --total
sc-scan|--in text|--record 8 --in text
sc-scan|-w needs a 32-bit --type|--record 16 --key 8:u64 -w
sc-scan|--op xor takes an integer|--record 8 --key 0:f32 --op xor
EOF
    # the values of a scan of records, and counts, have a text form
    u32le 5 0 7 1 > a
    run -0 sc-scan --record 8 -t a
    [ "$output" = "$(printf '0\n5')" ]
    run -0 sc-stat --record 8 --key 4 --bincount -t a
    [ "$output" = "$(printf '1\n1')" ]
}

@test "records-stat: -d cuda gives the bytes of -d cpu (records and counts on the host's threads)" {
    skip_without_gpu "records and --bincount run on the host's threads under every device"
    recgen a 16 8 u64 100003 41
    local d
    for d in cpu cuda; do
        sc-scan -d "$d" --record 16 --key 8:u64 a > "scan.$d"
        sc-scan -d "$d" --record 16 --key 0:u32 --offsets a > "offsets.$d"
        sc-stat -d "$d" --record 16 --key 8:u64 --hist 4 a > "stat.$d"
        sc-stat -d "$d" --record 16 --key 4:u32 --bincount a > "bins.$d"
        sc-gen -d cpu -n 100003 --max 999 | sc-stat -d "$d" --bincount > "elems.$d"
    done
    local f
    for f in scan offsets stat bins elems; do cmp "$f.cpu" "$f.cuda"; done
}

@test "records-stat: --sample and --quantiles of records are those of their keys alone, read through" {
    sc-gen -d cpu -n 300000 --record 12 --key 4 -s 8 > r
    perl -e 'local $/ = \12; while (<STDIN>) { print substr($_, 4, 4) }' < r > keys
    [ "$(stat -c %s keys)" -eq 1200000 ]
    local o
    for o in "--sample 0.3" "--sample 0.05 --seed 7 --quantiles 4" "--quantiles 16"; do
        # shellcheck disable=SC2086
        [ "$(cat keys | sc-stat $o)" = "$(sc-stat --record 12 --key 4 $o r)" ] ||
            { echo "# $o" >&2; return 1; }
        # shellcheck disable=SC2086
        [ "$(sc-stat $o -c 4K keys)" = "$(sc-stat --record 12 --key 4 -j 3 -c 12K $o r)" ]
    done
}
