#!/usr/bin/env bats
# The examples of the man pages and README, run as a reader pastes them:
# what the pages show must work.  tests/doc-examples cuts them out (it
# says where examples are and how they are told apart); each runs alone,
# with bash, in a directory of its own that holds the input files the
# pages name (below), and
#   - a session ("$ COMMAND" lines, each followed by its output) must
#     print exactly the output shown, command by command, and exit 0;
#   - a script (commands without prompts) runs as a whole under
#     `set -e -o pipefail` and must exit 0;
#   - either must write nothing to standard error, unless it asks for
#     messages there (-v, -P);
#   - a C program is compiled against the installed libsc and run.
# An example that needs what this machine lacks (GNU parallel, a CUDA
# GPU, zstd support) is run by a test of its own, which skips saying why;
# one that builds against libsc runs against a copy installed in the
# test's directory.  README's build blocks (./scripts/setup, make, ...)
# and its C fragment are not examples: make check cannot run itself.
#
# The input files an example finds when its text names them: data.u32
# (1Mi + 1 elements, half of them zeros: raw data holds every byte
# value, as a real file would), data.gz (the same, gzip),
# a.u32 and b.u32 (a few thousand small ones), a.sorted and b.sorted
# (them sorted), big.u32 (4Mi elements), big.gz (1Mi, gzip), prog.c
# (examples/libsc-example.c).
#
# Sizes: the pages show sizes a user would use; these substitutions,
# and only these, scale them down before a run (the test's output names
# the ones it made):
#   "-n 1G" and "-n 256M" become "-n 1M"     (sc-gen's element count)
#   "--block 64M" becomes "--block 1M"       (data.u32 has 5 blocks, the
#                                            last a short one)

load test_helper

SUBST_FROM=('-n 1G' '-n 256M' '--block 64M')
SUBST_TO=('-n 1M' '-n 1M' '--block 1M')
FIXTURES=(data.u32 data.gz a.u32 b.u32 a.sorted b.sorted big.u32 big.gz prog.c)

setup() {
    sc_setup
    require_tool sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat
}

# The input files, made once for all the tests of this file.
setup_file() {
    FIX=$BATS_FILE_TMPDIR/fix
    mkdir -p "$FIX"
    (
        cd "$FIX" || exit 1
        set -e
        sc-gen -d cpu -n 1048577 -s 11 --density 0.5 -o data.u32
        gzip -c data.u32 > data.gz
        sc-gen -d cpu -n 3001 -s 12 --max 500 -o a.u32
        sc-gen -d cpu -n 2003 -s 13 --max 500 -o b.u32
        sc-rsort a.u32 -o a.sorted
        sc-rsort b.u32 -o b.sorted
        sc-gen -d cpu -n 4M -s 14 -o big.u32
        sc-gen -d cpu -n 1M -s 15 -z -o big.gz
        cp "$SC_SRCDIR/examples/libsc-example.c" prog.c
    ) || return 1
}

# extract FILE...: the examples of FILE into $T/ex, their index in $INDEX.
extract() {
    local f args=()
    for f in "$@"; do args+=("$SC_SRCDIR/$f"); done
    rm -rf "$T/ex"
    "$SC_SRCDIR/tests/doc-examples" "$T/ex" "${args[@]}" > "$T/index" || return 1
    # Names relative to the source tree, as a failure should show them.
    sed -i "s|\t$SC_SRCDIR/|\t|" "$T/index"
    INDEX=$T/index
}

# needs N: what example N needs beyond the tools, one word a line.
needs() {
    local f=$T/ex/$1 kind=$2
    if [ "$kind" = c ] || grep -Eq '(^|[|;&( ])(pkg-config|cc) ' "$f"; then
        echo libsc
    fi
    grep -Eq -- '(-d|--device)[ =]?cuda|SC_DEVICE=cuda' "$f" && echo cuda
    grep -Eq '(^|[|;&( "=])parallel ' "$f" && echo parallel
    grep -Eq -- '--zstd|\.zst\b|(^|[|;&( ])zstd ' "$f" && echo zstd
    return 0
}

# lacking NEED: why this machine cannot run what needs NEED (nothing if
# it can).
lacking() {
    case $1 in
        parallel) parallel --version 2>/dev/null | grep -q '^GNU parallel' ||
                      echo "GNU parallel is not installed (apt-get install parallel)" ;;
        cuda) have_gpu || echo "no CUDA GPU ('sc-compact --device cuda' fails here)" ;;
        zstd) sc-gen -n 0 --zstd >/dev/null 2>&1 ||
                  echo "this sc was built without zstd" ;;
    esac
}

