#!/usr/bin/env bash
# check-ref-types.sh SC_REF -- hand-checked cases for sc-ref's --type,
# --big-endian, --in text and -t: every type, with -0.0, +0.0, +-inf, NaNs
# of both signs, INT32_MIN, INT64_MIN and UINT64_MAX; the 64-bit sort's
# --bits, -u and -r, and check (sc-rsort -C); and gen's test data.  Prints a PASS or FAIL line a case,
# exits 1 on any failure.  Needs bash and python3 (its struct module only).
#
# A case:  t IN OUT "INPUT" "EXPECTED" [sc-ref arguments...]
#   IN      the type the INPUT tokens are packed as, or "bytes" (tokens
#           in hex, written as they stand), or "text" (the tokens as they
#           stand, one a line: for --in text)
#   OUT     the type the output is read back as, or "text" (newlines shown
#           as '|'), or "exit2" (the run must fail with status 2), or
#           "status" ("exit N", then '|' and the text output if any: for
#           check, which exits 1 on disorder)
#   INPUT   tokens: integers; floats as python writes them (1.5, -0.0,
#           inf, -inf) or nan, -nan (the default quiet NaN, sign set for
#           -nan) or nan:0xBITS (any bit pattern)
# The elements are little-endian unless the arguments hold --big-endian;
# then both the input and the binary output are big-endian.

REF=${1:?usage: check-ref-types.sh path/to/sc-ref}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# the interpreter itself, not a version manager's shim (which costs more
# than the case it runs)
PY=$(python3 -c 'import sys; print(sys.executable)') || exit 1

cat > "$tmp/conv.py" <<'EOF'
import struct, sys

FMT = {"u32": "I", "i32": "i", "f32": "f", "u64": "Q", "i64": "q", "f64": "d"}
BITS = {"f32": "I", "f64": "Q"}
QNAN = {"f32": 0x7FC00000, "f64": 0x7FF8000000000000}
SIGN = {"f32": 1 << 31, "f64": 1 << 63}
INF = {"f32": 0x7F800000, "f64": 0x7FF0000000000000}

def pack(t, order, tokens):
    out = b""
    for tok in tokens:
        if t == "bytes":
            out += bytes.fromhex(tok)
        elif t == "text":
            out += tok.encode() + b"\n"
        elif t in BITS and tok.startswith("nan:"):
            out += struct.pack(order + BITS[t], int(tok[4:], 16))
        elif t in BITS and tok in ("nan", "-nan"):
            bits = QNAN[t] | (SIGN[t] if tok == "-nan" else 0)
            out += struct.pack(order + BITS[t], bits)
        elif t in BITS:
            out += struct.pack(order + FMT[t], float(tok))
        else:
            out += struct.pack(order + FMT[t], int(tok, 0))
    return out