# scale N: example N with the size substitutions made; says which.
scale() {
    local f=$T/ex/$1 where=$2 text i
    text=$(cat "$f")
    for i in "${!SUBST_FROM[@]}"; do
        if [[ $text == *"${SUBST_FROM[i]}"* ]]; then
            text=${text//"${SUBST_FROM[i]}"/"${SUBST_TO[i]}"}
            echo "# $where: '${SUBST_FROM[i]}' run as '${SUBST_TO[i]}'" >&2
        fi
    done
    printf '%s\n' "$text" > "$f"
}

# allows_stderr N: the example asks for messages on standard error.
allows_stderr() {
    grep -Eq -- ' -(v|P)( |$)|--verbose|--progress' "$T/ex/$1"
}

# session_script N DIR: the commands of session N as a script that
# keeps each command's output, and the output shown, in DIR.
session_script() {
    awk -v dir="$2" '
        function flush() {
            if (cmd == "") return
            printf "{ %s\n} > %s/out.%d 2> %s/err.%d; echo $? > %s/rc.%d\n",
                cmd, dir, k, dir, k, dir, k
            printf "" > (dir "/want." k)
            cmd = ""
        }
        /^\$ / { flush(); k++; cmd = substr($0, 3); output = 0; next }
        /^> / && !output { cmd = cmd "\n" substr($0, 3); next }
        { print > (dir "/want." k); output = 1 }
        END { flush() }
    ' "$T/ex/$1"
}

# run_example N WHERE KIND: runs one example in a directory of its own;
# fails, saying why, when it does not do what the page shows.
run_example() {
    local n=$1 where=$2 kind=$3 dir=$T/run/$1 k f
    mkdir -p "$dir/.sess"
    for f in "${FIXTURES[@]}"; do
        if grep -qF "$f" "$T/ex/$n"; then
            cp "$BATS_FILE_TMPDIR/fix/$f" "$dir/" || return 1
        fi
    done
    scale "$n" "$where"
    case $kind in
    script)
        (cd "$dir" && bash -e -o pipefail "$T/ex/$n") \
            < /dev/null > "$dir/.sess/out" 2> "$dir/.sess/err"
        k=$?
        if [ "$k" -ne 0 ]; then
            echo "# $where: exit status $k:" >&2
            sed 's/^/#   /' "$T/ex/$n" "$dir/.sess/err" >&2
            return 1
        fi
        check_stderr "$n" "$where" "$dir/.sess/err" || return 1
        ;;
    session)
        session_script "$n" "$dir/.sess" > "$dir/.sess/script" || return 1
        (cd "$dir" && bash "$dir/.sess/script") < /dev/null
        for k in $(seq 1 "$(grep -c '^\$ ' "$T/ex/$n")"); do
            if [ "$(cat "$dir/.sess/rc.$k")" -ne 0 ]; then
                echo "# $where: command $k exited $(cat "$dir/.sess/rc.$k"):" >&2
                sed 's/^/#   /' "$T/ex/$n" "$dir/.sess/err.$k" >&2
                return 1
            fi
            if ! diff -u "$dir/.sess/want.$k" "$dir/.sess/out.$k" > "$dir/.sess/diff"; then
                echo "# $where: command $k does not print what the page shows:" >&2
                sed 's/^/#   /' "$T/ex/$n" "$dir/.sess/diff" >&2
                return 1
            fi
            check_stderr "$n" "$where" "$dir/.sess/err.$k" || return 1
        done
        ;;
    c)
        cp "$T/ex/$n" "$dir/example.c"
        (cd "$dir" && cc -std=c11 ${SC_CC_FLAGS:-} -o example example.c \
            $(pkg-config --cflags --libs sc) && ./example) \
            > "$dir/.sess/out" 2> "$dir/.sess/err"
        k=$?
        if [ "$k" -ne 0 ]; then
            echo "# $where: the C program failed (status $k):" >&2
            sed 's/^/#   /' "$dir/.sess/out" "$dir/.sess/err" >&2
            return 1
        fi
        ;;
    *)
        echo "# $where: no way to run a '$kind'" >&2
        return 1
        ;;
    esac
}

check_stderr() {
    [ -s "$3" ] || return 0
    allows_stderr "$1" && return 0
    echo "# $2: wrote to standard error:" >&2
    sed 's/^/#   /' "$3" >&2
    return 1
}

# run_page FILE: extracts FILE's examples and runs those that need
# nothing beyond the tools; there must be some.
run_page() {
    local n where kind ran=0 failed=0
    extract "$1"
    while IFS=$'\t' read -r n where kind; do
        case $kind in build|fragment) continue ;; esac
        [ -z "$(needs "$n" "$kind")" ] || continue
        run_example "$n" "$where" "$kind" || failed=$((failed + 1))
        ran=$((ran + 1))
    done < "$INDEX"
    echo "# $1: $ran examples run, $failed failed" >&2
    [ "$ran" -gt 0 ] && [ "$failed" -eq 0 ]
}

ALL_PAGES=(man/sc-gen.1 man/sc-compact.1 man/sc-split.1 man/sc-scan.1
           man/sc-rsort.1 man/sc-stat.1 man/sc.7 man/libsc.3 README.md)

# run_needing NEED: runs every example, on every page, whose first need
# is NEED; skips when this machine lacks NEED or another need of them.
run_needing() {
    local want=$1 n where kind list why all ran=0 failed=0
    extract "${ALL_PAGES[@]}"
    list=()
    while IFS=$'\t' read -r n where kind; do
        case $kind in build|fragment) continue ;; esac
        all=$(needs "$n" "$kind")
        [ "$(printf '%s\n' "$all" | head -n 1)" = "$want" ] || continue
        for need in $all; do
            why=$(lacking "$need")
            [ -z "$why" ] || skip "$where needs $need: $why"
        done
        list+=("$n"$'\t'"$where"$'\t'"$kind")
    done < "$INDEX"
    [ "${#list[@]}" -gt 0 ] || { echo "# no example needs $want" >&2; return 1; }
    for item in "${list[@]}"; do
        IFS=$'\t' read -r n where kind <<< "$item"
        run_example "$n" "$where" "$kind" || failed=$((failed + 1))
        ran=$((ran + 1))
    done
    echo "# examples needing $want: $ran run, $failed failed" >&2
    [ "$failed" -eq 0 ]
}

@test "docs: sc-gen(1)'s examples do what the page shows" {
    run_page man/sc-gen.1
}

@test "docs: sc-compact(1)'s examples do what the page shows" {
    run_page man/sc-compact.1
}

@test "docs: sc-split(1)'s examples do what the page shows" {
    run_page man/sc-split.1
}

@test "docs: sc-scan(1)'s examples do what the page shows" {
    run_page man/sc-scan.1
}

@test "docs: sc-rsort(1)'s examples do what the page shows" {
    run_page man/sc-rsort.1
}

@test "docs: sc-stat(1)'s examples do what the page shows" {
    run_page man/sc-stat.1
}

@test "docs: sc(7)'s examples do what the page shows" {
    run_page man/sc.7
}

@test "docs: README's examples do what README shows" {
    run_page README.md
}

@test "docs: the examples that need GNU parallel (sc(7)'s SCALING OUT) work as printed" {
    run_needing parallel
}

@test "docs: the examples that need a CUDA GPU work as printed" {
    run_needing cuda
}

@test "docs: the examples that build against libsc work against an installed one" {
    # The sanitizers' runtime warns on stderr at every link, which the
    # examples must leave empty.
    [ -z "${ASAN_OPTIONS:-}${TSAN_OPTIONS:-}" ] ||
        skip "sanitizer build: the link warns on stderr"
    make -s -C "$SC_BUILDDIR" install prefix="$T/prefix" > install.log 2>&1 ||
        { cat install.log; return 1; }
    export PATH="$T/prefix/bin:$PATH" PKG_CONFIG_PATH="$T/prefix/lib/pkgconfig"
    # As a reader runs it: sc.pc's rpath finds libsc.
    unset LD_LIBRARY_PATH
    run_needing libsc
}

# refuses TOOL OPTION: the tool does not know OPTION (getopt's message).
# An option is given a value when it takes one; what it does with that
# value, or without input, does not matter here.
refuses() {
    local out
    out=$(cd "$T" && "$1" "$2" 1 < /dev/null 2>&1 >/dev/null)
    case $out in
        *"unrecognized option"*|*"invalid option"*) return 0 ;;
    esac
    return 1
}

# help_options TOOL: the options of TOOL's --help, one a line.
help_options() {
    "$1" --help | grep -E '^ +-' | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z-]*' |
        tr -d ' ,' | sort -u
}

# man_options TOOL: the options its man page sets in bold (\fB\-\-NAME\fR).
man_options() {
    grep -oE '\\fB\\-(\\-)?[a-zA-Z][a-z\\-]*\\fR' "$SC_SRCDIR/man/$1.1" |
        sed 's/\\fB//; s/\\fR//; s/\\-/-/g' | sort -u
}