def show(t, order, data):
    size = struct.calcsize(FMT[t])
    words = []
    if len(data) % size:
        words.append("STRAY-BYTES")
    for k in range(len(data) // size):
        chunk = data[k * size:(k + 1) * size]
        if t in BITS:
            bits = struct.unpack(order + BITS[t], chunk)[0]
            if bits & ~SIGN[t] > INF[t]:            # a NaN
                if bits & ~SIGN[t] == QNAN[t]:
                    words.append("-nan" if bits & SIGN[t] else "nan")
                else:
                    words.append("nan:0x%x" % bits)
                continue
        words.append(repr(struct.unpack(order + FMT[t], chunk)[0]))
    return " ".join(words)

mode, t, order = sys.argv[1], sys.argv[2], sys.argv[3]
if mode == "pack":
    sys.stdout.buffer.write(pack(t, order, sys.argv[4:]))
else:
    print(show(t, order, sys.stdin.buffer.read()))
EOF

pass=0 fail=0

t() {
    local in=$1 out=$2 input=$3 want=$4 order="<" got rc
    shift 4
    [[ " $* " == *" --big-endian "* ]] && order=">"
    # shellcheck disable=SC2086  # the input tokens are split on purpose
    "$PY" "$tmp/conv.py" pack "$in" "$order" $input > "$tmp/in.bin"
    "$REF" "$@" < "$tmp/in.bin" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$out" = exit2 ]; then
        got="exit $rc"
        want="exit 2"
    elif [ "$out" = status ]; then
        got="exit $rc$([ -s "$tmp/out" ] && printf '|%s' "$(tr '\n' '|' < "$tmp/out")")"
        got=${got%|}
    elif [ $rc -ne 0 ]; then
        got="exit $rc: $(cat "$tmp/err")"
    elif [ "$out" = text ]; then
        got=$(tr '\n' '|' < "$tmp/out")
        got=${got%|}
    else
        got=$("$PY" "$tmp/conv.py" show "$out" "$order" < "$tmp/out" 2>&1)
    fi
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
        echo "PASS: sc-ref $* <$in [$input]"
    else
        fail=$((fail + 1))
        echo "FAIL: sc-ref $* <$in [$input]"
        echo "      want: $want"
        echo "      got:  $got"
    fi
}

I32MIN=-2147483648 I32MAX=2147483647
I64MIN=-9223372036854775808 I64MAX=9223372036854775807
U64MAX=18446744073709551615
BIG=9007199254740992            # 2^53: adding 1 to it in double rounds away
Z1022=$(printf '0 %.0s' $(seq 1022))     # 1022 zeros
Z1023="$Z1022 0"

# ---------------------------------------------------------------- u32
t u32 u32 "3 0 4294967295 1" "0 1 3 4294967295" sort
t u32 u32 "3 0 4294967295 1" "0 1 3 4294967295" sort --type u32
t u32 u32 "3 0 4294967295 1" "4294967295 3 1 0" sort -r --big-endian
t u32 u32 "0 5 0 7" "5 7" compact
t u32 u32 "0 5 0 7" "1 3" compact --indices --big-endian
t u32 u64 "0 5 0 7" "1 3" --big-endian compact --indices -w
t u32 text "4294967295 1" "0" scan --total
t u32 u64 "4294967295 1" "4294967295 4294967296" scan -w -i
t u32 u32 "5 9" "4294967295 5" scan --op min
t u32 text "1 2 3 0" "count 4|min 0|max 3|sum 6|mean 1.500000|zeros 1|distinct 4|hist 0 1 2|hist 2 3 2" stat --hist 2
t u32 exit2 "" "" scan --carry-in 0x100000000
t u32 exit2 "" "" sort --type u16

# ---------------------------------------------------------------- i32
t i32 i32 "2 -3 -1 0 7 $I32MIN $I32MAX" "$I32MIN -3 -1 0 2 7 $I32MAX" sort --type i32
t i32 i32 "2 -3 -1 0 7 $I32MIN" "7 2 0 -1 -3 $I32MIN" --type i32 sort -r
t i32 i32 "2 -3 -1 0 7 $I32MIN" "$I32MIN -3 -1 0 2 7" sort --type i32 --big-endian
t i32 i32 "-1 5 -7 3" "-1 -7 5 3" sort --type i32 --bits 31:32
t i32 i32 "-1 5 -7 3" "5 3 -1 -7" sort --type i32 --bits 31:32 -r
t i32 i32 "-1 5 -7 3" "-1 5" sort --type i32 --bits 31:32 -u
t i32 i32 "-1 0 1" "0 1 -1" sort --type i32 --bits 0:31
t i32 i32 "5 -1 $I32MIN 0" "-1 $I32MIN" compact --type i32 --lt 0
t i32 i32 "5 -1 $I32MIN 0" "-1 $I32MIN" compact --type i32 --mask 0x80000000
t i32 i32 "-6 -5 0 5 6" "-6 6" compact --type i32 --range -5:5 -x
t i32 i32 "$I32MIN 3" "$I32MIN" compact --type i32 --eq -0x80000000
t i32 u32 "5 -1 $I32MIN 0" "1 2" compact --type i32 --lt 0 --indices --big-endian
t i32 text "1 -2 3 -4" "2 2" split --type i32 --gt 0 --count
t i32 i32 "1 -2 3 -4" "1 3 -2 -4" split --type i32 --gt 0
t i32 i32 "$I32MAX 1" "$I32MAX $I32MIN" scan --type i32 -i
t i32 i64 "$I32MAX 1" "$I32MAX 2147483648" scan --type i32 -i -w
t i32 i64 "-1 -2" "0 -1" scan --type i32 -w
t i32 i32 "-5 -7 3" "$I32MIN -5 -5" scan --type i32 --op max
t i32 i32 "-5 -7 3" "$I32MAX -5 -7" scan --type i32 --op min
t i32 i64 "-5" "$I32MIN" scan --type i32 --op max -w
t i32 text "" "$I32MIN" scan --type i32 --op max --total
t i32 text "-1 -2" "-3" scan --type i32 --total
t i32 text "1" "-2147483647" scan --type i32 --total --carry-in $I32MIN
t i32 text "-1 2" "-3" scan --type i32 --total --op xor --carry-in 0
t i32 i32 "-1 2" "-1 -3" scan --type i32 -i --op xor
t i32 text "-3 -1 0 7 -3" "count 5|min -3|max 7|sum 0|mean 0.000000|zeros 1|distinct 4" stat --type i32
t i32 text "-1 -2" "count 2|min -2|max -1|sum -3|mean -1.500000|zeros 0|distinct 2" stat --type i32
t i32 text "$I32MIN $I32MIN" "count 2|min $I32MIN|max $I32MIN|sum -4294967296|mean -2147483648.000000|zeros 0|distinct 1" stat --type i32
t i32 text "-1 -2 -3" "-2|-3" stat --type i32 --tail 2
t i32 exit2 "" "" compact --type i32 --eq 2147483648
t i32 exit2 "" "" compact --type i32 --lt -2147483649
t i32 exit2 "" "" scan --type i32 --carry-in 0x80000000
t i32 text "-5 5 0 1" "count 4|min -5|max 5|sum 1|mean 0.250000|zeros 1|distinct 4|hist -5 0 2|hist 1 5 2" stat --type i32 --hist 2
t i32 text "$I32MIN -1 0 2147483647" "count 4|min $I32MIN|max 2147483647|sum -2|mean -0.500000|zeros 1|distinct 4|hist $I32MIN -1 2|hist 0 2147483647 2" stat --type i32 --hist 2
# stray trailing bytes are ignored: 10 bytes are 2 elements of i32
t bytes i32 "07000000 ffffffff abcd" "-1 7" sort --type i32 --bits 0:32
t bytes i32 "00000007 ffffffff abcd" "-1 7" sort --type i32 --big-endian

# ---------------------------------------------------------------- f32
t f32 f32 "1.5 -0.0 0.0 inf -inf nan -nan -2.0" "-nan -inf -2.0 -0.0 0.0 1.5 inf nan" sort --type f32
t f32 f32 "1.5 -0.0 0.0 inf -inf nan -nan -2.0" "nan inf 1.5 0.0 -0.0 -2.0 -inf -nan" sort --type f32 -r
t f32 f32 "1.5 -0.0 0.0 -inf nan -nan" "-nan -inf -0.0 0.0 1.5 nan" sort --type f32 --big-endian
t f32 f32 "nan:0x7fc00001 nan:0xffc00000 nan:0x7fc00000 nan:0xffc00001 nan:0x7f800001" \
  "nan:0xffc00001 -nan nan:0x7f800001 nan nan:0x7fc00001" sort --type f32
t f32 f32 "0.0 -0.0 0.0 nan nan" "-0.0 0.0 nan" sort --type f32 -u
t f32 f32 "-0.0 0.0 nan 1.0 -nan" "nan 1.0 -nan" compact --type f32
t f32 f32 "-0.0 0.0 nan 1.0 -nan" "-0.0 0.0" compact --type f32 -x
t f32 f32 "nan 1.0 2.0" "nan 2.0" compact --type f32 --ne 1
t f32 f32 "nan 1.0 -nan" "" compact --type f32 --eq nan
t f32 f32 "nan 1.0 -nan" "nan 1.0 -nan" compact --type f32 --ne nan
t f32 f32 "-0.0 0.0 1.0" "-0.0 0.0" compact --type f32 --eq 0
t f32 f32 "-0.0 0.0 1.0" "-0.0 0.0" compact --type f32 --le -0.0
t f32 f32 "1.0 inf nan -inf" "1.0 -inf" compact --type f32 --lt inf
t f32 f32 "1.0 inf nan -inf -0.0" "1.0 inf -inf -0.0" compact --type f32 --range -inf:inf
t f32 f32 "nan -1.0 2.0" "nan -1.0" compact --type f32 --gt 0 -x
t f32 f32 "0.5 3.0 -1.25e-1" "0.5 -0.125" compact --type f32 --lt 1.5e0 --big-endian
t f32 f32 "0.5 3.0 nan" "3.0 0.5 nan" split --type f32 --ge 2
t f32 f32 "1.0 nan -nan 2.0" "1.0 nan nan nan" scan --type f32 --op max -i
t f32 f32 "1.0 -nan 2.0" "1.0 -nan -nan" scan --type f32 --op min -i
t f32 f32 "-0.0 0.0" "nan:0xffffffff -0.0" scan --type f32 --op max
t f32 f32 "0.0 -0.0" "nan:0x7fffffff 0.0" scan --type f32 --op min
t f32 f64 "1.5" "nan:0xffffffffe0000000" scan --type f32 --op max -w
t f32 f64 "-inf 1.5" "-inf 1.5" scan --type f32 --op max -w -i
t f32 text "" "-nan" scan --type f32 --op max --total
t f32 text "" "nan" scan --type f32 --op min --total
t f32 text "-0.0 2.5" "-0" scan --type f32 --op min --total
t f32 f32 "1.0 2.0 0.5" "1.0 3.0 3.5" scan --type f32 -i
t f32 f32 "1.0 2.0" "10.0 11.0" scan --type f32 --carry-in 10
t f32 f32 "-0.0" "0.0" scan --type f32 -i
t f32 f32 "-0.0" "-0.0" scan --type f32 --carry-in -0.0
t f32 f32 "16777216 1 1" "16777216.0 16777216.0 16777218.0" scan --type f32 -i
t f32 f64 "16777216 1 1" "16777216.0 16777217.0 16777218.0" scan --type f32 -i -w
t f32 f32 "inf 1.0" "inf inf" scan --type f32 -i --big-endian
# a float sum's accumulator is a double, f32 or not: --total prints it
# and --carry-in reads one
t f32 text "0.1 0.2" "0.30000000447034836" scan --type f32 --total
t f32 text "0.1 0.2" "0.30000000447034836" scan --type f32 --total -w
t f32 text "0.1" "0.10000000149011612" scan --type f32 --total
t f32 text "" "0.1" scan --type f32 --total --carry-in 0.1
t f32 f32 "0.0" "0.10000000149011612" scan --type f32 --carry-in 0.1 -i --big-endian
t f32 text "1.0" "1e+300" scan --type f32 --total --carry-in 1e300
t f32 f32 "1.0" "inf" scan --type f32 --carry-in 1e300
t f32 text "0.1" "0.1" scan --type f32 --total --op max
t f32 text "100" "100" scan --type f32 --total --op max
t f32 text "1.0 2.0" "-inf" scan --type f32 --total --carry-in -inf
t f32 text "-0.0 0.0 1.5 -2.0" "count 4|min -2|max 1.5|sum -0.5|mean -0.125000|zeros 2|distinct 4" stat --type f32
t f32 text "nan -nan 1.0" "count 3|min -nan|max nan|sum nan|mean nan|zeros 0|distinct 3" stat --type f32
t f32 text "0.1 -0.0 inf -nan 3e38" "0.1|-0|inf|-nan|3e+38" stat --type f32 --head 9
t f32 exit2 "" "" scan --type f32 --op xor
t f32 exit2 "" "" sort --type f32 --bits 0:8
t f32 exit2 "" "" compact --type f32 --mask 1
t f32 exit2 "" "" compact --type f32 --eq 1e39
t f32 exit2 "" "" compact --type f32 --eq 1.5x
t f32 exit2 "" "" stat --type f32 --hist 3

# ---------------------------------------------------------------- u64
t u64 u64 "$U64MAX 0 1" "0 1 $U64MAX" sort --type u64
t u64 u64 "$U64MAX 0 1" "$U64MAX 1 0" sort --type u64 -r --big-endian
t u64 u64 "$U64MAX 0 4294967296" "0 4294967296 $U64MAX" sort --type u64 --bits 0:63
t u64 u64 "$U64MAX 0 7" "$U64MAX" compact --type u64 --eq 0xffffffffffffffff
t u64 u64 "$U64MAX 0 4294967296" "4294967296" compact --type u64 --range 1:9223372036854775807
t u64 text "$U64MAX 1" "0" scan --type u64 --total
t u64 u64 "5" "$U64MAX" scan --type u64 --op min
t u64 u64 "$U64MAX 1" "$U64MAX 0" scan --type u64 -i --big-endian
t u64 text "$U64MAX $U64MAX" "count 2|min $U64MAX|max $U64MAX|sum 36893488147419103230|mean $U64MAX.000000|zeros 0|distinct 1" stat --type u64
t u64 exit2 "" "" scan --type u64 -w
t u64 exit2 "" "" compact --type u64 --eq 18446744073709551616
t u64 exit2 "" "" compact --type u64 --eq -1

# ---------------------------------------------------------------- i64
t i64 i64 "0 $I64MIN $I64MAX -1" "$I64MIN -1 0 $I64MAX" sort --type i64
t i64 i64 "0 $I64MIN $I64MAX -1" "$I64MAX 0 -1 $I64MIN" sort --type i64 -r --big-endian
t i64 i64 "0 $I64MIN $I64MAX -1" "$I64MIN -1 0 $I64MAX" sort --type i64 --bits 0:64
t i64 i64 "-1 0 1" "0 1 -1" sort --type i64 --bits 0:63
t i64 i64 "0 $I64MIN -1" "$I64MIN" compact --type i64 --lt -9223372036854775807
t i64 i64 "0 $I64MIN -1" "0 $I64MIN -1" compact --type i64 --ge $I64MIN
t i64 i64 "$I64MAX 1" "$I64MAX $I64MIN" scan --type i64 -i
t i64 text "" "$I64MIN" scan --type i64 --op max --total
t i64 i64 "-3" "$I64MAX" scan --type i64 --op min
t i64 text "-1 -1" "-2" scan --type i64 --total
t i64 text "$I64MIN $I64MIN" "count 2|min $I64MIN|max $I64MIN|sum -18446744073709551616|mean $I64MIN.000000|zeros 0|distinct 1" stat --type i64
t i64 text "-1 0 0" "count 3|min -1|max 0|sum -1|mean -0.333333|zeros 2|distinct 2" stat --type i64
t i64 exit2 "" "" scan --type i64 --carry-in -9223372036854775809
t i64 exit2 "" "" scan --type i64 -w

# ---------------------------------------------------------------- f64
t f64 f64 "1.5 -0.0 0.0 inf -inf nan -nan -2.0" "-nan -inf -2.0 -0.0 0.0 1.5 inf nan" sort --type f64
t f64 f64 "1.5 -0.0 0.0 inf -inf nan -nan" "nan inf 1.5 0.0 -0.0 -inf -nan" sort --type f64 -r --big-endian
t f64 f64 "-0.0 0.0 nan 1.0 -nan" "nan 1.0 -nan" compact --type f64
t f64 f64 "-0.0 0.0 nan 1.0 -nan" "nan 1.0 -nan" compact --type f64 --big-endian
t f64 f64 "1e300 1e308 inf" "1e+308 inf" compact --type f64 --gt 1e300
t f64 f64 "1.0" "nan:0x7fffffffffffffff" scan --type f64 --op min
t f64 f64 "nan -nan" "nan nan" scan --type f64 --op max -i
t f64 text "" "-nan" scan --type f64 --op max --total
t f64 text "0.1 0.2" "0.30000000000000004" scan --type f64 --total
# the fixed order: within a block in order, C_b added once per element
t f64 f64 "$BIG 1 1" "$BIG.0 $BIG.0 $BIG.0" scan --type f64 -i
t f64 f64 "1 1" "$BIG.0 9007199254740994.0" scan --type f64 -i --carry-in $BIG
t f64 f64 "1 1" "$BIG.0 $BIG.0" scan --type f64 --carry-in $BIG
# and blocks of 1024: element 1024 starts a new block
t f64 text "$BIG $Z1023 1 1" "9007199254740994" scan --type f64 --total
t f32 text "$BIG $Z1023 1 1" "9007199254740994" scan --type f32 --total -w
t f64 text "$BIG $Z1022 1 1" "$BIG" scan --type f64 --total
t f64 text "-0.0 0.0 1.5 -2.0" "count 4|min -2|max 1.5|sum -0.5|mean -0.125000|zeros 2|distinct 4" stat --type f64
t f64 text "0.1 0.2" "count 2|min 0.1|max 0.2|sum 0.30000000000000004|mean 0.150000|zeros 0|distinct 2" stat --type f64
t f64 exit2 "" "" scan --type f64 --op xor
t f64 exit2 "" "" scan --type f64 -w
t f64 exit2 "" "" compact --type f64 --eq 1e309

# ------------------------------------------- 64-bit sort, by hand
# u64: the whole 64 bits order, not the low word (2^32+1 after 2^32 and
# after 2; 0x200000001 after 0x100000002, which the low words reverse)
U64IDS="4294967297 2 4294967296 0x200000001 0x100000002"
t u64 u64 "$U64IDS" "2 4294967296 4294967297 4294967298 8589934593" sort --type u64
t u64 u64 "$U64IDS" "8589934593 4294967298 4294967297 4294967296 2" sort --type u64 -r
t u64 u64 "$U64IDS" "2 4294967296 4294967297 4294967298 8589934593" sort --type u64 --big-endian
t u64 u64 "$U64IDS" "2 4294967296 4294967297 4294967298 8589934593" sort --type u64 --bits 0:64
# --bits: keys on the low word, the high word, bits 8..39; ties stable
t u64 u64 "$U64IDS" "4294967296 4294967297 8589934593 2 4294967298" sort --type u64 --bits 0:32
t u64 u64 "$U64IDS" "2 4294967297 4294967296 4294967298 8589934593" sort --type u64 --bits 32:64
t u64 u64 "$U64IDS" "8589934593 4294967297 4294967296 4294967298 2" sort --type u64 --bits 32:64 -r
t u64 u64 "$U64IDS" "2 4294967297 8589934593" sort --type u64 --bits 32:64 -u
t u64 u64 "0x100000000 0xff 0x100 0x10000000000 $U64MAX" "255 1099511627776 256 4294967296 $U64MAX" sort --type u64 --bits 8:40
t u64 u64 "0x100000000 0xff 0x100 0x10000000000 $U64MAX" "$U64MAX 4294967296 256 255 1099511627776" sort --type u64 --bits 8:40 -r
# -u compares all 64 bits: 2^32+5 is not 5
t u64 u64 "5 4294967301 5 4294967301 0" "0 5 4294967301" sort --type u64 -u
t u64 u64 "5 4294967301 5 4294967301 0" "4294967301 5 0" sort --type u64 -u -r
t u64 u64 "" "" sort --type u64
t u64 text "$U64MAX 4294967296 0" "0|4294967296|$U64MAX" sort --type u64 -t
t text u64 "18446744073709551615 0x100000000 7" "7 4294967296 $U64MAX" sort --type u64 --in text
t text text "0xFFFFFFFFFFFFFFFF 10" "10|$U64MAX" sort --type u64 --in text -t
t text exit2 "18446744073709551616" "" sort --type u64 --in text
t text exit2 "0x10000000000000000" "" sort --type u64 --in text
t text exit2 "-1" "" sort --type u64 --in text
# raw bytes: little-endian, big-endian, stray bytes ignored
t bytes u64 "0000000001000000 ff00000000000000" "255 4294967296" sort --type u64
t bytes u64 "0000000100000000 00000000000000ff" "255 4294967296" sort --type u64 --big-endian
t bytes u64 "0000000001000000 ff00000000000000 aabbcc" "255 4294967296" sort --type u64
t bytes u64 "0100000000000000 0000000000000080" "1 9223372036854775808" sort --type u64
t u64 exit2 "" "" sort --type u64 --bits 0:65
t u64 exit2 "" "" sort --type u64 --bits 40:40
# check: sc-rsort -C's verdict and the element it names
t u64 status "1 4294967296 4294967297 5" "exit 1|element 3: 5 after 4294967297" check --type u64
t u64 status "1 4294967296 4294967297" "exit 0" check --type u64
t u64 status "" "exit 0" check --type u64
t u64 status "1 1" "exit 0" check --type u64
t u64 status "1 1" "exit 1|element 1: 1 after 1" check --type u64 -u
t u64 status "4294967297 5" "exit 0" check --type u64 --bits 0:32
t u64 status "4294967297 5" "exit 0" check --type u64 -r
t u64 status "5 4294967297" "exit 1|element 1: 4294967297 after 5" check --type u64 -r
t u64 status "$U64MAX 0" "exit 1|element 1: 0 after $U64MAX" check --type u64 --big-endian

# i64: by value, the rank's sign bit flipped
t i64 i64 "2 -3 -1" "-3 -1 2" sort --type i64
t i64 i64 "2 -3 -1" "2 -1 -3" sort --type i64 -r
t i64 i64 "2 -3 -1" "-3 -1 2" sort --type i64 --big-endian
t i64 i64 "-1 5 -7 3" "-1 -7 5 3" sort --type i64 --bits 63:64
t i64 i64 "-1 5 -7 3" "5 3 -1 -7" sort --type i64 --bits 63:64 -r
t i64 i64 "-1 5 -7 3" "-1 5" sort --type i64 --bits 63:64 -u
# bits 32..63 of the rank: -1 and -2^32 tie, and keep their order
t i64 i64 "-1 0x100000000 -4294967296 5 4294967295" "-1 -4294967296 5 4294967295 4294967296" sort --type i64 --bits 32:64
t i64 i64 "0x1ff -256 0x100 0" "0 511 256 -256" sort --type i64 --bits 8:40
t i64 i64 "3 -3 3 -3 $I64MIN $I64MIN" "$I64MIN -3 3" sort --type i64 -u
t i64 i64 "3 -3 3 -3 $I64MIN $I64MIN" "3 -3 $I64MIN" sort --type i64 -u -r
t i64 i64 "4294967295 -4294967296 $I32MIN $I32MAX" "-4294967296 $I32MIN $I32MAX 4294967295" sort --type i64
t i64 text "-5 $I64MAX $I64MIN 0" "$I64MIN|-5|0|$I64MAX" sort --type i64 -t
t text i64 "-0x8000000000000000 9223372036854775807 -5 0x10" "$I64MIN -5 16 $I64MAX" sort --type i64 --in text
t text exit2 "9223372036854775808" "" sort --type i64 --in text
t text exit2 "-9223372036854775809" "" sort --type i64 --in text
t text exit2 "1.5" "" sort --type i64 --in text
t bytes i64 "ffffffffffffffff 0100000000000000 0000000000000080" "$I64MIN -1 1" sort --type i64
t bytes i64 "ffffffffffffffff 0000000000000001 8000000000000000" "$I64MIN -1 1" sort --type i64 --big-endian
t i64 status "-5 -3 -4" "exit 1|element 2: -4 after -3" check --type i64
t i64 status "$I64MIN -1 0 $I64MAX" "exit 0" check --type i64
t i64 status "$I64MIN -1 0 $I64MAX" "exit 1|element 1: -1 after $I64MIN" check --type i64 -r
t i64 status "-1 5 -7 3" "exit 1|element 2: -7 after 5" check --type i64 --bits 63:64
t i64 status "-1 -7 5 3" "exit 0" check --type i64 --bits 63:64
t i64 exit2 "" "" sort --type i64 --bits 0:65

# f64: IEEE 754 totalOrder, NaN payloads and denormals included
t f64 f64 "nan -inf -0.0 0.0 inf -nan" "-nan -inf -0.0 0.0 inf nan" sort --type f64
t f64 f64 "nan:0x7ff8000000000001 nan:0xfff8000000000000 nan:0x7ff8000000000000 nan:0xfff8000000000001 nan:0x7ff0000000000001" \
  "nan:0xfff8000000000001 -nan nan:0x7ff0000000000001 nan nan:0x7ff8000000000001" sort --type f64
t f64 f64 "5e-324 -5e-324 0.0 -0.0 2.2250738585072014e-308 -1e-310" "-1e-310 -5e-324 -0.0 0.0 5e-324 2.2250738585072014e-308" sort --type f64
t f64 f64 "1.7976931348623157e+308 -1.7976931348623157e+308 inf -inf" "-inf -1.7976931348623157e+308 1.7976931348623157e+308 inf" sort --type f64
t f64 f64 "0.0 -0.0 0.0 nan nan -nan" "-nan -0.0 0.0 nan" sort --type f64 -u
t f64 f64 "0.0 -0.0 0.0 nan nan -nan" "nan 0.0 -0.0 -nan" sort --type f64 -u -r
t f64 f64 "nan -inf -0.0 0.0 inf -nan" "-nan -inf -0.0 0.0 inf nan" sort --type f64 --big-endian
t f64 exit2 "" "" sort --type f64 --bits 0:8
t f64 exit2 "" "" sort --type f64 --bits 0:64
t f64 exit2 "" "" check --type f64 --bits 0:64
t bytes f64 "000000000000f03f 000000000000f0bf" "-1.0 1.0" sort --type f64
t bytes f64 "3ff0000000000000 bff0000000000000 ff" "-1.0 1.0" sort --type f64 --big-endian
t text f64 "1e3 -0.5 0x1p-2 inf -inf -0 nan -nan 1e-320" "-nan -inf -0.5 -0.0 1e-320 0.25 1000.0 inf nan" sort --type f64 --in text
# (a denormal's 15 digits may read back already: -1e-310 is written in
# the first of 15, 16, 17 digits that do, not the shortest form)
t f64 text "0.1 -0.0 inf -nan 1e300 5e-324 2.5 1e16 0.30000000000000004 -1e-310" \
  "-nan|-9.99999999999997e-311|-0|4.94065645841247e-324|0.1|0.30000000000000004|2.5|1e+16|1e+300|inf" sort --type f64 -t
t text exit2 "1e309" "" sort --type f64 --in text
t text exit2 "1.5x" "" sort --type f64 --in text
t f64 status "-0.0 0.0 -0.0" "exit 1|element 2: -0 after 0" check --type f64
t f64 status "1.0 nan -nan" "exit 1|element 2: -nan after nan" check --type f64
t f64 status "-nan -inf -0.0 0.0 inf nan" "exit 0" check --type f64
t f64 status "-0.0 0.0" "exit 0" check --type f64 -u
t f64 status "nan nan" "exit 1|element 1: nan after nan" check --type f64 -u

# the 32-bit types read and write text too
t text u32 "0x10 3 4294967295" "3 16 4294967295" sort --in text
t text exit2 "4294967296" "" sort --in text
t i32 text "5 -1 $I32MIN" "$I32MIN|-1|5" sort --type i32 -t
t f32 text "0.1 -0.0 -nan" "-nan|-0|0.1" sort --type f32 -t
t u32 text "0 5 0 7" "1|3" compact --indices -t
t u32 status "1 3 2" "exit 1|element 2: 2 after 3" check

# scan --offsets: the exclusive scan, then the total; bincount
t u32 u32 "3 0 2 5" "0 3 3 5 10" scan --offsets
t u32 u64 "3 0 2 5" "0 3 3 5 10" scan --offsets -w
t i32 i32 "-3 7 -9" "$I32MIN -3 7 7" scan --offsets --op max --type i32
t f32 f32 "1.5 2.25" "0.0 1.5 3.75" scan --offsets --type f32
t u32 u32 "" "4" scan --offsets --carry-in 4
t u32 u64 "1 3 1 0" "1 2 0 1" bincount
t u32 u64 "1 3 1 0" "1 2 0 1 0 0" bincount 6
t u64 u64 "2 2" "0 0 2" bincount --bincount --type u64
t u32 status "1 3 1 0" "exit 1" bincount 3
t f32 exit2 "1" "" bincount --type f32
# records: scan and stat read their keys (u32 key at byte 4 of 8)
t u32 u32 "9 5 8 7" "0 5" scan --record 8 --key 4:u32
t u32 u64 "9 1 8 1" "0 2" bincount --record 8 --key 4:u32
t u32 text "9 5 8 7" "5|7" stat --record 8 --key 4:u32 --head 2

# ------------------------------------------------------------- gen
# gen: the length asked for, the same bytes for the same seed, other
# bytes for another, -t and --big-endian the same numbers, and the
# specials and duplicates it promises.
gen_case() {
    local ty=$1 ok=1
    "$REF" gen --type "$ty" -n 20000 -s 7 > "$tmp/g1" &&
    "$REF" gen --type "$ty" -n 20000 -s 7 > "$tmp/g2" &&
    "$REF" gen --type "$ty" -n 20000 -s 8 > "$tmp/g3" &&
    "$REF" gen --type "$ty" -n 20000 -s 7 -t > "$tmp/g.txt" &&
    "$REF" gen --type "$ty" -n 20000 -s 7 --big-endian > "$tmp/g.be" &&
    "$REF" gen --type "$ty" -n 0 > "$tmp/g0" || ok=0
    [ $ok = 1 ] && cmp -s "$tmp/g1" "$tmp/g2" || ok=0
    [ $ok = 1 ] && ! cmp -s "$tmp/g1" "$tmp/g3" || ok=0
    [ $ok = 1 ] && [ ! -s "$tmp/g0" ] || ok=0
    # text read back is the raw data, NaNs aside (text has no payloads):
    # a condition every element but a NaN meets
    local all="-x --mask 0"
    [ "$ty" = f64 ] && all="--range -inf:inf"
    # shellcheck disable=SC2086
    [ $ok = 1 ] && "$REF" compact --type "$ty" --in text $all < "$tmp/g.txt" > "$tmp/gt" &&
        "$REF" compact --type "$ty" $all < "$tmp/g1" > "$tmp/gr" &&
        [ -s "$tmp/gr" ] && cmp -s "$tmp/gt" "$tmp/gr" || ok=0
    [ $ok = 1 ] && "$PY" - "$ty" "$tmp/g1" "$tmp/g.be" <<'PY' || ok=0
import struct, sys
ty, path, be = sys.argv[1], sys.argv[2], sys.argv[3]
data, data_be = open(path, "rb").read(), open(be, "rb").read()
assert len(data) == 20000 * 8, len(data)
bits = struct.unpack("<20000Q", data)
assert bits == struct.unpack(">20000Q", data_be), "big-endian differs"
need = {
    "u64": [0, 1, 2**32, 2**63, 2**64 - 1],
    "i64": [0, 1, 2**64 - 1, 2**63, 2**63 - 1, 2**31, 2**64 - 2**31],
    "f64": [0, 1 << 63, 0x7ff0 << 48, 0xfff0 << 48, 0x7ff8 << 48,
            0xfff8 << 48, 0x7ff0000000000001, 0xffffffffffffffff,
            1, 0x800fffffffffffff],
}[ty]
have = set(bits)
missing = [hex(x) for x in need if x not in have]
assert not missing, "missing specials " + " ".join(missing)
assert len(have) < 0.8 * len(bits), "too few duplicates"
assert sum(1 for x in bits if x >> 32) > 0.5 * len(bits), "few wide values"
if ty == "f64":
    neg = sum(1 for x in bits if x >> 63)
    assert 0.3 * len(bits) < neg < 0.7 * len(bits), "signs %d" % neg
PY
    if [ $ok = 1 ]; then
        pass=$((pass + 1))
        echo "PASS: sc-ref gen --type $ty"
    else
        fail=$((fail + 1))
        echo "FAIL: sc-ref gen --type $ty"
    fi
}
gen_case u64
gen_case i64
gen_case f64

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