@test "docs: --help and the man page list every option a tool takes, and only those" {
    local tools=(sc-gen sc-compact sc-split sc-scan sc-rsort sc-stat) t o bad=0
    for t in "${tools[@]}"; do help_options "$t"; done | sort -u > all
    [ "$(wc -l < all)" -gt 40 ]
    for t in "${tools[@]}"; do
        help_options "$t" > listed
        for o in $(cat listed) $(man_options "$t"); do
            if refuses "$t" "$o"; then
                echo "# $t lists $o, and refuses it" >&2
                bad=$((bad + 1))
            fi
        done
        # What another tool lists and this one does not, it refuses
        # (unless getopt takes it for an abbreviation: --le, --level).
        for o in $(comm -23 all listed); do
            grep -q -- "^$o" listed && continue
            if ! refuses "$t" "$o"; then
                echo "# $t takes $o, and --help does not list it" >&2
                bad=$((bad + 1))
            fi
        done
    done
    [ "$bad" -eq 0 ]
}

# man_entry TOOL OPTION: the text of OPTION's entry (from its .TP line
# to the next) in TOOL's man page.
man_entry() {
    ENTRY="$2" awk '$0 == ENVIRON["ENTRY"] { p = 1; next }
        p && /^\.(TP|SH|SS|PP)/ { exit } p' "$SC_SRCDIR/man/$1.1"
}

@test "docs: -f (--force) reads the same in every page that has it: it is about the terminal alone" {
    local f='\fB\-f\fR, \fB\-\-force\fR' t
    man_entry sc-gen "$f" > gen
    [ -s gen ]
    for t in sc-compact sc-split sc-scan sc-rsort; do
        man_entry $t "$f" > got
        diff gen got || { echo "# $t's -f entry differs from sc-gen's" >&2; return 1; }
    done
}

@test "docs: --range LO:HI with LO above HI is a usage error, and the pages say so" {
    local t e
    for t in sc-compact sc-split; do
        for e in u32 i32 f64; do
            run $t -e $e --range 5:1 /dev/null
            expect_usage $t
        done
        man_entry $t '\fB\-\-range\fR \fILO\fB:\fIHI\fR' | tr '\n' ' ' > entry
        grep -q 'above .I HI is a usage error' entry ||
            { echo "# $t(1)'s --range entry: $(cat entry)" >&2; return 1; }
    done
}

@test "docs: the summary line of --help does not give the elements a type -e changes" {
    local t line
    for t in sc-compact sc-split sc-scan sc-rsort sc-stat; do
        line=$($t --help | sed -n 2p)
        [[ "$line" != *uint32* || "$line" == *-e* ]] ||
            { echo "# $t: $line" >&2; return 1; }
    done
}

@test "docs: the pages of the tools that read text give its diagnostic alike, for every type" {
    local t
    for t in sc-compact sc-split sc-scan sc-rsort; do
        grep -qx 'Malformed text, or a number in text input that the type cannot hold' \
            "$SC_SRCDIR/man/$t.1" || { echo "# $t(1)" >&2; return 1; }
    done
    # What the line says: the type's range, not u32's.
    echo 5000000000 | sc-compact --in text -e u64 -t > got
    [ "$(cat got)" = 5000000000 ]
    run sc-compact --in text -e i32 -t <<< 3000000000
    [ "$status" -eq 1 ] && [[ "$output" == *"'3000000000'"* ]]
}

@test "docs: sc-stat takes an output format option only for --bincount: its report is text" {
    sc-gen -n 100 --max 9 -o in.u32
    local zst=
    zstd_built && zst=--zstd
    for o in -z --gzip $zst -f --force; do
        run sc-stat $o -o st.out in.u32
        [ "$status" -eq 2 ] && [[ "$output" == *"Try 'sc-stat --help'"* ]]
        [[ "$output" == *"go with --bincount"* ]]
        [ ! -e st.out ]
        sc-stat --bincount $o -o st.out in.u32
        rm st.out
    done
    run sc-stat --level 5 -o st.out in.u32
    [ "$status" -eq 2 ] && [ ! -e st.out ]
    sc-stat --help | grep -q -- "--bincount's"
    sc-stat -t -o st.out in.u32
    grep -q '^count 100$' st.out
}

@test "docs: the extractor refuses what it cannot show as a reader sees it" {
    printf '.nf\nsc\\-gen \\fB\\-n\\fR 5\n.fi\n' > bad.1
    run "$SC_SRCDIR/tests/doc-examples" out bad.1
    [ "$status" -eq 1 ] && [[ "$output" == *"bad.1:2: an escape"* ]]
    printf 'nothing here\n' > none.7
    run "$SC_SRCDIR/tests/doc-examples" out none.7
    [ "$status" -eq 1 ] && [[ "$output" == *"no examples"* ]]
    printf '.nf\n$ echo 1\n1\n$ echo 2 |\n> cat\n2\n.fi\n' > ok.1
    run "$SC_SRCDIR/tests/doc-examples" out2 ok.1
    [ "$status" -eq 0 ] && [[ "$output" == "1	ok.1:2	session" ]]
}
